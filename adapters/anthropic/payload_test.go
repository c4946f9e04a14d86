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

// toolParams offers two custom tools (one with a cache mark) and a server tool.
func toolParams() sdk.MessageNewParams {
	params := userParams("hi")
	params.Tools = []sdk.ToolUnionParam{
		{OfTool: &sdk.ToolParam{Name: "read", Description: param.NewOpt("Read a file"),
			CacheControl: sdk.NewCacheControlEphemeralParam(),
			InputSchema:  sdk.ToolInputSchemaParam{Properties: map[string]any{"path": map[string]any{"type": "string"}}, Required: []string{"path"}}}},
		{OfTool: &sdk.ToolParam{Name: "delete", InputSchema: sdk.ToolInputSchemaParam{}}},
		{OfWebSearchTool20250305: &sdk.WebSearchTool20250305Param{}},
	}
	return params
}

var noTools = map[string]hooksanthropic.Tool{"read": (&toolLog{}).tool, "delete": (&toolLog{}).tool}

func TestHooksSeeModelToolsUsageAndStopReason(t *testing.T) {
	api := newFakeAPI(t, reply(`{"type":"text","text":"hello"}`, "end_turn"))
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
	assert.Equal(t, "claude-test", req.Model)
	require.Len(t, req.Tools, 3)
	assert.Equal(t, hooks.ToolSpec{Name: "read", Description: "Read a file",
		Schema: json.RawMessage(`{"properties":{"path":{"type":"string"}},"required":["path"],"type":"object"}`)}, req.Tools[0])
	assert.Equal(t, "web_search", req.Tools[2].Name)
	assert.Equal(t, hooks.Usage{InputTokens: 1, OutputTokens: 1}, resp.Usage)
	assert.Equal(t, hooks.StopEndTurn, resp.StopReason)
}

func TestUsageCountsCachedInputTokens(t *testing.T) {
	var msg sdk.Message
	require.NoError(t, json.Unmarshal([]byte(`{"id":"m","type":"message","role":"assistant","model":"claude-test","content":[],`+
		`"stop_reason":"refusal","usage":{"input_tokens":10,"cache_read_input_tokens":100,"cache_creation_input_tokens":5,"output_tokens":7}}`), &msg))
	resp, err := hooksanthropic.Response(&msg)
	require.NoError(t, err)
	assert.Equal(t, hooks.Usage{InputTokens: 115, OutputTokens: 7, CachedInputTokens: 100}, resp.Usage)
	assert.Equal(t, hooks.StopContentFilter, resp.StopReason)
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
	assert.JSONEq(t, string(want), string(api.body(0)["tools"]))
	assert.JSONEq(t, `"claude-test"`, string(api.body(0)["model"]))
}

func TestAHookNarrowsTheToolsAndSwitchesTheModel(t *testing.T) {
	api := newFakeAPI(t, textReply("hello"))
	narrow := hooks.Funcs{HookName: "narrow", BeforeModelRequest: func(_ *hooks.Context, r hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
		model := "claude-fallback"
		read := r.Tools[0]
		read.Description = "Read a file in the workspace"
		grep := hooks.ToolSpec{Name: "grep", Schema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}},"additionalProperties":false}`)}
		return &hooks.ModelRequestPatch{Model: &model, Tools: []hooks.ToolSpec{read, r.Tools[2], grep}}, nil
	}}
	params := toolParams()

	_, _, err := runLoop(t, api, noTools, params, narrow)

	require.NoError(t, err)
	body := api.body(0)
	assert.JSONEq(t, `"claude-fallback"`, string(body["model"]), "the model the hook chose is called")
	var tools []map[string]any
	require.NoError(t, json.Unmarshal(body["tools"], &tools))
	require.Len(t, tools, 3, "delete is no longer offered")
	assert.Equal(t, "read", tools[0]["name"])
	assert.Equal(t, "Read a file in the workspace", tools[0]["description"])
	assert.NotNil(t, tools[0]["cache_control"], "a changed tool keeps its cache mark")
	assert.Equal(t, "web_search", tools[1]["name"])
	assert.Equal(t, "grep", tools[2]["name"])
	assert.Equal(t, map[string]any{"type": "object", "properties": map[string]any{"q": map[string]any{"type": "string"}},
		"additionalProperties": false}, tools[2]["input_schema"])
}

// TestAHookNarrowingAwayTheChosenToolFailsTheCall: the host's tool_choice
// names delete and a hook narrows delete away. The call is not sent
// without the choice (the model would no longer be made to call a tool):
// it fails with the core's HookError naming the hook that narrowed.
func TestAHookNarrowingAwayTheChosenToolFailsTheCall(t *testing.T) {
	api := newFakeAPI(t, textReply("hello"))
	narrow := hooks.Funcs{HookName: "narrow", BeforeModelRequest: func(_ *hooks.Context, r hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
		model := "claude-fallback"
		read := r.Tools[0]
		read.Description = "Read a file in the workspace"
		grep := hooks.ToolSpec{Name: "grep", Schema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}},"additionalProperties":false}`)}
		return &hooks.ModelRequestPatch{Model: &model, Tools: []hooks.ToolSpec{read, r.Tools[2], grep}}, nil
	}}
	params := toolParams()
	params.ToolChoice = sdk.ToolChoiceParamOfTool("delete")

	_, _, err := runLoop(t, api, noTools, params, narrow)

	var he *hooks.HookError
	require.ErrorAs(t, err, &he)
	assert.Equal(t, "narrow", he.Hook)
	assert.Empty(t, api.requests(), "nothing is sent")
}
