package openai_test

import (
	"context"
	"math"
	"strings"
	"testing"

	oai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"
	"github.com/rienda/hooks"
	hooksopenai "github.com/rienda/hooks/adapters/openai"
	"github.com/rienda/hooks/internal/adapttest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// settingsParams offers two tools and sets every field the hooks read.
func settingsParams() oai.ChatCompletionNewParams {
	p := userParams("hi")
	p.Tools = []oai.ChatCompletionToolUnionParam{
		oai.ChatCompletionFunctionTool(oai.FunctionDefinitionParam{Name: "read"}),
		oai.ChatCompletionFunctionTool(oai.FunctionDefinitionParam{Name: "write"}),
	}
	p.ToolChoice = oai.ChatCompletionToolChoiceOptionUnionParam{OfFunctionToolChoice: &oai.ChatCompletionNamedToolChoiceParam{
		Function: oai.ChatCompletionNamedToolChoiceFunctionParam{Name: "read"}}}
	p.Temperature, p.TopP = param.NewOpt(0.25), param.NewOpt(0.5)
	p.MaxCompletionTokens = param.NewOpt[int64](100)
	p.Stop = oai.ChatCompletionNewParamsStopUnion{OfString: param.NewOpt("END")}
	p.SetExtraFields(map[string]any{"seed": 7})
	return p
}

func readWrite() map[string]hooksopenai.Tool {
	return map[string]hooksopenai.Tool{"read": (&toolLog{}).tool, "write": (&toolLog{}).tool}
}

func TestLoopShowsHooksTheToolChoiceAndSettingsAndSendsThemAsTheyWere(t *testing.T) {
	api := newFakeAPI(t, textReply("done"))
	var seenAll adapttest.Seen
	_, _, err := runLoop(t, api, readWrite(), settingsParams(), seenAll.Hook())
	require.NoError(t, err)
	require.Len(t, seenAll.Requests, 1)
	seen := seenAll.Requests[0]

	assert.Equal(t, &hooks.ToolChoice{Mode: hooks.ToolChoiceRequired, Name: "read"}, seen.ToolChoice)
	require.NotNil(t, seen.Settings)
	assert.Equal(t, hooks.ModelSettings{Temperature: adapttest.F64(0.25), TopP: adapttest.F64(0.5), MaxTokens: adapttest.Int(100),
		Stop: []string{"END"}, Provider: map[string]any{"seed": 7}}, *seen.Settings)

	body := decode(t, api.requests()[0])
	assert.Equal(t, map[string]any{"type": "function", "function": map[string]any{"name": "read"}}, body["tool_choice"])
	assert.Equal(t, "END", body["stop"], "unchanged: sent as the host spelled it")
	assert.InDelta(t, 0.25, body["temperature"], 0)
	assert.InDelta(t, 100, body["max_completion_tokens"], 0)
	assert.InDelta(t, 7, body["seed"], 0)
}

func TestLoopSendsTheToolChoiceAHookSet(t *testing.T) {
	for _, tc := range []struct {
		choice *hooks.ToolChoice
		want   any
	}{
		{&hooks.ToolChoice{Mode: "auto"}, "auto"},
		{&hooks.ToolChoice{Mode: "none"}, "none"},
		{&hooks.ToolChoice{Mode: "required"}, "required"},
		{&hooks.ToolChoice{Name: "write"}, map[string]any{"type": "function", "function": map[string]any{"name": "write"}}},
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
		r.Settings = &hooks.ModelSettings{Temperature: adapttest.F64(0), MaxTokens: adapttest.Int(9), Stop: []string{"a", "b"},
			Provider: map[string]any{"reasoning_effort": "low"}}
	}))
	require.NoError(t, err)
	body := decode(t, api.requests()[0])
	assert.InDelta(t, 0, body["temperature"], 0, "0 is a setting, not the default")
	assert.NotContains(t, body, "top_p", "a setting the hook cleared is the API's default")
	assert.InDelta(t, 9, body["max_completion_tokens"], 0)
	assert.NotContains(t, body, "max_tokens")
	assert.Equal(t, []any{"a", "b"}, body["stop"])
	assert.Equal(t, "low", body["reasoning_effort"])
	assert.NotContains(t, body, "seed", "Provider replaces the extra fields")
}

func TestParamsKeepsTheMaxTokensSpellingOfTheHost(t *testing.T) {
	base := userParams("hi")
	base.MaxTokens = param.NewOpt[int64](50) // an older model's or a compatible server's field
	req := hooksopenai.Request(base)
	require.Equal(t, adapttest.Int(50), req.Settings.MaxTokens)
	req.Settings.MaxTokens = adapttest.Int(20)
	sent, err := hooksopenai.Params(base, req)
	require.NoError(t, err)
	assert.Equal(t, param.NewOpt[int64](20), sent.MaxTokens)
	assert.False(t, sent.MaxCompletionTokens.Valid())
}

func TestParamsRefusesAChoiceOrSettingNoAPIAccepts(t *testing.T) {
	for name, set := range map[string]func(*hooks.ModelRequest){
		"unknown mode":          func(r *hooks.ModelRequest) { r.ToolChoice = &hooks.ToolChoice{Mode: "any"} },
		"mode in another case":  func(r *hooks.ModelRequest) { r.ToolChoice = &hooks.ToolChoice{Mode: "Required"} },
		"empty choice":          func(r *hooks.ModelRequest) { r.ToolChoice = &hooks.ToolChoice{} },
		"tool not offered":      func(r *hooks.ModelRequest) { r.ToolChoice = &hooks.ToolChoice{Name: "shell"} },
		"tool a hook took away": func(r *hooks.ModelRequest) { r.Tools = r.Tools[:1]; r.ToolChoice = &hooks.ToolChoice{Name: "write"} },
		"name with mode none":   func(r *hooks.ModelRequest) { r.ToolChoice = &hooks.ToolChoice{Mode: "none", Name: "read"} },
		"required without tools": func(r *hooks.ModelRequest) {
			r.Tools = []hooks.ToolSpec{}
			r.ToolChoice = &hooks.ToolChoice{Mode: "required"}
		},
		"NaN temperature":       func(r *hooks.ModelRequest) { r.Settings.Temperature = adapttest.F64(math.NaN()) },
		"infinite top_p":        func(r *hooks.ModelRequest) { r.Settings.TopP = adapttest.F64(math.Inf(1)) },
		"top_p above 1":         func(r *hooks.ModelRequest) { r.Settings.TopP = adapttest.F64(1.5) },
		"negative temperature":  func(r *hooks.ModelRequest) { r.Settings.Temperature = adapttest.F64(-1) },
		"zero max tokens":       func(r *hooks.ModelRequest) { r.Settings.MaxTokens = adapttest.Int(0) },
		"empty stop":            func(r *hooks.ModelRequest) { r.Settings.Stop = []string{"x", ""} },
		"provider sets a field": func(r *hooks.ModelRequest) { r.Settings.Provider = map[string]any{"Tool_Choice": "x"} },
	} {
		t.Run(name, func(t *testing.T) {
			base := settingsParams()
			req := hooksopenai.Request(base)
			set(&req)
			_, err := hooksopenai.Params(base, req)
			require.Error(t, err)
			assert.True(t, strings.HasPrefix(err.Error(), "openai: "), err.Error())
		})
	}
}

func TestResponseReadsReasoningContent(t *testing.T) {
	reply := completion(`{"role":"assistant","content":"4","refusal":null,"reasoning_content":"2+2 is 4"}`, "stop")
	api := newFakeAPI(t, reply)
	var seen adapttest.Seen
	res, _, err := runLoop(t, api, nil, userParams("2+2?"), seen.Hook())
	require.NoError(t, err)
	require.Len(t, seen.Replies, 1)
	assert.Equal(t, "2+2 is 4", seen.Replies[0].Reasoning)
	assert.Equal(t, "4", res.Output)
}

// The stream's reasoning deltas as chunks: stream_reasoning_internal_test
// (the core's delivery of Chunk.Reasoning is the stream hooks' work).
func TestStreamModelAssemblesChatReasoning(t *testing.T) {
	api := newSSEAPI(t, "/v1/chat/completions", adapttest.SSEFile(t, "testdata/reasoning_chat.sse")...)
	reply, _, err := hooksopenai.StreamModel(context.Background(), startRun(t), &api.client.Chat.Completions, userParams("hi"),
		func(hooks.Chunk) error { return nil })
	require.NoError(t, err)
	assert.Equal(t, "think hard", reply.Response.Reasoning)
	assert.Equal(t, "ok", reply.Response.Text)
}

func TestResponsesFieldsBothWays(t *testing.T) {
	base := responseParams("hi")
	base.Tools = []responses.ToolUnionParam{{OfFunction: &responses.FunctionToolParam{Name: "read"}}}
	base.ToolChoice = responses.ResponseNewParamsToolChoiceUnion{OfToolChoiceMode: param.NewOpt(responses.ToolChoiceOptionsRequired)}
	base.Temperature, base.MaxOutputTokens = param.NewOpt(0.5), param.NewOpt[int64](64)
	req := hooksopenai.ResponsesRequest(base)
	assert.Equal(t, &hooks.ToolChoice{Mode: "required"}, req.ToolChoice)
	assert.Equal(t, &hooks.ModelSettings{Temperature: adapttest.F64(0.5), MaxTokens: adapttest.Int(64)}, req.Settings)

	same, err := hooksopenai.ResponsesParams(base, req)
	require.NoError(t, err)
	assert.Equal(t, base.ToolChoice, same.ToolChoice)

	req.ToolChoice = &hooks.ToolChoice{Name: "read"}
	req.Settings = &hooks.ModelSettings{TopP: adapttest.F64(0.1), MaxTokens: adapttest.Int(8)}
	sent, err := hooksopenai.ResponsesParams(base, req)
	require.NoError(t, err)
	require.NotNil(t, sent.ToolChoice.OfFunctionTool)
	assert.Equal(t, "read", sent.ToolChoice.OfFunctionTool.Name)
	assert.False(t, sent.Temperature.Valid())
	assert.Equal(t, param.NewOpt(0.1), sent.TopP)
	assert.Equal(t, param.NewOpt[int64](8), sent.MaxOutputTokens)

	req.Settings.Stop = []string{"END"}
	_, err = hooksopenai.ResponsesParams(base, req)
	require.ErrorContains(t, err, "Settings.Stop")

	req.Settings.Stop = nil
	req.Settings.Provider = map[string]any{"Previous-Response-ID": "resp_other"}
	_, err = hooksopenai.ResponsesParams(base, req)
	require.ErrorContains(t, err, "previous_response_id", "a hook cannot add a conversation under another spelling")
	req.Settings.Provider = map[string]any{"reasoning": map[string]any{"summary": "auto"}}
	sent, err = hooksopenai.ResponsesParams(base, req)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"reasoning": map[string]any{"summary": "auto"}}, sent.ExtraFields())
}

func TestStreamResponseAssemblesReasoningSummaries(t *testing.T) {
	api := newSSEAPI(t, "/v1/responses", adapttest.SSEFile(t, "testdata/reasoning_responses.sse")...)
	reply, _, err := hooksopenai.StreamResponse(context.Background(), startRun(t), &api.client.Responses, responseParams("hi"),
		func(hooks.Chunk) error { return nil })
	require.NoError(t, err)
	assert.Equal(t, "weigh it", reply.Response.Reasoning)
	assert.Equal(t, "ok", reply.Response.Text)
}

func TestChatReasoningIsNotSentBack(t *testing.T) {
	reply := completion(`{"role":"assistant","content":null,"refusal":null,"reasoning_content":"secret plan",`+
		`"tool_calls":[{"id":"call_1","type":"function","function":{"name":"read","arguments":"{}"}}]}`, "tool_calls")
	api := newFakeAPI(t, reply, textReply("done"))
	p := settingsParams()
	p.ToolChoice = oai.ChatCompletionToolChoiceOptionUnionParam{}
	_, _, err := runLoop(t, api, readWrite(), p)
	require.NoError(t, err)
	require.Len(t, api.requests(), 2)
	assert.NotContains(t, string(api.requests()[1]), "secret plan", "the loop's conversation carries no reasoning")
}
