package openai_test

import (
	"context"
	"math"
	"os"
	"strings"
	"testing"

	oai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"
	"github.com/rienda/hooks"
	hooksopenai "github.com/rienda/hooks/adapters/openai"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// setRequest is a wrap hook that changes the request the model call
// sends: the adapters honour what reaches them, whichever hook set it.
type setRequest func(*hooks.ModelRequest)

func (setRequest) Name() string { return "set-request" }
func (s setRequest) WrapModel(c *hooks.Context, req hooks.ModelRequest, next hooks.ModelFunc) (hooks.ModelResponse, error) {
	s(&req)
	return next(c, req)
}

// setReply is a wrap hook that changes the reply the model call returns.
type setReply func(*hooks.ModelResponse)

func (setReply) Name() string { return "set-reply" }
func (s setReply) WrapModel(c *hooks.Context, req hooks.ModelRequest, next hooks.ModelFunc) (hooks.ModelResponse, error) {
	resp, err := next(c, req)
	s(&resp)
	return resp, err
}

// seenRequest records the request the BeforeModelRequest hooks see.
func seenRequest(into *hooks.ModelRequest) hooks.Funcs {
	return hooks.Funcs{HookName: "seen", BeforeModelRequest: func(_ *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
		*into = req
		return nil, nil
	}}
}

func f64(v float64) *float64 { return &v }
func intp(v int) *int        { return &v }

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
	var seen hooks.ModelRequest
	_, _, err := runLoop(t, api, readWrite(), settingsParams(), seenRequest(&seen))
	require.NoError(t, err)

	assert.Equal(t, &hooks.ToolChoice{Mode: hooks.ToolChoiceRequired, Name: "read"}, seen.ToolChoice)
	require.NotNil(t, seen.Settings)
	assert.Equal(t, hooks.ModelSettings{Temperature: f64(0.25), TopP: f64(0.5), MaxTokens: intp(100),
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
		_, _, err := runLoop(t, api, readWrite(), settingsParams(), setRequest(func(r *hooks.ModelRequest) { r.ToolChoice = tc.choice }))
		require.NoError(t, err)
		assert.Equal(t, tc.want, decode(t, api.requests()[0])["tool_choice"], "%+v", tc.choice)
	}
}

func TestLoopSendsTheSettingsAHookSet(t *testing.T) {
	api := newFakeAPI(t, textReply("done"))
	_, _, err := runLoop(t, api, readWrite(), settingsParams(), setRequest(func(r *hooks.ModelRequest) {
		r.Settings = &hooks.ModelSettings{Temperature: f64(0), MaxTokens: intp(9), Stop: []string{"a", "b"},
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
	require.Equal(t, intp(50), req.Settings.MaxTokens)
	req.Settings.MaxTokens = intp(20)
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
		"NaN temperature":      func(r *hooks.ModelRequest) { r.Settings.Temperature = f64(math.NaN()) },
		"infinite top_p":       func(r *hooks.ModelRequest) { r.Settings.TopP = f64(math.Inf(1)) },
		"negative temperature": func(r *hooks.ModelRequest) { r.Settings.Temperature = f64(-1) },
		"zero max tokens":      func(r *hooks.ModelRequest) { r.Settings.MaxTokens = intp(0) },
		"empty stop":           func(r *hooks.ModelRequest) { r.Settings.Stop = []string{"x", ""} },
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

func TestResponseReadsReasoningContentAndAHookCanDropIt(t *testing.T) {
	reply := completion(`{"role":"assistant","content":"4","refusal":null,"reasoning_content":"2+2 is 4"}`, "stop")
	api := newFakeAPI(t, reply)
	var got []string
	seen := hooks.Funcs{HookName: "reasoning", AfterModelResponse: func(_ *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
		got = append(got, resp.Reasoning)
		return nil, nil
	}}
	res, _, err := runLoop(t, api, nil, userParams("2+2?"), seen)
	require.NoError(t, err)
	assert.Equal(t, []string{"2+2 is 4"}, got)
	assert.Equal(t, "4", res.Output)
}

// The stream's reasoning deltas as chunks: stream_reasoning_internal_test
// (the core's delivery of Chunk.Reasoning is the stream hooks' work).
func TestStreamModelAssemblesChatReasoning(t *testing.T) {
	api := newSSEAPI(t, "/v1/chat/completions", reasoningChatEvents...)
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
	assert.Equal(t, &hooks.ModelSettings{Temperature: f64(0.5), MaxTokens: intp(64)}, req.Settings)

	same, err := hooksopenai.ResponsesParams(base, req)
	require.NoError(t, err)
	assert.Equal(t, base.ToolChoice, same.ToolChoice)

	req.ToolChoice = &hooks.ToolChoice{Name: "read"}
	req.Settings = &hooks.ModelSettings{TopP: f64(0.1), MaxTokens: intp(8)}
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
}

func TestStreamResponseAssemblesReasoningSummaries(t *testing.T) {
	api := newSSEAPI(t, "/v1/responses", reasoningResponseEvents()...)
	reply, _, err := hooksopenai.StreamResponse(context.Background(), startRun(t), &api.client.Responses, responseParams("hi"),
		func(hooks.Chunk) error { return nil })
	require.NoError(t, err)
	assert.Equal(t, "weigh it", reply.Response.Reasoning)
	assert.Equal(t, "ok", reply.Response.Text)
}

// reasoningChatEvents is testdata/reasoning_chat.sse, event by event.
var reasoningChatEvents = sseFile("testdata/reasoning_chat.sse")

func reasoningResponseEvents() []string { return sseFile("testdata/reasoning_responses.sse") }

// sseFile is a file of server-sent events split into its events.
func sseFile(path string) []string {
	b, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	var evs []string
	for _, ev := range strings.SplitAfter(string(b), "\n\n") {
		if strings.TrimSpace(ev) != "" {
			evs = append(evs, ev)
		}
	}
	return evs
}
