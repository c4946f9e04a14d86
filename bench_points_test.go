package hooks_test

import (
	"context"
	"fmt"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rienda/hooks"
)

// The point benchmarks put ten Go hooks that change nothing on the four
// points of every model and tool call, and run them through Run's point
// methods, against ten direct calls of the same methods with one Context
// literal: what the chain adds to the hooks' own cost. Each reports the
// process's CPU time per operation (cpu-ns/op, the garbage collector's
// work included) beside the wall time: on a shared machine the wall time
// moves with the other jobs, the CPU time far less.

// quiet is a Go hook with no opinion at the four points of a call.
type quiet struct{ name string }

func (q *quiet) Name() string { return q.name }
func (q *quiet) BeforeToolExecute(*hooks.Context, hooks.ToolCall) (*hooks.ToolCallPatch, error) {
	return nil, nil
}
func (q *quiet) AfterToolExecute(*hooks.Context, hooks.ToolCall, hooks.ToolResult) (*hooks.ToolResultPatch, error) {
	return nil, nil
}
func (q *quiet) BeforeModelRequest(*hooks.Context, hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
	return nil, nil
}
func (q *quiet) AfterModelResponse(*hooks.Context, hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
	return nil, nil
}

// quietHook is what the direct calls call: the four methods.
type quietHook interface {
	hooks.BeforeToolExecuteHook
	hooks.AfterToolExecuteHook
	hooks.BeforeModelRequestHook
	hooks.AfterModelResponseHook
}

func tenQuiet() []quietHook {
	hs := make([]quietHook, 10)
	for i := range hs {
		hs[i] = &quiet{name: fmt.Sprint("quiet", i)}
	}
	return hs
}

var (
	benchRequest  = hooks.ModelRequest{System: "be brief", Messages: []hooks.Message{{Role: "user", Text: "hi"}}, Model: "m"}
	benchResponse = hooks.ModelResponse{Text: "hello"}
)

// cpuTime starts measuring the process's CPU time; the function it
// returns reports it per operation as cpu-ns/op.
func cpuTime(b *testing.B) func() {
	start := processCPU()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64(processCPU()-start)/float64(b.N), "cpu-ns/op")
		}
	}
}

// processCPU is the CPU time the process used so far, in nanoseconds.
func processCPU() int64 {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return u.Utime.Nano() + u.Stime.Nano()
}

// BenchmarkPoints runs the ten hooks through each point method: one
// point call (ten hook calls) per operation.
func BenchmarkPoints(b *testing.B) {
	hs := tenQuiet()
	list := make([]hooks.Hook, len(hs))
	for i, h := range hs {
		list[i] = h
	}
	chain, err := hooks.NewChain(list)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	run, err := chain.Start(ctx, hooks.Host{Env: map[string]string{}}, hooks.RunStart{RunID: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	toolStep := hooks.ToolStep{Call: benchCall}
	modelStep := hooks.ModelStep{Request: benchRequest}
	points := []struct {
		name string
		call func() error
	}{
		{"BeforeToolExecute", func() error { _, err := run.BeforeToolExecute(ctx, benchCall); return err }},
		{"AfterToolExecute", func() error { _, err := run.AfterToolExecute(ctx, toolStep, benchResult); return err }},
		{"BeforeModelRequest", func() error { _, err := run.BeforeModelRequest(ctx, benchRequest); return err }},
		{"AfterModelResponse", func() error { _, err := run.AfterModelResponse(ctx, modelStep, benchResponse); return err }},
	}
	for _, p := range points {
		b.Run(p.name, func(b *testing.B) {
			b.ReportAllocs()
			defer cpuTime(b)()
			for b.Loop() {
				if err := p.call(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPointsDirect calls the same methods of the same ten hooks
// directly, with one Context literal: ten calls per operation.
func BenchmarkPointsDirect(b *testing.B) {
	hs := tenQuiet()
	c := &hooks.Context{Context: context.Background()}
	points := []struct {
		name string
		call func() bool // the ten calls
	}{
		{"BeforeToolExecute", func() bool {
			for _, h := range hs {
				if p, err := h.BeforeToolExecute(c, benchCall); p != nil || err != nil {
					return false
				}
			}
			return true
		}},
		{"AfterToolExecute", func() bool {
			for _, h := range hs {
				if p, err := h.AfterToolExecute(c, benchCall, benchResult); p != nil || err != nil {
					return false
				}
			}
			return true
		}},
		{"BeforeModelRequest", func() bool {
			for _, h := range hs {
				if p, err := h.BeforeModelRequest(c, benchRequest); p != nil || err != nil {
					return false
				}
			}
			return true
		}},
		{"AfterModelResponse", func() bool {
			for _, h := range hs {
				if p, err := h.AfterModelResponse(c, benchResponse); p != nil || err != nil {
					return false
				}
			}
			return true
		}},
	}
	for _, p := range points {
		b.Run(p.name, func(b *testing.B) {
			b.ReportAllocs()
			defer cpuTime(b)()
			for b.Loop() {
				if !p.call() {
					b.Fatal("unexpected opinion")
				}
			}
		})
	}
}

// BenchmarkGuardedCallTool is one tool call through Run.CallTool with one
// guard that has no opinion: BeforeToolExecute, the tool, AfterToolExecute.
func BenchmarkGuardedCallTool(b *testing.B) {
	chain, err := hooks.NewChain([]hooks.Hook{&nop{name: "guard"}})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	run, err := chain.Start(ctx, hooks.Host{Env: map[string]string{}}, hooks.RunStart{RunID: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	tool := func(*hooks.Context, hooks.ToolCall) (hooks.ToolResult, error) { return benchResult, nil }
	b.ReportAllocs()
	defer cpuTime(b)()
	for b.Loop() {
		if res, err := run.CallTool(ctx, benchCall, tool); err != nil || res.Text != "ok" {
			b.Fatal(res, err)
		}
	}
}

// BenchmarkStreamedCall is one streamed model call of ten chunks through
// Run.StreamModel, with the ten quiet hooks on the model points.
func BenchmarkStreamedCall(b *testing.B) {
	list := make([]hooks.Hook, 0, 10)
	for _, h := range tenQuiet() {
		list = append(list, h)
	}
	chain, err := hooks.NewChain(list)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	run, err := chain.Start(ctx, hooks.Host{Env: map[string]string{}}, hooks.RunStart{RunID: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	open := func(_ *hooks.Context, _ hooks.ModelRequest, yield func(hooks.Chunk) error) (hooks.ModelResponse, error) {
		for range 10 {
			if err := yield(hooks.Chunk{Text: "a token "}); err != nil {
				return hooks.ModelResponse{}, err
			}
		}
		return hooks.ModelResponse{}, nil
	}
	deliver := func(hooks.Chunk) error { return nil }
	b.ReportAllocs()
	defer cpuTime(b)()
	for b.Loop() {
		if _, err := run.StreamModel(ctx, benchRequest, open, deliver); err != nil {
			b.Fatal(err)
		}
	}
}

// A point call allocates once whatever the number of its hooks (the
// hooks' Contexts and the life they share, in one allocation), and a
// point no hook handles not at all, at each of the four points of a call.
func TestPointCallsAllocateOnce(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 10, 40} {
		list := make([]hooks.Hook, n)
		for i := range list {
			list[i] = &quiet{name: fmt.Sprint("quiet", i)}
		}
		chain, err := hooks.NewChain(list)
		require.NoError(t, err)
		ctx := context.Background()
		run, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{})
		require.NoError(t, err)
		want := 1.0
		if n == 0 {
			want = 0
		}
		toolStep, modelStep := hooks.ToolStep{Call: benchCall}, hooks.ModelStep{Request: benchRequest}
		for name, call := range map[string]func(){
			"BeforeToolExecute":  func() { _, err = run.BeforeToolExecute(ctx, benchCall) },
			"AfterToolExecute":   func() { _, err = run.AfterToolExecute(ctx, toolStep, benchResult) },
			"BeforeModelRequest": func() { _, err = run.BeforeModelRequest(ctx, benchRequest) },
			"AfterModelResponse": func() { _, err = run.AfterModelResponse(ctx, modelStep, benchResponse) },
		} {
			assert.Equal(t, want, testing.AllocsPerRun(50, call), "%s with %d hooks", name, n)
			assert.NoError(t, err)
		}
	}
}
