package claudecode_test

import (
	"encoding/json"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/claudecode"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// diagTexts are the texts of diags.
func diagTexts(diags []hooks.Diagnostic) []string {
	var out []string
	for _, d := range diags {
		out = append(out, d.Err.Error())
	}
	return out
}

// A guard whose matcher or ToolNames names the tool in another case
// ("bash", "Shell", ToolNames {"Shell": "Bash"} for the host's "shell")
// still guards: it runs for the tool, as meant, and refuses the force
// push; a diagnostic says to write the name as the tool has it, once.
func TestNamesInAnotherCaseStillGuard(t *testing.T) {
	for _, tc := range []struct {
		name, matcher string
		opts          []claudecode.Option
		load, run     string // a part of the load-time and the run's diagnostic, "" for none
	}{
		{"matcher bash", "bash", []claudecode.Option{ccToolNames}, `"bash" is not the tool "Bash" as written`, `"bash" is not the tool "Bash" as written`},
		{"matcher Shell, the host's tool", "Shell", nil, "", `"Shell" is not the tool "shell" as written`},
		{"ToolNames Shell", "Bash", []claudecode.Option{claudecode.ToolNames(map[string]string{"Shell": "Bash"})}, "",
			`ToolNames: "Shell" is not the tool "shell" as written: it maps "shell" to "Bash", as meant`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var rec recorder
			var load []hooks.Diagnostic
			opts := append([]claudecode.Option{claudecode.Diagnostics(func(d hooks.Diagnostic) { load = append(load, d) })}, tc.opts...)
			_, run := claudeRun(t, &rec, claudeHost(t, &ccPerson{}), claudeSettings(t, map[string][]map[string]any{
				"PreToolUse": {ccGroup(tc.matcher, claudeScript(t, "bash_guard.sh"))}}), opts...)
			for range 2 {
				res, err := run.CallTool(bg, ccBash("git push --force"), ccShell(&rec))
				require.NoError(t, err)
				assert.True(t, res.IsError, res.Text)
				assert.Contains(t, res.Text, "is destructive")
			}
			assert.Empty(t, rec.got(), "the force push never ran")
			if tc.load == "" {
				assert.Empty(t, load)
			} else if assert.Len(t, load, 1) {
				assert.Contains(t, load[0].Err.Error(), tc.load)
			}
			if assert.Len(t, rec.diagnostics(), 1, "once: %q", diagTexts(rec.diagnostics())) {
				assert.Contains(t, rec.diagnostics()[0].Err.Error(), tc.run)
			}
		})
	}
}

// At the first model request that lists the run's tools, a matcher that
// takes none of them, and a ToolNames key that is none of them, is a
// diagnostic with a did-you-mean, once per settings set; so is a name of
// a list that takes none ("Write" of "Bash|Write": the run has no Write,
// and the guard meant for it never runs); a matcher that takes one says
// nothing.
func TestNamesThatMatchNoToolOfTheRunAreDiagnosed(t *testing.T) {
	var rec recorder
	_, run := claudeRun(t, &rec, claudeHost(t, &ccPerson{}), claudeSettings(t, map[string][]map[string]any{
		"PreToolUse":  {ccGroup("Bsh", "true"), ccGroup("deploy", "true"), ccGroup("^Deploy.*", "true"), ccGroup("Bash|Write", "true"), ccGroup("", "true")},
		"PostToolUse": {ccGroup("write_file", "true")},
	}), claudecode.ToolNames(map[string]string{"shell": "Bash", "Shel": "Bash"}), claudecode.Diagnostics(func(hooks.Diagnostic) {}))
	req := hooks.ModelRequest{Tools: []hooks.ToolSpec{{Name: "shell"}, {Name: "write_file"}}, Messages: []hooks.Message{{Role: "user", Text: "go"}}}
	for range 2 {
		step, err := run.BeforeModelRequest(bg, req)
		require.NoError(t, err)
		_, err = run.AfterModelResponse(bg, step, hooks.ModelResponse{Text: "ok"})
		require.NoError(t, err)
	}
	got := diagTexts(rec.diagnostics())
	require.Len(t, got, 5, "%q", got)
	assert.Contains(t, got[0], `hooks.PreToolUse[0].matcher: "Bsh" names no tool of this run (did you mean "Bash"?), so its handlers never run; the tools are shell, Bash, write_file`)
	assert.Contains(t, got[1], `hooks.PreToolUse[1].matcher: "deploy" names no tool of this run`)
	assert.Contains(t, got[2], `hooks.PreToolUse[2].matcher: "^Deploy.*" matches no tool of this run`)
	assert.Contains(t, got[3], `hooks.PreToolUse[3].matcher: "Write" names no tool of this run, so its handlers never run for the tool it was meant for (a name of the list "Bash|Write")`)
	assert.Contains(t, got[4], `ToolNames: "Shel" is no tool of this run (did you mean "shell"?)`)
}

// CheckToolNames makes the run's check on a settings file, for a linter.
func TestCheckToolNames(t *testing.T) {
	settings, err := json.Marshal(map[string]any{"hooks": map[string]any{
		"PreToolUse":        []map[string]any{ccGroup("bash", "true"), ccGroup("Shell", "true"), ccGroup("Bash", "true")},
		"PermissionRequest": []map[string]any{ccGroup("write-file", "true")},
		"SessionStart":      []map[string]any{ccGroup("startup", "true")},
	}})
	require.NoError(t, err)
	problems, err := claudecode.CheckToolNames(settings, []string{"shell", "write_file"}, claudecode.ToolNames(map[string]string{"shell": "Bash"}))
	require.NoError(t, err)
	var texts []string
	for _, p := range problems {
		texts = append(texts, p.Error())
	}
	require.Len(t, texts, 3, "%q", texts)
	assert.Contains(t, texts[0], `hooks.PreToolUse[0].matcher: "bash" takes the tool "Bash" only when case is set aside`)
	assert.Contains(t, texts[1], `hooks.PreToolUse[1].matcher: "Shell" takes the tool "shell" only when case is set aside`)
	assert.Contains(t, texts[2], `hooks.PermissionRequest[0].matcher: "write-file" names no tool of this run (did you mean "write_file"?)`)

	_, err = claudecode.CheckToolNames([]byte(`{"hooks":{"PreToolUse":[{"matcher":"(","hooks":[]}]}}`), nil)
	assert.ErrorContains(t, err, "hooks.PreToolUse[0].matcher")
}
