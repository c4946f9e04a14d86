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

// A matcher that takes none of the tools the model is offered is a
// diagnostic with a did-you-mean at the first model request that lists
// them, once; one that takes a tool says nothing.
func TestCommandMatcherThatNamesNoToolIsDiagnosed(t *testing.T) {
	tools := []hooks.ToolSpec{{Name: "shell"}, {Name: "write_file"}, {Name: "read_file"}}
	for matcher, want := range map[string]string{
		"write-file": `matcher "write-file" names no tool of this run (did you mean "write_file"?), so the hook never runs; the tools are shell, write_file, read_file`,
		"bash":       `matcher "bash" names no tool of this run, so the hook never runs`,
		"Write_File": `matcher "Write_File" takes the tool "write_file" only when case is set aside`,
		"file":       "",
		"shell":      "",
	} {
		var rec recorder
		run := start(t, &rec, commandHooks(t, with(entry("pre_tool_call", script(t, "block.sh")), "matcher", matcher))...)
		for range 2 {
			_, err := run.BeforeModelRequest(bg, hooks.ModelRequest{Tools: tools, Messages: []hooks.Message{{Role: "user", Text: "go"}}})
			require.NoError(t, err)
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

// CheckCommandToolNames makes the same check on a settings file, for a
// linter: one problem per tool event's matcher that takes no tool as
// written; other events' matchers are not tool names.
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
