package openai_test

import (
	"encoding/json"
	"slices"
	"testing"

	oai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/rienda/hooks"
	hooksopenai "github.com/rienda/hooks/adapters/openai"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func marshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

func TestRequestShowsHooksRolesTextAndToolCalls(t *testing.T) {
	req := hooksopenai.Request(history(t))
	assert.Equal(t, "Describe images.", req.System)
	require.Len(t, req.Messages, 4)
	assert.Equal(t, hooks.Message{Role: "user", Text: "What is in this picture?"}, plain(req.Messages[0]))
	assert.Equal(t, "assistant", req.Messages[1].Role)
	assert.Equal(t, []hooks.ToolCall{{ID: "call_0", Name: "lookup", Arguments: map[string]any{"id": 9007199254740993.0}}},
		req.Messages[1].ToolCalls)
	assert.Equal(t, hooks.Message{Role: "tool", Text: "a green pixel", ToolCallID: "call_0"}, plain(req.Messages[2]))
}

// plain is m without its SDK value, to compare with a literal.
func plain(m hooks.Message) hooks.Message {
	return hooks.Message{Role: m.Role, Text: m.Text, ID: m.ID, ToolCalls: m.ToolCalls, ToolCallID: m.ToolCallID}
}

func TestParamsWithoutHooksSendsEveryMessageAsItWas(t *testing.T) {
	params := history(t)
	params.Messages = append(params.Messages,
		oai.ChatCompletionMessageParamUnion{OfUser: &oai.ChatCompletionUserMessageParam{
			Name: param.NewOpt("ada"), Content: oai.ChatCompletionUserMessageParamContentUnion{OfString: param.NewOpt("named")}}},
		oai.ChatCompletionMessageParamOfFunction("42", "legacy"),
		param.Override[oai.ChatCompletionMessageParamUnion](json.RawMessage(`{"role":"user","content":"raw","x_extra":1}`)),
	)
	out, err := hooksopenai.Params(params, hooksopenai.Request(params))
	require.NoError(t, err)
	assert.Equal(t, marshal(t, params), marshal(t, out))

	req := hooksopenai.Request(params)
	assert.Equal(t, "raw", req.Messages[len(req.Messages)-1].Text, "an overridden message still shows its text")
}

func TestChangedTextKeepsTheMessagesOtherParts(t *testing.T) {
	params := history(t)
	req := hooksopenai.Request(params)
	req.Messages[0].Text = "What colour is this?"

	out, err := hooksopenai.Params(params, req)
	require.NoError(t, err)
	parts := out.Messages[1].OfUser.Content.OfArrayOfContentParts
	require.Len(t, parts, 2)
	assert.Equal(t, "What colour is this?", parts[0].OfText.Text)
	assert.Equal(t, "30m", parts[0].OfText.PromptCacheBreakpoint.Ttl, "the breakpoint stays")
	assert.Equal(t, pixel(t), parts[1].OfImageURL.ImageURL.URL, "the image stays")
	assert.Equal(t, "What is in this picture?",
		params.Messages[1].OfUser.Content.OfArrayOfContentParts[0].OfText.Text, "the caller's params are not modified")
}

func TestParamsFollowsRemovalsAndReordering(t *testing.T) {
	params := history(t)
	req := hooksopenai.Request(params)
	req.Messages = []hooks.Message{req.Messages[3], req.Messages[0]}

	out, err := hooksopenai.Params(params, req)
	require.NoError(t, err)
	assert.Equal(t, marshal(t, []oai.ChatCompletionMessageParamUnion{params.Messages[0], params.Messages[4], params.Messages[1]}),
		marshal(t, out.Messages))
}

func TestChangedToolCallArgumentsAreEncodedAndOthersKept(t *testing.T) {
	params := history(t)
	req := hooksopenai.Request(params)
	req.Messages[1].ToolCalls = slices.Clone(req.Messages[1].ToolCalls)
	req.Messages[1].ToolCalls[0].Arguments = map[string]any{"id": 7}

	out, err := hooksopenai.Params(params, req)
	require.NoError(t, err)
	assert.JSONEq(t, `{"id":7}`, out.Messages[2].OfAssistant.ToolCalls[0].OfFunction.Function.Arguments)
}

func TestBadMessagesAreErrorsNamingTheMessage(t *testing.T) {
	for _, tc := range []struct {
		msg  hooks.Message
		want string
	}{
		{hooks.Message{Role: "narrator", Text: "x"}, `message 1 (narrator): unknown role "narrator"`},
		{hooks.Message{Role: "tool", Text: "x"}, `message 1 (tool): a tool message needs a ToolCallID`},
		{hooks.Message{Role: "assistant", ToolCalls: []hooks.ToolCall{{ID: "c", Name: "f", Arguments: map[string]any{"ch": make(chan int)}}}},
			`message 1 (assistant): tool call "c"`},
	} {
		req := hooks.ModelRequest{Messages: []hooks.Message{{Role: "user", Text: "hi"}, tc.msg}}
		_, err := hooksopenai.Params(userParams("hi"), req)
		require.Error(t, err)
		assert.Contains(t, err.Error(), tc.want)
	}
}

func TestAssistantMessageOfAHooksAnswer(t *testing.T) {
	msg, err := hooksopenai.AssistantMessage(nil, hooks.ModelResponse{Text: "cached",
		ToolCalls: []hooks.ToolCall{{ID: "c1", Name: "read", Arguments: map[string]any{"path": "a"}}}})
	require.NoError(t, err)
	assert.JSONEq(t, `{"role":"assistant","content":"cached","tool_calls":[{"id":"c1","type":"function",
		"function":{"name":"read","arguments":"{\"path\":\"a\"}"}}]}`, marshal(t, msg))
}

func TestToolMessageOfAValueOnlyResult(t *testing.T) {
	msg, err := hooksopenai.ToolMessage("c1", hooks.ToolResult{Value: []int{1, 2}, IsError: true})
	require.NoError(t, err)
	assert.JSONEq(t, `{"role":"tool","tool_call_id":"c1","content":"Error: [1,2]"}`, marshal(t, msg))

	_, err = hooksopenai.ToolMessage("c2", hooks.ToolResult{Value: make(chan int)})
	assert.ErrorContains(t, err, `tool call "c2"`)
}
