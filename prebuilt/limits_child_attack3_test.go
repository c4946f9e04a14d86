package prebuilt_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/prebuilt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// order/state: grandchildren of several children, all at once, share
// the root's model-call limit: exactly Run requests go through.
func TestModelCallLimitHoldsAgainstConcurrentGrandchildren(t *testing.T) {
	parent := startParent(t, prebuilt.ModelCallLimit(prebuilt.ModelCallLimitConfig{Run: 9}))
	var through atomic.Int32
	var wg sync.WaitGroup
	for range 3 {
		child, err := parent.Child(context.Background(), hooks.RunStart{})
		require.NoError(t, err)
		for range 3 {
			grand, err := child.Child(context.Background(), hooks.RunStart{})
			require.NoError(t, err)
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 4 {
					step, err := grand.BeforeModelRequest(context.Background(), hooks.ModelRequest{})
					if assert.NoError(t, err) && step.End == nil {
						through.Add(1)
					}
				}
			}()
		}
	}
	wg.Wait()
	assert.EqualValues(t, 9, through.Load(), "36 requests of 9 grandchildren, 9 through")
	step, err := parent.BeforeModelRequest(context.Background(), hooks.ModelRequest{})
	require.NoError(t, err)
	assert.NotNil(t, step.End)
}

// state/End: a limit with EndRun that a child trips ends the tree: the
// child at its next request, the root at its own, and a child started
// after that at its first, so that a fresh subagent is no way to go on.
func TestToolCallLimitEndRunTrippedByAChildEndsTheTree(t *testing.T) {
	for _, onLimit := range []prebuilt.Action{prebuilt.EndRun, prebuilt.ErrorRun} {
		parent := startParent(t, prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{Run: 1, OnLimit: onLimit}))
		child, err := parent.Child(context.Background(), hooks.RunStart{})
		require.NoError(t, err)
		for i := range 2 {
			_, _ = child.BeforeToolExecute(context.Background(), hooks.ToolCall{Name: "t", Arguments: map[string]any{"i": i}})
		}
		for _, r := range []*hooks.Run{child, parent} {
			step, err := r.BeforeModelRequest(context.Background(), hooks.ModelRequest{})
			require.NoError(t, err)
			assert.NotNil(t, step.End, "%v: run %s ends", onLimit, r.ID())
		}
		fresh, err := parent.Child(context.Background(), hooks.RunStart{})
		require.NoError(t, err)
		step, err := fresh.BeforeModelRequest(context.Background(), hooks.ModelRequest{})
		require.NoError(t, err)
		assert.NotNil(t, step.End, "%v: a child started after the trip ends at once", onLimit)
	}
}

// names/order: a child's own chain cannot bring a wider limit under the
// parent's limit's name; a limit of its own, under another name, adds to
// the parent's, which still counts with the root.
func TestChildChainCannotWidenTheParentsLimit(t *testing.T) {
	parent := startParent(t, prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{Run: 2}))
	wide, err := hooks.NewChain([]hooks.Hook{prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{Run: 100})})
	require.NoError(t, err)
	_, err = parent.ChildWith(context.Background(), hooks.RunStart{}, hooks.ChildConfig{Chain: wide})
	assert.ErrorContains(t, err, `hook "toolCallLimit"`)
	assert.Empty(t, parent.Children())

	own, err := hooks.NewChain([]hooks.Hook{prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{Name: "mine", Run: 100, PerChild: true})})
	require.NoError(t, err)
	child, err := parent.ChildWith(context.Background(), hooks.RunStart{}, hooks.ChildConfig{Chain: own})
	require.NoError(t, err)
	defer child.End(context.Background(), hooks.RunEnd{})
	assert.Equal(t, 2, ranTools(t, child, 5, "t"))
	assert.Zero(t, ranTools(t, parent, 1, "t"))
}

// state/snapshot: a PerChild child brought back by the parent's snapshot
// keeps what it spent, by Rehydrate and by Resume alike.
func TestPerChildCountsSurviveTheParentsSnapshot(t *testing.T) {
	limit := prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{Run: 2, PerChild: true})
	chain, err := hooks.NewChain([]hooks.Hook{limit})
	require.NoError(t, err)
	ctx := context.Background()
	parent, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{RunID: "root"})
	require.NoError(t, err)
	defer parent.End(ctx, hooks.RunEnd{})
	child, err := parent.Child(ctx, hooks.RunStart{RunID: "kid"})
	require.NoError(t, err)
	require.Equal(t, 2, ranTools(t, child, 2, "t"))
	snap, err := parent.Snapshot()
	require.NoError(t, err)
	for name, restore := range map[string]func() (*hooks.Run, error){
		"rehydrate": func() (*hooks.Run, error) { return chain.Rehydrate(hooks.Host{}, snap) },
		"resume":    func() (*hooks.Run, error) { return chain.Resume(ctx, hooks.Host{}, snap) },
	} {
		back, err := restore()
		require.NoError(t, err, name)
		kids := back.Children()
		require.Len(t, kids, 1, name)
		assert.Zero(t, ranTools(t, kids[0], 1, "t"), "%s: the child's spent limit stays spent", name)
		assert.Equal(t, 2, ranTools(t, back, 3, "t"), "%s: the parent's own is untouched", name)
		back.End(ctx, hooks.RunEnd{})
	}
}

// time/state: snapshots taken while children start, call and end never
// race (under -race) and always restore, with the tree's counts never
// above the limit.
func TestSnapshotsWhileChildrenComeAndGo(t *testing.T) {
	limit := prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{Run: 20})
	chain, err := hooks.NewChain([]hooks.Hook{limit, prebuilt.LoopGuard(prebuilt.LoopGuardConfig{})})
	require.NoError(t, err)
	ctx := context.Background()
	parent, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{RunID: "root"})
	require.NoError(t, err)
	defer parent.End(ctx, hooks.RunEnd{})
	var wg sync.WaitGroup
	var ran atomic.Int32
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 5 {
				child, err := parent.Child(ctx, hooks.RunStart{})
				if !assert.NoError(t, err) {
					return
				}
				ran.Add(int32(ranTools(t, child, 2, "t")))
				child.End(ctx, hooks.RunEnd{})
			}
		}()
	}
	for range 20 {
		snap, err := parent.Snapshot()
		require.NoError(t, err)
		back, err := chain.Rehydrate(hooks.Host{}, snap)
		require.NoError(t, err)
		back.End(ctx, hooks.RunEnd{})
	}
	wg.Wait()
	assert.EqualValues(t, 20, ran.Load())
	assert.Zero(t, ranTools(t, parent, 1, "t"))
}
