package hooks_test

import (
	"context"
	"runtime/debug"
	"testing"

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

// raceBuild reports whether the test binary has the race detector, which
// makes sync.Pool drop items and so the pooled Contexts allocate.
func raceBuild() bool {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, s := range info.Settings {
		if s.Key == "-race" {
			return s.Value == "true"
		}
	}
	return false
}

func TestWrapFreeCallToolDoesNotAllocate(t *testing.T) {
	if raceBuild() {
		t.Skip("the race detector makes sync.Pool drop items: allocations are counted without -race")
	}
	run := wrapBenchRun(t, false)
	ctx := context.Background()
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := run.CallTool(ctx, benchCall, benchTool); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("CallTool without wraps allocates %v times per call, want 0", allocs)
	}
}
