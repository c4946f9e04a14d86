package otel_test

import (
	"context"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestChildRunSpanIsTheParentsChild(t *testing.T) {
	rec := newRecorded(t)
	chain := rec.chain(t, nil)
	ctx := context.Background()
	parent, err := chain.Start(ctx, hooks.Host{Agent: &hooks.Agent{Name: "lead"}}, hooks.RunStart{RunID: "p"})
	require.NoError(t, err)
	_, err = parent.CallTool(ctx, hooks.ToolCall{ID: "t1", Name: "task"}, func(c *hooks.Context, _ hooks.ToolCall) (hooks.ToolResult, error) {
		out, err := c.Subagent(hooks.RunStart{RunID: "from-tool"}, func(ctx context.Context, child *hooks.Run) (string, error) {
			_, err := child.CallTool(ctx, hooks.ToolCall{ID: "t2", Name: "read"}, func(*hooks.Context, hooks.ToolCall) (hooks.ToolResult, error) {
				return hooks.ToolResult{Text: "x"}, nil
			})
			return "done", err
		})
		return hooks.ToolResult{Text: out}, err
	})
	require.NoError(t, err)
	loose, err := parent.Child(ctx, hooks.RunStart{RunID: "loose"}) // from a context without a span
	require.NoError(t, err)
	parent.End(ctx, hooks.RunEnd{})

	spans := rec.spans.Ended()
	runs := named(spans, "invoke_agent lead")
	require.Len(t, runs, 3)
	byID := map[string]int{}
	for i, s := range runs {
		byID[str(s.Attributes(), "hooks.run.id")] = i
	}
	root, fromTool, other := runs[byID["p"]], runs[byID["from-tool"]], runs[byID[loose.ID()]]
	task := one(t, spans, "execute_tool task")
	read := one(t, spans, "execute_tool read")
	assert.Equal(t, task.SpanContext().SpanID(), fromTool.Parent().SpanID(), "a child made in a tool call is that call's span's child")
	assert.Equal(t, fromTool.SpanContext().SpanID(), read.Parent().SpanID(), "the child's calls are its own span's")
	assert.Equal(t, root.SpanContext().SpanID(), other.Parent().SpanID(), "else the parent run's")
	assert.Equal(t, root.SpanContext().TraceID(), other.SpanContext().TraceID())
	assert.Equal(t, "p", str(fromTool.Attributes(), "hooks.run.parent_id"))
	assert.Equal(t, "interrupted", str(other.Attributes(), "hooks.run.outcome"), "the parent's end ended it")
	assert.Empty(t, str(root.Attributes(), "hooks.run.parent_id"))
}
