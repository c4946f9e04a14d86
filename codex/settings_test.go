package codex_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/codex"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The settings are read strictly: what Codex would read differently, or
// would silently not run, is an error naming the file, the line and the
// entry, with the name it resembles.
func TestSettingsErrorsNameTheFileLineAndEntry(t *testing.T) {
	for _, tc := range []struct {
		name, settings, want string
	}{
		{"unknown group key", "{\"hooks\":{\"PreToolUse\":[\n{\"matchers\":\"Bash\",\"hooks\":[]}]}}", `x.json:2: hooks.PreToolUse[0].matchers: unknown key "matchers"; did you mean "matcher"?`},
		{"unknown handler key", `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"true","timeOut":5}]}]}}`, `hooks.PreToolUse[0].hooks[0].timeOut: unknown key "timeOut"; did you mean "timeout"?`},
		{"unknown event", `{"hooks":{"PreToolUSe":[]}}`, `hooks.PreToolUSe: unknown event "PreToolUSe"; did you mean "PreToolUse"?`},
		{"unknown root key", `{"hook":{}}`, `unknown key "hook"; did you mean "hooks"?`},
		{"empty command", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"  "}]}]}}`, `hooks.Stop[0].hooks[0].command: missing or empty`},
		{"missing command", `{"hooks":{"Stop":[{"hooks":[{"type":"command","timeout":10}]}]}}`, `hooks.Stop[0].hooks[0].command: missing or empty`},
		{"unknown type", `{"hooks":{"Stop":[{"hooks":[{"type":"comand","command":"x"}]}]}}`, `unknown handler type "comand"; did you mean "command"?`},
		{"bad regex", `{"hooks":{"PreToolUse":[{"matcher":"(Bash","hooks":[]}]}}`, `hooks.PreToolUse[0].matcher: invalid regular expression`},
		{"names joined by commas", `{"hooks":{"PreToolUse":[{"matcher":"Bash, Write","hooks":[]}]}}`, `write "Bash|Write"`},
		{"a name padded with a space", `{"hooks":{"PreToolUse":[{"matcher":"Bash ","hooks":[]}]}}`, `write "Bash"`},
		{"not UTF-8", "{\"hooks\":{\"Stop\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"rm \xff\"}]}]}}", `not UTF-8`},
		{"a whole float", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x","timeout":1.0}]}]}}`, `must be a whole number of seconds, not 1.0`},
		{"string timeout", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x","timeout":"5"}]}]}}`, `timeout: must be a whole number of seconds, not a string`},
		{"fraction", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x","timeout":1.5}]}]}}`, `must be a whole number of seconds, not 1.5`},
		{"negative", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x","timeout":-1}]}]}}`, `must not be negative`},
		{"huge", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x","timeout":9007199254740991}]}]}}`, `is more than the most`},
		{"both spellings", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x","timeout":1,"timeoutSec":2}]}]}}`, `"timeout" and "timeoutSec" are one field`},
		{"key twice", `{"hooks":{"PreToolUse":[{"matcher":"Read","matcher":"Bash","hooks":[]}]}}`, `key "matcher" given twice`},
		{"list for a string", `{"hooks":{"PreToolUse":[{"matcher":["Bash"],"hooks":[]}]}}`, `matcher: must be a string`},
		{"not JSON", `{"hooks":`, `x.json:1: invalid JSON`},
		{"async not a bool", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x","async":"yes"}]}]}}`, `async: must be true or false`},
	} {
		_, err := codex.Hooks([]byte(tc.settings), codex.File("x.json"))
		require.Error(t, err, tc.name)
		assert.Contains(t, err.Error(), tc.want, tc.name)
	}
}

// config.toml: the [hooks] tables load like hooks.json; a syntax error
// names its line; a top-level "hook" table is an error (it would leave
// every hook out); the rest of config.toml is not read.
func TestTOMLSettings(t *testing.T) {
	good := "model = \"gpt-5\"\n[features]\nhooks = true\n\n[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"printf no >&2; exit 2\"\ntimeout = 5\n"
	hs, err := codex.HooksTOML([]byte(good))
	require.NoError(t, err)
	require.Len(t, hs, 1)
	assert.Equal(t, "codex:PreToolUse", hs[0].Name())

	var notes []string
	off := "[features]\nhooks = false\n\n[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"x\"\n"
	hs, err = codex.HooksTOML([]byte(off), codex.Diagnostics(func(d hooks.Diagnostic) { notes = append(notes, d.Err.Error()) }))
	require.NoError(t, err)
	assert.Empty(t, hs, "[features] hooks = false: no hook")
	require.Len(t, notes, 1)
	assert.Contains(t, notes[0], "hooks = false")

	for _, tc := range []struct{ toml, want string }{
		{"[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"x\"\ntimeOut = 5\n", `config.toml:6: hooks.PreToolUse[0].hooks[0].timeOut: unknown key "timeOut"; did you mean "timeout"?`},
		{"[[hook.PreToolUse]]\nmatcher = \"Bash\"\n", `unknown key "hook"; did you mean "hooks"?`},
		{"[[hooks.PreToolUse]]\nmatcher = \"Bash\n", `config.toml:2:`},
		{"[hooks.state.\"k\"]\nenabled = \"no\"\n", `hooks.state."k".enabled: must be a boolean`},
	} {
		_, err := codex.HooksTOML([]byte(tc.toml))
		require.Error(t, err, tc.toml)
		assert.Contains(t, err.Error(), tc.want)
	}
}

// Events this library has no point for, prompt and agent handlers (Codex
// skips them too), and a matcher on an event that reads none load as
// diagnostics naming them and why; the rest runs.
func TestWhatIsNotRunIsSaid(t *testing.T) {
	var diags []hooks.Diagnostic
	settings := `{"hooks":{
		"PermissionRequest":[{"hooks":[{"type":"command","command":"true"}]}],
		"PreCompact":[{"hooks":[{"type":"command","command":"true"}]}],
		"SubagentStop":[{"hooks":[{"type":"command","command":"true"}]}],
		"Stop":[{"matcher":"done","hooks":[{"type":"command","command":"true"},{"type":"prompt","prompt":"ok?"}]}]}}`
	hs, err := codex.Hooks([]byte(settings), codex.Diagnostics(func(d hooks.Diagnostic) { diags = append(diags, d) }))
	require.NoError(t, err)
	require.Len(t, hs, 1)
	var all string
	for _, d := range diags {
		all += d.Err.Error() + "\n"
	}
	assert.Contains(t, all, "PermissionRequest are not run: it answers Codex's own approval prompt")
	assert.Contains(t, all, "PreCompact are not run: there is no compaction point")
	assert.Contains(t, all, "SubagentStop are not run: there are no subagents")
	assert.Contains(t, all, `hooks.Stop[0].matcher "done" is ignored`)
	assert.Contains(t, all, `Stop[0].hooks[1]: a "prompt" handler is not run`)
	assert.Len(t, diags, 5)
}

// Codex's hook trust: with Trusted, a handler runs only when the hash
// trusted for its key is its current hash; a changed handler is skipped.
// [hooks.state] enabled = false disables one. Entries lists keys and
// hashes for review.
func TestTrust(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "hooks.json")
	settings := `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"printf no >&2; exit 2","statusMessage":"Checking"}]}]}}`
	require.NoError(t, os.WriteFile(path, []byte(settings), 0o600))
	entries, err := codex.Entries([]byte(settings), path)
	require.NoError(t, err)
	require.Len(t, entries, 1)
	assert.Equal(t, path+":pre_tool_use:0:0", entries[0].Key)
	assert.Regexp(t, `^sha256:[0-9a-f]{64}$`, entries[0].Hash)

	var diags []string
	diag := codex.Diagnostics(func(d hooks.Diagnostic) { diags = append(diags, d.Err.Error()) })
	hs, err := codex.Load(path, codex.Trusted(map[string]string{entries[0].Key: entries[0].Hash}), diag)
	require.NoError(t, err)
	assert.Len(t, hs, 1)

	hs, err = codex.Load(path, codex.Trusted(map[string]string{}), diag)
	require.NoError(t, err)
	assert.Empty(t, hs)
	assert.Contains(t, diags[len(diags)-1], "never trusted")

	changed := `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"true","statusMessage":"Checking"}]}]}}`
	require.NoError(t, os.WriteFile(path, []byte(changed), 0o600))
	hs, err = codex.Load(path, codex.Trusted(map[string]string{entries[0].Key: entries[0].Hash}), diag)
	require.NoError(t, err)
	assert.Empty(t, hs)
	assert.Contains(t, diags[len(diags)-1], "changed since it was trusted")

	toml := "[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"true\"\n[hooks.state.\"config.toml:stop:0:0\"]\nenabled = false\ntrusted_hash = \"sha256:00\"\n"
	hs, err = codex.HooksTOML([]byte(toml), diag)
	require.NoError(t, err)
	assert.Empty(t, hs)
	assert.Contains(t, diags[len(diags)-1], "disabled in [hooks.state]")
	state, err := codex.State([]byte(toml))
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"config.toml:stop:0:0": "sha256:00"}, state)
}
