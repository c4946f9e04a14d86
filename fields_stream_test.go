package hooks_test

import (
	"context"
	"strings"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

// piece is one chunk a reasoning stream yields.
type piece struct{ reasoning, text string }

// streamPieces streams pieces through a run of hs and returns what the
// caller received and the reply.
func streamPieces(t *testing.T, pieces []piece, hs ...hooks.Hook) ([]hooks.Chunk, hooks.ModelReply) {
	t.Helper()
	ignore := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, ignore) })
	run := start(t, &recorder{}, hs...)
	var got []hooks.Chunk
	open := func(_ *hooks.Context, _ hooks.ModelRequest, yield func(hooks.Chunk) error) (hooks.ModelResponse, error) {
		var r, x strings.Builder
		for _, p := range pieces {
			r.WriteString(p.reasoning)
			x.WriteString(p.text)
			if err := yield(hooks.Chunk{Reasoning: p.reasoning, Text: p.text}); err != nil {
				return hooks.ModelResponse{}, err
			}
		}
		return hooks.ModelResponse{Text: x.String(), Reasoning: r.String()}, nil
	}
	reply, err := run.StreamModel(context.Background(), hooks.ModelRequest{}, open, func(ch hooks.Chunk) error {
		got = append(got, ch)
		return nil
	})
	require.NoError(t, err)
	return got, reply
}

func joined(chunks []hooks.Chunk) (reasoning, text string) {
	var r, x strings.Builder
	for _, ch := range chunks {
		r.WriteString(ch.Reasoning)
		x.WriteString(ch.Text)
	}
	return r.String(), x.String()
}

// A stream hook redacts the reasoning as it does the text: a key cut at
// every byte between two reasoning chunks is in no chunk, nor in the
// reply's Reasoning, in a reasoning-only stream and beside text.
func TestStreamHooksSeeReasoningAtEveryCut(t *testing.T) {
	reasoning := "é think " + secret + " ok"
	for cut := 0; cut <= len(reasoning); cut++ {
		for _, withText := range []bool{false, true} {
			pieces := []piece{{reasoning: reasoning[:cut]}, {reasoning: reasoning[cut:]}}
			if withText {
				pieces[1].text = "answer " + secret[:10]
				pieces = append(pieces, piece{text: secret[10:] + "!"})
			}
			got, reply := streamPieces(t, pieces, redactor{name: "redact"})
			r, x := joined(got)
			for _, ch := range got {
				assert.NotContains(t, ch.Reasoning, secret[3:12], "cut %d", cut)
				assert.False(t, ch.Reasoning != "" && ch.Text != "", "one channel a chunk")
			}
			assert.Equal(t, "é think [REDACTED] ok", r, "cut %d", cut)
			assert.Equal(t, r, reply.Response.Reasoning, "the reply's reasoning is what was delivered")
			if withText {
				assert.Equal(t, "answer [REDACTED]!", x)
			}
		}
	}
}

// reasoner is a stream hook with StreamReasoning: it gets the reasoning
// there, and only text in StreamText.
type reasoner struct {
	texts, reasonings *[]string
}

func (reasoner) Name() string  { return "reasoner" }
func (reasoner) HoldBack() int { return 0 }
func (h reasoner) StreamText(_ *hooks.Context, text string, _ bool) (*hooks.StreamPatch, error) {
	*h.texts = append(*h.texts, text)
	return nil, nil
}
func (h reasoner) StreamReasoning(_ *hooks.Context, text string, _ bool) (*hooks.StreamPatch, error) {
	*h.reasonings = append(*h.reasonings, text)
	out := strings.ToUpper(text)
	return &hooks.StreamPatch{Text: &out}, nil
}

func TestReasoningStreamHookGetsTheReasoningApart(t *testing.T) {
	var texts, reasonings []string
	var events []hooks.TraceEvent
	chain, err := hooks.NewChain([]hooks.Hook{reasoner{&texts, &reasonings}}, hooks.WithTrace(func(e hooks.TraceEvent) { events = append(events, e) }))
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{})
	require.NoError(t, err)
	var got []hooks.Chunk
	open := func(_ *hooks.Context, _ hooks.ModelRequest, yield func(hooks.Chunk) error) (hooks.ModelResponse, error) {
		for _, ch := range []hooks.Chunk{{Reasoning: "think"}, {Reasoning: " more", Text: "hi"}, {Text: " there"}} {
			if err := yield(ch); err != nil {
				return hooks.ModelResponse{}, err
			}
		}
		return hooks.ModelResponse{}, nil
	}
	reply, err := run.StreamModel(context.Background(), hooks.ModelRequest{}, open, func(ch hooks.Chunk) error { got = append(got, ch); return nil })
	require.NoError(t, err)
	assert.Equal(t, []string{"hi", " there", ""}, texts, "StreamText gets text only (and the final call)")
	assert.Equal(t, []string{"think", " more", ""}, reasonings)
	assert.Equal(t, []hooks.Chunk{{Reasoning: "THINK"}, {Reasoning: " MORE"}, {Text: "hi"}, {Text: " there"}}, got, "reasoning first within a chunk")
	assert.Equal(t, "THINK MORE", reply.Response.Reasoning)
	assert.Equal(t, "hi there", reply.Response.Text)
	var changed []string
	for _, e := range events {
		if e.Point == hooks.StreamModelText {
			changed = e.Changed
		}
	}
	assert.Equal(t, []string{"reasoning"}, changed)
}

// A reply that was not streamed (a Respond) delivers its reasoning through
// the stream hooks too; a HoldAll hook sees the whole reasoning once.
func TestRespondedReasoningPassesTheStreamHooks(t *testing.T) {
	var seen []string
	holdAll := streamHook{name: "all", hold: hooks.HoldAll, fn: func(_ *hooks.Context, text string, final bool) (*hooks.StreamPatch, error) {
		seen = append(seen, text)
		return nil, nil
	}}
	respond := hooks.Funcs{HookName: "respond", BeforeModelRequest: func(*hooks.Context, hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
		return &hooks.ModelRequestPatch{Respond: &hooks.ModelResponse{Text: "cached", Reasoning: "key " + secret}}, nil
	}}
	run := start(t, &recorder{}, redactor{name: "redact"}, holdAll, respond)
	var got []hooks.Chunk
	reply, err := run.StreamModel(context.Background(), hooks.ModelRequest{}, func(*hooks.Context, hooks.ModelRequest, func(hooks.Chunk) error) (hooks.ModelResponse, error) {
		t.Fatal("the model is not called")
		return hooks.ModelResponse{}, nil
	}, func(ch hooks.Chunk) error { got = append(got, ch); return nil })
	require.NoError(t, err)
	assert.Equal(t, []hooks.Chunk{{Reasoning: "key [REDACTED]"}, {Text: "cached"}}, got)
	assert.Equal(t, "key [REDACTED]", reply.Response.Reasoning)
	assert.Equal(t, []string{"key " + secret, "cached"}, seen)
}

// A text-only stream calls its hooks as before: no call for a reasoning
// channel it never had.
func TestTextOnlyStreamMakesNoReasoningCall(t *testing.T) {
	var texts, reasonings []string
	got, _ := streamPieces(t, []piece{{text: "a"}, {text: "b"}}, reasoner{&texts, &reasonings})
	assert.Empty(t, reasonings)
	assert.Equal(t, []string{"a", "b", ""}, texts)
	assert.Equal(t, []hooks.Chunk{{Text: "a"}, {Text: "b"}}, got)
}

// Without stream hooks, reasoning chunks and the reply's reasoning pass
// as the model gave them.
func TestReasoningWithoutStreamHooksPassesAsItIs(t *testing.T) {
	got, reply := streamPieces(t, []piece{{reasoning: "r1"}, {reasoning: "r2", text: "t"}})
	assert.Equal(t, []hooks.Chunk{{Reasoning: "r1"}, {Reasoning: "r2"}, {Text: "t"}}, got)
	assert.Equal(t, "r1r2", reply.Response.Reasoning)
}

// A stream hook that ends the stream on the reasoning stops it there: no
// text after it is delivered.
func TestStreamHookEndOnReasoningStopsTheStream(t *testing.T) {
	end := streamHook{name: "end", fn: func(_ *hooks.Context, text string, _ bool) (*hooks.StreamPatch, error) {
		if strings.Contains(text, "forbidden") {
			empty := ""
			return &hooks.StreamPatch{Text: &empty, End: &hooks.End{Output: "stopped"}}, nil
		}
		return nil, nil
	}}
	got, reply := streamPieces(t, []piece{{reasoning: "ok "}, {reasoning: "forbidden"}, {text: "never"}}, end)
	r, x := joined(got)
	assert.Equal(t, "ok ", r)
	assert.Empty(t, x)
	require.NotNil(t, reply.End)
	assert.Equal(t, "stopped", reply.End.Output)
}
