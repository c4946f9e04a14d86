package otel_test

import (
	"context"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMetricsCountEveryInvocationByHookPointAndDecision(t *testing.T) {
	rec := newRecorded(t)
	chain := rec.chain(t, guards())
	run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{})
	require.NoError(t, err)
	tools := &echo{runs: map[string]hooks.ToolCall{}}
	for _, call := range []hooks.ToolCall{{ID: "1", Name: "shell"}, {ID: "2", Name: "read"}, {ID: "3", Name: "ls"}, {ID: "4", Name: "ls"}} {
		_, err := run.CallTool(context.Background(), call, tools.tool)
		require.NoError(t, err)
	}
	run.End(context.Background(), hooks.RunEnd{})

	invocations, durations := rec.counts(t)
	assert.Equal(t, map[string]int64{
		"no-rm beforeToolExecute refused":           1,
		"no-rm beforeToolExecute no opinion":        3,
		"sandbox beforeToolExecute changed":         1,
		"sandbox beforeToolExecute no opinion":      2,
		"cache beforeToolExecute no opinion":        3,
		"deploy-guard beforeToolExecute no opinion": 3,
		"audit afterToolExecute no opinion":         3,
	}, invocations, "the adapter's own hook is not counted; a refused call stops the walk")
	assert.Equal(t, invocations, durations, "one duration per invocation")
}
