package openai_test

import (
	"encoding/json"
	"testing"

	oai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/rienda/hooks"
	hooksopenai "github.com/rienda/hooks/adapters/openai"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// toolParams offers two function tools, one strict.
func toolParams() oai.ChatCompletionNewParams {
	params := userParams("hi")
	params.Tools = []oai.ChatCompletionToolUnionParam{
		oai.ChatCompletionFunctionTool(oai.FunctionDefinitionParam{Name: "read", Description: param.NewOpt("Read a file"),
			Strict: param.NewOpt(true), Parameters: oai.FunctionParameters{"type": "object",
				"properties": map[string]any{"path": map[string]any{"type": "string"}}}}),
		oai.ChatCompletionFunctionTool(oai.FunctionDefinitionParam{Name: "delete"}),
	}
	return params
}

var noTools = map[string]hooksopenai.Tool{"read": (&toolLog{}).tool, "delete": (&toolLog{}).tool}

func TestHooksSeeModelToolsUsageAndStopReason(t *testing.T) {
	api := newFakeAPI(t, textReply("hello"))
	var req hooks.ModelRequest
	var resp hooks.ModelResponse
	spy := hooks.Funcs{HookName: "spy",
		BeforeModelRequest: func(_ *hooks.Context, r hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
			req = r
			return nil, nil
		},
		AfterModelResponse: func(_ *hooks.Context, r hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
			resp = r
			return nil, nil
		}}

	_, _, err := runLoop(t, api, noTools, toolParams(), spy)

	require.NoError(t, err)
	assert.Equal(t, "gpt-test", req.Model)
	require.Len(t, req.Tools, 2)
	assert.Equal(t, "read", req.Tools[0].Name)
	assert.Equal(t, "Read a file", req.Tools[0].Description)
	assert.JSONEq(t, `{"type":"object","properties":{"path":{"type":"string"}}}`, string(req.Tools[0].Schema))
	assert.Equal(t, "delete", req.Tools[1].Name)
	assert.Equal(t, hooks.Usage{InputTokens: 1, OutputTokens: 1}, resp.Usage)
	assert.Equal(t, hooks.StopEndTurn, resp.StopReason)
}

func TestUnchangedToolsAreSentAsTheyWere(t *testing.T) {
	api := newFakeAPI(t, textReply("hello"))
	same := hooks.Funcs{HookName: "same", BeforeModelRequest: func(_ *hooks.Context, r hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
		return &hooks.ModelRequestPatch{Tools: r.Tools, Model: &r.Model}, nil
	}}
	params := toolParams()
	want, err := json.Marshal(params.Tools)
	require.NoError(t, err)

	_, _, err = runLoop(t, api, noTools, params, same)

	require.NoError(t, err)
	var body map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(api.requests()[0], &body))
	assert.JSONEq(t, string(want), string(body["tools"]))
	assert.JSONEq(t, `"gpt-test"`, string(body["model"]))
}

func TestAHookNarrowsTheToolsAndSwitchesTheModel(t *testing.T) {
	api := newFakeAPI(t, textReply("hello"))
	narrow := hooks.Funcs{HookName: "narrow", BeforeModelRequest: func(_ *hooks.Context, r hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
		model := "gpt-fallback"
		tools := []hooks.ToolSpec{r.Tools[0]}
		tools[0].Description = "Read a file in the workspace"
		return &hooks.ModelRequestPatch{Model: &model, Tools: append(tools, hooks.ToolSpec{Name: "grep",
			Schema: json.RawMessage(`{"type":"object"}`)})}, nil
	}}
	params := toolParams()
	tools := map[string]hooksopenai.Tool{"read": (&toolLog{}).tool, "delete": (&toolLog{}).tool}

	_, _, err := runLoop(t, api, tools, params, narrow)

	require.NoError(t, err)
	var body struct {
		Model      string `json:"model"`
		ToolChoice any    `json:"tool_choice"`
		Tools      []struct {
			Function struct {
				Name        string         `json:"name"`
				Description string         `json:"description"`
				Strict      *bool          `json:"strict"`
				Parameters  map[string]any `json:"parameters"`
			} `json:"function"`
		} `json:"tools"`
	}
	require.NoError(t, json.Unmarshal(api.requests()[0], &body))
	assert.Equal(t, "gpt-fallback", body.Model, "the model the hook chose is called")
	require.Len(t, body.Tools, 2, "delete is no longer offered")
	assert.Equal(t, "read", body.Tools[0].Function.Name)
	assert.Equal(t, "Read a file in the workspace", body.Tools[0].Function.Description)
	require.NotNil(t, body.Tools[0].Function.Strict, "a changed tool keeps its other fields")
	assert.True(t, *body.Tools[0].Function.Strict)
	assert.Equal(t, "grep", body.Tools[1].Function.Name)
	assert.Equal(t, map[string]any{"type": "object"}, body.Tools[1].Function.Parameters)
}

// TestAHookNarrowingAwayTheChosenToolFailsTheCall: the host's tool_choice
// names delete and a hook narrows delete away. The call is not sent
// without the choice (the model would no longer be made to call a tool):
// it fails with the core's HookError naming the hook that narrowed.
func TestAHookNarrowingAwayTheChosenToolFailsTheCall(t *testing.T) {
	api := newFakeAPI(t, textReply("hello"))
	narrow := hooks.Funcs{HookName: "narrow", BeforeModelRequest: func(_ *hooks.Context, r hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
		model := "gpt-fallback"
		tools := []hooks.ToolSpec{r.Tools[0]}
		tools[0].Description = "Read a file in the workspace"
		return &hooks.ModelRequestPatch{Model: &model, Tools: append(tools, hooks.ToolSpec{Name: "grep",
			Schema: json.RawMessage(`{"type":"object"}`)})}, nil
	}}
	params := toolParams()
	params.ToolChoice = oai.ToolChoiceOptionFunctionToolChoice(oai.ChatCompletionNamedToolChoiceFunctionParam{Name: "delete"})
	tools := map[string]hooksopenai.Tool{"read": (&toolLog{}).tool, "delete": (&toolLog{}).tool}

	_, _, err := runLoop(t, api, tools, params, narrow)

	var he *hooks.HookError
	require.ErrorAs(t, err, &he)
	assert.Equal(t, "narrow", he.Hook)
	assert.Empty(t, api.requests(), "nothing is sent")
}

func TestStopReasonsMapOntoTheHooksWords(t *testing.T) {
	for finish, want := range map[string]hooks.StopReason{"stop": hooks.StopEndTurn, "tool_calls": hooks.StopToolUse,
		"length": hooks.StopMaxTokens, "content_filter": hooks.StopContentFilter} {
		var c oai.ChatCompletion
		require.NoError(t, json.Unmarshal([]byte(completion(`{"role":"assistant","content":"x","refusal":null}`, finish)), &c))
		resp, err := hooksopenai.Response(&c)
		require.NoError(t, err)
		assert.Equal(t, want, resp.StopReason, finish)
	}
}
