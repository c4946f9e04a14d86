package hooks_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

// literalRedactor redacts one secret, holding back one rune less than it.
func literalRedactor(secret string) streamHook {
	return streamHook{name: "redact", hold: utf8.RuneCountInString(secret) - 1,
		fn: func(_ *hooks.Context, text string, _ bool) (*hooks.StreamPatch, error) {
			if !strings.Contains(text, secret) {
				return nil, nil
			}
			out := strings.ReplaceAll(text, secret, "[X]")
			return &hooks.StreamPatch{Text: &out}, nil
		}}
}

// A secret of multi-byte characters cut at any byte, inside a character
// too, is never delivered, in part or whole: the hold-back counts whole
// characters, and the hook never sees half of one.
func TestStreamHoldBackCountsWholeCharactersAtEverySplit(t *testing.T) {
	for _, secret := range []string{"ЖЖЖЖ-пароль", "秘密鍵秘密鍵", "🔑🔑🔑🔑", "ab€é🔑c"} {
		reply := "say " + secret + " twice: " + secret + " ok"
		want := "say [X] twice: [X] ok"
		h := literalRedactor(secret)
		for i := 1; i < len(reply); i++ {
			for _, texts := range [][]string{{reply[:i], reply[i:]}, append(byteChunks(reply[:i]), reply[i:]), append([]string{reply[:i]}, byteChunks(reply[i:])...)} {
				got, _, r, err := stream(t, &recorder{}, texts, h)
				require.NoError(t, err)
				require.Equal(t, want, got.text.String(), "secret %q cut at byte %d", secret, i)
				assert.Equal(t, want, r.Response.Text)
				for _, ch := range got.chunks {
					assert.True(t, utf8.ValidString(ch.Text), "a chunk ends inside a character: %q", ch.Text)
				}
			}
		}
	}
}

// byteChunks cuts s into one-byte chunks.
func byteChunks(s string) []string {
	out := make([]string, len(s))
	for i := 0; i < len(s); i++ {
		out[i] = s[i : i+1]
	}
	return out
}

// A StreamFunc that fails and returns the text it accumulated beside its
// error (as SDK accumulators do), or a wrap that returns other text, never
// makes the raw text the reply: the reply is what passed the stream hooks.
func TestStreamReplyIsOnlyWhatPassedTheStreamHooks(t *testing.T) {
	raw := "key " + secret + " end"
	failing := func(c *hooks.Context, _ hooks.ModelRequest, yield func(hooks.Chunk) error) (hooks.ModelResponse, error) {
		for _, t := range []string{"key ", secret[:10], secret[10:], " end"} {
			if err := yield(hooks.Chunk{Text: t}); err != nil {
				return hooks.ModelResponse{Text: raw}, err
			}
		}
		return hooks.ModelResponse{Text: raw, ToolCalls: []hooks.ToolCall{{ID: "c", Name: "x"}}}, errModel
	}
	complete := func(c *hooks.Context, _ hooks.ModelRequest, yield func(hooks.Chunk) error) (hooks.ModelResponse, error) {
		if err := yield(hooks.Chunk{Text: raw}); err != nil {
			return hooks.ModelResponse{}, err
		}
		return hooks.ModelResponse{Text: raw}, nil
	}
	rawAgain := hooks.Funcs{HookName: "raw-again", WrapModel: func(c *hooks.Context, req hooks.ModelRequest, next hooks.ModelFunc) (hooks.ModelResponse, error) {
		resp, err := next(c, req)
		resp.Text += " " + secret // a wrap that adds text after the stream
		return resp, err
	}}
	for name, tc := range map[string]struct {
		open    hooks.StreamFunc
		hs      []hooks.Hook
		wantErr error
	}{
		"failed stream":                {failing, nil, errModel},
		"failed stream through a wrap": {failing, []hooks.Hook{rawAgain}, errModel},
		"a wrap's text after a stream": {complete, []hooks.Hook{rawAgain}, nil},
	} {
		t.Run(name, func(t *testing.T) {
			ignore := goleak.IgnoreCurrent()
			defer goleak.VerifyNone(t, ignore)
			run := start(t, &recorder{}, append([]hooks.Hook{redactor{name: "redact"}}, tc.hs...)...)
			var got caller
			reply, err := run.StreamModel(context.Background(), hooks.ModelRequest{}, tc.open, got.deliver)
			if tc.wantErr != nil {
				require.ErrorIs(t, err, tc.wantErr)
				assert.Empty(t, reply.Response.ToolCalls, "a failed reply runs no tool")
			} else {
				require.NoError(t, err)
			}
			assert.NotContains(t, reply.Response.Text, secret)
			assert.NotContains(t, got.text.String(), secret)
			assert.Equal(t, got.text.String(), reply.Response.Text, "the reply is what was delivered")
		})
	}
}

// A wrap that calls next twice at once (a hedged request) gets
// ErrStreamOpen for the second: two streams never interleave past the
// redactor, and no provider context outlives the call.
func TestStreamHedgedNextIsRefused(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	defer goleak.VerifyNone(t, ignore)
	opened := make(chan struct{})
	release := make(chan struct{})
	var mu sync.Mutex
	var ctxs []*hooks.Context
	open := func(c *hooks.Context, _ hooks.ModelRequest, yield func(hooks.Chunk) error) (hooks.ModelResponse, error) {
		mu.Lock()
		ctxs = append(ctxs, c)
		first := len(ctxs) == 1
		mu.Unlock()
		if first {
			close(opened)
			<-release
		}
		for _, t := range []string{"a " + secret[:7], secret[7:] + " b"} {
			if err := yield(hooks.Chunk{Text: t}); err != nil {
				return hooks.ModelResponse{}, err
			}
		}
		return hooks.ModelResponse{Text: "a " + secret + " b"}, nil
	}
	var second error
	hedge := hooks.Funcs{HookName: "hedge", WrapModel: func(c *hooks.Context, req hooks.ModelRequest, next hooks.ModelFunc) (hooks.ModelResponse, error) {
		type result struct {
			resp hooks.ModelResponse
			err  error
		}
		first := make(chan result, 1)
		go func() {
			resp, err := next(c, req)
			first <- result{resp, err}
		}()
		<-opened
		_, second = next(c, req) // while the first stream is open
		close(release)
		r := <-first
		return r.resp, r.err
	}}
	run := start(t, &recorder{}, redactor{name: "redact"}, hedge)
	var got caller
	reply, err := run.StreamModel(context.Background(), hooks.ModelRequest{}, open, got.deliver)
	require.NoError(t, err)
	require.ErrorIs(t, second, hooks.ErrStreamOpen)
	assert.Len(t, ctxs, 1, "the second stream was never opened")
	assert.Equal(t, "a [REDACTED] b", got.text.String())
	assert.Equal(t, "a [REDACTED] b", reply.Response.Text)
	for _, c := range ctxs {
		assert.Error(t, c.Context.Err(), "a provider context outlived the call")
	}
}

// A next after a stream hook's End streams nothing, even when the End
// delivered nothing (so no ErrStreamDelivered stops it).
func TestStreamNextAfterEndStreamsNothing(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	defer goleak.VerifyNone(t, ignore)
	moderate := streamHook{name: "moderate", hold: hooks.HoldAll, fn: func(_ *hooks.Context, text string, final bool) (*hooks.StreamPatch, error) {
		empty := ""
		return &hooks.StreamPatch{Text: &empty, End: &hooks.End{Output: "refused"}}, nil
	}}
	var again error
	retry := hooks.Funcs{HookName: "retry", WrapModel: func(c *hooks.Context, req hooks.ModelRequest, next hooks.ModelFunc) (hooks.ModelResponse, error) {
		resp, err := next(c, req)
		if err != nil {
			return resp, err
		}
		if _, again = next(c, req); again == nil {
			return hooks.ModelResponse{}, errors.New("streamed twice")
		}
		return resp, nil
	}}
	got, src, reply, err := stream(t, &recorder{}, []string{"bad ", "words"}, moderate, retry)
	require.NoError(t, err)
	require.ErrorIs(t, again, hooks.ErrStreamEnded)
	assert.Equal(t, 1, src.opened)
	assert.Empty(t, got.chunks)
	require.NotNil(t, reply.End)
	assert.Equal(t, "refused", reply.End.Output)
}

// redactCalls is an AfterModelResponse hook that redacts an email in the
// arguments of the reply's tool calls.
var redactCalls = hooks.Funcs{HookName: "redact-calls",
	AfterModelResponse: func(_ *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
		calls := make([]hooks.ToolCall, len(resp.ToolCalls))
		for i, call := range resp.ToolCalls {
			args := map[string]any{}
			for k, v := range call.Arguments {
				if s, ok := v.(string); ok {
					v = strings.ReplaceAll(s, "ann@example.com", "[EMAIL]")
				}
				args[k] = v
			}
			calls[i] = hooks.ToolCall{ID: call.ID, Name: call.Name, Arguments: args}
		}
		return &hooks.ModelResponsePatch{ToolCalls: calls}, nil
	}}

// Streamed tool-call argument deltas do not bypass the hooks: when a hook
// may act on the reply, the calls are delivered once it had them, as it
// left them, and never when the run ends.
func TestStreamToolCallDeltasReachTheCallerOnlyAfterTheHooks(t *testing.T) {
	deltas := []hooks.ToolCallDelta{{Index: 0, ID: "c1", Name: "mail", Arguments: `{"to":"ann@`}, {Index: 0, Arguments: `example.com"}`}}
	whole := []hooks.ToolCall{{ID: "c1", Name: "mail", Arguments: map[string]any{"to": "ann@example.com"}}}
	for name, tc := range map[string]struct {
		hs    []hooks.Hook
		calls []hooks.ToolCallDelta // what the caller gets
	}{
		"after-hook redacts": {[]hooks.Hook{redactCalls}, []hooks.ToolCallDelta{{ID: "c1", Name: "mail", Arguments: `{"to":"[EMAIL]"}`}}},
		"a stream hook holds them too": {[]hooks.Hook{streamHook{name: "s", fn: func(*hooks.Context, string, bool) (*hooks.StreamPatch, error) { return nil, nil }}},
			[]hooks.ToolCallDelta{{ID: "c1", Name: "mail", Arguments: `{"to":"ann@example.com"}`}}},
		"no hook that could act: as they come": {[]hooks.Hook{layerBefore("b")}, deltas},
		"a stream End: none": {[]hooks.Hook{streamHook{name: "end", fn: func(*hooks.Context, string, bool) (*hooks.StreamPatch, error) {
			return &hooks.StreamPatch{End: &hooks.End{}}, nil
		}}}, nil},
	} {
		t.Run(name, func(t *testing.T) {
			ignore := goleak.IgnoreCurrent()
			defer goleak.VerifyNone(t, ignore)
			run := start(t, &recorder{}, tc.hs...)
			var got caller
			src := &chunks{texts: []string{"mailing"}, calls: deltas, got: &got.text, respond: hooks.ModelResponse{ToolCalls: whole}}
			reply, err := run.StreamModel(context.Background(), hooks.ModelRequest{}, src.open, got.deliver)
			require.NoError(t, err)
			var calls []hooks.ToolCallDelta
			for _, ch := range got.chunks {
				if ch.ToolCall != nil {
					calls = append(calls, *ch.ToolCall)
				}
			}
			assert.Equal(t, tc.calls, calls)
			if len(tc.calls) == 1 {
				require.Len(t, reply.Response.ToolCalls, 1)
			} else if tc.calls == nil {
				assert.Empty(t, reply.Response.ToolCalls)
			}
		})
	}
}

// layerBefore is a hook with only a BeforeModelRequest that lets all through.
func layerBefore(name string) hooks.Funcs {
	return hooks.Funcs{HookName: name, BeforeModelRequest: func(*hooks.Context, hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
		return nil, nil
	}}
}

// Calls the hooks left as the model wrote them go out as the model's own
// text at their own Index (keys in order, big integers exact), however
// many; a call whose text says more than the hooks saw (a repeated key)
// goes out as the arguments they saw.
func TestStreamHeldToolCallsKeepTheModelsText(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	defer goleak.VerifyNone(t, ignore)
	var deltas []hooks.ToolCallDelta
	var whole []hooks.ToolCall
	var want []hooks.ToolCallDelta
	for i := range 5 {
		id := string(rune('a' + i))
		raw := `{"z":1,"n":9007199254740993,"id":"` + id + `"}`
		deltas = append(deltas, hooks.ToolCallDelta{Index: i + 2, ID: id, Name: "t", Arguments: raw[:7]}, hooks.ToolCallDelta{Index: i + 2, Arguments: raw[7:]})
		args, err := hooks.ParseArguments([]byte(raw))
		require.NoError(t, err)
		whole = append(whole, hooks.ToolCall{ID: id, Name: "t", Arguments: args})
		want = append(want, hooks.ToolCallDelta{Index: i + 2, ID: id, Name: "t", Arguments: raw})
	}
	// A sixth call repeats a key: the hooks read the last value only.
	deltas = append(deltas, hooks.ToolCallDelta{Index: 7, ID: "dup", Name: "mail", Arguments: `{"to":"ann@example.com","to":"bob@example.com"}`})
	whole = append(whole, hooks.ToolCall{ID: "dup", Name: "mail", Arguments: map[string]any{"to": "bob@example.com"}})
	want = append(want, hooks.ToolCallDelta{Index: 7, ID: "dup", Name: "mail", Arguments: `{"to":"bob@example.com"}`})

	run := start(t, &recorder{}, redactCalls)
	var got caller
	src := &chunks{texts: []string{"calling"}, calls: deltas, got: &got.text, respond: hooks.ModelResponse{ToolCalls: whole}}
	_, err := run.StreamModel(context.Background(), hooks.ModelRequest{}, src.open, got.deliver)
	require.NoError(t, err)
	var calls []hooks.ToolCallDelta
	for _, ch := range got.chunks {
		if ch.ToolCall != nil {
			calls = append(calls, *ch.ToolCall)
		}
	}
	assert.Equal(t, want, calls)
}
