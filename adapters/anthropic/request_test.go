package anthropic_test

import (
	"encoding/json"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"
	"github.com/rienda/hooks"
	hooksanthropic "github.com/rienda/hooks/adapters/anthropic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func marshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// plain is m without its SDK value, to compare with a literal.
func plain(m hooks.Message) hooks.Message {
	return hooks.Message{Role: m.Role, Text: m.Text, ID: m.ID, ToolCalls: m.ToolCalls, ToolCallID: m.ToolCallID}
}

func TestRequestShowsToolResultsAsToolMessages(t *testing.T) {
	req := hooksanthropic.Request(history(t))
	assert.Equal(t, "Describe images.", req.System)
	got := make([]hooks.Message, len(req.Messages))
	for i, m := range req.Messages {
		got[i] = plain(m)
	}
	assert.Equal(t, []hooks.Message{
		{Role: "user", Text: "What is in this picture?"},
		{Role: "assistant", Text: "Let me look it up.", ToolCalls: []hooks.ToolCall{
			{ID: "toolu_0", Name: "lookup", Arguments: map[string]any{"id": 9007199254740993.0}}}},
		{Role: "tool", Text: "a green pixel", ToolCallID: "toolu_0"},
		{Role: "user", Text: "Sure?"},
	}, got)
}

func TestParamsWithoutHooksSendsEveryMessageAsItWas(t *testing.T) {
	params := history(t)
	params.Messages = append(params.Messages,
		sdk.MessageParam{OfSystem: &sdk.SystemMessageParam{Content: []sdk.TextBlockParam{{Text: "Be brief."}}}},
		sdk.NewUserMessage(),
		param.Override[sdk.MessageParam](json.RawMessage(`{"role":"user","content":"raw"}`)),
	)
	out, err := hooksanthropic.Params(params, hooksanthropic.Request(params))
	require.NoError(t, err)
	assert.Equal(t, marshal(t, params), marshal(t, out))
}

func TestRedactedToolResultKeepsItsMessageTogether(t *testing.T) {
	params := history(t)
	params.Messages[2].OfUser.Content[0].OfToolResult.CacheControl = sdk.NewCacheControlEphemeralParam()
	req := hooksanthropic.Request(params)
	req.Messages[2].Text = "a [redacted] pixel"

	out, err := hooksanthropic.Params(params, req)
	require.NoError(t, err)
	require.Len(t, out.Messages, 3)
	assert.JSONEq(t, `{"role":"user","content":[
		{"tool_use_id":"toolu_0","is_error":false,"cache_control":{"type":"ephemeral"},
		 "content":[{"text":"a [redacted] pixel","type":"text"}],"type":"tool_result"},
		{"text":"Sure?","type":"text"}]}`, marshal(t, out.Messages[2]))
	assert.Equal(t, "a green pixel", params.Messages[2].OfUser.Content[0].OfToolResult.Content[0].OfText.Text,
		"the caller's params are not modified")
}

func TestChangedTextKeepsImagesDocumentsAndCacheMarks(t *testing.T) {
	params := history(t)
	req := hooksanthropic.Request(params)
	req.Messages[0].Text = "What colour is this?"

	out, err := hooksanthropic.Params(params, req)
	require.NoError(t, err)
	blocks := out.Messages[0].OfUser.Content
	require.Len(t, blocks, 3)
	assert.Equal(t, marshal(t, params.Messages[0].OfUser.Content[:2]), marshal(t, blocks[:2]))
	assert.Equal(t, "What colour is this?", blocks[2].OfText.Text)
}

func TestChangedToolCallIsEncodedAndTheOthersKept(t *testing.T) {
	params := history(t)
	req := hooksanthropic.Request(params)
	req.Messages[1].Text = ""
	req.Messages[1].ToolCalls = []hooks.ToolCall{req.Messages[1].ToolCalls[0],
		{ID: "toolu_9", Name: "lookup", Arguments: map[string]any{"id": 7}}}

	out, err := hooksanthropic.Params(params, req)
	require.NoError(t, err)
	assert.JSONEq(t, `{"role":"assistant","content":[
		{"id":"toolu_0","input":{"id":9007199254740993},"name":"lookup","type":"tool_use"},
		{"id":"toolu_9","input":{"id":7},"name":"lookup","type":"tool_use"}]}`, marshal(t, out.Messages[1]))
	assert.Contains(t, marshal(t, out.Messages[1]), "9007199254740993")
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
		_, err := hooksanthropic.Params(userParams("hi"), req)
		require.Error(t, err)
		assert.Contains(t, err.Error(), tc.want)
	}
}

func TestAssistantMessageOfAHooksAnswer(t *testing.T) {
	msg, err := hooksanthropic.AssistantMessage(nil, hooks.ModelResponse{Text: "cached",
		ToolCalls: []hooks.ToolCall{{ID: "toolu_1", Name: "read", Arguments: map[string]any{"path": "a"}}}})
	require.NoError(t, err)
	assert.JSONEq(t, `{"role":"assistant","content":[{"text":"cached","type":"text"},
		{"id":"toolu_1","input":{"path":"a"},"name":"read","type":"tool_use"}]}`, marshal(t, msg))
}

func TestToolResultBlockOfAValueOnlyError(t *testing.T) {
	b, err := hooksanthropic.ToolResultBlock("toolu_1", hooks.ToolResult{Value: []int{1, 2}, IsError: true})
	require.NoError(t, err)
	assert.JSONEq(t, `{"tool_use_id":"toolu_1","is_error":true,"content":[{"text":"[1,2]","type":"text"}],
		"type":"tool_result"}`, marshal(t, b))

	_, err = hooksanthropic.ToolResultBlock("toolu_2", hooks.ToolResult{Value: make(chan int)})
	assert.ErrorContains(t, err, `tool call "toolu_2"`)
}
