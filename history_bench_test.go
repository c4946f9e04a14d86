package hooks_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/hooktest"
)

// The paths besides JS hooks whose cost could grow with the conversation,
// each at 10 and 1,000 messages of 2 KB.

func pathHistory(n int) []hooks.Message {
	text := strings.Repeat("x", 2048)
	msgs := make([]hooks.Message, n)
	for i := range msgs {
		msgs[i] = hooks.Message{Role: [...]string{"user", "assistant"}[i%2], Text: text}
	}
	return msgs
}

func sizes(b *testing.B, f func(b *testing.B, msgs []hooks.Message)) {
	for _, n := range []int{10, 1000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			msgs := pathHistory(n)
			b.ReportAllocs()
			f(b, msgs)
		})
	}
}

func runOf(b *testing.B, opts []hooks.Option, hs ...hooks.Hook) *hooks.Run {
	chain, err := hooks.NewChain(hs, opts...)
	if err != nil {
		b.Fatal(err)
	}
	run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{RunID: "r"})
	if err != nil {
		b.Fatal(err)
	}
	return run
}

var systemHook = hooks.Funcs{HookName: "system", BeforeModelRequest: func(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
	s := req.System + "!"
	c.SetState(len(req.Messages))
	return &hooks.ModelRequestPatch{System: &s}, nil
}}

func modelLoop(b *testing.B, run *hooks.Run, msgs []hooks.Message) {
	req := hooks.ModelRequest{System: "s", Messages: msgs}
	for b.Loop() {
		if _, err := run.BeforeModelRequest(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPathGoHook: a Go hook that reads the system prompt (the floor).
func BenchmarkPathGoHook(b *testing.B) {
	sizes(b, func(b *testing.B, msgs []hooks.Message) { modelLoop(b, runOf(b, nil, systemHook), msgs) })
}

// BenchmarkPathTrace: the same with WithTrace on.
func BenchmarkPathTrace(b *testing.B) {
	sizes(b, func(b *testing.B, msgs []hooks.Message) {
		modelLoop(b, runOf(b, []hooks.Option{hooks.WithTrace(func(hooks.TraceEvent) {})}, systemHook), msgs)
	})
}

// BenchmarkPathMessagesPatch: a Go hook that returns a Messages patch
// (the last message replaced; its own copy is the hook's cost), traced.
func BenchmarkPathMessagesPatch(b *testing.B) {
	sizes(b, func(b *testing.B, msgs []hooks.Message) {
		patched := append([]hooks.Message(nil), msgs...)
		patched[len(patched)-1].Text = "redacted"
		h := hooks.Funcs{HookName: "patch", BeforeModelRequest: func(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
			return &hooks.ModelRequestPatch{Messages: patched}, nil
		}}
		modelLoop(b, runOf(b, []hooks.Option{hooks.WithTrace(func(hooks.TraceEvent) {})}, h, systemHook), msgs)
	})
}

// BenchmarkPathSnapshot: Run.Snapshot after a model call with the history.
func BenchmarkPathSnapshot(b *testing.B) {
	sizes(b, func(b *testing.B, msgs []hooks.Message) {
		run := runOf(b, nil, systemHook)
		if _, err := run.BeforeModelRequest(context.Background(), hooks.ModelRequest{Messages: msgs}); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if _, err := run.Snapshot(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkPathCommand: a turn_start command hook (spawns `true`).
func BenchmarkPathCommand(b *testing.B) {
	sizes(b, func(b *testing.B, msgs []hooks.Message) {
		hs, err := hooks.CommandHooks([]byte(`{"hooks":[{"event":"turn_start","command":["true"]}]}`))
		if err != nil {
			b.Fatal(err)
		}
		modelLoop(b, runOf(b, nil, hs...), msgs)
	})
}

// BenchmarkPathHooktest: hooktest's Harness.Model with a Go hook.
func BenchmarkPathHooktest(b *testing.B) {
	sizes(b, func(b *testing.B, msgs []hooks.Message) {
		h := hooktest.New(b, systemHook)
		req := hooks.ModelRequest{System: "s", Messages: msgs}
		for b.Loop() {
			h.Model(req, hooks.ModelResponse{Text: "ok"}).RequireSystem(b, "s!")
		}
	})
}
