package hooks_test

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

// secret is an API key the redactor must keep out of every chunk.
const secret = "sk-0123456789abcdefghijABCDEFGHIJ01"

// redactor is a stream hook that redacts API keys of the shape of secret,
// in the stream and in the reply.
type redactor struct{ name string }

var keyPattern = regexp.MustCompile(`sk-[A-Za-z0-9]{32}`)

func (r redactor) Name() string  { return r.name }
func (r redactor) HoldBack() int { return len(secret) - 1 } // a key cut at the end is held until it is whole

func (r redactor) StreamText(_ *hooks.Context, text string, _ bool) (*hooks.StreamPatch, error) {
	if !keyPattern.MatchString(text) {
		return nil, nil
	}
	out := keyPattern.ReplaceAllString(text, "[REDACTED]")
	return &hooks.StreamPatch{Text: &out}, nil
}

func (r redactor) AfterModelResponse(_ *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
	out := keyPattern.ReplaceAllString(resp.Text, "[REDACTED]")
	return &hooks.ModelResponsePatch{Text: &out}, nil
}

// streamHook is a stream hook made of functions, for one test.
type streamHook struct {
	name string
	hold int
	fn   func(c *hooks.Context, text string, final bool) (*hooks.StreamPatch, error)
}

func (h streamHook) Name() string  { return h.name }
func (h streamHook) HoldBack() int { return h.hold }
func (h streamHook) StreamText(c *hooks.Context, text string, final bool) (*hooks.StreamPatch, error) {
	return h.fn(c, text, final)
}

// chunks is a StreamFunc that yields texts one by one, then tool calls,
// and answers the reply they make. seen records, before each chunk, what
// the caller had received, so a test can tell when a chunk was delivered.
type chunks struct {
	texts []string
	calls []hooks.ToolCallDelta
	// before each yield: what the caller had received so far
	seen    []string
	got     *strings.Builder
	errs    []error // what each yield returned
	opened  int     // times the stream was opened
	req     hooks.ModelRequest
	done    bool           // the context was cancelled when the StreamFunc returned
	kept    *hooks.Context // the StreamFunc's context, kept past its call
	failAt  int            // >0: fail with errModel before yielding text #failAt (1-based)
	respond hooks.ModelResponse
}

var errModel = errors.New("model: connection reset")

func (s *chunks) open(c *hooks.Context, req hooks.ModelRequest, yield func(hooks.Chunk) error) (hooks.ModelResponse, error) {
	s.opened++
	s.req, s.kept = req, c
	defer func() { s.done = c.Err() != nil }()
	for i, t := range s.texts {
		if s.failAt == i+1 {
			return hooks.ModelResponse{}, errModel
		}
		s.seen = append(s.seen, s.got.String())
		err := yield(hooks.Chunk{Text: t})
		s.errs = append(s.errs, err)
		if err != nil {
			return hooks.ModelResponse{}, err
		}
	}
	for _, d := range s.calls {
		if err := yield(hooks.Chunk{ToolCall: &d}); err != nil {
			return hooks.ModelResponse{}, err
		}
	}
	resp := s.respond
	if resp.Text == "" {
		resp.Text = strings.Join(s.texts, "")
	}
	return resp, nil
}

// caller is what a caller of StreamModel receives.
type caller struct {
	text   strings.Builder
	chunks []hooks.Chunk
}

func (c *caller) deliver(ch hooks.Chunk) error {
	c.chunks = append(c.chunks, ch)
	c.text.WriteString(ch.Text)
	return nil
}

// stream makes one streamed call of texts through a run of hs.
func stream(t *testing.T, rec *recorder, texts []string, hs ...hooks.Hook) (*caller, *chunks, hooks.ModelReply, error) {
	t.Helper()
	ignore := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, ignore) })
	run := start(t, rec, hs...)
	var got caller
	src := &chunks{texts: texts, got: &got.text}
	reply, err := run.StreamModel(context.Background(), hooks.ModelRequest{System: "sys"}, src.open, got.deliver)
	return &got, src, reply, err
}

func TestStreamModelRunsTheHooksAroundAStreamDeliveredAsItComes(t *testing.T) {
	rec := &recorder{}
	var after hooks.ModelResponse
	h := hooks.Funcs{HookName: "h",
		BeforeModelRequest: func(_ *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
			rec.add("before")
			s := req.System + "+hook"
			return &hooks.ModelRequestPatch{System: &s}, nil
		},
		AfterModelResponse: func(_ *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
			rec.add("after")
			after = resp
			return nil, nil
		}}
	run := start(t, rec, h)
	var got caller
	src := &chunks{texts: []string{"Hel", "lo, ", "world"}, got: &got.text,
		calls:   []hooks.ToolCallDelta{{Index: 0, ID: "c1", Name: "search", Arguments: `{"q":`}, {Index: 0, Arguments: `"go"}`}},
		respond: hooks.ModelResponse{ToolCalls: []hooks.ToolCall{{ID: "c1", Name: "search", Arguments: map[string]any{"q": "go"}}}}}
	reply, err := run.StreamModel(context.Background(), hooks.ModelRequest{System: "sys"},
		func(c *hooks.Context, req hooks.ModelRequest, yield func(hooks.Chunk) error) (hooks.ModelResponse, error) {
			rec.add("open")
			return src.open(c, req, yield)
		}, got.deliver)
	require.NoError(t, err)

	assert.Equal(t, []string{"before", "open", "after"}, rec.got(), "BeforeModelRequest before the stream opens, AfterModelResponse after it")
	assert.Equal(t, "sys+hook", src.req.System, "the stream is opened with the request the hooks left")
	assert.Equal(t, []string{"", "Hel", "Hel" + "lo, "}, src.seen, "each chunk reaches the caller before the model yields the next")
	require.Len(t, got.chunks, 4)
	assert.Equal(t, hooks.ToolCallDelta{Index: 0, ID: "c1", Name: "search", Arguments: `{"q":"go"}`}, *got.chunks[3].ToolCall,
		"an AfterModelResponse hook may rewrite the tool calls: they are delivered whole, once it had them")
	assert.Equal(t, "Hello, world", after.Text, "AfterModelResponse sees the assembled text")
	assert.Equal(t, "search", after.ToolCalls[0].Name, "and the assembled tool calls")
	assert.Equal(t, "Hello, world", reply.Response.Text)
	assert.False(t, src.done, "the stream's context lives while the stream is read")
	assert.Error(t, src.kept.Err(), "and ends with the call")
}

func TestStreamNeverDeliversASecretSplitAcrossChunks(t *testing.T) {
	reply := "Your key is " + secret + ", keep it. Again: " + secret + "."
	for size := 1; size <= len(reply); size++ {
		var texts []string
		for i := 0; i < len(reply); i += size {
			texts = append(texts, reply[i:min(i+size, len(reply))])
		}
		rec := &recorder{}
		got, _, r, err := stream(t, rec, texts, redactor{name: "redact"})
		require.NoError(t, err)
		for _, ch := range got.chunks {
			assert.NotContains(t, ch.Text, "sk-0", "chunk size %d: a chunk carries the start of the key", size)
		}
		require.NotContains(t, got.text.String(), secret[:8], "chunk size %d: the delivered text holds part of the key", size)
		require.Equal(t, "Your key is [REDACTED], keep it. Again: [REDACTED].", got.text.String(), "chunk size %d", size)
		assert.Equal(t, got.text.String(), r.Response.Text, "the reply is what was delivered")
	}
}

func TestStreamFirstChunkWaitsOnlyForTheHoldBack(t *testing.T) {
	hold := streamHook{name: "hold5", hold: 5, fn: func(*hooks.Context, string, bool) (*hooks.StreamPatch, error) { return nil, nil }}
	for _, tc := range []struct {
		name string
		hs   []hooks.Hook
		seen []string
	}{
		{"no stream hook", nil, []string{"", "abcdefghij", "abcdefghijklm"}},
		{"hold back 5", []hooks.Hook{hold}, []string{"", "abcde", "abcdefgh"}},
		{"hold all", []hooks.Hook{streamHook{name: "all", hold: hooks.HoldAll, fn: hold.fn}}, []string{"", "", ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, src, _, err := stream(t, &recorder{}, []string{"abcdefghij", "klm", "nop"}, tc.hs...)
			require.NoError(t, err)
			assert.Equal(t, tc.seen, src.seen, "what the caller had before each chunk")
			assert.Equal(t, "abcdefghijklmnop", got.text.String(), "all of it at the end")
		})
	}
}

func TestStreamHoldBackCountsRunesNotBytes(t *testing.T) {
	var texts []string
	hold := streamHook{name: "hold2", hold: 2, fn: func(_ *hooks.Context, text string, _ bool) (*hooks.StreamPatch, error) {
		texts = append(texts, text)
		return nil, nil
	}}
	got, src, _, err := stream(t, &recorder{}, []string{"ééé", "€€"}, hold)
	require.NoError(t, err)
	assert.Equal(t, []string{"", "é"}, src.seen, "two runes held back, never half a rune")
	assert.Equal(t, []string{"ééé", "éé€€", "€€"}, texts, "the hook sees what it held and the new text")
	assert.Equal(t, "ééé€€", got.text.String())
}

func TestStreamEndStopsTheStreamAndClosesTheProvider(t *testing.T) {
	rec := &recorder{}
	stop := streamHook{name: "stop", fn: func(_ *hooks.Context, text string, _ bool) (*hooks.StreamPatch, error) {
		if i := strings.Index(text, "STOP"); i >= 0 {
			kept := text[:i]
			return &hooks.StreamPatch{Text: &kept, End: &hooks.End{Output: "stopped"}}, nil
		}
		return nil, nil
	}}
	var after string
	audit := hooks.Funcs{HookName: "audit", AfterModelResponse: func(_ *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
		after = resp.Text
		return nil, nil
	}}
	got, src, reply, err := stream(t, rec, []string{"one ", "two STOP three", " four", " five"}, audit, stop)
	require.NoError(t, err)
	assert.Equal(t, "one two ", got.text.String(), "nothing after the End is delivered")
	assert.Len(t, src.errs, 2, "the provider's stream is not read past the End")
	assert.Error(t, src.errs[1], "yield tells the stream to stop")
	assert.True(t, src.done, "the provider's stream context is cancelled")
	require.NotNil(t, reply.End)
	assert.Equal(t, "stopped", reply.End.Output, "the End ends the run")
	assert.Equal(t, "one two ", after, "AfterModelResponse sees what was delivered")
}

func TestStreamChunksAfterTheEndAreDropped(t *testing.T) {
	stop := streamHook{name: "stop", fn: func(*hooks.Context, string, bool) (*hooks.StreamPatch, error) {
		return &hooks.StreamPatch{End: &hooks.End{}}, nil
	}}
	run := start(t, &recorder{}, stop)
	var got caller
	_, err := run.StreamModel(context.Background(), hooks.ModelRequest{},
		func(_ *hooks.Context, _ hooks.ModelRequest, yield func(hooks.Chunk) error) (hooks.ModelResponse, error) {
			for _, t := range []string{"a", "b", "c"} {
				_ = yield(hooks.Chunk{Text: t, ToolCall: &hooks.ToolCallDelta{Name: "x"}}) // ignores the error
			}
			return hooks.ModelResponse{}, nil
		}, got.deliver)
	require.NoError(t, err)
	assert.Equal(t, []hooks.Chunk{{Text: "a"}}, got.chunks, "a StreamFunc that keeps yielding delivers nothing more")
}

func TestStreamARespondIsDeliveredThroughTheStreamHooks(t *testing.T) {
	cached := hooks.ModelResponse{Text: "cached: " + secret,
		ToolCalls: []hooks.ToolCall{{ID: "c1", Name: "search", Arguments: map[string]any{"q": "go"}}}}
	cache := hooks.Funcs{HookName: "cache", BeforeModelRequest: func(*hooks.Context, hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
		return &hooks.ModelRequestPatch{Respond: &cached}, nil
	}}
	got, src, reply, err := stream(t, &recorder{}, []string{"unused"}, redactor{name: "redact"}, cache)
	require.NoError(t, err)
	assert.Zero(t, src.opened, "a hook answered: no stream is opened")
	require.Len(t, got.chunks, 2)
	assert.Equal(t, "cached: [REDACTED]", got.chunks[0].Text)
	assert.Equal(t, hooks.ToolCallDelta{ID: "c1", Name: "search", Arguments: `{"q":"go"}`}, *got.chunks[1].ToolCall)
	assert.Equal(t, "cached: [REDACTED]", reply.Response.Text)
	assert.Len(t, reply.Response.ToolCalls, 1)
}

func TestStreamAnEndBeforeTheModelDeliversNothing(t *testing.T) {
	end := hooks.Funcs{HookName: "end", BeforeModelRequest: func(*hooks.Context, hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
		return &hooks.ModelRequestPatch{End: &hooks.End{Output: "done"}}, nil
	}}
	got, src, reply, err := stream(t, &recorder{}, []string{"x"}, end)
	require.NoError(t, err)
	assert.Zero(t, src.opened)
	assert.Empty(t, got.chunks)
	require.NotNil(t, reply.End)
	assert.Equal(t, "done", reply.End.Output)
}

func TestStreamJavaScriptHooksSeeTheAssembledReply(t *testing.T) {
	js, err := hooks.CompileJS("js", `exports.afterModelResponse = (ctx, resp) => ({text: resp.text.toUpperCase() + " (" + resp.toolCalls.length + ")"});`, nil)
	require.NoError(t, err)
	got, _, reply, err := stream(t, &recorder{}, []string{"hel", "lo"}, js)
	require.NoError(t, err)
	assert.Equal(t, "hello", got.text.String(), "the chunks are the model's: a JS hook does not see the stream")
	assert.Equal(t, "HELLO (0)", reply.Response.Text, "it sees, and may rewrite, the assembled reply")
}

func TestStreamModelNeedsAStreamAndADeliver(t *testing.T) {
	run := start(t, &recorder{})
	src := &chunks{texts: []string{"x"}, got: &strings.Builder{}}
	_, err := run.StreamModel(context.Background(), hooks.ModelRequest{}, nil, func(hooks.Chunk) error { return nil })
	require.ErrorContains(t, err, "StreamFunc")
	_, err = run.StreamModel(context.Background(), hooks.ModelRequest{}, src.open, nil)
	require.ErrorContains(t, err, "deliver")
	assert.Zero(t, src.opened)
}

func TestStreamACancelledCallDeliversNothingMore(t *testing.T) {
	run := start(t, &recorder{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var got []string
	_, err := run.StreamModel(ctx, hooks.ModelRequest{},
		func(_ *hooks.Context, _ hooks.ModelRequest, yield func(hooks.Chunk) error) (hooks.ModelResponse, error) {
			for _, t := range []string{"a", "b", "c"} {
				_ = yield(hooks.Chunk{Text: t}) // a stream that ignores its context
			}
			return hooks.ModelResponse{Text: "abc"}, nil
		}, func(ch hooks.Chunk) error {
			got = append(got, ch.Text)
			cancel()
			return nil
		})
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, []string{"a"}, got)
}
