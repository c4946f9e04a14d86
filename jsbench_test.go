package hooks

import (
	"context"
	"os/exec"
	"testing"

	"github.com/dop251/goja"
)

// The JS benchmarks call the seed's guard hook (testdata/hooks/guard) on a
// harmless shell command, the common case: it inspects and lets it through.

var jsBenchCall = ToolCall{ID: "1", Name: "shell", Arguments: map[string]any{"command": "ls -la"}}

func benchGuard(b *testing.B) (*jsHook, *Context) {
	b.Helper()
	h, err := (&Loader{Dir: "testdata/hooks"}).Load("guard")
	if err != nil {
		b.Fatal(err)
	}
	chain, err := NewChain([]Hook{h})
	if err != nil {
		b.Fatal(err)
	}
	run, err := chain.Start(context.Background(), Host{Env: map[string]string{}}, RunStart{RunID: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	c := run.context(context.Background())
	c.hook = 0
	return h.(*jsHook), c
}

func toolArgs(call ToolCall) func(in *jsInstance) ([]goja.Value, error) {
	return func(in *jsInstance) ([]goja.Value, error) { return in.values(toolCallJS(call)) }
}

// BenchmarkJSWarm calls the hook again and again in one warm runtime: the
// floor a fresh runtime is measured against (and what the fresh-state rule
// forbids in production).
func BenchmarkJSWarm(b *testing.B) {
	h, c := benchGuard(b)
	in := h.ready.get()
	b.ReportAllocs()
	for b.Loop() {
		var out jsToolCallPatch
		if _, err := in.call(c, BeforeToolExecute, &out, toolArgs(jsBenchCall)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkJSFreshSpaced is a fresh runtime per call with the calls spaced
// like an agent loop's: between two calls the hook has prepared its next
// runtimes (the benchmark waits for that with the timer stopped).
func BenchmarkJSFreshSpaced(b *testing.B) {
	h, c := benchGuard(b)
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		h.refills.Wait()
		b.StartTimer()
		if _, err := h.BeforeToolExecute(c, jsBenchCall); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkJSFresh is a fresh runtime per call, back to back: throughput,
// with the refill racing the calls for the CPU.
func BenchmarkJSFresh(b *testing.B) {
	h, c := benchGuard(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := h.BeforeToolExecute(c, jsBenchCall); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	h.refills.Wait()
}

// BenchmarkJSNaive makes the runtime in the call: a new goja runtime, the
// compiled module evaluated, the call.
func BenchmarkJSNaive(b *testing.B) {
	h, c := benchGuard(b)
	b.ReportAllocs()
	for b.Loop() {
		in, err := prepareJS(c, h.prog, false)
		if err != nil {
			b.Fatal(err)
		}
		var out jsToolCallPatch
		if _, err := in.call(c, BeforeToolExecute, &out, toolArgs(jsBenchCall)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNodeSpawn runs the same hook in a node process per call, the
// way a hook system built on Node.js would.
func BenchmarkNodeSpawn(b *testing.B) {
	node, err := exec.LookPath("node")
	if err != nil {
		b.Skip("no node on PATH")
	}
	script := `const h = require(process.argv[1]); const r = h.beforeToolExecute({}, {name: "shell", arguments: {command: "ls -la"}}); process.stdout.write(JSON.stringify(r || null))`
	b.ReportAllocs()
	for b.Loop() {
		if out, err := exec.Command(node, "-e", script, "./testdata/hooks/guard/index.js").Output(); err != nil || string(out) != "null" {
			b.Fatalf("node: %v %q", err, out)
		}
	}
}
