package hooks_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type otherKey struct{}

func TestContextWithRunAndRunFromContext(t *testing.T) {
	var rec recorder
	outer, inner := start(t, &rec), start(t, &rec)

	run, ok := hooks.RunFromContext(context.Background())
	assert.False(t, ok)
	assert.Nil(t, run)

	ctx := hooks.ContextWithRun(context.Background(), outer)
	run, ok = hooks.RunFromContext(ctx)
	require.True(t, ok)
	assert.Same(t, outer, run)

	derived, cancel := context.WithCancel(context.WithValue(ctx, otherKey{}, "x"))
	defer cancel()
	run, ok = hooks.RunFromContext(derived)
	assert.True(t, ok)
	assert.Same(t, outer, run, "a derived context keeps the run")

	run, _ = hooks.RunFromContext(hooks.ContextWithRun(derived, inner))
	assert.Same(t, inner, run, "the nearest run wins")

	run, ok = hooks.RunFromContext(hooks.ContextWithRun(ctx, nil))
	assert.False(t, ok, "a nil run is no run")
	assert.Nil(t, run)
}

// fwTool is a tool of a framework that owns its loop: it gets only a ctx.
type fwTool func(ctx context.Context, args map[string]any) (string, error)

// withHooks is the tool middleware an adapter writes: it finds the run in
// the ctx and runs the call through it; without a run it calls the tool.
// The tool gets the outer ctx, never the pooled *hooks.Context.
func withHooks(name string, tool fwTool) fwTool {
	return func(ctx context.Context, args map[string]any) (string, error) {
		run, ok := hooks.RunFromContext(ctx)
		if !ok {
			return tool(ctx, args)
		}
		res, err := run.CallTool(ctx, hooks.ToolCall{Name: name, Arguments: args},
			func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
				text, err := tool(ctx, call.Arguments)
				return hooks.ToolResult{Text: text}, err
			})
		return res.Text, err
	}
}

func TestTheRunTravelsInTheContextOfAFrameworkThatOwnsItsLoop(t *testing.T) {
	var mu sync.Mutex
	seen := map[string][]string{} // run id -> what its hooks and tools found in their ctx
	note := func(id, what string) {
		mu.Lock()
		defer mu.Unlock()
		seen[id] = append(seen[id], what)
	}
	chain, err := hooks.NewChain([]hooks.Hook{hooks.Funcs{HookName: "find",
		BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			run, ok := hooks.RunFromContext(c) // a hook's Context carries the host's ctx
			if ok {
				note(c.RunID(), "hook found "+run.ID())
			}
			return nil, nil
		}}})
	require.NoError(t, err)
	tool := withHooks("echo", func(ctx context.Context, args map[string]any) (string, error) {
		run, ok := hooks.RunFromContext(ctx)
		if ok {
			note(run.ID(), fmt.Sprintf("tool found %s for %v", run.ID(), args["who"]))
		}
		return fmt.Sprint(args["who"]), nil
	})

	var wg sync.WaitGroup
	for _, id := range []string{"r1", "r2"} {
		wg.Add(1)
		go func() { // two runs of the framework at once
			defer wg.Done()
			run, err := chain.Start(bg, hooks.Host{}, hooks.RunStart{RunID: id})
			if !assert.NoError(t, err) {
				return
			}
			defer run.End(bg, hooks.RunEnd{})
			ctx := hooks.ContextWithRun(bg, run) // the adapter's one step: the rest of the loop is the framework's
			text, err := tool(ctx, map[string]any{"who": id})
			assert.NoError(t, err)
			assert.Equal(t, id, text)
		}()
	}
	wg.Wait()
	assert.Equal(t, map[string][]string{
		"r1": {"hook found r1", "tool found r1 for r1"},
		"r2": {"hook found r2", "tool found r2 for r2"},
	}, seen)

	text, err := tool(bg, map[string]any{"who": "nobody"})
	require.NoError(t, err, "without a run the tool runs as it is")
	assert.Equal(t, "nobody", text)
}
