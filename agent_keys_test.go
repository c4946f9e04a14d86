package hooks_test

import (
	"errors"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A key a typo away from a known one is ignored like any unknown key, but
// never silently: it is kept as a warning naming its line and the key it
// resembles.
func TestParseAgentWarnsOfKeysThatLookLikeTypos(t *testing.T) {
	for _, tc := range []struct{ key, like string }{
		{"hook", "hooks"},
		{"Hooks", "hooks"},
		{"HOOKS", "hooks"},
		{"hoks", "hooks"},
		{`"hooks "`, "hooks"},
		{"hooks-", "hooks"},
		{"tols", "tools"},
		{"Tool", "tools"},
		{"modle", "model"},
		{"Model", "model"},
		{"nmae", "name"},
		{"descripton", "description"},
		{"descritpion", "description"},
		{"Descriptoin", "description"},
	} {
		t.Run(tc.key, func(t *testing.T) {
			a, err := hooks.ParseAgent([]byte("---\nname: x\n" + tc.key + ": [guard]\n---\nPrompt."))
			require.NoError(t, err, "an unknown key is no error")
			require.Len(t, a.Warnings, 1)
			w := a.Warnings[0]
			assert.Equal(t, 3, w.Line)
			assert.Equal(t, tc.like, w.Like)
			assert.Contains(t, w.Error(), "agent: line 3: unknown key ")
			assert.Contains(t, w.Error(), `is ignored; did you mean "`+tc.like+`"?`)
			assert.Empty(t, a.Hooks, "the key is still ignored")
		})
	}
}

// The message a user sees for the commonest slip.
func TestParseAgentHookKeyWarningMessage(t *testing.T) {
	a, err := hooks.ParseAgent([]byte("---\nname: careful\nhook:\n  - guard\n---\n"))
	require.NoError(t, err)
	assert.Equal(t, []hooks.AgentWarning{{Line: 3, Key: "hook", Like: "hooks"}}, a.Warnings)
	assert.EqualError(t, a.Warnings[0], `agent: line 3: unknown key "hook" is ignored; did you mean "hooks"?`)
}

// Warnings count the lines of the file, a BOM and blank lines before the
// front matter included, and come in the file's order.
func TestParseAgentWarningsNameTheFileLine(t *testing.T) {
	a, err := hooks.ParseAgent([]byte("\ufeff\n \n---\nhooks: [audit]\nHooks: [guard]\ntols: [shell]\n---\n"))
	require.NoError(t, err)
	assert.Equal(t, []string{"audit"}, a.Hooks)
	assert.Equal(t, []hooks.AgentWarning{
		{Line: 5, Key: "Hooks", Like: "hooks"},
		{Line: 6, Key: "tols", Like: "tools"},
	}, a.Warnings)
}

// Keys that are meant, not misspelt, stay forward compatible: no warning.
// Among them are the keys of other agent-file formats (Claude Code,
// opencode) and short words two edits from a known key.
func TestParseAgentDoesNotWarnOfOtherKeys(t *testing.T) {
	for _, key := range []string{
		"temperature", "hooks_dir", "hooksDir", "hook_timeout", "mode", "Mode", "top_p", "color",
		"prompt", "permission", "permissionMode", "disable", "maxSteps", "skills", "future",
		"tags", "version", "author", "x", "age", "date", "time", "node", "hotel", "todos", "desc",
		"models_dir", "tool_choice", "42", `""`,
	} {
		a, err := hooks.ParseAgent([]byte("---\nname: x\n" + key + ": 1\n---\n"))
		require.NoError(t, err, key)
		assert.Empty(t, a.Warnings, key)
	}
	for _, file := range []string{"---\n[hook]: 1\n---\n", "---\n? {hoks: 1}\n: 2\n---\n"} {
		a, err := hooks.ParseAgent([]byte(file))
		require.NoError(t, err, "a key that is a list or a mapping is no typo: %q", file)
		assert.Empty(t, a.Warnings, file)
	}
	a, err := hooks.ParseAgent([]byte("---\nname: x\ndescription: d\nmodel: m\ntools: [shell]\nhooks: [guard]\n---\n"))
	require.NoError(t, err)
	assert.Nil(t, a.Warnings, "the known keys")
}

// LoadAgent reports each warning as a load-time Diagnostic about the agent
// file (no hook, no point), even when the typo leaves no hook declared.
func TestLoadAgentReportsWarningsAsDiagnostics(t *testing.T) {
	var diags []hooks.Diagnostic
	l := hooks.Loader{Dir: "testdata/hooks", Diagnostics: func(d hooks.Diagnostic) { diags = append(diags, d) }}

	a, err := hooks.ParseAgent([]byte("---\nname: careful\nhook: [guard]\n---\n"))
	require.NoError(t, err)
	hs, err := l.LoadAgent(a)
	require.NoError(t, err)
	assert.Empty(t, hs)
	require.Len(t, diags, 1)
	assert.Equal(t, "", diags[0].Hook)
	assert.Equal(t, hooks.Point(""), diags[0].Point)
	var w hooks.AgentWarning
	require.True(t, errors.As(diags[0].Err, &w))
	assert.Equal(t, hooks.AgentWarning{Line: 3, Key: "hook", Like: "hooks"}, w)

	diags = nil
	a, err = hooks.ParseAgent([]byte("---\nhooks: [guard]\ntols: [shell]\n---\n"))
	require.NoError(t, err)
	hs, err = l.LoadAgent(a)
	require.NoError(t, err)
	require.Len(t, hs, 1, "the declared hooks load all the same")
	assert.Equal(t, "guard", hs[0].Name())
	require.Len(t, diags, 1)
	assert.EqualError(t, diags[0].Err, `agent: line 3: unknown key "tols" is ignored; did you mean "tools"?`)
}
