package prebuilt_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/prebuilt"
)

// Attacks on Redact over the model's reasoning: a secret that reaches the
// caller, the reply or the trace by a path other than a plain yielded
// reasoning chunk.

const reasoningKey = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789ABCD"

// leakFree streams open through a chain of Redact (cfg) after hs, with a
// trace and diagnostics, and fails t when any part of the key reaches a
// chunk, the reply, a trace event or a diagnostic.
func leakFree(t *testing.T, label string, cfg prebuilt.RedactConfig, hs []hooks.Hook, open hooks.StreamFunc) hooks.ModelReply {
	t.Helper()
	var seen []string
	opts := []hooks.Option{
		hooks.WithTrace(func(e hooks.TraceEvent) { seen = append(seen, fmt.Sprintf("%+v %s", e, e)) }),
		hooks.WithDiagnostics(func(d hooks.Diagnostic) { seen = append(seen, fmt.Sprintf("%+v %v", d, d.Err)) }),
	}
	// Redact listed first: it is entered before any hook that answers, so
	// its after and stream hooks unwind on every reply (a hook listed
	// before it that Responds is outside it, by design, as for the text).
	chain, err := hooks.NewChain(append([]hooks.Hook{prebuilt.Redact(cfg)}, hs...), opts...)
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{})
	require.NoError(t, err)
	reply, err := run.StreamModel(context.Background(), hooks.ModelRequest{}, open, func(ch hooks.Chunk) error {
		seen = append(seen, fmt.Sprintf("%+v", ch))
		return nil
	})
	if err != nil {
		seen = append(seen, err.Error())
	}
	seen = append(seen, fmt.Sprintf("%+v", reply))
	for _, s := range seen {
		assert.NotContains(t, s, "abcdefghij", "%s: a part of the key leaks", label)
		assert.NotContains(t, s, "0123456789ABCD", "%s: a part of the key leaks", label)
	}
	return reply
}

// yields is a StreamFunc yielding chunks, and returning ret as its reply.
func yields(ret hooks.ModelResponse, chunks ...hooks.Chunk) hooks.StreamFunc {
	return func(_ *hooks.Context, _ hooks.ModelRequest, yield func(hooks.Chunk) error) (hooks.ModelResponse, error) {
		for _, ch := range chunks {
			if err := yield(ch); err != nil {
				return hooks.ModelResponse{}, err
			}
		}
		return ret, nil
	}
}

// Order and state: the key in reasoning the StreamFunc returns but never
// yields; yielded after the text; cut at every byte with text chunks
// between its halves; in a reply a before-hook Responds with; in one a
// wrap answers with, without calling next; in one a wrap returns after
// streaming other reasoning. Under Mask and Block.
func TestAttackRedactReasoningByEveryPath(t *testing.T) {
	withKey := "plan: " + reasoningKey + " end"
	respond := hooks.Funcs{HookName: "respond", BeforeModelRequest: func(*hooks.Context, hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
		return &hooks.ModelRequestPatch{Respond: &hooks.ModelResponse{Text: "canned", Reasoning: withKey}}, nil
	}}
	answer := hooks.Funcs{HookName: "answer", WrapModel: func(*hooks.Context, hooks.ModelRequest, hooks.ModelFunc) (hooks.ModelResponse, error) {
		return hooks.ModelResponse{Text: "from the wrap", Reasoning: withKey}, nil
	}}
	swap := hooks.Funcs{HookName: "swap", WrapModel: func(c *hooks.Context, req hooks.ModelRequest, next hooks.ModelFunc) (hooks.ModelResponse, error) {
		resp, err := next(c, req)
		resp.Reasoning += withKey // what the wrap returns beside what was streamed
		resp.Text += reasoningKey
		return resp, err
	}}
	idle := yields(hooks.ModelResponse{Text: "hi"}, hooks.Chunk{Text: "hi"})
	for _, strategy := range []prebuilt.Strategy{prebuilt.Mask, prebuilt.Block} {
		cfg := prebuilt.RedactConfig{Strategy: strategy}
		leakFree(t, "returned, never yielded", cfg, nil,
			yields(hooks.ModelResponse{Text: "hi", Reasoning: withKey}, hooks.Chunk{Text: "hi"}))
		leakFree(t, "after the text", cfg, nil,
			yields(hooks.ModelResponse{Text: "hi", Reasoning: withKey}, hooks.Chunk{Text: "hi"}, hooks.Chunk{Reasoning: withKey}))
		for cut := 0; cut <= len(withKey); cut++ {
			leakFree(t, fmt.Sprint("interleaved, cut ", cut), cfg, nil, yields(hooks.ModelResponse{Text: "a b c", Reasoning: withKey},
				hooks.Chunk{Text: "a "}, hooks.Chunk{Reasoning: withKey[:cut]}, hooks.Chunk{Text: "b "},
				hooks.Chunk{Reasoning: withKey[cut:], Text: "c"}))
		}
		leakFree(t, "responded", cfg, []hooks.Hook{respond}, idle)
		leakFree(t, "a wrap answered", cfg, []hooks.Hook{answer}, idle)
		leakFree(t, "a wrap swapped", cfg, []hooks.Hook{swap}, yields(hooks.ModelResponse{Text: "hi", Reasoning: "fine"},
			hooks.Chunk{Reasoning: "fine"}, hooks.Chunk{Text: "hi"}))
	}
}

// Size and encoding: the key at the end of megabytes of reasoning in one
// chunk, after a long run of whitespace, JSON-escaped, and after
// multi-byte characters cut between chunks.
func TestAttackRedactHugeAndEncodedReasoning(t *testing.T) {
	huge := strings.Repeat("thinking… ", 10_000) + reasoningKey
	leakFree(t, "huge", prebuilt.RedactConfig{}, nil, yields(hooks.ModelResponse{}, hooks.Chunk{Reasoning: huge}))
	spaced := strings.Repeat(" ", 100_000) + reasoningKey
	leakFree(t, "after whitespace", prebuilt.RedactConfig{}, nil, yields(hooks.ModelResponse{}, hooks.Chunk{Reasoning: spaced[:50_000]}, hooks.Chunk{Reasoning: spaced[50_000:]}))
	escaped := `{"key":"` + strings.ReplaceAll(reasoningKey, "-", `\u002d`) + `"}`
	reply := leakFree(t, "JSON-escaped", prebuilt.RedactConfig{}, nil, yields(hooks.ModelResponse{}, hooks.Chunk{Reasoning: escaped}))
	assert.NotContains(t, reply.Response.Reasoning, "abcdefghij")
	multi := "日本語é" + reasoningKey
	for cut := 1; cut < 12; cut++ {
		leakFree(t, fmt.Sprint("multi-byte cut ", cut), prebuilt.RedactConfig{}, nil,
			yields(hooks.ModelResponse{}, hooks.Chunk{Reasoning: multi[:cut]}, hooks.Chunk{Reasoning: multi[cut:]}))
	}
}

// After the model (CallModel, no stream): a Respond's reasoning and a
// wrap's answer are redacted like the model's, when Redact is listed
// before the hook that answers.
func TestAttackRedactReasoningOfAnAnswerAfterTheModel(t *testing.T) {
	respond := hooks.Funcs{HookName: "respond", BeforeModelRequest: func(*hooks.Context, hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
		return &hooks.ModelRequestPatch{Respond: &hooks.ModelResponse{Reasoning: "x " + reasoningKey}}, nil
	}}
	answer := hooks.Funcs{HookName: "answer", WrapModel: func(*hooks.Context, hooks.ModelRequest, hooks.ModelFunc) (hooks.ModelResponse, error) {
		return hooks.ModelResponse{Reasoning: "x " + reasoningKey}, nil
	}}
	for _, h := range []hooks.Hook{respond, answer} {
		chain, err := hooks.NewChain([]hooks.Hook{prebuilt.Redact(prebuilt.RedactConfig{}), h})
		require.NoError(t, err)
		run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{})
		require.NoError(t, err)
		reply, err := run.CallModel(context.Background(), hooks.ModelRequest{}, func(*hooks.Context, hooks.ModelRequest) (hooks.ModelResponse, error) {
			return hooks.ModelResponse{}, nil
		})
		require.NoError(t, err)
		assert.NotContains(t, reply.Response.Reasoning, "abcdefghij", h.Name())
		assert.Contains(t, reply.Response.Reasoning, "x ", h.Name())
	}
}
