package prebuilt_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/prebuilt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ranTools runs calls of tool on run and returns how many ran.
func ranTools(t *testing.T, run *hooks.Run, n int, tool string) int {
	t.Helper()
	ran := 0
	for i := range n {
		_, err := run.CallTool(context.Background(), hooks.ToolCall{ID: fmt.Sprint(i), Name: tool, Arguments: map[string]any{"i": i}},
			func(*hooks.Context, hooks.ToolCall) (hooks.ToolResult, error) {
				ran++
				return hooks.ToolResult{Text: "ok"}, nil
			})
		require.NoError(t, err)
	}
	return ran
}

func startParent(t *testing.T, hs ...hooks.Hook) *hooks.Run {
	t.Helper()
	chain, err := hooks.NewChain(hs)
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{RunID: "root"})
	require.NoError(t, err)
	t.Cleanup(func() { run.End(context.Background(), hooks.RunEnd{}) })
	return run
}

func TestToolCallLimitIsNotEscapedByChildren(t *testing.T) {
	parent := startParent(t, prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{Run: 3, PerTool: map[string]int{"shell": 1}}))
	ran := 0
	for i := range 3 {
		child, err := parent.Child(context.Background(), hooks.RunStart{})
		require.NoError(t, err, "child %d", i)
		ran += ranTools(t, child, 3, "read")
		child.End(context.Background(), hooks.RunEnd{})
	}
	assert.Equal(t, 3, ran, "three children of three calls each share the parent's 3")
	assert.Zero(t, ranTools(t, parent, 1, "read"), "and the parent has none left")

	parent2 := startParent(t, prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{Run: 10, PerTool: map[string]int{"shell": 1}}))
	child, err := parent2.Child(context.Background(), hooks.RunStart{})
	require.NoError(t, err)
	grand, err := child.Child(context.Background(), hooks.RunStart{})
	require.NoError(t, err)
	assert.Equal(t, 1, ranTools(t, grand, 2, "shell"), "a child of a child counts with the root")
	assert.Zero(t, ranTools(t, parent2, 1, "shell"))
	assert.Zero(t, ranTools(t, child, 1, "shell"))
}

func TestToolCallLimitHoldsAgainstConcurrentChildren(t *testing.T) {
	parent := startParent(t, prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{Run: 7}))
	var ran atomic.Int32
	var wg sync.WaitGroup
	for i := range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			child, err := parent.Child(context.Background(), hooks.RunStart{})
			if !assert.NoError(t, err) {
				return
			}
			defer child.End(context.Background(), hooks.RunEnd{})
			var inner sync.WaitGroup
			for j := range 5 {
				inner.Add(1)
				go func() {
					defer inner.Done()
					_, err := child.CallTool(context.Background(), hooks.ToolCall{ID: fmt.Sprint(i, j), Name: "t"},
						func(*hooks.Context, hooks.ToolCall) (hooks.ToolResult, error) {
							ran.Add(1)
							return hooks.ToolResult{}, nil
						})
					assert.NoError(t, err)
				}()
			}
			inner.Wait()
		}()
	}
	wg.Wait()
	assert.Equal(t, int32(7), ran.Load())
}

func TestToolCallLimitPerChildGivesEachChildItsOwn(t *testing.T) {
	parent := startParent(t, prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{Run: 2, PerChild: true}))
	for range 2 {
		child, err := parent.Child(context.Background(), hooks.RunStart{})
		require.NoError(t, err)
		assert.Equal(t, 2, ranTools(t, child, 3, "t"))
	}
	assert.Equal(t, 2, ranTools(t, parent, 3, "t"))
}

func TestModelCallLimitAndBudgetCountChildrenWithTheParent(t *testing.T) {
	parent := startParent(t, prebuilt.ModelCallLimit(prebuilt.ModelCallLimitConfig{Run: 2}))
	child, err := parent.Child(context.Background(), hooks.RunStart{})
	require.NoError(t, err)
	ended := 0
	for range 3 {
		step, err := child.BeforeModelRequest(context.Background(), hooks.ModelRequest{})
		require.NoError(t, err)
		if step.End != nil {
			ended++
		}
	}
	assert.Equal(t, 1, ended, "the child had the parent's two calls")
	step, err := parent.BeforeModelRequest(context.Background(), hooks.ModelRequest{})
	require.NoError(t, err)
	assert.NotNil(t, step.End, "and the parent has none left")

	parent = startParent(t, prebuilt.Budget(prebuilt.BudgetConfig{MaxTokens: 100}))
	child, err = parent.Child(context.Background(), hooks.RunStart{})
	require.NoError(t, err)
	_, err = child.CallModel(context.Background(), hooks.ModelRequest{}, func(*hooks.Context, hooks.ModelRequest) (hooks.ModelResponse, error) {
		return hooks.ModelResponse{Text: "spent", Usage: hooks.Usage{InputTokens: 80, OutputTokens: 40}}, nil
	})
	require.NoError(t, err)
	step, err = parent.BeforeModelRequest(context.Background(), hooks.ModelRequest{})
	require.NoError(t, err)
	assert.NotNil(t, step.End, "the child spent the parent's budget")

	parent = startParent(t, prebuilt.Budget(prebuilt.BudgetConfig{MaxTokens: 100, PerChild: true}))
	child, err = parent.Child(context.Background(), hooks.RunStart{})
	require.NoError(t, err)
	_, err = child.CallModel(context.Background(), hooks.ModelRequest{}, func(*hooks.Context, hooks.ModelRequest) (hooks.ModelResponse, error) {
		return hooks.ModelResponse{Text: "spent", Usage: hooks.Usage{InputTokens: 80, OutputTokens: 40}}, nil
	})
	require.NoError(t, err)
	step, err = parent.BeforeModelRequest(context.Background(), hooks.ModelRequest{})
	require.NoError(t, err)
	assert.Nil(t, step.End, "PerChild: the child's spending is its own")
	step, err = child.BeforeModelRequest(context.Background(), hooks.ModelRequest{})
	require.NoError(t, err)
	assert.NotNil(t, step.End)
}

func TestLoopGuardWatchesEachRunUnlessAcrossChildren(t *testing.T) {
	same := func(run *hooks.Run) bool {
		step, err := run.BeforeToolExecute(context.Background(), hooks.ToolCall{Name: "read", Arguments: map[string]any{"p": "a"}})
		require.NoError(t, err)
		return step.Refused
	}
	parent := startParent(t, prebuilt.LoopGuard(prebuilt.LoopGuardConfig{Repeats: 2}))
	a, err := parent.Child(context.Background(), hooks.RunStart{})
	require.NoError(t, err)
	b, err := parent.Child(context.Background(), hooks.RunStart{})
	require.NoError(t, err)
	assert.False(t, same(a))
	assert.False(t, same(b), "two subagents reading one file is no loop")
	assert.True(t, same(a), "one subagent reading it twice in a row is")

	parent = startParent(t, prebuilt.LoopGuard(prebuilt.LoopGuardConfig{Repeats: 2, AcrossChildren: true}))
	a, err = parent.Child(context.Background(), hooks.RunStart{})
	require.NoError(t, err)
	b, err = parent.Child(context.Background(), hooks.RunStart{})
	require.NoError(t, err)
	assert.False(t, same(a))
	assert.True(t, same(b), "AcrossChildren: one sequence for the tree")
}

// A child's own session, host or snapshot is no way to start its counts
// again.
func TestChildCountsSurviveItsHostAndTheParentsSnapshot(t *testing.T) {
	limit := prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{Run: 4})
	chain, err := hooks.NewChain([]hooks.Hook{limit})
	require.NoError(t, err)
	ctx := context.Background()
	parent, err := chain.Start(ctx, hooks.Host{Session: hooks.Session{ID: "s"}}, hooks.RunStart{RunID: "root"})
	require.NoError(t, err)
	other := hooks.Host{Session: hooks.Session{ID: "fresh"}}
	child, err := parent.ChildWith(ctx, hooks.RunStart{RunID: "kid"}, hooks.ChildConfig{Host: &other})
	require.NoError(t, err)
	assert.Equal(t, 2, ranTools(t, child, 2, "t"), "another session")
	child.End(ctx, hooks.RunEnd{})
	child, err = parent.Child(ctx, hooks.RunStart{RunID: "kid2"})
	require.NoError(t, err)
	assert.Equal(t, 1, ranTools(t, child, 1, "t"))

	snap, err := parent.Snapshot()
	require.NoError(t, err)
	back, err := chain.Rehydrate(hooks.Host{}, snap)
	require.NoError(t, err)
	defer back.End(ctx, hooks.RunEnd{})
	kids := back.Children()
	require.Len(t, kids, 1)
	assert.Equal(t, "kid2", kids[0].ID())
	assert.Equal(t, 1, ranTools(t, kids[0], 3, "t"), "the restored child still counts with the restored parent")
	assert.Zero(t, ranTools(t, back, 1, "t"))

	childSnap, err := kids[0].Snapshot()
	require.NoError(t, err)
	_, err = chain.Rehydrate(hooks.Host{}, childSnap)
	assert.ErrorContains(t, err, "child of run root", "a child's snapshot is no fresh root")
	_, err = chain.Resume(ctx, hooks.Host{}, childSnap)
	assert.ErrorContains(t, err, "child of run root")
	parent.End(ctx, hooks.RunEnd{})
}
