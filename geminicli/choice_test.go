package geminicli_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/geminicli"
)

// requestPatch is the patch the hook of event gives req: the model points'
// new fields (ToolChoice, Settings) are the patch's to fill, whatever the
// chain then does with them.
func requestPatch(t *testing.T, event string, handlers []map[string]any, req hooks.ModelRequest) (*hooks.ModelRequestPatch, []string) {
	t.Helper()
	var rec recorder
	hs, err := geminicli.Hooks(settings(t, map[string][]map[string]any{event: {group("", handlers...)}}),
		geminicli.Diagnostics(rec.diagnose), geminiNames(map[string]string{"read": "read_file", "ls": "list_directory", "shell": "run_shell_command"}))
	require.NoError(t, err)
	require.Len(t, hs, 1)
	h, ok := hs[0].(hooks.BeforeModelRequestHook)
	require.True(t, ok)
	// The hook runs inside a run (its diagnostics go to the chain's), its
	// patch kept as it gave it.
	var patch *hooks.ModelRequestPatch
	spy := hooks.Funcs{HookName: "spy", BeforeModelRequest: func(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
		p, err := h.BeforeModelRequest(c, req)
		patch = p
		return nil, err
	}}
	chain, err := hooks.NewChain([]hooks.Hook{spy}, hooks.WithDiagnostics(rec.diagnose))
	require.NoError(t, err)
	r, err := chain.Start(bg, host(t, &rec), hooks.RunStart{Input: "test"})
	require.NoError(t, err)
	defer r.End(bg, hooks.RunEnd{})
	m := &model{}
	_, err = r.CallModel(bg, req, m.call)
	require.NoError(t, err)
	return patch, rec.errors()
}

var choiceTools = []hooks.ToolSpec{{Name: "read"}, {Name: "ls"}, {Name: "shell"}}

// toolConfigOut is a BeforeToolSelection output as Gemini CLI's hooks
// reference writes it.
func toolConfigOut(t *testing.T, cfg string) map[string]any {
	return handler(emit(t, fmt.Sprintf(`{"hookSpecificOutput": {"hookEventName": "BeforeToolSelection", "toolConfig": %s}}`, cfg), "0", ""))
}

func names(ts []hooks.ToolSpec) []string {
	if ts == nil {
		return nil
	}
	out := []string{}
	for _, s := range ts {
		out = append(out, s.Name)
	}
	return out
}

// toolConfig.mode and allowedFunctionNames become the request's tool
// choice, merged as Gemini CLI's aggregator merges them: NONE wins, then
// ANY, else AUTO; the names are united. ANY with one name calls that tool
// (by the host's name); with several, one of them (the tools narrowed).
func TestBeforeToolSelectionSetsToolChoice(t *testing.T) {
	req := hooks.ModelRequest{Messages: []hooks.Message{{Role: "user", Text: "read it"}}, Tools: choiceTools}
	for _, tc := range []struct {
		name   string
		cfgs   []string
		tools  []string // nil: unchanged
		choice *hooks.ToolChoice
	}{
		{"the reference's whitelist, ANY", []string{`{"mode": "ANY", "allowedFunctionNames": ["read_file", "list_directory"]}`},
			[]string{"read", "ls"}, &hooks.ToolChoice{Mode: hooks.ToolChoiceRequired}},
		{"ANY, one name", []string{`{"mode": "ANY", "allowedFunctionNames": ["read_file"]}`},
			[]string{"read"}, &hooks.ToolChoice{Mode: hooks.ToolChoiceRequired, Name: "read"}},
		{"ANY alone", []string{`{"mode": "ANY"}`}, nil, &hooks.ToolChoice{Mode: hooks.ToolChoiceRequired}},
		{"NONE disables all tools", []string{`{"mode": "NONE"}`}, []string{}, &hooks.ToolChoice{Mode: hooks.ToolChoiceNone}},
		{"NONE wins over ANY", []string{`{"mode": "ANY", "allowedFunctionNames": ["read_file"]}`, `{"mode": "NONE"}`},
			[]string{}, &hooks.ToolChoice{Mode: hooks.ToolChoiceNone}},
		{"ANY over AUTO, names united", []string{`{"mode": "AUTO", "allowedFunctionNames": ["read_file"]}`, `{"mode": "ANY", "allowedFunctionNames": ["list_directory"]}`},
			[]string{"read", "ls"}, &hooks.ToolChoice{Mode: hooks.ToolChoiceRequired}},
		{"AUTO", []string{`{"mode": "AUTO", "allowedFunctionNames": ["run_shell_command"]}`},
			[]string{"shell"}, &hooks.ToolChoice{Mode: hooks.ToolChoiceAuto}},
		{"names alone merge to AUTO", []string{`{"allowedFunctionNames": ["read_file"]}`},
			[]string{"read"}, &hooks.ToolChoice{Mode: hooks.ToolChoiceAuto}},
		{"ANY with no tool offered calls none", []string{`{"mode": "ANY", "allowedFunctionNames": ["web_fetch"]}`},
			[]string{}, &hooks.ToolChoice{Mode: hooks.ToolChoiceNone}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var hs []map[string]any
			for _, c := range tc.cfgs {
				hs = append(hs, toolConfigOut(t, c))
			}
			p, _ := requestPatch(t, "BeforeToolSelection", hs, req)
			require.NotNil(t, p)
			assert.Equal(t, tc.tools, names(p.Tools))
			assert.Equal(t, tc.choice, p.ToolChoice)
		})
	}
}

// A hook reads the request's tool choice as LLMRequest.toolConfig, and its
// settings as LLMRequest.config, in Gemini's names.
func TestLLMRequestShowsToolChoiceAndConfig(t *testing.T) {
	log := filepath.Join(t.TempDir(), "log")
	temp, topP, maxTok := 0.7, 0.9, 512
	req := hooks.ModelRequest{Messages: []hooks.Message{{Role: "user", Text: "hi"}}, Tools: choiceTools,
		ToolChoice: &hooks.ToolChoice{Name: "shell"},
		Settings:   &hooks.ModelSettings{Temperature: &temp, TopP: &topP, MaxTokens: &maxTok, Stop: []string{"END"}}}
	_, _ = requestPatch(t, "BeforeToolSelection", []map[string]any{handler(script(t, "record.sh", log))}, req)
	ins, _ := records(t, log)
	require.Len(t, ins, 1)
	llm := ins[0]["llm_request"].(map[string]any)
	assert.Equal(t, map[string]any{"mode": "ANY", "allowedFunctionNames": []any{"run_shell_command"}}, llm["toolConfig"])
	assert.Equal(t, map[string]any{"temperature": 0.7, "topP": 0.9, "maxOutputTokens": 512.0, "stopSequences": []any{"END"}}, llm["config"])
}

// BeforeModel's llm_request.config sets the request's settings: the
// reference's example lowers the temperature; keys it does not give keep
// theirs; a value of the wrong type, and a key with no setting here
// (topK), are diagnostics that change nothing.
func TestBeforeModelConfigSetsSettings(t *testing.T) {
	temp, maxTok := 1.0, 100
	req := hooks.ModelRequest{Model: "gemini-2.5-pro", Messages: []hooks.Message{{Role: "user", Text: "hi"}},
		Settings: &hooks.ModelSettings{Temperature: &temp, MaxTokens: &maxTok}}
	out := func(cfg string) []map[string]any {
		return []map[string]any{handler(emit(t, `{"hookSpecificOutput": {"hookEventName": "BeforeModel", "llm_request": {"config": `+cfg+`}}}`, "0", ""))}
	}

	p, diags := requestPatch(t, "BeforeModel", out(`{"temperature": 0.2}`), req)
	require.NotNil(t, p)
	require.NotNil(t, p.Settings)
	assert.Equal(t, 0.2, *p.Settings.Temperature)
	assert.Equal(t, 100, *p.Settings.MaxTokens, "a setting the hook leaves out stays")
	assert.Equal(t, 1.0, *req.Settings.Temperature, "the request itself is not changed")
	assert.Empty(t, diags)

	p, _ = requestPatch(t, "BeforeModel", out(`{"topP": 0.5, "maxOutputTokens": 2048, "stopSequences": ["STOP"]}`), hooks.ModelRequest{Messages: req.Messages})
	require.NotNil(t, p)
	require.NotNil(t, p.Settings)
	assert.Equal(t, 0.5, *p.Settings.TopP)
	assert.Equal(t, 2048, *p.Settings.MaxTokens)
	assert.Equal(t, []string{"STOP"}, p.Settings.Stop)
	assert.Nil(t, p.Settings.Temperature)

	for _, bad := range []string{`{"temperature": "hot"}`, `{"maxOutputTokens": 1.5}`, `{"maxOutputTokens": -3}`, `{"stopSequences": "END"}`, `{"topK": 40}`} {
		p, diags = requestPatch(t, "BeforeModel", out(bad), req)
		assert.Nil(t, p, bad)
		require.Len(t, diags, 1, bad)
		assert.Contains(t, diags[0], "llm_request.config.", bad)
	}
}
