package eino_test

import (
	"testing"

	"github.com/cloudwego/eino/schema"
	"github.com/rienda/hooks/internal/adapttest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRefusedArgumentsNeverReachTheTool(t *testing.T) {
	for _, tc := range adapttest.RefusedArguments {
		t.Run(tc.Name, func(t *testing.T) {
			ctx, _ := startRun(t, adapttest.NaiveGuard())
			shell := addTool()
			shell.name = "shell"

			out, err := toolsNode(t, shell).Invoke(ctx, schema.AssistantMessage("", []schema.ToolCall{call("c1", "shell", tc.JSON)}))

			require.NoError(t, err)
			require.Len(t, out, 1)
			assert.Zero(t, shell.calls.Load(), "the tool ran with arguments the guard never saw")
			assert.Contains(t, out[0].Content, tc.Key, "the model reads which key was refused")
		})
	}
}
