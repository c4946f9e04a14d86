package anthropic_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/rienda/hooks"
	hooksanthropic "github.com/rienda/hooks/adapters/anthropic"
	"github.com/rienda/hooks/internal/adapttest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sseAPI is a streaming endpoint (adapttest.SSE) with the SDK's client.
type sseAPI struct {
	*adapttest.SSE
	client sdk.Client
}

func newSSEAPI(t testing.TB, path string, events ...string) *sseAPI {
	f := &sseAPI{SSE: adapttest.NewSSE(t, path, events...)}
	f.client = sdk.NewClient(option.WithBaseURL(f.URL), option.WithAPIKey("sk-ant-test"),
		option.WithMaxRetries(0), option.WithHTTPClient(f.Client))
	return f
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

const secret = adapttest.Secret

type redactor = adapttest.Redactor

var (
	newReceived = adapttest.NewReceived
	split       = adapttest.Split
)

func startRun(t *testing.T, hs ...hooks.Hook) *hooks.Run { return adapttest.StartRun(t, hs...) }

func TestStreamModelDeliversMessageChunksWhileTheStreamIsOpen(t *testing.T) {
	api := newSSEAPI(t, "/v1/messages", messageEvents([]string{"Hello", ", world"})...)
	got := newReceived()
	api.Gate = func(i int, _ *http.Request) {
		if i == 3 { // the second text (event 3) waits until the caller has the first
			select {
			case <-got.First:
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
	reply, msg, err := hooksanthropic.StreamModel(context.Background(), run, &api.client.Messages, userParams("hi"), got.Deliver)
	require.NoError(t, err)
	assert.Equal(t, "Hello, world", got.Text())
	assert.Equal(t, "Hello, world", after.Text, "AfterModelResponse sees the assembled reply")
	assert.Equal(t, hooks.Usage{InputTokens: 11, OutputTokens: 7}, after.Usage, "and what the streamed call cost")
	assert.Equal(t, hooks.StopEndTurn, after.StopReason)
	assert.Equal(t, "Hello, world", reply.Response.Text)
	require.NotNil(t, msg)
	assert.Equal(t, "Hello, world", msg.Content[0].Text)
	assert.Equal(t, true, api.Body(t, 0)["stream"])
}

func TestStreamModelKeepsASecretOutOfEveryMessageChunk(t *testing.T) {
	text := "Here is the key: " + secret + " and once more " + secret + "."
	for _, size := range []int{1, 3, 7, 16, len(text)} {
		api := newSSEAPI(t, "/v1/messages", messageEvents(split(text, size))...)
		got := newReceived()
		run := startRun(t, redactor{})
		reply, msg, err := hooksanthropic.StreamModel(context.Background(), run, &api.client.Messages, userParams("key?"), got.Deliver)
		require.NoError(t, err)
		for _, ch := range got.Chunks() {
			assert.NotContains(t, ch.Text, "sk-live", "chunk size %d", size)
		}
		assert.Equal(t, "Here is the key: [REDACTED] and once more [REDACTED].", got.Text(), "chunk size %d", size)
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
	_, msg, err := hooksanthropic.StreamModel(context.Background(), run, &api.client.Messages, userParams("go"), got.Deliver)
	require.NoError(t, err)
	args := map[int]string{}
	for _, ch := range got.Chunks() {
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
	api.Gate = func(i int, r *http.Request) {
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
	reply, msg, err := hooksanthropic.StreamModel(context.Background(), run, &api.client.Messages, userParams("go"), got.Deliver)
	require.NoError(t, err)
	assert.True(t, <-hungUp, "the End closes the HTTP stream")
	assert.Equal(t, "one two ", got.Text())
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
