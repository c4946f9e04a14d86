package geminicli_test

import (
	"strings"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/geminicli"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A malformed settings file is an error naming the entry at fault.
func TestSettingsErrorsNameTheEntry(t *testing.T) {
	for settings, want := range map[string]string{
		`[]`:                             "must be a JSON object",
		`{"hooks": []}`:                  "hooks: must be an object of events",
		`{"hooks": {"BeforeTool": {}}}`:  "hooks.BeforeTool: must be a list",
		`{"hooks": {"BeforeTool": [3]}}`: "hooks.BeforeTool[0]: must be an object",
		`{"hooks": {"BeforeTool": [{"matcher": "x"}]}}`:                                                 "hooks.BeforeTool[0].hooks: missing",
		`{"hooks": {"BeforeTool": [{"matcher": 3, "hooks": []}]}}`:                                      "hooks.BeforeTool[0]: matcher",
		`{"hooks": {"BeforeTool": [{"sequential": "yes", "hooks": []}]}}`:                               "hooks.BeforeTool[0]: sequential",
		`{"hooks": {"AfterTool": [{"hooks": [{"command": "x"}]}]}}`:                                     "hooks.AfterTool[0].hooks[0].type: missing",
		`{"hooks": {"AfterTool": [{"hooks": [{"type": "command"}]}]}}`:                                  "hooks.AfterTool[0].hooks[0].command: missing or empty",
		`{"hooks": {"AfterTool": [{"hooks": [{"type": "command", "command": " "}]}]}}`:                  "hooks.AfterTool[0].hooks[0].command: missing or empty",
		`{"hooks": {"AfterTool": [{"hooks": [{"type": "command", "command": "x", "timeout": -1}]}]}}`:   "hooks.AfterTool[0].hooks[0].timeout: must be a positive number of milliseconds",
		`{"hooks": {"AfterTool": [{"hooks": [{"type": "command", "command": "x", "timeout": "5s"}]}]}}`: "hooks.AfterTool[0].hooks[0]: timeout",
		`{"hooks": {"AfterTool": [{"hooks": [{"type": "command", "command": "x", "env": {"A": 1}}]}]}}`: "hooks.AfterTool[0].hooks[0]: env",
		`{"hooksConfig": {"enabled": "no"}, "hooks": {}}`:                                               "hooksConfig",
	} {
		_, err := geminicli.Hooks([]byte(settings))
		if assert.Error(t, err, settings) {
			assert.Contains(t, err.Error(), want, settings)
		}
	}
}

// What Gemini CLI skips with a warning loads here too, each skip a
// diagnostic naming it: a typo of a key or an event with the name it
// resembles, an event not run here with the reason, a matcher Gemini CLI
// ignores, a hook type that is not "command".
func TestSettingsDiagnoseWhatTheySkip(t *testing.T) {
	var diags []string
	hs, err := geminicli.Hooks([]byte(`{"hooks": {
		"BeforeTools": [{"hooks": [{"type": "command", "command": "true"}]}],
		"Notification": [{"hooks": [{"type": "command", "command": "true"}]}],
		"BeforeAgent": [{"matcher": "startup", "matchr": "x", "hooks": [{"type": "command", "command": "true", "timeOut": 5}]}],
		"AfterTool": [{"matcher": "(", "hooks": [{"type": "runtime", "command": "true"}]}],
		"disabled": ["x"]
	}}`), geminicli.Diagnostics(func(d hooks.Diagnostic) { diags = append(diags, d.Err.Error()) }))
	require.NoError(t, err)
	require.Len(t, hs, 1)
	assert.Equal(t, "gemini:BeforeAgent", hs[0].Name())
	all := strings.Join(diags, "\n")
	for _, want := range []string{
		`hooks.BeforeTools: unknown event, skipped (1 group(s)); did you mean "BeforeTool"?`,
		"hooks.Notification: event not run by this library",
		`hooks.BeforeAgent[0].matchr: unknown key, not read; did you mean "matcher"?`,
		`hooks.BeforeAgent[0].hooks[0].timeOut: unknown key, not read; did you mean "timeout"?`,
		`hooks.BeforeAgent[0].matcher: "startup" is ignored`,
		`hooks.AfterTool[0].matcher: "(" is not a regular expression`,
		`hooks.AfterTool[0].hooks[0]: hook type "runtime" not run by this library`,
		`hooks.disabled: not read here; Gemini CLI reads it from "hooksConfig"`,
	} {
		assert.Contains(t, all, want)
	}
	assert.Len(t, diags, 8, all)
}

// hooksConfig.enabled false gives no hook; hooksConfig.disabled names the
// hooks not to run (by name, or command when unnamed); the same command
// twice in an event runs once.
func TestSettingsEnabledDisabledAndDuplicates(t *testing.T) {
	hs, err := geminicli.Hooks([]byte(`{"hooksConfig": {"enabled": false}, "hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "true"}]}]}}`))
	require.NoError(t, err)
	assert.Empty(t, hs)

	var rec recorder
	data := []byte(`{"hooksConfig": {"disabled": ["guard", "` + emit(t, "off", "0", "") + `"]}, "hooks": {"BeforeTool": [
		{"hooks": [{"type": "command", "name": "guard", "command": "echo '{\"decision\":\"deny\"}'"}]},
		{"hooks": [{"type": "command", "command": "` + emit(t, "off", "0", "") + `"}]},
		{"hooks": [{"type": "command", "command": "echo x >> log"}, {"type": "command", "command": "echo x >> log"}]}]}}`)
	h := host(t, &rec)
	run := start(t, &rec, h, data)
	res, err := run.CallTool(bg, hooks.ToolCall{Name: "ls"}, (&tool{text: "ran"}).run)
	require.NoError(t, err)
	assert.Equal(t, hooks.ToolResult{Text: "ran"}, res, "the disabled guard does not run")
	assert.Empty(t, rec.shown(), "the disabled command does not run")
	assert.FileExists(t, h.Workdir+"/log")
	assert.Equal(t, 1, strings.Count(readFile(t, h.Workdir+"/log"), "x"), "a duplicate runs once")
}

// The hooks object alone reads as a whole settings.json does; a file
// without hooks gives none.
func TestSettingsShapes(t *testing.T) {
	hs, err := geminicli.Hooks([]byte(`{"BeforeTool": [{"hooks": [{"type": "command", "command": "true"}]}]}`))
	require.NoError(t, err)
	require.Len(t, hs, 1)
	hs, err = geminicli.Hooks([]byte(`{"general": {}}`))
	require.NoError(t, err)
	assert.Empty(t, hs)
	_, err = geminicli.Hooks([]byte(`{}`), geminicli.ToolNames(map[string]string{"a": "x", "b": "x"}))
	assert.ErrorContains(t, err, `both given the Gemini name "x"`)
}
