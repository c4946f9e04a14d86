package genai_test

import (
	"context"
	"math"
	"strings"
	"testing"

	sdk "google.golang.org/genai"

	"github.com/rienda/hooks"
	hooksgenai "github.com/rienda/hooks/adapters/genai"
	"github.com/rienda/hooks/internal/adapttest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// settingsParams declares two functions and sets every field the hooks
// read.
func settingsParams() hooksgenai.Params {
	p := userParams("hi", "read", "write")
	p.Config.ToolConfig = &sdk.ToolConfig{FunctionCallingConfig: &sdk.FunctionCallingConfig{
		Mode: sdk.FunctionCallingConfigModeAny, AllowedFunctionNames: []string{"read"}}}
	p.Config.Temperature, p.Config.TopP = sdk.Ptr[float32](0.7), sdk.Ptr[float32](0.5)
	p.Config.MaxOutputTokens, p.Config.StopSequences = 100, []string{"END"}
	p.Config.HTTPOptions = &sdk.HTTPOptions{ExtraBody: map[string]any{"labels": map[string]any{"team": "a"}}}
	return p
}

func readWrite() map[string]hooksgenai.Tool {
	return map[string]hooksgenai.Tool{"read": (&toolLog{}).tool, "write": (&toolLog{}).tool}
}

func TestLoopShowsHooksTheToolChoiceAndSettingsAndSendsThemAsTheyWere(t *testing.T) {
	api := newFakeAPI(t, textReply("done"))
	var seen adapttest.Seen
	params := settingsParams()
	_, _, err := runLoop(t, api, readWrite(), params, seen.Hook())
	require.NoError(t, err)
	require.Len(t, seen.Requests, 1)
	req := seen.Requests[0]
	assert.Equal(t, &hooks.ToolChoice{Mode: hooks.ToolChoiceRequired, Name: "read"}, req.ToolChoice)
	require.NotNil(t, req.Settings)
	assert.Equal(t, hooks.ModelSettings{Temperature: adapttest.F64(0.7), TopP: adapttest.F64(0.5), MaxTokens: adapttest.Int(100),
		Stop: []string{"END"}, Provider: map[string]any{"labels": map[string]any{"team": "a"}}}, *req.Settings,
		"0.7 as the host wrote it, not float32's 0.699999988")

	body := api.body(0)
	assert.Equal(t, map[string]any{"functionCallingConfig": map[string]any{"mode": "ANY", "allowedFunctionNames": []any{"read"}}}, body["toolConfig"])
	gen := body["generationConfig"].(map[string]any)
	assert.InDelta(t, 0.7, gen["temperature"], 1e-6)
	assert.InDelta(t, 100, gen["maxOutputTokens"], 0)
	assert.Equal(t, []any{"END"}, gen["stopSequences"])
	assert.Equal(t, map[string]any{"team": "a"}, body["labels"])
	assert.Equal(t, float32(0.7), *params.Config.Temperature, "the caller's config is not modified")
}

func TestLoopSendsTheToolChoiceAHookSet(t *testing.T) {
	for _, tc := range []struct {
		choice *hooks.ToolChoice
		want   any
	}{
		{&hooks.ToolChoice{Mode: "auto"}, map[string]any{"mode": "AUTO"}},
		{&hooks.ToolChoice{Mode: "none"}, map[string]any{"mode": "NONE"}},
		{&hooks.ToolChoice{Mode: "required"}, map[string]any{"mode": "ANY"}},
		{&hooks.ToolChoice{Name: "write"}, map[string]any{"mode": "ANY", "allowedFunctionNames": []any{"write"}}},
		{nil, nil},
	} {
		api := newFakeAPI(t, textReply("done"))
		_, _, err := runLoop(t, api, readWrite(), settingsParams(), adapttest.SetRequest(func(r *hooks.ModelRequest) { r.ToolChoice = tc.choice }))
		require.NoError(t, err)
		var got any
		if tcfg, ok := api.body(0)["toolConfig"].(map[string]any); ok {
			got = tcfg["functionCallingConfig"]
		}
		assert.Equal(t, tc.want, got, "%+v", tc.choice)
	}
}

func TestLoopSendsTheSettingsAHookSet(t *testing.T) {
	api := newFakeAPI(t, textReply("done"))
	params := settingsParams()
	_, _, err := runLoop(t, api, readWrite(), params, adapttest.SetRequest(func(r *hooks.ModelRequest) {
		r.Settings = &hooks.ModelSettings{Temperature: adapttest.F64(0), MaxTokens: adapttest.Int(9), Stop: []string{"a", "b"}}
	}))
	require.NoError(t, err)
	body := api.body(0)
	gen := body["generationConfig"].(map[string]any)
	assert.InDelta(t, 0, gen["temperature"], 0, "0 is a setting, not the default")
	assert.NotContains(t, gen, "topP", "a setting the hook cleared is the API's default")
	assert.InDelta(t, 9, gen["maxOutputTokens"], 0)
	assert.Equal(t, []any{"a", "b"}, gen["stopSequences"])
	assert.NotContains(t, body, "labels", "Provider replaces ExtraBody")
	assert.Equal(t, map[string]any{"labels": map[string]any{"team": "a"}}, params.Config.HTTPOptions.ExtraBody, "the caller's options are not modified")
}

func TestBuildRefusesAChoiceOrSettingNoAPIAccepts(t *testing.T) {
	for name, set := range map[string]func(*hooks.ModelRequest){
		"Gemini's own word":     func(r *hooks.ModelRequest) { r.ToolChoice = &hooks.ToolChoice{Mode: "ANY"} },
		"function not declared": func(r *hooks.ModelRequest) { r.ToolChoice = &hooks.ToolChoice{Name: "shell"} },
		"function a hook took":  func(r *hooks.ModelRequest) { r.Tools = r.Tools[:1]; r.ToolChoice = &hooks.ToolChoice{Name: "write"} },
		"name with mode none":   func(r *hooks.ModelRequest) { r.ToolChoice = &hooks.ToolChoice{Mode: "none", Name: "read"} },
		"required without tools": func(r *hooks.ModelRequest) {
			r.Tools = []hooks.ToolSpec{}
			r.ToolChoice = &hooks.ToolChoice{Mode: "required"}
		},
		"infinite temperature":  func(r *hooks.ModelRequest) { r.Settings.Temperature = adapttest.F64(math.Inf(-1)) },
		"zero max tokens":       func(r *hooks.ModelRequest) { r.Settings.MaxTokens = adapttest.Int(0) },
		"empty stop":            func(r *hooks.ModelRequest) { r.Settings.Stop = []string{""} },
		"provider sets a field": func(r *hooks.ModelRequest) { r.Settings.Provider = map[string]any{"generationConfig": "x"} },
	} {
		t.Run(name, func(t *testing.T) {
			base := settingsParams()
			req := hooksgenai.Request(base)
			set(&req)
			_, err := hooksgenai.Build(base, req)
			require.Error(t, err)
			assert.True(t, strings.HasPrefix(err.Error(), "genai: "), err.Error())
		})
	}
}

// thoughtReply is a response with a thought, then a signed function call.
func thoughtReply(thought string) []string {
	return []string{response(`{"text":`+quote(thought)+`,"thought":true},`+
		`{"functionCall":{"id":"c1","name":"read","args":{}},"thoughtSignature":"c2lnLWFiYw=="}`, "STOP")}
}

func TestThoughtsAreReasoningAndGoBackWhenNoHookChangedThem(t *testing.T) {
	api := newFakeAPI(t, thoughtReply("weigh it"), textReply("done"))
	var seen adapttest.Seen
	_, _, err := runLoop(t, api, readWrite(), userParams("hi", "read"), seen.Hook())
	require.NoError(t, err)
	require.NotEmpty(t, seen.Replies)
	assert.Equal(t, "weigh it", seen.Replies[0].Reasoning)
	assert.Equal(t, "", seen.Replies[0].Text, "a thought is not the reply's text")
	assert.Equal(t, map[string]any{"text": "weigh it", "thought": true}, api.part(1, 1, 0))
	assert.Equal(t, "c2lnLWFiYw==", api.part(1, 1, 1)["thoughtSignature"])
}

func TestThoughtsAHookChangedOrDroppedAreNotSentBack(t *testing.T) {
	for name, reasoning := range map[string]string{"dropped": "", "rewritten": "weigh [redacted]"} {
		t.Run(name, func(t *testing.T) {
			api := newFakeAPI(t, thoughtReply("weigh sk-secret"), textReply("done"))
			_, _, err := runLoop(t, api, readWrite(), userParams("hi", "read"),
				adapttest.SetReply(func(r *hooks.ModelResponse) { r.Reasoning = reasoning }))
			require.NoError(t, err)
			model := api.contents(1)[1]
			sent := string(api.requests()[1])
			assert.NotContains(t, sent, "sk-secret")
			assert.NotContains(t, sent, "[redacted]", "the hook's text is not sent as a thought")
			parts := model["parts"].([]any)
			require.Len(t, parts, 1)
			assert.Equal(t, "c2lnLWFiYw==", parts[0].(map[string]any)["thoughtSignature"], "the call keeps its signature")
		})
	}
}

func TestStreamModelAssemblesThoughts(t *testing.T) {
	chunks := []string{
		`{"candidates":[{"content":{"role":"model","parts":[{"text":"weigh ","thought":true}]},"index":0}]}`,
		`{"candidates":[{"content":{"role":"model","parts":[{"text":"it","thought":true}]},"index":0}]}`,
		`{"candidates":[{"content":{"role":"model","parts":[{"text":"ok"}]},"finishReason":"STOP","index":0}]}`,
	}
	api := newFakeAPI(t, chunks)
	reply, r, err := hooksgenai.StreamModel(context.Background(), startRun(t), api.client.Models, userParams("hi"),
		func(hooks.Chunk) error { return nil })
	require.NoError(t, err)
	assert.Equal(t, "weigh it", reply.Response.Reasoning)
	assert.Equal(t, "ok", reply.Response.Text)
	c, err := hooksgenai.AssistantMessage(r, reply.Response)
	require.NoError(t, err)
	require.Len(t, c.Parts, 2, "consecutive thought pieces make one part")
	assert.True(t, c.Parts[0].Thought)
}
