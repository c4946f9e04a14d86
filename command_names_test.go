package hooks_test

import (
	"encoding/json"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A matcher written in another case than the tool ("Shell" for "shell",
// "SHELL") means that tool: the guard runs for it and refuses, and a
// diagnostic, once, says to write the tool's name.
func TestCommandMatcherInAnotherCaseRunsWithADiagnostic(t *testing.T) {
	for _, matcher := range []string{"Shell", "SHELL", "sHeL"} {
		var rec recorder
		run := start(t, &rec, commandHooks(t, with(entry("pre_tool_call", script(t, "block.sh")), "matcher", matcher))...)
		for range 2 {
			res, err := run.CallTool(bg, shellCall("git push --force; rm -rf /"), echoTool(&rec))
			require.NoError(t, err)
			assert.Equal(t, "rm -rf is not allowed", res.Text, matcher)
		}
		assert.Empty(t, rec.got(), "the tool never ran")
		if assert.Len(t, rec.diagnostics(), 1, "once per hook") {
			assert.Contains(t, rec.diagnostics()[0].Err.Error(), `matcher "`+matcher+`" does not match the tool "shell" as written`)
		}
	}
}

// A matcher that misses a tool it is a typo of ("write-file" for
// write_file) is a diagnostic with a did-you-mean at that call, once; it
// does not run (a typo may name another tool). A matcher far from the
// tool says nothing at the call (CheckCommandToolNames finds it).
func TestCommandMatcherThatMissesATypoIsDiagnosed(t *testing.T) {
	for matcher, want := range map[string]string{
		"write-file": `matcher "write-file" does not take the tool "write_file" (did you mean "write_file"?): the hook did not run for it`,
		"writefile":  `(did you mean "write_file"?)`,
		"bash":       "",
	} {
		var rec recorder
		run := start(t, &rec, commandHooks(t, with(entry("pre_tool_call", script(t, "fail.sh")), "matcher", matcher))...)
		for range 2 {
			res, err := run.CallTool(bg, hooks.ToolCall{Name: "write_file", Arguments: map[string]any{"text": "ran"}}, echoTool(&rec))
			require.NoError(t, err)
			assert.Equal(t, "ran", res.Text, "the hook did not run")
		}
		if want == "" {
			assert.Empty(t, rec.diagnostics(), matcher)
			continue
		}
		if assert.Len(t, rec.diagnostics(), 1, matcher) {
			assert.Contains(t, rec.diagnostics()[0].Err.Error(), want)
		}
	}
}

// CheckCommandToolNames checks a settings file against a run's tools, for
// a linter: one problem per tool event's matcher that takes no tool as
// written, with a did-you-mean; other events' matchers are not tool
// names.
func TestCheckCommandToolNames(t *testing.T) {
	data, err := json.Marshal(map[string]any{"hooks": []map[string]any{
		with(entry("pre_tool_call", "true"), "matcher", "Shell"),
		with(entry("post_tool_call", "true"), "matcher", "write-file"),
		with(entry("pre_tool_call", "true"), "matcher", "shell"),
		entry("pre_tool_call", "true"),
		with(entry("session_start", "true"), "matcher", "sess"),
	}})
	require.NoError(t, err)
	problems, err := hooks.CheckCommandToolNames(data, []string{"shell", "write_file"})
	require.NoError(t, err)
	require.Len(t, problems, 2)
	assert.Contains(t, problems[0].Error(), `hooks[0] (pre_tool_call): matcher "Shell" takes the tool "shell" only when case is set aside`)
	assert.Contains(t, problems[1].Error(), `hooks[1] (post_tool_call): matcher "write-file" names no tool of this run (did you mean "write_file"?)`)

	_, err = hooks.CheckCommandToolNames([]byte(`{"hooks":[{"event":"nope","command":["x"]}]}`), nil)
	assert.ErrorContains(t, err, "hooks[0].event")
}
