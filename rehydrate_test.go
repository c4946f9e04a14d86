package hooks_test

import (
	"context"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A durable host makes the run again at every step from the snapshot the
// previous step returned: BeforeRun runs once, state, memo and the model
// call count travel, and AfterRun runs once across all the steps.
func TestRehydrateCarriesARunBetweenStepsWithoutRunningHooks(t *testing.T) {
	ctx := context.Background()
	var starts, ends, memoRuns int
	counter := hooks.Funcs{HookName: "counter",
		BeforeRun: func(c *hooks.Context, s hooks.RunStart) (*hooks.RunPatch, error) {
			starts++
			return &hooks.RunPatch{State: map[string]any{"calls": 0.0}}, nil
		},
		BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			st := c.State().(map[string]any)
			c.SetState(map[string]any{"calls": st["calls"].(float64) + 1})
			_, err := c.Memo("once", func() (any, error) { memoRuns++; return "done", nil })
			return nil, err
		},
		AfterRun: func(c *hooks.Context, e hooks.RunEnd) error { ends++; return nil },
	}
	chain, err := hooks.NewChain([]hooks.Hook{counter})
	require.NoError(t, err)
	run, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{RunID: "durable", Input: "go"})
	require.NoError(t, err)
	snap, err := run.Snapshot()
	require.NoError(t, err)

	tool := func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		return hooks.ToolResult{Text: "ok"}, nil
	}
	for step := range 3 { // each step in "another process": a fresh chain, the same hooks
		chain, err := hooks.NewChain([]hooks.Hook{counter})
		require.NoError(t, err)
		run, err := chain.Rehydrate(hooks.Host{}, snap)
		require.NoError(t, err, "step %d", step)
		assert.Equal(t, "durable", run.ID())
		_, err = run.CallTool(ctx, hooks.ToolCall{ID: "c", Name: "t"}, tool)
		require.NoError(t, err)
		snap, err = run.Snapshot()
		require.NoError(t, err)
	}
	assert.Equal(t, 1, starts, "BeforeRun ran once, at the start")
	assert.Equal(t, 1, memoRuns, "memo survives every hop")
	assert.Contains(t, string(snap), `"calls":3`, "hook state survives every hop")

	last, err := chain.Rehydrate(hooks.Host{}, snap)
	require.NoError(t, err)
	_, err = last.CallTool(ctx, hooks.ToolCall{ID: "d", Name: "t"}, func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		return hooks.ToolResult{}, nil
	})
	require.NoError(t, err)
	last.End(ctx, hooks.RunEnd{Output: "done"})
	ended, err := last.Snapshot()
	require.NoError(t, err)
	assert.Equal(t, 1, ends)

	again, err := chain.Rehydrate(hooks.Host{}, ended)
	require.NoError(t, err)
	again.End(ctx, hooks.RunEnd{Output: "done"}) // a retried last step
	assert.Equal(t, 1, ends, "AfterRun runs once across all the steps")

	_, err = chain.Resume(ctx, hooks.Host{}, ended)
	assert.ErrorContains(t, err, "has ended")
}
