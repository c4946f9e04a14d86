//go:build unix

package hooks

import (
	"context"
	"regexp"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// The load benchmark runs loadRuns runs at once on one chain, loadCalls
// tool calls each, and reports what a host sizing a server asks: hook
// calls per second per core, the latency of a tool call's hooks (p50,
// p99), and the memory the JavaScript hook's prepared runtimes hold, which
// is bounded per hook, not per run.
const (
	loadRuns  = 1000
	loadCalls = 20
)

// dangerous is the guard's test, for the Go version of the hook.
var dangerous = regexp.MustCompile(`\brm\s+-rf\b`)

// goGuard is the seed's guard written in Go: the same check, and the same
// notice at the end of a run.
var goGuard = Funcs{HookName: "go-guard",
	BeforeToolExecute: func(c *Context, call ToolCall) (*ToolCallPatch, error) {
		if command, _ := call.Arguments["command"].(string); call.Name == "shell" && dangerous.MatchString(command) {
			return &ToolCallPatch{Allow: new(false), Reason: new("refused")}, nil
		}
		return nil, nil
	},
	AfterRun: func(c *Context, end RunEnd) error {
		c.Notify(Notice{Title: "rienda", Body: "run finished: " + end.Reason})
		return nil
	}}

// goAudit is a Go hook on both tool points that looks at the call and
// its result and changes nothing.
var goAudit = Funcs{HookName: "go-audit",
	BeforeToolExecute: func(c *Context, call ToolCall) (*ToolCallPatch, error) {
		if call.Name == "" {
			return &ToolCallPatch{Allow: new(false)}, nil
		}
		return nil, nil
	},
	AfterToolExecute: func(c *Context, call ToolCall, res ToolResult) (*ToolResultPatch, error) {
		if res.IsError && res.Text == "" {
			return &ToolResultPatch{Text: new("failed")}, nil
		}
		return nil, nil
	}}

// BenchmarkJSLoad: the JS guard and a Go hook, side by side with the same
// chain in Go only. Each op is the whole load; run it with -benchtime 1x.
func BenchmarkJSLoad(b *testing.B) {
	b.Run("js+go", func(b *testing.B) {
		js, err := (&Loader{Dir: "testdata/hooks"}).Load("guard")
		if err != nil {
			b.Fatal(err)
		}
		loadChain(b, js.(*jsHook), js, goAudit)
	})
	b.Run("go", func(b *testing.B) { loadChain(b, nil, goGuard, goAudit) })
}

// loadChain runs the load on a chain of hs, once per op. js, when not nil,
// is the JS hook whose pool is measured.
func loadChain(b *testing.B, js *jsHook, hs ...Hook) {
	chain, err := NewChain(hs)
	if err != nil {
		b.Fatal(err)
	}
	lat := make([]time.Duration, loadRuns*loadCalls)
	var wall, cpu time.Duration
	b.ReportAllocs()
	for b.Loop() {
		cpu0, start := cpuTime(), time.Now()
		runLoad(b, chain, lat)
		wall += time.Since(start)
		cpu += cpuTime() - cpu0
	}
	// Hook calls: three a tool call (before by both hooks, after by the
	// audit), and the guard's afterRun once a run.
	calls := float64((3*len(lat) + loadRuns) * b.N)
	b.ReportMetric(calls/cpu.Seconds(), "hookcalls/cpu-s")
	b.ReportMetric(calls/wall.Seconds()/float64(runtime.GOMAXPROCS(0)), "hookcalls/s/core")
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds()), "p50-ns")
	b.ReportMetric(float64(lat[len(lat)*99/100].Nanoseconds()), "p99-ns")
	if js != nil {
		// What the load left idle, and the heap it holds: the bound, per
		// hook, whatever the number of runs.
		b.ReportMetric(float64(js.idleCount()), "pooled")
		b.ReportMetric(float64(poolBytes(js))/1024, "pooled-KB")
	}
}

// runLoad runs loadRuns runs at once, loadCalls tool calls each, and
// writes the latency of each tool call (its hooks: the tool does nothing)
// into lat.
func runLoad(b *testing.B, chain *Chain, lat []time.Duration) {
	ctx := context.Background()
	tool := func(*Context, ToolCall) (ToolResult, error) { return ToolResult{Text: "ok"}, nil }
	call := ToolCall{ID: "1", Name: "shell", Arguments: map[string]any{"command": "ls -la"}}
	var next atomic.Int64
	var failed atomic.Value
	var wg sync.WaitGroup
	for range loadRuns {
		wg.Go(func() {
			run, err := chain.Start(ctx, Host{Notify: func(string, Notice) {}}, RunStart{})
			if err != nil {
				failed.Store(err)
				return
			}
			defer run.End(ctx, RunEnd{})
			for range loadCalls {
				start := time.Now()
				if _, err := run.CallTool(ctx, call, tool); err != nil {
					failed.Store(err)
					return
				}
				lat[next.Add(1)-1] = time.Since(start)
			}
		})
	}
	wg.Wait()
	if err := failed.Load(); err != nil {
		b.Fatal(err)
	}
}

// poolBytes is the heap the hook's idle runtimes hold: the live heap with
// them, less the live heap once they are dropped. It empties the pool.
func poolBytes(h *jsHook) uint64 {
	var with, without runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&with)
	h.mu.Lock()
	h.idle = nil
	h.mu.Unlock()
	runtime.GC()
	runtime.ReadMemStats(&without)
	if with.HeapAlloc < without.HeapAlloc {
		return 0
	}
	return with.HeapAlloc - without.HeapAlloc
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
