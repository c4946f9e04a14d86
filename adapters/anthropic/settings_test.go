package anthropic_test

import (
	"context"
	"math"
	"strings"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"
	"github.com/rienda/hooks"
	hooksanthropic "github.com/rienda/hooks/adapters/anthropic"
	"github.com/rienda/hooks/internal/adapttest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// settingsParams offers two tools and sets every field the hooks read.
func settingsParams() sdk.MessageNewParams {
	p := userParams("hi")
	p.Tools = []sdk.ToolUnionParam{
		{OfTool: &sdk.ToolParam{Name: "read", InputSchema: sdk.ToolInputSchemaParam{}}},
		{OfTool: &sdk.ToolParam{Name: "write", InputSchema: sdk.ToolInputSchemaParam{}}},
	}
	p.ToolChoice = sdk.ToolChoiceUnionParam{OfTool: &sdk.ToolChoiceToolParam{Name: "read", DisableParallelToolUse: param.NewOpt(true)}}
	p.StopSequences = []string{"END"}
	p.SetExtraFields(map[string]any{"temperature": 0.25, "top_p": 0.5, "top_k": 40})
	return p
}

func readWrite() map[string]hooksanthropic.Tool {
	return map[string]hooksanthropic.Tool{"read": (&toolLog{}).tool, "write": (&toolLog{}).tool}
}

func TestLoopShowsHooksTheToolChoiceAndSettingsAndSendsThemAsTheyWere(t *testing.T) {
	api := newFakeAPI(t, textReply("done"))
	var seen adapttest.Seen
	_, _, err := runLoop(t, api, readWrite(), settingsParams(), seen.Hook())
	require.NoError(t, err)
	require.Len(t, seen.Requests, 1)
	req := seen.Requests[0]
	assert.Equal(t, &hooks.ToolChoice{Mode: hooks.ToolChoiceRequired, Name: "read"}, req.ToolChoice)
	require.NotNil(t, req.Settings)
	assert.Equal(t, hooks.ModelSettings{Temperature: adapttest.F64(0.25), TopP: adapttest.F64(0.5), MaxTokens: adapttest.Int(256),
		Stop: []string{"END"}, Provider: map[string]any{"top_k": 40}}, *req.Settings)

	body := decode(t, api.requests()[0])
	assert.Equal(t, map[string]any{"type": "tool", "name": "read", "disable_parallel_tool_use": true}, body["tool_choice"])
	assert.Equal(t, []any{"END"}, body["stop_sequences"])
	assert.InDelta(t, 0.25, body["temperature"], 0)
	assert.InDelta(t, 40, body["top_k"], 0)
}

func TestLoopSendsTheToolChoiceAHookSet(t *testing.T) {
	for _, tc := range []struct {
		choice *hooks.ToolChoice
		want   any
	}{
		{&hooks.ToolChoice{Mode: "auto"}, map[string]any{"type": "auto", "disable_parallel_tool_use": true}},
		{&hooks.ToolChoice{Mode: "none"}, map[string]any{"type": "none"}},
		{&hooks.ToolChoice{Mode: "required"}, map[string]any{"type": "any", "disable_parallel_tool_use": true}},
		{&hooks.ToolChoice{Name: "write"}, map[string]any{"type": "tool", "name": "write", "disable_parallel_tool_use": true}},
		{nil, nil},
	} {
		api := newFakeAPI(t, textReply("done"))
		_, _, err := runLoop(t, api, readWrite(), settingsParams(), adapttest.SetRequest(func(r *hooks.ModelRequest) { r.ToolChoice = tc.choice }))
		require.NoError(t, err)
		assert.Equal(t, tc.want, decode(t, api.requests()[0])["tool_choice"], "%+v", tc.choice)
	}
}

func TestLoopSendsTheSettingsAHookSet(t *testing.T) {
	api := newFakeAPI(t, textReply("done"))
	_, _, err := runLoop(t, api, readWrite(), settingsParams(), adapttest.SetRequest(func(r *hooks.ModelRequest) {
		r.Settings = &hooks.ModelSettings{Temperature: adapttest.F64(0), MaxTokens: adapttest.Int(9), Stop: []string{"a", "b"}}
	}))
	require.NoError(t, err)
	body := decode(t, api.requests()[0])
	assert.InDelta(t, 0, body["temperature"], 0, "0 is a setting, not the default")
	assert.NotContains(t, body, "top_p", "a setting the hook cleared is the API's default")
	assert.NotContains(t, body, "top_k", "Provider replaces the extra fields")
	assert.InDelta(t, 9, body["max_tokens"], 0)
	assert.Equal(t, []any{"a", "b"}, body["stop_sequences"])
}

func TestParamsKeepsMaxTokensAHookCleared(t *testing.T) {
	base := settingsParams()
	req := hooksanthropic.Request(base)
	req.Settings = &hooks.ModelSettings{}
	sent, err := hooksanthropic.Params(base, req)
	require.NoError(t, err)
	assert.Equal(t, int64(256), sent.MaxTokens, "the API requires max_tokens")
	assert.Nil(t, sent.StopSequences)
}

func TestParamsRefusesAChoiceOrSettingNoAPIAccepts(t *testing.T) {
	for name, set := range map[string]func(*hooks.ModelRequest){
		"unknown mode":          func(r *hooks.ModelRequest) { r.ToolChoice = &hooks.ToolChoice{Mode: "any"} },
		"tool not offered":      func(r *hooks.ModelRequest) { r.ToolChoice = &hooks.ToolChoice{Name: "shell"} },
		"tool a hook took away": func(r *hooks.ModelRequest) { r.Tools = r.Tools[:1]; r.ToolChoice = &hooks.ToolChoice{Name: "write"} },
		"name with mode auto":   func(r *hooks.ModelRequest) { r.ToolChoice = &hooks.ToolChoice{Mode: "auto", Name: "read"} },
		"required without tools": func(r *hooks.ModelRequest) {
			r.Tools = []hooks.ToolSpec{}
			r.ToolChoice = &hooks.ToolChoice{Mode: "required"}
		},
		"NaN temperature":       func(r *hooks.ModelRequest) { r.Settings.Temperature = adapttest.F64(math.NaN()) },
		"negative max tokens":   func(r *hooks.ModelRequest) { r.Settings.MaxTokens = adapttest.Int(-1) },
		"empty stop":            func(r *hooks.ModelRequest) { r.Settings.Stop = []string{""} },
		"provider sets a field": func(r *hooks.ModelRequest) { r.Settings.Provider = map[string]any{"MODEL": "x"} },
	} {
		t.Run(name, func(t *testing.T) {
			base := settingsParams()
			req := hooksanthropic.Request(base)
			set(&req)
			_, err := hooksanthropic.Params(base, req)
			require.Error(t, err)
			assert.True(t, strings.HasPrefix(err.Error(), "anthropic: "), err.Error())
		})
	}
}

// thinkingReply is a reply with a signed thinking block, then text or a
// tool call.
func thinkingReply(thinking, signature, rest, stop string) string {
	return reply(`{"type":"thinking","thinking":`+quote(thinking)+`,"signature":`+quote(signature)+`},`+
		`{"type":"redacted_thinking","data":"opaque"},`+rest, stop)
}

func TestThinkingIsReasoningAndGoesBackSignedWhenNoHookChangedIt(t *testing.T) {
	api := newFakeAPI(t, thinkingReply("weigh it", "sig-abc", `{"type":"tool_use","id":"toolu_1","name":"read","input":{}}`, "tool_use"),
		textReply("done"))
	var seen adapttest.Seen
	_, _, err := runLoop(t, api, readWrite(), userParamsWithTools(), seen.Hook())
	require.NoError(t, err)
	require.NotEmpty(t, seen.Replies)
	assert.Equal(t, "weigh it", seen.Replies[0].Reasoning)

	sent := api.sent(1, 1) // the assistant turn sent back with the tool result
	assert.Equal(t, map[string]any{"type": "thinking", "thinking": "weigh it", "signature": "sig-abc"}, block(t, sent, 0))
	assert.Equal(t, "redacted_thinking", block(t, sent, 1)["type"])
}

func TestThinkingAHookChangedOrDroppedIsNotSentBack(t *testing.T) {
	for name, reasoning := range map[string]string{"dropped": "", "rewritten": "weigh [redacted]"} {
		t.Run(name, func(t *testing.T) {
			api := newFakeAPI(t, thinkingReply("weigh sk-secret", "sig-abc", `{"type":"tool_use","id":"toolu_1","name":"read","input":{}}`, "tool_use"),
				textReply("done"))
			_, _, err := runLoop(t, api, readWrite(), userParamsWithTools(),
				adapttest.SetReply(func(r *hooks.ModelResponse) { r.Reasoning = reasoning }))
			require.NoError(t, err)
			sent := api.sentMessages(1)[1]
			assert.NotContains(t, string(sent), "sk-secret")
			assert.NotContains(t, string(sent), `"type":"thinking"`, "no unsigned or stale thinking block")
			assert.NotContains(t, string(sent), "[redacted]", "the hook's text is not sent as thinking")
			assert.Contains(t, string(sent), `"redacted_thinking"`, "what no hook saw stays")
			assert.Contains(t, string(sent), `"tool_use"`)
		})
	}
}

func userParamsWithTools() sdk.MessageNewParams {
	p := settingsParams()
	p.ToolChoice = sdk.ToolChoiceUnionParam{}
	p.SetExtraFields(nil)
	return p
}

func TestStreamModelAssemblesThinking(t *testing.T) {
	api := newSSEAPI(t, "/v1/messages", adapttest.SSEFile(t, "testdata/thinking.sse")...)
	reply, msg, err := hooksanthropic.StreamModel(context.Background(), startRun(t), &api.client.Messages, userParams("hi"),
		func(hooks.Chunk) error { return nil })
	require.NoError(t, err)
	assert.Equal(t, "weigh it", reply.Response.Reasoning)
	assert.Equal(t, "ok", reply.Response.Text)
	sent, err := hooksanthropic.AssistantMessage(msg, reply.Response)
	require.NoError(t, err)
	require.NotEmpty(t, sent.OfAssistant.Content)
	require.NotNil(t, sent.OfAssistant.Content[0].OfThinking)
	assert.Equal(t, "sig-abc", sent.OfAssistant.Content[0].OfThinking.Signature, "the streamed signature is kept")
}
