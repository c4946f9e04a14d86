package hooks_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/rienda/hooks"
)

// The wrap benchmarks run one tool call through Run.CallTool, with a
// no-op guard, with and without one no-op wrap: their difference is the
// cost of the wrap layer.

var benchResult = hooks.ToolResult{Text: "ok"}

func benchTool(*hooks.Context, hooks.ToolCall) (hooks.ToolResult, error) { return benchResult, nil }

// noopWrap is a wrap hook that only calls next.
var noopWrap = hooks.Funcs{
	HookName: "wrap",
	WrapTool: func(c *hooks.Context, call hooks.ToolCall, next hooks.ToolFunc) (hooks.ToolResult, error) {
		return next(c, call)
	},
}

func wrapBenchRun(tb testing.TB, wrapped bool) *hooks.Run {
	hs := []hooks.Hook{&nop{name: "guard"}}
	if wrapped {
		hs = append(hs, noopWrap)
	}
	chain, err := hooks.NewChain(hs)
	if err != nil {
		tb.Fatal(err)
	}
	run, err := chain.Start(context.Background(), hooks.Host{Env: map[string]string{}}, hooks.RunStart{RunID: "bench"})
	if err != nil {
		tb.Fatal(err)
	}
	return run
}

func benchCallTool(b *testing.B, wrapped bool) {
	run := wrapBenchRun(b, wrapped)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if res, err := run.CallTool(ctx, benchCall, benchTool); err != nil || res.Text != "ok" {
			b.Fatal("unexpected result", res, err)
		}
	}
}

// BenchmarkChainUnwrapped is a tool call through a chain without wraps.
func BenchmarkChainUnwrapped(b *testing.B) { benchCallTool(b, false) }

// BenchmarkChainWrapped is the same call with one no-op wrap.
func BenchmarkChainWrapped(b *testing.B) { benchCallTool(b, true) }

// A Context is never recycled (user code may keep it), so a tool call
// allocates its Contexts: one allocation per point call that reaches a
// hook or the tool, holding the Contexts of the point's hooks when it has
// at most two. Here: BeforeToolExecute (the call's and the guard's) and
// the tool's; AfterToolExecute has no hook and makes none.
func TestWrapFreeCallToolAllocatesOnlyItsContexts(t *testing.T) {
	run := wrapBenchRun(t, false)
	ctx := context.Background()
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := run.CallTool(ctx, benchCall, benchTool); err != nil {
			t.Fatal(err)
		}
	})
	assert.Equal(t, 2.0, allocs, "CallTool without wraps: allocations per call")
}
