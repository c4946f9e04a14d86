package hooks_test

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/rienda/hooks"
)

// nop is a Go hook that has no opinion on tool calls.
type nop struct{ name string }

func (n *nop) Name() string { return n.name }
func (n *nop) BeforeToolExecute(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
	return nil, nil
}

func tenNops() []hooks.Hook {
	hs := make([]hooks.Hook, 10)
	for i := range hs {
		hs[i] = &nop{name: fmt.Sprint("nop", i)}
	}
	return hs
}

var benchCall = hooks.ToolCall{ID: "1", Name: "shell", Arguments: map[string]any{"command": "ls"}}

// BenchmarkDirect is the baseline: ten direct interface calls.
func BenchmarkDirect(b *testing.B) {
	hs := tenNops()
	direct := make([]hooks.BeforeToolExecuteHook, len(hs))
	for i, h := range hs {
		direct[i] = h.(hooks.BeforeToolExecuteHook)
	}
	c := &hooks.Context{Context: context.Background()}
	b.ReportAllocs()
	defer cpuTime(b)()
	for b.Loop() {
		for _, h := range direct {
			if p, err := h.BeforeToolExecute(c, benchCall); p != nil || err != nil {
				b.Fatal("unexpected opinion")
			}
		}
	}
}

// BenchmarkChain runs the same ten hooks through Run.BeforeToolExecute.
func BenchmarkChain(b *testing.B) {
	benchChain(b, tenNops())
}

// BenchmarkChainOne runs one of those hooks: with BenchmarkChain it splits
// the cost of a point call into a fixed part and a part per hook.
func BenchmarkChainOne(b *testing.B) {
	benchChain(b, tenNops()[:1])
}

// BenchmarkEmptyChain is a tool point that no hook handles.
func BenchmarkEmptyChain(b *testing.B) {
	benchChain(b, nil)
}

func benchChain(b *testing.B, hs []hooks.Hook, opts ...hooks.Option) {
	chain, err := hooks.NewChain(hs, opts...)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	run, err := chain.Start(ctx, hooks.Host{Env: map[string]string{}}, hooks.RunStart{RunID: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	defer cpuTime(b)()
	for b.Loop() {
		if step, err := run.BeforeToolExecute(ctx, benchCall); err != nil || step.Refused {
			b.Fatal("unexpected decision")
		}
	}
}

// BenchmarkCommandExec spawns testdata/commands/allow.sh with os/exec,
// writes it an envelope and reads its output: the floor for a command hook.
func BenchmarkCommandExec(b *testing.B) {
	path, err := filepath.Abs("testdata/commands/allow.sh")
	if err != nil {
		b.Fatal(err)
	}
	stdin := []byte(`{"event":"pre_tool_call","subject":"shell","toolName":"shell","arguments":"{\"command\":\"ls\"}"}`)
	b.ReportAllocs()
	for b.Loop() {
		cmd := exec.Command(path)
		cmd.Env = []string{} // as the hook's run has (benchChain's Host.Env)
		cmd.Stdin = bytes.NewReader(stdin)
		if out, err := cmd.Output(); err != nil || string(out) != "{}\n" {
			b.Fatalf("%v %q", err, out)
		}
	}
}

// BenchmarkCommandHook runs the same script as a pre_tool_call command hook
// through Run.BeforeToolExecute.
func BenchmarkCommandHook(b *testing.B) {
	path, err := filepath.Abs("testdata/commands/allow.sh")
	if err != nil {
		b.Fatal(err)
	}
	hs, err := hooks.CommandHooks([]byte(fmt.Sprintf(`{"hooks":[{"event":"pre_tool_call","command":[%q]}]}`, path)))
	if err != nil {
		b.Fatal(err)
	}
	benchChain(b, hs)
}

// BenchmarkChainTraced is BenchmarkChain with a trace that keeps nothing:
// what tracing costs when it is on.
func BenchmarkChainTraced(b *testing.B) {
	benchChain(b, tenNops(), hooks.WithTrace(func(hooks.TraceEvent) {}))
}

// stepFloor has Run.BeforeToolExecute's signature and does nothing but
// what any implementation must: check the context and return the step.
//
//go:noinline
func stepFloor(ctx context.Context, call hooks.ToolCall) (hooks.ToolStep, error) {
	if err := ctx.Err(); err != nil {
		return hooks.ToolStep{}, err
	}
	return hooks.ToolStep{Call: call}, nil
}

// BenchmarkStepFloor is the cost of the signature alone: the ToolStep
// value is too large for registers, so every call copies it through memory.
// With BenchmarkDirect it bounds what BenchmarkChain can reach.
func BenchmarkStepFloor(b *testing.B) {
	ctx := context.Background()
	b.ReportAllocs()
	defer cpuTime(b)()
	for b.Loop() {
		if step, err := stepFloor(ctx, benchCall); err != nil || step.Refused {
			b.Fatal("unexpected decision")
		}
	}
}
