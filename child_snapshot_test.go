package hooks_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// countHook keeps a per-run state that counts its run's tool calls.
func countHook() hooks.Hook {
	return hooks.Funcs{HookName: "count", BeforeToolExecute: func(c *hooks.Context, _ hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		n, _ := c.State().(float64)
		c.SetState(n + 1)
		return nil, nil
	}}
}

func TestSnapshotCarriesLiveChildrenAndRestoresThem(t *testing.T) {
	l := newRunLog()
	chain, err := hooks.NewChain([]hooks.Hook{l.hook(), countHook()})
	require.NoError(t, err)
	ctx := context.Background()
	parent, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{RunID: "p", Input: "top"})
	require.NoError(t, err)
	a, err := parent.Child(ctx, hooks.RunStart{RunID: "a", Input: "sub a"})
	require.NoError(t, err)
	g, err := a.Child(ctx, hooks.RunStart{RunID: "g"})
	require.NoError(t, err)
	done, err := parent.Child(ctx, hooks.RunStart{RunID: "done"})
	require.NoError(t, err)
	done.End(ctx, hooks.RunEnd{})
	for _, r := range []*hooks.Run{parent, a, a, g, g, g} {
		_, err := r.BeforeToolExecute(ctx, hooks.ToolCall{Name: "x"})
		require.NoError(t, err)
	}
	snap, err := parent.Snapshot()
	require.NoError(t, err)

	for name, restore := range map[string]func() (*hooks.Run, error){
		"rehydrate": func() (*hooks.Run, error) { return chain.Rehydrate(hooks.Host{}, snap) },
		"resume":    func() (*hooks.Run, error) { return chain.Resume(ctx, hooks.Host{}, snap) },
	} {
		back, err := restore()
		require.NoError(t, err, name)
		kids := back.Children()
		require.Len(t, kids, 1, "%s: the ended child is not carried", name)
		assert.Equal(t, "a", kids[0].ID())
		assert.Same(t, back, kids[0].Parent())
		require.Len(t, kids[0].Children(), 1)
		grand := kids[0].Children()[0]
		assert.Equal(t, "g", grand.ID())
		again, err := back.Snapshot()
		require.NoError(t, err)
		assert.JSONEq(t, string(snap), string(again), "%s: a restored tree snapshots as it was", name)
		back.End(ctx, hooks.RunEnd{})
		_, err = grand.BeforeToolExecute(ctx, hooks.ToolCall{Name: "x"})
		assert.ErrorIs(t, err, hooks.ErrRunEnded, "%s: the restored parent's End ends the restored children", name)
	}
	l.mu.Lock()
	assert.Equal(t, hooks.RunStart{RunID: "g", Resumed: true, ParentRunID: "a"}, l.starts["g"], "Resume resumes the children too")
	l.mu.Unlock()
	parent.End(ctx, hooks.RunEnd{})
}

func TestSnapshotOfChildrenRefusesWhatItCannotRestore(t *testing.T) {
	chain, err := hooks.NewChain([]hooks.Hook{countHook()})
	require.NoError(t, err)
	ctx := context.Background()
	parent, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{RunID: "p"})
	require.NoError(t, err)
	defer parent.End(ctx, hooks.RunEnd{})
	_, err = parent.Child(ctx, hooks.RunStart{RunID: "a"})
	require.NoError(t, err)
	snap, err := parent.Snapshot()
	require.NoError(t, err)
	var doc map[string]any
	require.NoError(t, json.Unmarshal(snap, &doc))

	for name, edit := range map[string]func(kid map[string]any){
		"another parent": func(kid map[string]any) { kid["parentRunId"] = "q" },
		"no parent":      func(kid map[string]any) { delete(kid, "parentRunId") },
		"ended":          func(kid map[string]any) { kid["ended"] = true },
		"parent's id":    func(kid map[string]any) { kid["runId"] = "p" },
		"own host":       func(kid map[string]any) { kid["ownHost"] = true },
		"no id":          func(kid map[string]any) { kid["runId"] = "" },
	} {
		var d map[string]any
		require.NoError(t, json.Unmarshal(snap, &d))
		edit(d["children"].([]any)[0].(map[string]any))
		bad, err := json.Marshal(d)
		require.NoError(t, err)
		_, err = chain.Rehydrate(hooks.Host{}, bad)
		assert.Error(t, err, name)
	}
	var d map[string]any
	require.NoError(t, json.Unmarshal(snap, &d))
	kids := d["children"].([]any)
	d["children"] = append(kids, kids[0])
	twice, err := json.Marshal(d)
	require.NoError(t, err)
	_, err = chain.Rehydrate(hooks.Host{}, twice)
	assert.ErrorContains(t, err, "came before it", "one child twice")
}
