package claudecode_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/claudecode"
)

// noopModelHook is a BeforeModelRequest hook that does nothing: the
// baseline of a model request through a chain.
type noopModelHook struct{}

func (noopModelHook) Name() string { return "noop" }
func (noopModelHook) BeforeModelRequest(*hooks.Context, hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
	return nil, nil
}

// BenchmarkTranscriptRequest is what keeping the transcript costs a model
// request of a conversation of n messages (a third of them tool calls and
// results), when no handler runs at that request (the file is written only
// before a handler runs): a Claude Code set whose only handler is a
// PreToolUse, against a chain with a hook that does nothing.
func BenchmarkTranscriptRequest(b *testing.B) {
	for _, n := range []int{20, 200} {
		var msgs []hooks.Message
		for i := range n / 3 {
			id := fmt.Sprint("call-", i)
			msgs = append(msgs, hooks.Message{Role: "user", Text: "please list the files in the project"},
				hooks.Message{Role: "assistant", Text: "Listing.", ToolCalls: []hooks.ToolCall{{ID: id, Name: "shell", Arguments: map[string]any{"command": "ls -la"}}}},
				hooks.Message{Role: "tool", ToolCallID: id, Text: "a.go\nb.go\nREADME.md"})
		}
		req := hooks.ModelRequest{System: "base", Messages: msgs}
		claude, err := claudecode.Hooks([]byte(`{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"true"}]}]}`))
		if err != nil {
			b.Fatal(err)
		}
		for _, c := range []struct {
			name string
			hs   []hooks.Hook
		}{{"noop", []hooks.Hook{noopModelHook{}}}, {"claude", claude}} {
			b.Run(fmt.Sprintf("%s/messages=%d", c.name, n), func(b *testing.B) {
				chain, err := hooks.NewChain(c.hs)
				if err != nil {
					b.Fatal(err)
				}
				ctx := context.Background()
				run, err := chain.Start(ctx, hooks.Host{Workdir: b.TempDir(), Env: map[string]string{}}, hooks.RunStart{})
				if err != nil {
					b.Fatal(err)
				}
				defer run.End(ctx, hooks.RunEnd{})
				b.ReportAllocs()
				for b.Loop() {
					if _, err := run.BeforeModelRequest(ctx, req); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
