package hooks_test

import (
	"context"
	"runtime"
	"sync"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// time: a Context kept past its tool call starts no subagent: the call
// that handed it out is over, and so is what it may do.
func TestSubagentFromTheContextOfAnEndedCallIsRefused(t *testing.T) {
	l := newRunLog()
	chain, err := hooks.NewChain([]hooks.Hook{l.hook()})
	require.NoError(t, err)
	parent, err := chain.Start(bg, hooks.Host{}, hooks.RunStart{RunID: "p"})
	require.NoError(t, err)
	defer parent.End(bg, hooks.RunEnd{})
	var kept *hooks.Context
	_, err = parent.CallTool(bg, hooks.ToolCall{Name: "task"}, func(c *hooks.Context, _ hooks.ToolCall) (hooks.ToolResult, error) {
		kept = c
		return hooks.ToolResult{}, nil
	})
	require.NoError(t, err)
	ran := false
	_, err = kept.Subagent(hooks.RunStart{RunID: "late"}, func(context.Context, *hooks.Run) (string, error) {
		ran = true
		return "", nil
	})
	require.Error(t, err)
	assert.ErrorIs(t, err, context.Canceled)
	assert.False(t, ran, "the subagent's function never runs")
	_, err = parent.Child(kept, hooks.RunStart{RunID: "late2"})
	assert.Error(t, err, "nor does Run.Child with that Context")
	assert.Empty(t, l.of("late"), "no hook of a child ran")
	assert.Empty(t, l.of("late2"))
	assert.Empty(t, parent.Children())

	cancelled, cancel := context.WithCancel(bg)
	cancel()
	_, err = parent.Child(cancelled, hooks.RunStart{RunID: "dead"})
	assert.ErrorIs(t, err, context.Canceled)
	assert.Empty(t, l.of("dead"))
}

// failure: a subagent whose function never returns (runtime.Goexit, as
// t.FailNow does) did not complete: its child ends as failed, never as a
// completed run with an empty answer.
func TestSubagentWhoseFunctionExitsEndsFailed(t *testing.T) {
	l := newRunLog()
	chain, err := hooks.NewChain([]hooks.Hook{l.hook()})
	require.NoError(t, err)
	parent, err := chain.Start(bg, hooks.Host{}, hooks.RunStart{RunID: "p"})
	require.NoError(t, err)
	defer parent.End(bg, hooks.RunEnd{})
	_, err = parent.CallTool(bg, hooks.ToolCall{Name: "task"}, func(c *hooks.Context, _ hooks.ToolCall) (hooks.ToolResult, error) {
		var wg sync.WaitGroup
		wg.Add(1)
		go func() { // Goexit ends the goroutine it runs on, not the test's
			defer wg.Done()
			_, _ = c.Subagent(hooks.RunStart{RunID: "exits"}, func(context.Context, *hooks.Run) (string, error) {
				runtime.Goexit()
				return "never", nil
			})
		}()
		wg.Wait()
		return hooks.ToolResult{}, nil
	})
	require.NoError(t, err)
	end := l.ends["exits"]
	assert.Equal(t, hooks.Failed, end.Outcome)
	assert.Contains(t, end.Reason, "did not return")
	assert.Empty(t, parent.Children())
}

// shape: a nil function is the caller's error, said before a child starts,
// not a panic with a half-started subagent.
func TestSubagentWithANilFunctionIsAnError(t *testing.T) {
	l := newRunLog()
	chain, err := hooks.NewChain([]hooks.Hook{l.hook()})
	require.NoError(t, err)
	parent, err := chain.Start(bg, hooks.Host{}, hooks.RunStart{RunID: "p"})
	require.NoError(t, err)
	defer parent.End(bg, hooks.RunEnd{})
	_, err = parent.CallTool(bg, hooks.ToolCall{Name: "task"}, func(c *hooks.Context, _ hooks.ToolCall) (hooks.ToolResult, error) {
		var out string
		assert.NotPanics(t, func() { out, err = c.Subagent(hooks.RunStart{RunID: "nil"}, nil) })
		assert.ErrorContains(t, err, "Subagent: fn is nil")
		assert.Empty(t, out)
		return hooks.ToolResult{}, nil
	})
	require.NoError(t, err)
	assert.Empty(t, l.of("nil"), "no child started")
}

// time: a parent that ends while its subagent works ends the subagent:
// the subagent's next call refuses with ErrRunEnded and runs no tool.
func TestParentEndDuringASubagentStopsItsCalls(t *testing.T) {
	chain, err := hooks.NewChain(nil)
	require.NoError(t, err)
	parent, err := chain.Start(bg, hooks.Host{}, hooks.RunStart{RunID: "p"})
	require.NoError(t, err)
	var callErr error
	ran := false
	_, err = parent.CallTool(bg, hooks.ToolCall{Name: "task"}, func(c *hooks.Context, _ hooks.ToolCall) (hooks.ToolResult, error) {
		_, err := c.Subagent(hooks.RunStart{RunID: "kid"}, func(ctx context.Context, child *hooks.Run) (string, error) {
			parent.End(bg, hooks.RunEnd{})
			_, callErr = child.CallTool(ctx, hooks.ToolCall{Name: "x"}, func(*hooks.Context, hooks.ToolCall) (hooks.ToolResult, error) {
				ran = true
				return hooks.ToolResult{}, nil
			})
			grand, gerr := child.Child(bg, hooks.RunStart{})
			assert.Nil(t, grand)
			assert.ErrorIs(t, gerr, hooks.ErrRunEnded, "an ended subagent starts no subagent")
			return "", callErr
		})
		return hooks.ToolResult{}, err
	})
	assert.ErrorIs(t, callErr, hooks.ErrRunEnded)
	assert.False(t, ran)
	_ = err
}
