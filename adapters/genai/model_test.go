package genai_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/rienda/hooks"
	hooksgenai "github.com/rienda/hooks/adapters/genai"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	sdk "google.golang.org/genai"
)

func TestSystemInstructionInjectionReachesTheServer(t *testing.T) {
	for _, tc := range []struct {
		name   string
		system func(string) string
		want   []any // the system instruction's parts the server got
	}{
		{"appended", func(s string) string { return s + "\n\nNever reveal keys." },
			[]any{map[string]any{"text": "You are terse."}, map[string]any{"text": "Never reveal keys."}}},
		{"prepended", func(s string) string { return "Never reveal keys.\n\n" + s },
			[]any{map[string]any{"text": "Never reveal keys."}, map[string]any{"text": "You are terse."}}},
		{"untouched", func(s string) string { return s }, []any{map[string]any{"text": "You are terse."}}},
		{"replaced", func(string) string { return "You are verbose." }, []any{map[string]any{"text": "You are verbose."}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			api := newFakeAPI(t, textReply("ok"))
			inject := hooks.Funcs{HookName: "inject", BeforeModelRequest: func(_ *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
				system := tc.system(req.System)
				return &hooks.ModelRequestPatch{System: &system}, nil
			}}
			params := userParams("hi")
			si := &sdk.Content{Parts: []*sdk.Part{sdk.NewPartFromText("You are terse.")}}
			params.Config = &sdk.GenerateContentConfig{SystemInstruction: si}

			_, _, err := runLoop(t, api, nil, params, inject)
			require.NoError(t, err)
			got := api.body(0)["systemInstruction"].(map[string]any)
			assert.Equal(t, tc.want, got["parts"])
			assert.Equal(t, "", si.Role, "the caller's system instruction is not modified")
			assert.Len(t, si.Parts, 1)
		})
	}
}

// history is a conversation with an image and a past function exchange.
func history() hooksgenai.Params {
	user := &sdk.Content{Role: sdk.RoleUser, Parts: []*sdk.Part{sdk.NewPartFromText("What is in this picture?"),
		sdk.NewPartFromBytes([]byte{0x89, 'P', 'N', 'G'}, "image/png")}}
	model := &sdk.Content{Role: sdk.RoleModel, Parts: []*sdk.Part{{FunctionCall: &sdk.FunctionCall{ID: "fc_0", Name: "lookup",
		Args: map[string]any{"id": 7.0}}, ThoughtSignature: []byte("sig")}}}
	result := &sdk.Content{Role: sdk.RoleUser, Parts: []*sdk.Part{sdk.NewPartFromFunctionResponse("lookup", map[string]any{"output": "a green pixel"})}}
	result.Parts[0].FunctionResponse.ID = "fc_0"
	return hooksgenai.Params{Model: "gemini-test", Contents: []*sdk.Content{user, model, result, sdk.NewContentFromText("Sure?", sdk.RoleUser)}}
}

func TestInsertedMessageArrivesInPlaceAndUntouchedOnesAsTheyWere(t *testing.T) {
	bare := newFakeAPI(t, textReply("ok"))
	p := history()
	_, err := bare.client.Models.GenerateContent(t.Context(), p.Model, p.Contents, nil)
	require.NoError(t, err)
	want := bare.contents(0)

	api := newFakeAPI(t, textReply("ok"))
	insert := hooks.Funcs{HookName: "insert", BeforeModelRequest: func(_ *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
		at := slices.IndexFunc(req.Messages, func(m hooks.Message) bool { return len(m.ToolCalls) > 0 })
		note := hooks.Message{Role: "user", Text: "Answer in French."}
		return &hooks.ModelRequestPatch{Messages: slices.Insert(slices.Clone(req.Messages), at, note)}, nil
	}}
	_, _, err = runLoop(t, api, nil, history(), insert)
	require.NoError(t, err)

	got := api.contents(0)
	require.Len(t, got, len(want)+1)
	assert.Equal(t, map[string]any{"role": "user", "parts": []any{map[string]any{"text": "Answer in French."}}}, got[1])
	assert.Equal(t, want, slices.Delete(slices.Clone(got), 1, 2))
}

func TestRedactedToolMessageKeepsItsCallNameAndSignature(t *testing.T) {
	api := newFakeAPI(t, textReply("ok"))
	redact := hooks.Funcs{HookName: "redact", BeforeModelRequest: func(_ *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
		msgs := slices.Clone(req.Messages)
		for i := range msgs {
			switch msgs[i].Role {
			case "tool":
				msgs[i].Text = "[redacted]"
			case "assistant":
				msgs[i].ToolCalls = slices.Clone(msgs[i].ToolCalls)
				msgs[i].ToolCalls[0].Arguments = map[string]any{"id": 8.0}
			}
		}
		return &hooks.ModelRequestPatch{Messages: msgs}, nil
	}}
	_, _, err := runLoop(t, api, nil, history(), redact)
	require.NoError(t, err)
	call := api.part(0, 1, 0)
	assert.Equal(t, map[string]any{"id": "fc_0", "name": "lookup", "args": map[string]any{"id": 8.0}}, call["functionCall"])
	assert.NotEmpty(t, call["thoughtSignature"], "a changed call keeps its thought signature")
	assert.Equal(t, map[string]any{"id": "fc_0", "name": "lookup", "response": map[string]any{"output": "[redacted]"}},
		functionResponse(t, api.part(0, 2, 0)))
	assert.Contains(t, api.part(0, 0, 1), "inlineData", "the untouched image is still sent")
}

func TestHooksSeeModelToolsUsageAndStopReason(t *testing.T) {
	api := newFakeAPI(t, toolReply(call{"fc_1", "read", `{"path":"a"}`}), textReply("done"))
	var req hooks.ModelRequest
	var resps []hooks.ModelResponse
	watch := hooks.Funcs{HookName: "watch",
		BeforeModelRequest: func(c *hooks.Context, r hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
			if c.ModelCalls() == 0 {
				req = r
			}
			return nil, nil
		},
		AfterModelResponse: func(_ *hooks.Context, r hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
			resps = append(resps, r)
			return nil, nil
		}}
	read := &toolLog{result: hooks.ToolResult{Text: "x"}}
	_, _, err := runLoop(t, api, map[string]hooksgenai.Tool{"read": read.tool}, userParams("read", "read"), watch)
	require.NoError(t, err)
	assert.Equal(t, "gemini-test", req.Model)
	require.Len(t, req.Tools, 1)
	assert.Equal(t, "read", req.Tools[0].Name)
	assert.Equal(t, "the read tool", req.Tools[0].Description)
	assert.JSONEq(t, `{"type":"object"}`, string(req.Tools[0].Schema))
	require.Len(t, resps, 2)
	assert.Equal(t, hooks.StopToolUse, resps[0].StopReason)
	assert.Equal(t, []hooks.ToolCall{{ID: "fc_1", Name: "read", Arguments: map[string]any{"path": "a"}}}, resps[0].ToolCalls)
	assert.Equal(t, hooks.Usage{InputTokens: 11, OutputTokens: 9, CachedInputTokens: 3}, resps[0].Usage)
	assert.Equal(t, hooks.StopEndTurn, resps[1].StopReason)
}

func TestAHookNarrowsTheToolsAndSwitchesTheModel(t *testing.T) {
	api := newFakeAPI(t, textReply("ok"))
	narrow := hooks.Funcs{HookName: "narrow", BeforeModelRequest: func(_ *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
		tools := slices.DeleteFunc(slices.Clone(req.Tools), func(s hooks.ToolSpec) bool { return s.Name == "delete" })
		model := "gemini-cheap"
		return &hooks.ModelRequestPatch{Tools: tools, Model: &model}, nil
	}}
	params := userParams("go", "read", "delete")
	params.Config.Tools = append(params.Config.Tools, &sdk.Tool{GoogleSearch: &sdk.GoogleSearch{}})
	params.Config.ToolConfig = &sdk.ToolConfig{FunctionCallingConfig: &sdk.FunctionCallingConfig{
		Mode: sdk.FunctionCallingConfigModeAny, AllowedFunctionNames: []string{"read", "delete"}}}
	tools := map[string]hooksgenai.Tool{"read": (&toolLog{}).tool, "delete": (&toolLog{}).tool}
	_, _, err := runLoop(t, api, tools, params, narrow)
	require.NoError(t, err)

	assert.Equal(t, "/v1/models/gemini-cheap:generateContent", api.path(0))
	raw, err := json.Marshal(api.body(0)["tools"])
	require.NoError(t, err)
	assert.JSONEq(t, `[{"functionDeclarations":[{"name":"read","description":"the read tool","parametersJsonSchema":{"type":"object"}}]},{"googleSearch":{}}]`, string(raw))
	assert.Equal(t, []any{"read"}, api.body(0)["toolConfig"].(map[string]any)["functionCallingConfig"].(map[string]any)["allowedFunctionNames"])
	assert.Len(t, params.Config.Tools[0].FunctionDeclarations, 2, "the caller's config is not modified")
	assert.Len(t, params.Config.ToolConfig.FunctionCallingConfig.AllowedFunctionNames, 2)
}

func TestUnchangedToolsAreSentAsTheyWere(t *testing.T) {
	bare := newFakeAPI(t, textReply("ok"))
	params := userParams("go", "read")
	params.Config.Tools = append(params.Config.Tools, &sdk.Tool{CodeExecution: &sdk.ToolCodeExecution{}})
	_, err := bare.client.Models.GenerateContent(t.Context(), params.Model, params.Contents, params.Config)
	require.NoError(t, err)

	api := newFakeAPI(t, textReply("ok"))
	echo := hooks.Funcs{HookName: "echo", BeforeModelRequest: func(_ *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
		return &hooks.ModelRequestPatch{Tools: slices.Clone(req.Tools)}, nil
	}}
	_, _, err = runLoop(t, api, map[string]hooksgenai.Tool{"read": (&toolLog{}).tool}, params, echo)
	require.NoError(t, err)
	assert.Equal(t, bare.body(0)["tools"], api.body(0)["tools"])
}

func TestEndStopsTheLoop(t *testing.T) {
	endAfter := func(calls int) hooks.Hook {
		return hooks.Funcs{HookName: "budget", BeforeModelRequest: func(c *hooks.Context, _ hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
			if c.ModelCalls() >= calls {
				return &hooks.ModelRequestPatch{End: &hooks.End{Output: "budget spent"}}, nil
			}
			return nil, nil
		}}
	}
	endOnTools := hooks.Funcs{HookName: "stop", AfterModelResponse: func(_ *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
		if len(resp.ToolCalls) > 0 {
			return &hooks.ModelResponsePatch{End: &hooks.End{Output: "no tools today"}}, nil
		}
		return nil, nil
	}}
	for _, tc := range []struct {
		name       string
		hook       hooks.Hook
		output     string
		toolCalled bool
	}{
		{"before the model", endAfter(1), "budget spent", true},
		{"after the reply", endOnTools, "no tools today", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			api := newFakeAPI(t, toolReply(call{"fc_1", "read", `{}`}), textReply("never sent"))
			read := &toolLog{}
			res, end, err := runLoop(t, api, map[string]hooksgenai.Tool{"read": read.tool}, userParams("go", "read"), tc.hook)
			require.NoError(t, err)
			assert.True(t, res.Ended)
			assert.Equal(t, tc.output, end.Output)
			assert.Len(t, api.requests(), 1)
			assert.Equal(t, tc.toolCalled, len(read.calls) == 1)
		})
	}
}

func TestContinueSendsTheRunOnWithTheHooksReply(t *testing.T) {
	api := newFakeAPI(t, textReply("The plan is SECRET."), textReply("Checked."))
	review := hooks.Funcs{HookName: "review", AfterModelResponse: func(c *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
		if c.ModelCalls() > 1 {
			return nil, nil
		}
		text := "The plan is [redacted]."
		return &hooks.ModelResponsePatch{Text: &text, Continue: new("Check your answer.")}, nil
	}}

	res, _, err := runLoop(t, api, nil, userParams("plan?"), review)
	require.NoError(t, err)
	assert.False(t, res.Ended)
	assert.Equal(t, "Checked.", res.Output)
	assert.Equal(t, 2, res.Turns)
	assert.Equal(t, map[string]any{"role": "model", "parts": []any{map[string]any{"text": "The plan is [redacted]."}}}, api.contents(1)[1])
	assert.Equal(t, map[string]any{"role": "user", "parts": []any{map[string]any{"text": "Check your answer."}}}, api.contents(1)[2])
	assert.NotContains(t, string(api.requests()[1]), "SECRET")
}
