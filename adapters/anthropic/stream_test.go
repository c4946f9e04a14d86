package anthropic_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/rienda/hooks"
	hooksanthropic "github.com/rienda/hooks/adapters/anthropic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sseAPI is an endpoint that answers every request with one stream of
// server-sent events, written one event at a time; before each event it
// may wait for the test (gate), so a test can tell that the caller got a
// chunk while the stream was still open.
type sseAPI struct {
	mu     sync.Mutex
	bodies [][]byte
	events []string
	next   func() []string              // non-nil: the events of each request, in turn
	gate   func(i int, r *http.Request) // called before event i is written
	client sdk.Client
	path   string
}

func newSSEAPI(t testing.TB, path string, events ...string) *sseAPI {
	f := &sseAPI{events: events, path: path}
	srv := httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(srv.Close)
	f.client = sdk.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("sk-ant-test"),
		option.WithMaxRetries(0), option.WithHTTPClient(srv.Client()))
	return f
}

func (f *sseAPI) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if r.Method != http.MethodPost || r.URL.Path != f.path || err != nil {
		http.Error(w, "unexpected request "+r.Method+" "+r.URL.Path, http.StatusNotFound)
		return
	}
	f.mu.Lock()
	f.bodies = append(f.bodies, body)
	events := f.events
	if f.next != nil {
		events = f.next()
	}
	f.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	for i, ev := range events {
		if f.gate != nil {
			f.gate(i, r)
		}
		if _, err := io.WriteString(w, ev); err != nil {
			return // the client closed the stream
		}
		w.(http.Flusher).Flush()
	}
}

func (f *sseAPI) body(t *testing.T, i int) map[string]any {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	require.Greater(t, len(f.bodies), i)
	var m map[string]any
	require.NoError(t, json.Unmarshal(f.bodies[i], &m))
	return m
}

// messageEvents is a message streamed as texts, then tool_use blocks,
// as the Messages API sends them.
func messageEvents(texts []string, calls ...call) []string {
	ev := func(typ, data string) string { return "event: " + typ + "\ndata: " + data + "\n\n" }
	evs := []string{ev("message_start", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant",`+
		`"content":[],"model":"claude-test","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":11,"output_tokens":1}}}`),
		ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)}
	for _, t := range texts {
		evs = append(evs, ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":`+quote(t)+`}}`))
	}
	evs = append(evs, ev("content_block_stop", `{"type":"content_block_stop","index":0}`))
	for i, c := range calls {
		evs = append(evs, ev("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"tool_use","id":%s,"name":%s,"input":{}}}`,
			i+1, quote(c.id), quote(c.name))))
		for j := 0; j < len(c.input); j += 4 {
			evs = append(evs, ev("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"input_json_delta","partial_json":%s}}`,
				i+1, quote(c.input[j:min(j+4, len(c.input))]))))
		}
		evs = append(evs, ev("content_block_stop", fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, i+1)))
	}
	stop := "end_turn"
	if len(calls) > 0 {
		stop = "tool_use"
	}
	return append(evs, ev("message_delta", `{"type":"message_delta","delta":{"stop_reason":"`+stop+`","stop_sequence":null},"usage":{"output_tokens":7}}`),
		ev("message_stop", `{"type":"message_stop"}`))
}

// secret is an API key that must reach no chunk.
const secret = "sk-live-0123456789abcdefghijABCDEF"

var keyPattern = regexp.MustCompile(`sk-live-[A-Za-z0-9]{26}`)

// redactor redacts keys of secret's shape in the stream and in the reply.
type redactor struct{}

func (redactor) Name() string  { return "redact" }
func (redactor) HoldBack() int { return len(secret) - 1 }
func (redactor) StreamText(_ *hooks.Context, text string, _ bool) (*hooks.StreamPatch, error) {
	if !keyPattern.MatchString(text) {
		return nil, nil
	}
	out := keyPattern.ReplaceAllString(text, "[REDACTED]")
	return &hooks.StreamPatch{Text: &out}, nil
}
func (redactor) AfterModelResponse(_ *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
	out := keyPattern.ReplaceAllString(resp.Text, "[REDACTED]")
	return &hooks.ModelResponsePatch{Text: &out}, nil
}

// received is what deliver got.
type received struct {
	mu     sync.Mutex
	chunks []hooks.Chunk
	text   strings.Builder
	first  chan struct{} // closed on the first text
}

func newReceived() *received { return &received{first: make(chan struct{})} }

func (r *received) deliver(ch hooks.Chunk) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if ch.Text != "" && r.text.Len() == 0 {
		close(r.first)
	}
	r.chunks = append(r.chunks, ch)
	r.text.WriteString(ch.Text)
	return nil
}

func startRun(t *testing.T, hs ...hooks.Hook) *hooks.Run {
	t.Helper()
	chain, err := hooks.NewChain(hs, hooks.WithDiagnostics(func(d hooks.Diagnostic) { t.Errorf("diagnostic: %s at %s: %v", d.Hook, d.Point, d.Err) }))
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{Input: "test"})
	require.NoError(t, err)
	return run
}

// split cuts s into pieces of n bytes.
func split(s string, n int) []string {
	var out []string
	for i := 0; i < len(s); i += n {
		out = append(out, s[i:min(i+n, len(s))])
	}
	return out
}

func TestStreamModelDeliversMessageChunksWhileTheStreamIsOpen(t *testing.T) {
	api := newSSEAPI(t, "/v1/messages", messageEvents([]string{"Hello", ", world"})...)
	got := newReceived()
	api.gate = func(i int, _ *http.Request) {
		if i == 3 { // the second text (event 3) waits until the caller has the first
			select {
			case <-got.first:
			case <-time.After(10 * time.Second):
				t.Error("the first chunk did not reach the caller while the stream was open")
			}
		}
	}
	var after hooks.ModelResponse
	run := startRun(t, hooks.Funcs{HookName: "h", AfterModelResponse: func(_ *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
		after = resp
		return nil, nil
	}})
	reply, msg, err := hooksanthropic.StreamModel(context.Background(), run, &api.client.Messages, userParams("hi"), got.deliver)
	require.NoError(t, err)
	assert.Equal(t, "Hello, world", got.text.String())
	assert.Equal(t, "Hello, world", after.Text, "AfterModelResponse sees the assembled reply")
	assert.Equal(t, hooks.Usage{InputTokens: 11, OutputTokens: 7}, after.Usage, "and what the streamed call cost")
	assert.Equal(t, hooks.StopEndTurn, after.StopReason)
	assert.Equal(t, "Hello, world", reply.Response.Text)
	require.NotNil(t, msg)
	assert.Equal(t, "Hello, world", msg.Content[0].Text)
	assert.Equal(t, true, api.body(t, 0)["stream"])
}

func TestStreamModelKeepsASecretOutOfEveryMessageChunk(t *testing.T) {
	text := "Here is the key: " + secret + " and once more " + secret + "."
	for _, size := range []int{1, 3, 7, 16, len(text)} {
		api := newSSEAPI(t, "/v1/messages", messageEvents(split(text, size))...)
		got := newReceived()
		run := startRun(t, redactor{})
		reply, msg, err := hooksanthropic.StreamModel(context.Background(), run, &api.client.Messages, userParams("key?"), got.deliver)
		require.NoError(t, err)
		for _, ch := range got.chunks {
			assert.NotContains(t, ch.Text, "sk-live", "chunk size %d", size)
		}
		assert.Equal(t, "Here is the key: [REDACTED] and once more [REDACTED].", got.text.String(), "chunk size %d", size)
		rec, err := hooksanthropic.AssistantMessage(msg, reply.Response)
		require.NoError(t, err)
		raw, err := json.Marshal(rec)
		require.NoError(t, err)
		assert.NotContains(t, string(raw), secret, "the recorded reply is redacted too")
	}
}

func TestStreamModelStreamsAndAssemblesToolUseBlocks(t *testing.T) {
	api := newSSEAPI(t, "/v1/messages",
		messageEvents([]string{"Let me look."}, call{"toolu_1", "search", `{"q":"streaming hooks"}`}, call{"toolu_2", "fetch", `{"url":"x"}`})...)
	got := newReceived()
	var after hooks.ModelResponse
	run := startRun(t, hooks.Funcs{HookName: "h", AfterModelResponse: func(_ *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
		after = resp
		return nil, nil
	}})
	_, msg, err := hooksanthropic.StreamModel(context.Background(), run, &api.client.Messages, userParams("go"), got.deliver)
	require.NoError(t, err)
	args := map[int]string{}
	for _, ch := range got.chunks {
		if ch.ToolCall != nil {
			args[ch.ToolCall.Index] += ch.ToolCall.Arguments
		}
	}
	assert.Equal(t, map[int]string{1: `{"q":"streaming hooks"}`, 2: `{"url":"x"}`}, args, "the deltas make each call's input (by content block)")
	require.Len(t, after.ToolCalls, 2)
	assert.Equal(t, hooks.ToolCall{ID: "toolu_1", Name: "search", Arguments: map[string]any{"q": "streaming hooks"}}, after.ToolCalls[0])
	assert.JSONEq(t, `{"url":"x"}`, string(msg.Content[2].Input))
}

func TestStreamModelEndClosesTheMessageStream(t *testing.T) {
	texts := []string{"one ", "two ", "STOP", " three", " four"}
	api := newSSEAPI(t, "/v1/messages", messageEvents(texts)...)
	hungUp := make(chan bool, 1)
	api.gate = func(i int, r *http.Request) {
		if i == 6 { // after STOP (event 4): the client must hang up, not read on
			select {
			case <-r.Context().Done():
				hungUp <- true
			case <-time.After(10 * time.Second):
				hungUp <- false
			}
		}
	}
	got := newReceived()
	stop := stopAt{}
	run := startRun(t, stop)
	reply, msg, err := hooksanthropic.StreamModel(context.Background(), run, &api.client.Messages, userParams("go"), got.deliver)
	require.NoError(t, err)
	assert.True(t, <-hungUp, "the End closes the HTTP stream")
	assert.Equal(t, "one two ", got.text.String())
	require.NotNil(t, reply.End)
	assert.Nil(t, msg)
}

// stopAt ends the stream at the word STOP.
type stopAt struct{}

func (stopAt) Name() string  { return "stop" }
func (stopAt) HoldBack() int { return 3 }
func (stopAt) StreamText(_ *hooks.Context, text string, _ bool) (*hooks.StreamPatch, error) {
	if i := strings.Index(text, "STOP"); i >= 0 {
		kept := text[:i]
		return &hooks.StreamPatch{Text: &kept, End: &hooks.End{Output: "stopped"}}, nil
	}
	return nil, nil
}
