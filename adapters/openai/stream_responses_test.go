package openai_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"
	"github.com/rienda/hooks"
	hooksopenai "github.com/rienda/hooks/adapters/openai"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// responseEvents is a response streamed as texts, then function calls,
// as the Responses API sends it, ending with response.completed.
func responseEvents(texts []string, calls ...call) []string {
	seq := 0
	ev := func(typ, fields string) string {
		seq++
		return fmt.Sprintf("event: %s\ndata: {\"type\":%q,\"sequence_number\":%d,%s}\n\n", typ, typ, seq, fields)
	}
	evs := []string{ev("response.created", `"response":{"id":"resp_1","object":"response","created_at":1700000000,"status":"in_progress","model":"gpt-test","output":[]}`),
		ev("response.output_item.added", `"output_index":0,"item":{"id":"msg_1","type":"message","status":"in_progress","role":"assistant","content":[]}`)}
	for _, t := range texts {
		evs = append(evs, ev("response.output_text.delta", `"item_id":"msg_1","output_index":0,"content_index":0,"delta":`+quote(t)))
	}
	output := []string{`{"id":"msg_1","type":"message","status":"completed","role":"assistant","content":[{"type":"output_text","text":` +
		quote(strings.Join(texts, "")) + `,"annotations":[]}]}`}
	for i, c := range calls {
		item := fmt.Sprintf(`{"id":"fc_%d","type":"function_call","status":"%%s","call_id":%s,"name":%s,"arguments":%%s}`, i, quote(c.id), quote(c.name))
		evs = append(evs, ev("response.output_item.added", fmt.Sprintf(`"output_index":%d,"item":`+item, i+1, "in_progress", `""`)))
		for j := 0; j < len(c.args); j += 4 {
			evs = append(evs, ev("response.function_call_arguments.delta",
				fmt.Sprintf(`"item_id":"fc_%d","output_index":%d,"delta":%s`, i, i+1, quote(c.args[j:min(j+4, len(c.args))]))))
		}
		output = append(output, fmt.Sprintf(item, "completed", quote(c.args)))
	}
	return append(evs, ev("response.completed", `"response":{"id":"resp_1","object":"response","created_at":1700000000,"status":"completed",`+
		`"model":"gpt-test","output":[`+strings.Join(output, ",")+`],`+
		`"usage":{"input_tokens":11,"input_tokens_details":{"cached_tokens":3},"output_tokens":7,"output_tokens_details":{"reasoning_tokens":0},"total_tokens":18}}`))
}

func responseParams(text string) responses.ResponseNewParams {
	return responses.ResponseNewParams{Model: "gpt-test", Instructions: oaiString("Be brief."),
		Input: responses.ResponseNewParamsInputUnion{OfInputItemList: responses.ResponseInputParam{
			responses.ResponseInputItemParamOfMessage(text, responses.EasyInputMessageRoleUser)}}}
}

func TestStreamResponseDeliversChunksWhileTheStreamIsOpen(t *testing.T) {
	api := newSSEAPI(t, "/v1/responses", responseEvents([]string{"Hello", ", world"})...)
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
	var seen hooks.ModelRequest
	var after hooks.ModelResponse
	run := startRun(t, hooks.Funcs{HookName: "h",
		BeforeModelRequest: func(_ *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
			seen = req
			system := req.System + " Cite sources."
			return &hooks.ModelRequestPatch{System: &system}, nil
		},
		AfterModelResponse: func(_ *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
			after = resp
			return nil, nil
		}})
	reply, done, err := hooksopenai.StreamResponse(context.Background(), run, &api.client.Responses, responseParams("hi"), got.Deliver)
	require.NoError(t, err)
	assert.Equal(t, "Be brief.", seen.System)
	assert.Equal(t, "gpt-test", seen.Model)
	require.Len(t, seen.Messages, 1)
	assert.Equal(t, hooks.Message{Role: "user", Text: "hi"}, hooks.Message{Role: seen.Messages[0].Role, Text: seen.Messages[0].Text})
	body := api.Body(t, 0)
	assert.Equal(t, "Be brief. Cite sources.", body["instructions"], "the hook's instructions are sent")
	assert.Equal(t, true, body["stream"])
	assert.Equal(t, "Hello, world", got.Text())
	assert.Equal(t, "Hello, world", after.Text)
	assert.Equal(t, hooks.Usage{InputTokens: 11, OutputTokens: 7, CachedInputTokens: 3}, after.Usage)
	assert.Equal(t, hooks.StopEndTurn, after.StopReason)
	assert.Equal(t, "Hello, world", reply.Response.Text)
	require.NotNil(t, done)
	assert.Equal(t, "resp_1", done.ID)
}

func TestStreamResponseKeepsASecretOutOfEveryChunk(t *testing.T) {
	text := "Here is the key: " + secret + " and once more " + secret + "."
	for _, size := range []int{1, 3, 7, 16, len(text)} {
		api := newSSEAPI(t, "/v1/responses", responseEvents(split(text, size))...)
		got := newReceived()
		run := startRun(t, redactor{})
		reply, done, err := hooksopenai.StreamResponse(context.Background(), run, &api.client.Responses, responseParams("key?"), got.Deliver)
		require.NoError(t, err)
		for _, ch := range got.Chunks() {
			assert.NotContains(t, ch.Text, "sk-live", "chunk size %d", size)
		}
		assert.Equal(t, "Here is the key: [REDACTED] and once more [REDACTED].", got.Text(), "chunk size %d", size)
		items, err := hooksopenai.ResponsesAssistantItems(done, reply.Response)
		require.NoError(t, err)
		raw, err := json.Marshal(items)
		require.NoError(t, err)
		assert.NotContains(t, string(raw), secret, "the recorded reply is redacted too")
	}
}

func TestStreamResponseStreamsAndAssemblesFunctionCalls(t *testing.T) {
	api := newSSEAPI(t, "/v1/responses",
		responseEvents([]string{"Let me look."}, call{"call_1", "search", `{"q":"streaming hooks","n":9007199254740993}`})...)
	got := newReceived()
	var after hooks.ModelResponse
	run := startRun(t, hooks.Funcs{HookName: "h", AfterModelResponse: func(_ *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
		after = resp
		return nil, nil
	}})
	reply, done, err := hooksopenai.StreamResponse(context.Background(), run, &api.client.Responses, responseParams("go"), got.Deliver)
	require.NoError(t, err)
	var args strings.Builder
	for _, ch := range got.Chunks() {
		if ch.ToolCall != nil {
			assert.Equal(t, 1, ch.ToolCall.Index)
			args.WriteString(ch.ToolCall.Arguments)
		}
	}
	assert.Equal(t, `{"q":"streaming hooks","n":9007199254740993}`, args.String())
	require.Len(t, after.ToolCalls, 1)
	assert.Equal(t, "call_1", after.ToolCalls[0].ID)
	assert.Equal(t, hooks.StopToolUse, after.StopReason)
	items, err := hooksopenai.ResponsesAssistantItems(done, reply.Response)
	require.NoError(t, err)
	require.Len(t, items, 2)
	assert.Equal(t, `{"q":"streaming hooks","n":9007199254740993}`, items[1].OfFunctionCall.Arguments, "the model's argument text, exactly")
}

func TestResponsesParamsSendsWhatTheHooksChanged(t *testing.T) {
	base := responseParams("first")
	base.Input.OfInputItemList = append(base.Input.OfInputItemList,
		responses.ResponseInputItemParamOfFunctionCall(`{"q":"x"}`, "call_1", "search"))
	req := hooksopenai.ResponsesRequest(base)
	require.Len(t, req.Messages, 2)
	assert.Equal(t, "call_1", req.Messages[1].ToolCalls[0].ID)

	same, err := hooksopenai.ResponsesParams(base, req)
	require.NoError(t, err)
	assert.Equal(t, base.Input, same.Input, "an input no hook changed is sent as it was")

	req.Messages = append(req.Messages, hooks.Message{Role: "tool", ToolCallID: "call_1", Text: "found"})
	req.Model = "gpt-other"
	out, err := hooksopenai.ResponsesParams(base, req)
	require.NoError(t, err)
	raw, err := json.Marshal(out)
	require.NoError(t, err)
	var body map[string]any
	require.NoError(t, json.Unmarshal(raw, &body))
	assert.Equal(t, "gpt-other", body["model"])
	input := body["input"].([]any)
	require.Len(t, input, 3)
	assert.Equal(t, map[string]any{"type": "function_call_output", "call_id": "call_1", "output": "found"}, input[2])

	req.Tools = []hooks.ToolSpec{{Name: "search"}}
	_, err = hooksopenai.ResponsesParams(base, req)
	require.ErrorContains(t, err, "tools", "tools a hook set are not silently dropped")
}

func oaiString(s string) param.Opt[string] { return param.NewOpt(s) }
