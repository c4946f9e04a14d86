package claudecode_test

import (
	"fmt"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/claudecode"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ccNames lists the names of hs.
func ccNames(hs []hooks.Hook) []string {
	var out []string
	for _, h := range hs {
		out = append(out, h.Name())
	}
	return out
}

// A whole settings.json and its "hooks" object alone give the same hooks,
// one per event, in a fixed order; a settings.json without hooks, or with
// disableAllHooks, gives none.
func TestSettingsShapes(t *testing.T) {
	events := `{"Stop":[{"hooks":[{"type":"command","command":"true"}]}],
		"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"true","timeout":30}]}]}`
	for name, settings := range map[string]string{
		"whole":      `{"permissions":{"allow":["Bash(ls)"]},"env":{"A":"1"},"hooks":` + events + `}`,
		"hooks only": events,
	} {
		hs, err := claudecode.Hooks([]byte(settings))
		require.NoError(t, err, name)
		assert.Equal(t, []string{"claude:PreToolUse", "claude:Stop"}, ccNames(hs), name)
	}
	for _, settings := range []string{`{}`, `{"permissions":{"deny":[]}}`, `{"disableAllHooks":true,"hooks":` + events + `}`} {
		hs, err := claudecode.Hooks([]byte(settings))
		require.NoError(t, err, settings)
		assert.Empty(t, hs, settings)
	}
}

// A malformed entry is an error naming the event and the index.
func TestSettingsErrors(t *testing.T) {
	for settings, want := range map[string]string{
		`[]`:                  "must be a JSON object",
		`{"hooks":[]}`:        "hooks: must be an object of events",
		`{"PreToolUse":{}}`:   "hooks.PreToolUse: must be a list",
		`{"PreToolUse":[1]}`:  "hooks.PreToolUse[0]: must be an object",
		`{"PreToolUse":[{}]}`: "hooks.PreToolUse[0].hooks: missing",
		`{"PreToolUse":[{"matcher":"(","hooks":[]}]}`:                                             "hooks.PreToolUse[0].matcher: invalid regular expression",
		`{"Stop":[{"hooks":[{"type":"command","command":"true"},{"command":"x"}]}]}`:              "hooks.Stop[0].hooks[1].type: missing",
		`{"Stop":[{"hooks":[{"type":"command"}]}]}`:                                               "hooks.Stop[0].hooks[0].command: missing or empty",
		`{"Stop":[{"hooks":[{"type":"command","command":"true","timeout":-1}]}]}`:                 "hooks.Stop[0].hooks[0].timeout: must be a positive number",
		`{"Stop":[{"hooks":[{"type":"command","command":"true","timeout":"30"}]}]}`:               "hooks.Stop[0].hooks[0]: must be an object",
		`{"SessionEnd":[{"hooks":[]},{"matcher":"x","hooks":[{"type":"command","command":""}]}]}`: "hooks.SessionEnd[1].hooks[0].command",
	} {
		_, err := claudecode.Hooks([]byte(settings))
		require.Error(t, err, settings)
		assert.Contains(t, err.Error(), want, settings)
	}
	_, err := claudecode.Hooks([]byte(`{}`), claudecode.ToolNames(map[string]string{"shell": ""}))
	assert.ErrorContains(t, err, "empty tool name")
}

// Events and handler types this library does not run are skipped, each
// with a diagnostic naming it through the sink; the rest load.
func TestSkippedEventsAndTypesAreDiagnosed(t *testing.T) {
	var rec recorder
	settings := `{"hooks":{
		"Notification":[{"hooks":[{"type":"command","command":"notify-send hi"}]}],
		"PreToolUse":[{"matcher":"Bash","hooks":[
			{"type":"prompt","prompt":"Is this safe? $ARGUMENTS"},
			{"type":"http","url":"http://localhost:1/hook"},
			{"type":"command","command":"true","if":"Bash(git *)","statusMessage":"checking","async":false}]}]}}`
	hs, err := claudecode.Hooks([]byte(settings), claudecode.Diagnostics(rec.diagnose))
	require.NoError(t, err)
	assert.Equal(t, []string{"claude:PreToolUse"}, ccNames(hs))
	var got []string
	for _, d := range rec.diagnostics() {
		got = append(got, d.String())
	}
	require.Len(t, got, 4)
	assert.Contains(t, got[0], "hooks.Notification: event not run by this library, skipped")
	assert.Contains(t, got[1], `hooks.PreToolUse[0].hooks[0]: handler type "prompt" not run by this library, skipped`)
	assert.Contains(t, got[2], `hooks.PreToolUse[0].hooks[1]: handler type "http"`)
	assert.Contains(t, got[3], `hooks.PreToolUse[0].hooks[2]: "if" "Bash(git *)" is not read`)
}

// A name prefix keeps the hooks of two settings files apart in one chain;
// without it, the chain refuses the duplicate names.
func TestNamePrefixKeepsNamesUnique(t *testing.T) {
	settings := []byte(`{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"true"}]}]}}`)
	user, err := claudecode.Hooks(settings, claudecode.NamePrefix("user:"))
	require.NoError(t, err)
	project, err := claudecode.Hooks(settings, claudecode.NamePrefix("project:"))
	require.NoError(t, err)
	chain, err := hooks.NewChain(append(user, project...))
	require.NoError(t, err)
	assert.Equal(t, []string{"user:PreToolUse", "project:PreToolUse"}, ccNames(chain.Hooks()))

	again, err := claudecode.Hooks(settings)
	require.NoError(t, err)
	first, err := claudecode.Hooks(settings)
	require.NoError(t, err)
	_, err = hooks.NewChain(append(first, again...))
	assert.ErrorContains(t, err, "duplicate")
}

// Every matcher form of Claude Code, on the tool name (the Claude name and
// the host's both match).
func TestMatcherForms(t *testing.T) {
	names := claudecode.ToolNames(map[string]string{"shell": "Bash", "fs_edit": "Edit"})
	for matcher, want := range map[string][]string{
		"":                 {"shell", "fs_edit", "mcp__github__create_issue"},
		"*":                {"shell", "fs_edit", "mcp__github__create_issue"},
		"Bash":             {"shell"},
		"shell":            {"shell"},
		"Edit|Write":       {"fs_edit"},
		"Write, Edit":      {"fs_edit"},
		"Bas":              nil,
		"mcp__github__.*":  {"mcp__github__create_issue"},
		"^(Bash|Edit)$":    {"shell", "fs_edit"},
		"ash":              nil,
		"[Ee]dit":          {"fs_edit"},
		"mcp__.*__create_": {"mcp__github__create_issue"},
	} {
		var rec recorder
		settings := fmt.Appendf(nil, `{"PreToolUse":[{"matcher":%q,"hooks":[{"type":"command","command":"echo '{\"decision\":\"block\"}'"}]}]}`, matcher)
		_, run := claudeRun(t, &rec, claudeHost(t, &ccPerson{}), settings, names)
		var refused []string
		for _, tool := range []string{"shell", "fs_edit", "mcp__github__create_issue"} {
			step, err := run.BeforeToolExecute(bg, hooks.ToolCall{Name: tool})
			require.NoError(t, err)
			if step.Refused {
				refused = append(refused, tool)
			}
		}
		assert.Equal(t, want, refused, "matcher %q", matcher)
	}
}

// Typos load as Claude Code loads them (it ignores keys it does not know),
// and each is a load diagnostic naming the key it resembles: a top-level
// "hook" gives no hook, "matchers" leaves the handler running on every
// tool, "timeOut" leaves the default timeout, a misspelt event is skipped.
func TestSettingsTyposAreDiagnosed(t *testing.T) {
	block := `{"type":"command","command":"echo '{\"decision\":\"block\",\"reason\":\"guarded\"}'"`
	for name, tc := range map[string]struct {
		settings string
		hooks    []string
		diags    []string
	}{
		"hook": {`{"hook":{"PreToolUse":[{"hooks":[` + block + `}]}]}}`, nil,
			[]string{`hook: unknown key "hook" is ignored (as Claude Code ignores it); did you mean "hooks"?`}},
		"Hooks": {`{"Hooks":{"PreToolUse":[{"hooks":[` + block + `}]}]}}`, nil,
			[]string{`Hooks: unknown key "Hooks" is ignored (as Claude Code ignores it); did you mean "hooks"?`}},
		"matchers and timeOut": {`{"hooks":{"PreToolUse":[{"matchers":"Bash","hooks":[` + block + `,"timeOut":5}]}]}}`, []string{"claude:PreToolUse"},
			[]string{`hooks.PreToolUse[0]: unknown key "matchers" is ignored (as Claude Code ignores it); did you mean "matcher"?`,
				`hooks.PreToolUse[0].hooks[0]: unknown key "timeOut" is ignored (as Claude Code ignores it); did you mean "timeout"?`}},
		"an event": {`{"hooks":{"PreToolUSe":[{"hooks":[` + block + `}]}]}}`, nil,
			[]string{`hooks.PreToolUSe: event not run by this library, skipped (1 group(s)) (did you mean "PreToolUse"?)`}},
		"a key unlike any": {`{"hooks":{"Stop":[{"hooks":[` + block + `,"shell":"zsh"}]}]}}`, []string{"claude:Stop"},
			[]string{`unknown key "shell" is ignored (as Claude Code ignores it); the keys here are type, command, args, timeout`}},
	} {
		t.Run(name, func(t *testing.T) {
			var rec recorder
			hs, err := claudecode.Hooks([]byte(tc.settings), claudecode.Diagnostics(rec.diagnose))
			require.NoError(t, err)
			assert.Equal(t, tc.hooks, ccNames(hs))
			require.Len(t, rec.diagnostics(), len(tc.diags))
			for i, want := range tc.diags {
				assert.Contains(t, rec.diagnostics()[i].Err.Error(), want)
			}
		})
	}
	// "matchers" is no matcher: the guard runs on every tool, as in Claude Code.
	var rec recorder
	_, run := claudeRun(t, &rec, claudeHost(t, &ccPerson{}),
		[]byte(`{"hooks":{"PreToolUse":[{"matchers":"Bash","hooks":[`+block+`}]}]}}`), claudecode.Diagnostics(func(hooks.Diagnostic) {}))
	step, err := run.BeforeToolExecute(bg, hooks.ToolCall{Name: "Read"})
	require.NoError(t, err)
	assert.True(t, step.Refused)
}
