package hooks_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rienda/hooks"
)

// A wrap under Block is a guard: when it fails, the call is refused, never
// run without it, whether it failed before or after calling next.
func TestWrapToolPanicUnderBlockRefusesTheCall(t *testing.T) {
	for name, afterNext := range map[string]bool{"before next": false, "after next": true} {
		t.Run(name, func(t *testing.T) {
			rec := &recorder{}
			var calls atomic.Int32
			var events []hooks.TraceEvent
			trace := hooks.WithTrace(func(e hooks.TraceEvent) { events = append(events, e) })
			run := startChain(t, rec, hooks.Host{}, []hooks.Option{trace}, hooks.WithPolicy(panicking("guard", afterNext), hooks.Block))
			res, err := run.CallTool(context.Background(), wrapCall, flaky(0, &calls))
			require.NoError(t, err)
			assert.True(t, res.IsError, "a refusal is an error result the model reads")
			assert.True(t, strings.HasPrefix(res.Text, "Tool call blocked: "), res.Text)
			if !afterNext {
				assert.Equal(t, int32(0), calls.Load(), "the tool never runs past a failed guard")
			}
			require.Len(t, rec.diagnostics(), 1, "the panic is a diagnostic")
			require.Len(t, events, 1)
			assert.Equal(t, hooks.DecisionRefused, events[0].Decision)
			assert.Equal(t, res.Text, events[0].Reason)
			assert.Error(t, events[0].Err, "the trace keeps the failure that refused")
		})
	}
}

// A next kept by a wrap and called after its layer returned runs nothing,
// even after the run ended.
func TestALateNextRunsNothing(t *testing.T) {
	rec := &recorder{}
	var kept hooks.ToolFunc
	var keptCtx *hooks.Context
	var calls atomic.Int32
	run := startChain(t, rec, hooks.Host{}, nil, toolWrap("keeper", func(c *hooks.Context, call hooks.ToolCall, next hooks.ToolFunc) (hooks.ToolResult, error) {
		kept, keptCtx = next, c
		return next(c, call)
	}))
	_, err := run.CallTool(context.Background(), wrapCall, flaky(0, &calls))
	require.NoError(t, err)
	require.Equal(t, int32(1), calls.Load())

	_, err = kept(keptCtx, hooks.ToolCall{Name: "echo", Arguments: map[string]any{"text": "rm -rf /"}})
	assert.Error(t, err)
	run.End(context.Background(), hooks.RunEnd{})
	_, err = kept(keptCtx, wrapCall)
	assert.Error(t, err)
	assert.Equal(t, int32(1), calls.Load(), "a late next runs no tool")
}
