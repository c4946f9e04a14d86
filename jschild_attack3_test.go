package hooks_test

import (
	"context"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A JavaScript hook sees where in a tree of runs it is: start.parentRunId
// at the run's start, ctx.parentRunId and ctx.depth at every point, so a
// guard can treat a subagent's calls apart (here: no shell below depth 1).
func TestJSHookSeesTheParentRunAndDepth(t *testing.T) {
	h := js(t, "tree", `
		exports.beforeRun = (ctx, start) => ({ state: { start: start.parentRunId, ctx: ctx.parentRunId, depth: ctx.depth } });
		exports.beforeToolExecute = (ctx, call) => {
			if (call.name === "shell" && ctx.depth > 1) return { allow: false, reason: "no shell in a subagent's subagent" };
			return { allow: false, reason: JSON.stringify([ctx.parentRunId, ctx.depth, ctx.state, "parentRunId" in ctx, Object.keys(ctx).includes("depth")]) };
		};`)
	chain, err := hooks.NewChain([]hooks.Hook{h})
	require.NoError(t, err)
	root, err := chain.Start(bg, hooks.Host{}, hooks.RunStart{RunID: "root"})
	require.NoError(t, err)
	defer root.End(bg, hooks.RunEnd{})
	child, err := root.Child(bg, hooks.RunStart{RunID: "kid"})
	require.NoError(t, err)
	grand, err := child.Child(bg, hooks.RunStart{RunID: "grand"})
	require.NoError(t, err)

	noTool := func(*hooks.Context, hooks.ToolCall) (hooks.ToolResult, error) {
		t.Error("the tool ran")
		return hooks.ToolResult{}, nil
	}
	reason := func(r *hooks.Run, tool string) string {
		res, err := r.CallTool(bg, hooks.ToolCall{ID: "1", Name: tool}, noTool)
		require.NoError(t, err)
		require.True(t, res.IsError)
		return res.Text
	}
	assert.Equal(t, `["",0,{"ctx":"","depth":0,"start":""},true,true]`, reason(root, "read"))
	assert.Equal(t, `["root",1,{"ctx":"root","depth":1,"start":"root"},true,true]`, reason(child, "read"))
	assert.Equal(t, `["kid",2,{"ctx":"kid","depth":2,"start":"kid"},true,true]`, reason(grand, "read"))
	assert.Equal(t, "no shell in a subagent's subagent", reason(grand, "shell"))
}

// ctx.parentRunId is read-only in effect: a hook that overwrites it changes
// its own ctx of this call only, never what the next call (or another
// hook) reads.
func TestJSHookCannotForgeTheParentRunForTheNextCall(t *testing.T) {
	h := js(t, "forge", `
		exports.beforeToolExecute = (ctx, call) => {
			const before = ctx.parentRunId;
			ctx.parentRunId = "";
			ctx.depth = 0;
			return { allow: false, reason: before + "/" + ctx.parentRunId };
		};`)
	chain, err := hooks.NewChain([]hooks.Hook{h})
	require.NoError(t, err)
	root, err := chain.Start(bg, hooks.Host{}, hooks.RunStart{RunID: "root"})
	require.NoError(t, err)
	defer root.End(bg, hooks.RunEnd{})
	child, err := root.Child(context.Background(), hooks.RunStart{RunID: "kid"})
	require.NoError(t, err)
	for range 2 {
		res, err := child.CallTool(bg, hooks.ToolCall{ID: "1", Name: "x"}, func(*hooks.Context, hooks.ToolCall) (hooks.ToolResult, error) {
			return hooks.ToolResult{}, nil
		})
		require.NoError(t, err)
		assert.Equal(t, "root/", res.Text, "each call reads the real parent first")
	}
}

// A child brought back by Resume of its parent's snapshot is told again
// whose child it is: start.parentRunId with resumed true.
func TestJSHookSeesTheParentOfAResumedChild(t *testing.T) {
	h := js(t, "resume", `
		exports.beforeRun = (ctx, start) => ({ state: start.resumed + ":" + start.parentRunId + ":" + ctx.depth });`)
	chain, err := hooks.NewChain([]hooks.Hook{h})
	require.NoError(t, err)
	root, err := chain.Start(bg, hooks.Host{}, hooks.RunStart{RunID: "root"})
	require.NoError(t, err)
	defer root.End(bg, hooks.RunEnd{})
	_, err = root.Child(bg, hooks.RunStart{RunID: "kid"})
	require.NoError(t, err)
	snap, err := root.Snapshot()
	require.NoError(t, err)
	back, err := chain.Resume(bg, hooks.Host{}, snap)
	require.NoError(t, err)
	defer back.End(bg, hooks.RunEnd{})
	kids := back.Children()
	require.Len(t, kids, 1)
	again, err := kids[0].Snapshot()
	require.NoError(t, err)
	assert.Contains(t, string(again), `"resume":"true:root:1"`)
}
