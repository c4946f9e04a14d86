package hooks_test

import (
	"encoding/json"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestJSStateChangesAtAnyPoint: a JS hook keeps a count across calls by
// returning {state} from any export, and a snapshot keeps it.
func TestJSStateChangesAtAnyPoint(t *testing.T) {
	var rec recorder
	counter := js(t, "budget", `
		exports.beforeToolExecute = (ctx, call) => {
			if (call.name !== "shell") return;
			const n = (ctx.state || 0) + 1;
			if (n > 2) return { allow: false, reason: "only 2 shell calls in a run" };
			return { state: n };
		};`)
	run := start(t, &rec, counter)
	var results []string
	for range 3 {
		res, err := run.CallTool(bg, hooks.ToolCall{Name: "shell", Arguments: map[string]any{"text": "ran"}}, echoTool(&rec))
		require.NoError(t, err)
		results = append(results, res.Text)
	}
	assert.Equal(t, []string{"ran", "ran", "only 2 shell calls in a run"}, results)
	snap, err := run.Snapshot()
	require.NoError(t, err)
	var doc struct{ States map[string]any }
	require.NoError(t, json.Unmarshal(snap, &doc))
	assert.Equal(t, 2.0, doc.States["budget"])
}

// TestSetStateFromGo: a Go hook sets its state at any point; other hooks'
// states are their own.
func TestSetStateFromGo(t *testing.T) {
	var rec recorder
	var seen []any
	count := hooks.Funcs{HookName: "count",
		AfterToolExecute: func(c *hooks.Context, call hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
			n, _ := c.State().(int)
			c.SetState(n + 1)
			seen = append(seen, c.State())
			return nil, nil
		}}
	other := hooks.Funcs{HookName: "other", BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		assert.Nil(t, c.State(), "another hook's state is not this one's")
		return nil, nil
	}}
	run := start(t, &rec, count, other)
	for range 2 {
		_, err := run.CallTool(bg, hooks.ToolCall{Name: "x"}, echoTool(&rec))
		require.NoError(t, err)
	}
	assert.Equal(t, []any{1, 2}, seen)
	(&hooks.Context{}).SetState(3) // outside a run: nothing to set, no panic
}
