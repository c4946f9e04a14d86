package adk_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/adk/v2/tool"
	"google.golang.org/genai"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/internal/adapttest"
)

func TestContinueCallsTheModelAgainWithTheMessage(t *testing.T) {
	m := &fakeModel{replies: []*genai.Content{textReply("draft"), textReply("final")}}
	once := hooks.Funcs{HookName: "again", AfterModelResponse: func(c *hooks.Context, r hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
		if r.Text == "draft" {
			msg := "check it"
			return &hooks.ModelResponsePatch{Continue: &msg}, nil
		}
		return nil, nil
	}}
	var seen adapttest.Seen
	a := newApp(t, m, nil, once, seen.Hook())
	_, err := a.run(t.Context(), "go")
	require.NoError(t, err)
	require.Equal(t, 2, m.count(), "the model is called again after a Continue")

	second := m.request(t, 1).Contents
	require.GreaterOrEqual(t, len(second), 3)
	last := second[len(second)-2:]
	assert.Equal(t, genai.RoleModel, last[0].Role)
	assert.Equal(t, []*genai.Part{{Text: "draft"}}, last[0].Parts, "the reply, without the plugin's call")
	assert.Equal(t, genai.RoleUser, last[1].Role)
	assert.Equal(t, []*genai.Part{{Text: "check it"}}, last[1].Parts, "the Continue message as a user text")
	assert.NotContains(t, toolNames(m.request(t, 1)), "hooks_continue", "never offered to the model")
	for _, req := range seen.Requests {
		for _, msg := range req.Messages {
			assert.NotEqual(t, "tool", msg.Role, "the hooks never see the plugin's call")
		}
	}
	require.Len(t, a.ends, 1)
	assert.Equal(t, "final", a.ends[0].Output)
}

func TestContinueIsBoundedPerInvocation(t *testing.T) {
	var replies []*genai.Content
	for range 30 {
		replies = append(replies, textReply("again"))
	}
	m := &fakeModel{replies: replies}
	always := hooks.Funcs{HookName: "always", AfterModelResponse: func(*hooks.Context, hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
		msg := "more"
		return &hooks.ModelResponsePatch{Continue: &msg}, nil
	}}
	a := newApp(t, m, nil, always)
	_, err := a.run(t.Context(), "go")
	require.NoError(t, err)
	assert.Equal(t, 21, m.count(), "20 Continues, then the reply is final")
}

func TestHooksSeeTheToolChoiceAndSettingsADKCarries(t *testing.T) {
	m := &fakeModel{replies: []*genai.Content{textReply("ok")}}
	read := &toolLog{out: map[string]any{"result": "x"}}
	gen := &genai.GenerateContentConfig{Temperature: genai.Ptr[float32](0.2), MaxOutputTokens: 64, StopSequences: []string{"END"},
		ToolConfig: &genai.ToolConfig{FunctionCallingConfig: &genai.FunctionCallingConfig{Mode: genai.FunctionCallingConfigModeAny}}}
	var seen adapttest.Seen
	a := newAppConfig(t, m, []tool.Tool{read.tool(t, "read")}, gen, seen.Hook())
	_, err := a.run(t.Context(), "go")
	require.NoError(t, err)
	require.NotEmpty(t, seen.Requests)
	req := seen.Requests[0]
	assert.Equal(t, &hooks.ToolChoice{Mode: hooks.ToolChoiceRequired}, req.ToolChoice)
	assert.Equal(t, &hooks.ModelSettings{Temperature: adapttest.F64(0.2), MaxTokens: adapttest.Int(64), Stop: []string{"END"}}, req.Settings)
}

func TestAHooksToolChoiceAndSettingsReachTheModel(t *testing.T) {
	m := &fakeModel{replies: []*genai.Content{textReply("ok")}}
	read := &toolLog{out: map[string]any{"result": "x"}}
	force := hooks.Funcs{HookName: "force", BeforeModelRequest: func(*hooks.Context, hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
		return &hooks.ModelRequestPatch{ToolChoice: &hooks.ToolChoice{Name: "read"},
			Settings: &hooks.ModelSettings{TopP: adapttest.F64(0.5)}}, nil
	}}
	a := newApp(t, m, []tool.Tool{read.tool(t, "read")}, force)
	_, err := a.run(t.Context(), "go")
	require.NoError(t, err)
	cfg := m.request(t, 0).Config
	require.NotNil(t, cfg)
	require.NotNil(t, cfg.ToolConfig)
	assert.Equal(t, &genai.FunctionCallingConfig{Mode: genai.FunctionCallingConfigModeAny, AllowedFunctionNames: []string{"read"}},
		cfg.ToolConfig.FunctionCallingConfig)
	require.NotNil(t, cfg.TopP)
	assert.InDelta(t, 0.5, *cfg.TopP, 0)
}
