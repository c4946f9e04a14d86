package openai_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	oai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/rienda/hooks"
	hooksopenai "github.com/rienda/hooks/adapters/openai"
	"github.com/rienda/hooks/internal/adapttest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sseAPI is a streaming endpoint (adapttest.SSE) with the SDK's client.
type sseAPI struct {
	*adapttest.SSE
	client oai.Client
}

func newSSEAPI(t testing.TB, path string, events ...string) *sseAPI {
	f := &sseAPI{SSE: adapttest.NewSSE(t, path, events...)}
	f.client = oai.NewClient(option.WithBaseURL(f.URL+"/v1"), option.WithAPIKey("sk-test"),
		option.WithMaxRetries(0), option.WithHTTPClient(f.Client))
	return f
}

// chatEvents is a chat completion streamed as texts, then tool calls, as
// the API sends them: one data event per chunk, usage last, then [DONE].
func chatEvents(texts []string, calls ...call) []string {
	var evs []string
	chunk := func(delta, finish string) string {
		fin := "null"
		if finish != "" {
			fin = quote(finish)
		}
		return `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"gpt-test",` +
			`"choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + fin + `}]}` + "\n\n"
	}
	evs = append(evs, chunk(`{"role":"assistant","content":""}`, ""))
	for _, t := range texts {
		evs = append(evs, chunk(`{"content":`+quote(t)+`}`, ""))
	}
	for i, c := range calls {
		evs = append(evs,
			chunk(fmt.Sprintf(`{"tool_calls":[{"index":%d,"id":%s,"type":"function","function":{"name":%s,"arguments":""}}]}`, i, quote(c.id), quote(c.name)), ""))
		for j := 0; j < len(c.args); j += 4 {
			evs = append(evs, chunk(fmt.Sprintf(`{"tool_calls":[{"index":%d,"function":{"arguments":%s}}]}`, i, quote(c.args[j:min(j+4, len(c.args))])), ""))
		}
	}
	finish := "stop"
	if len(calls) > 0 {
		finish = "tool_calls"
	}
	evs = append(evs, chunk(`{}`, finish),
		`data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"gpt-test","choices":[],`+
			`"usage":{"prompt_tokens":11,"completion_tokens":7,"total_tokens":18}}`+"\n\n",
		"data: [DONE]\n\n")
	return evs
}

const secret = adapttest.Secret

type redactor = adapttest.Redactor

var (
	newReceived = adapttest.NewReceived
	split       = adapttest.Split
)

func startRun(t *testing.T, hs ...hooks.Hook) *hooks.Run { return adapttest.StartRun(t, hs...) }

func TestStreamModelDeliversChatChunksWhileTheStreamIsOpen(t *testing.T) {
	api := newSSEAPI(t, "/v1/chat/completions", chatEvents([]string{"Hello", ", world"})...)
	got := newReceived()
	api.Gate = func(i int, _ *http.Request) {
		if i == 2 { // the second text waits until the caller has the first
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
	reply, completion, err := hooksopenai.StreamModel(context.Background(), run, &api.client.Chat.Completions, userParams("hi"), got.Deliver)
	require.NoError(t, err)
	assert.Equal(t, "Hello, world", got.Text())
	assert.Equal(t, "Hello, world", after.Text, "AfterModelResponse sees the assembled reply")
	assert.Equal(t, hooks.Usage{InputTokens: 11, OutputTokens: 7}, after.Usage, "and what the streamed call cost")
	assert.Equal(t, hooks.StopEndTurn, after.StopReason)
	assert.Equal(t, "Hello, world", reply.Response.Text)
	require.NotNil(t, completion)
	assert.Equal(t, "Hello, world", completion.Choices[0].Message.Content)
	assert.Equal(t, true, api.Body(t, 0)["stream"])
	assert.Equal(t, map[string]any{"include_usage": true}, api.Body(t, 0)["stream_options"], "usage is asked for, so hooks see the cost")
}

func TestStreamModelKeepsASecretOutOfEveryChatChunk(t *testing.T) {
	text := "Here is the key: " + secret + " and once more " + secret + "."
	for _, size := range []int{1, 3, 7, 16, len(text)} {
		api := newSSEAPI(t, "/v1/chat/completions", chatEvents(split(text, size))...)
		got := newReceived()
		run := startRun(t, redactor{})
		reply, completion, err := hooksopenai.StreamModel(context.Background(), run, &api.client.Chat.Completions, userParams("key?"), got.Deliver)
		require.NoError(t, err)
		for _, ch := range got.Chunks() {
			assert.NotContains(t, ch.Text, "sk-live", "chunk size %d", size)
		}
		assert.Equal(t, "Here is the key: [REDACTED] and once more [REDACTED].", got.Text(), "chunk size %d", size)
		msg, err := hooksopenai.AssistantMessage(completion, reply.Response)
		require.NoError(t, err)
		raw, err := json.Marshal(msg)
		require.NoError(t, err)
		assert.NotContains(t, string(raw), secret, "the recorded reply is redacted too")
	}
}

func TestStreamModelStreamsAndAssemblesChatToolCalls(t *testing.T) {
	api := newSSEAPI(t, "/v1/chat/completions",
		chatEvents([]string{"Let me look."}, call{"call_1", "search", `{"q":"streaming hooks"}`}, call{"call_2", "fetch", `{"url":"x"}`})...)
	got := newReceived()
	var after hooks.ModelResponse
	run := startRun(t, hooks.Funcs{HookName: "h", AfterModelResponse: func(_ *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
		after = resp
		return nil, nil
	}})
	_, completion, err := hooksopenai.StreamModel(context.Background(), run, &api.client.Chat.Completions, userParams("go"), got.Deliver)
	require.NoError(t, err)
	args := map[int]string{}
	for _, ch := range got.Chunks() {
		if ch.ToolCall != nil {
			args[ch.ToolCall.Index] += ch.ToolCall.Arguments
		}
	}
	assert.Equal(t, map[int]string{0: `{"q":"streaming hooks"}`, 1: `{"url":"x"}`}, args, "the deltas make each call's arguments")
	require.Len(t, after.ToolCalls, 2)
	assert.Equal(t, hooks.ToolCall{ID: "call_1", Name: "search", Arguments: map[string]any{"q": "streaming hooks"}}, after.ToolCalls[0])
	assert.Equal(t, `{"url":"x"}`, completion.Choices[0].Message.ToolCalls[1].Function.Arguments)
}

func TestStreamModelEndClosesTheChatStream(t *testing.T) {
	texts := []string{"one ", "two ", "STOP", " three", " four"}
	api := newSSEAPI(t, "/v1/chat/completions", chatEvents(texts)...)
	hungUp := make(chan bool, 1)
	api.Gate = func(i int, r *http.Request) {
		if i == 5 { // after STOP (event 3): the client must hang up, not read on
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
	reply, completion, err := hooksopenai.StreamModel(context.Background(), run, &api.client.Chat.Completions, userParams("go"), got.Deliver)
	require.NoError(t, err)
	assert.True(t, <-hungUp, "the End closes the HTTP stream")
	assert.Equal(t, "one two ", got.Text())
	require.NotNil(t, reply.End)
	assert.Nil(t, completion)
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
