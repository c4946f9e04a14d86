package hooks

import (
	"context"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"

	"github.com/rienda/hooks/internal/jsrt"
)

// The JS benchmarks call two hooks on a harmless shell command, the
// common case: each inspects it and lets it through. guard is the small
// guard of testdata/hooks/guard; policy is a realistic one (policyHook: 26
// lines, constants, helpers, an Error subclass, a 20-field payload).

// policyHook is the realistic hook of the benchmarks.
const policyHook = `"use strict";
const DANGEROUS = [/\brm\s+-rf\b/, /\bgit\s+push\s+.*--force\b/, /\bcurl\b.*\|\s*sh\b/, /\bdd\s+if=/];
const PROTECTED = new Set(["main", "master", "release"]);
const LIMITS = { maxFiles: 50, maxBytes: 1 << 20 };
function isDangerous(cmd) { return DANGEROUS.some((re) => re.test(cmd)); }
function branchOf(args) {
  const m = /\bgit\s+push\s+\S+\s+(\S+)/.exec(args.command || "");
  return m ? m[1] : undefined;
}
function summarize(args) {
  return Object.keys(args).sort().map((k) => k + "=" + String(args[k]).slice(0, 20)).join(" ");
}
class PolicyError extends Error {
  constructor(message) { super(message); this.name = "PolicyError"; }
}
module.exports = {
  beforeToolExecute(ctx, call) {
    const args = call.arguments;
    if (call.name !== "shell") return;
    if (isDangerous(args.command || "")) return { allow: false, reason: "dangerous: " + args.command };
    const branch = branchOf(args);
    if (branch && PROTECTED.has(branch)) return { allow: false, reason: "protected branch " + branch };
    if ((args.files || []).length > LIMITS.maxFiles) return { allow: false, reason: "too many files" };
    if (args.bytes > LIMITS.maxBytes) return { allow: false, reason: "too large" };
    if (summarize(args).length > 2000) throw new PolicyError("arguments too long");
  },
};`

// policyCall is a shell call with 20 arguments.
var policyCall = func() ToolCall {
	args := map[string]any{"command": "ls -la", "cwd": "/work/project", "files": []any{"a.go", "b.go", "c.go"}, "bytes": 2048.0}
	for i := len(args); i < 20; i++ {
		args["opt"+strconv.Itoa(i)] = "value " + strconv.Itoa(i)
	}
	return ToolCall{ID: "1", Name: "shell", Arguments: args}
}()

var jsBenchCall = ToolCall{ID: "1", Name: "shell", Arguments: map[string]any{"command": "ls -la"}}

// benchHooks runs f for each benchmark hook, as a sub-benchmark.
func benchHooks(b *testing.B, f func(b *testing.B, h *jsHook, c *Context, call ToolCall)) {
	for _, name := range []string{"guard", "policy"} {
		b.Run(name, func(b *testing.B) {
			var h Hook
			var err error
			call := jsBenchCall
			if name == "guard" {
				h, err = (&Loader{Dir: "testdata/hooks"}).Load("guard")
			} else {
				h, err = CompileJS("policy", policyHook, func(d Diagnostic) { b.Fatal(d.Err) })
				call = policyCall
			}
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
			c := run.context(context.Background(), BeforeToolExecute)
			c.hook = 0
			f(b, h.(*jsHook), c, call)
		})
	}
}

func toolArgs(call ToolCall) func(in *jsInstance) ([]goja.Value, error) {
	return func(in *jsInstance) ([]goja.Value, error) { return in.values(toolCallJS(call)) }
}

// BenchmarkJSWarm calls the hook again and again in one runtime whose
// module was evaluated once: the floor a call with fresh state is measured
// against (and what the fresh-state rule forbids in production).
func BenchmarkJSWarm(b *testing.B) {
	benchHooks(b, func(b *testing.B, h *jsHook, c *Context, call ToolCall) {
		in := warmInstance(b, c, h)
		b.ReportAllocs()
		defer cpuPerOp(b)()
		for b.Loop() {
			callWarm(b, c, in, call)
		}
	})
}

// warmInstance is a runtime of h with its module evaluated, for callWarm.
func warmInstance(b *testing.B, c *Context, h *jsHook) *jsInstance {
	in, err := h.get(c.base())
	if err != nil {
		b.Fatal(err)
	}
	in.cur = c
	if err := jsrt.Guard(c.base(), in.rt, func() error { return in.begin(c.base(), h.prog) }); err != nil {
		b.Fatal(err)
	}
	return in
}

// callWarm calls the export in in's module as it is, without evaluating
// the module again: state would carry over from call to call.
func callWarm(b *testing.B, c *Context, in *jsInstance, call ToolCall) {
	ctx := c.base()
	var v any
	err := jsrt.Guard(ctx, in.rt, func() error {
		fn, _ := goja.AssertFunction(in.exports.Get(string(BeforeToolExecute)))
		args, err := toolArgs(call)(in)
		if err != nil {
			return err
		}
		r, err := jsrt.Call(in.rt, fn, in.exports, append([]goja.Value{in.ctx}, args...)...)
		if err != nil {
			return err
		}
		v, err = jsrt.Export(ctx, in.rt, r)
		return err
	})
	if _, err := read(c, BeforeToolExecute, v, err); err != nil {
		b.Fatal(err)
	}
}

func callFresh(b *testing.B, c *Context, h *jsHook, call ToolCall) {
	if _, err := h.BeforeToolExecute(c, call); err != nil {
		b.Fatal(err)
	}
}

// cpuPerOp starts counting the process's CPU time, and the function it
// returns reports it per op as cpu-ns/op: on a shared machine, where the
// wall clock counts the time other processes held the CPU, the CPU time a
// call took moves far less (it counts the garbage collector's work too).
func cpuPerOp(b *testing.B) func() {
	start := cpuTime()
	return func() { b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op") }
}

// agentGap spaces the calls of the spaced benchmarks, as an agent loop
// does: a model call or a tool runs between two hook calls.
const agentGap = time.Millisecond

// BenchmarkJSWarmSpaced is BenchmarkJSWarm with the calls agentGap apart:
// what the same warm runtime costs once the CPU has been idle.
func BenchmarkJSWarmSpaced(b *testing.B) {
	benchHooks(b, func(b *testing.B, h *jsHook, c *Context, call ToolCall) {
		in := warmInstance(b, c, h)
		latency(b, agentGap, func() {}, func() { callWarm(b, c, in, call) })
	})
}

// BenchmarkJSFreshSpaced is a call with fresh state (the module evaluated
// again in a locked-down runtime) with the calls agentGap apart, as in an
// agent loop.
func BenchmarkJSFreshSpaced(b *testing.B) {
	benchHooks(b, func(b *testing.B, h *jsHook, c *Context, call ToolCall) {
		latency(b, agentGap, func() {}, func() { callFresh(b, c, h, call) })
	})
}

// latency times call alone, after gap and wait, and reports its mean as
// ns/call (ns/op counts the gap and the wait). It reads the clock instead
// of stopping the benchmark's timer: b.StopTimer and b.StartTimer read the
// memory statistics, a stop of the world that, once per call, costs more
// than the call and cools its caches.
func latency(b *testing.B, gap time.Duration, wait, call func()) {
	b.ReportAllocs()
	defer cpuPerOp(b)()
	var total time.Duration
	for b.Loop() {
		if gap > 0 {
			time.Sleep(gap)
		}
		wait()
		start := time.Now()
		call()
		total += time.Since(start)
	}
	b.ReportMetric(float64(total.Nanoseconds())/float64(b.N), "ns/call")
}

// BenchmarkJSFresh is a call with fresh state per call, back to back.
func BenchmarkJSFresh(b *testing.B) {
	benchHooks(b, func(b *testing.B, h *jsHook, c *Context, call ToolCall) {
		b.ReportAllocs()
		defer cpuPerOp(b)()
		for b.Loop() {
			callFresh(b, c, h, call)
		}
	})
}

// BenchmarkJSNaive is fresh state the naive way: a new goja runtime,
// without the bounds, the compiled module evaluated, the call.
func BenchmarkJSNaive(b *testing.B) {
	benchHooks(b, func(b *testing.B, h *jsHook, c *Context, call ToolCall) {
		b.ReportAllocs()
		defer cpuPerOp(b)()
		for b.Loop() {
			in := &jsInstance{rt: goja.New(), retained: &jsrt.Retained{}}
			in.freeze, _ = goja.AssertFunction(in.rt.Get("Object").ToObject(in.rt).Get("freeze"))
			v, err := in.call(c, h.prog, BeforeToolExecute, toolArgs(call))
			if _, err := read(c, BeforeToolExecute, v, err); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkJSNewRuntime is what a call pays when its hook has no idle
// runtime: a runtime made, bounded and locked down.
func BenchmarkJSNewRuntime(b *testing.B) {
	b.ReportAllocs()
	defer cpuPerOp(b)()
	for b.Loop() {
		if _, err := newJSInstance(context.Background(), jsrt.Limits{}); err != nil {
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

// historyText is one 2 KB message of a long conversation.
var historyText = strings.Repeat("The quick brown fox jumps over the lazy dog. ", 46)[:2048]

// history is a conversation of n messages of 2 KB, turns alternating.
func history(n int) []Message {
	msgs := make([]Message, n)
	for i := range msgs {
		msgs[i] = Message{Role: [...]string{"user", "assistant"}[i%2], Text: historyText}
	}
	return msgs
}

// benchHistory calls a JS beforeModelRequest hook through a run, back to
// back, with histories of 10, 100 and 1,000 messages.
func benchHistory(b *testing.B, source string) {
	for _, n := range []int{10, 100, 1000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			h, err := CompileJS("history", source, func(d Diagnostic) { b.Fatal(d.Err) })
			if err != nil {
				b.Fatal(err)
			}
			chain, err := NewChain([]Hook{h})
			if err != nil {
				b.Fatal(err)
			}
			run, err := chain.Start(context.Background(), Host{}, RunStart{RunID: "bench"})
			if err != nil {
				b.Fatal(err)
			}
			req := ModelRequest{System: "You are terse.", Messages: history(n)}
			b.ReportAllocs()
			defer cpuPerOp(b)()
			for b.Loop() {
				if _, err := run.BeforeModelRequest(context.Background(), req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkJSHistory is a hook that reads only the system prompt: its cost
// must not grow with the history it does not read.
func BenchmarkJSHistory(b *testing.B) {
	benchHistory(b, `exports.beforeModelRequest = (ctx, req) => ({ system: req.system + "\nBe kind." })`)
}

// BenchmarkJSHistoryRead is a hook that reads every message's text: it
// pays for what it reads, once.
func BenchmarkJSHistoryRead(b *testing.B) {
	benchHistory(b, `exports.beforeModelRequest = (ctx, req) => {
		let n = 0;
		for (const m of req.messages) n += m.text.length;
		return { system: req.system + "\n" + n + " characters so far." };
	}`)
}
