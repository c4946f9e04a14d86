package hooks_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPostToolCallObservesTheFinalResult: an advisory command event sees
// what the model finally read, whatever its place in the list (seed 004:
// "the post hook observes the final result").
func TestPostToolCallObservesTheFinalResult(t *testing.T) {
	saved := filepath.Join(t.TempDir(), "envelope.json")
	upper := hooks.Funcs{HookName: "upper",
		AfterToolExecute: func(c *hooks.Context, call hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
			text := "RAW RESULT"
			return &hooks.ToolResultPatch{Text: &text}, nil
		}}
	for name, list := range map[string][]hooks.Hook{
		"listed first": append(commandHooks(t, entry("post_tool_call", script(t, "save.sh"), saved)), upper),
		"listed last":  append([]hooks.Hook{upper}, commandHooks(t, entry("post_tool_call", script(t, "save.sh"), saved))...),
	} {
		var rec recorder
		run := start(t, &rec, list...)
		res, err := run.CallTool(bg, hooks.ToolCall{Name: "x", Arguments: map[string]any{"text": "raw result"}}, echoTool(&rec))
		require.NoError(t, err)
		require.Equal(t, "RAW RESULT", res.Text, name)
		data, err := os.ReadFile(saved)
		require.NoError(t, err)
		var env struct{ Result hooks.ToolResult }
		require.NoError(t, json.Unmarshal(data, &env))
		assert.Equal(t, "RAW RESULT", env.Result.Text, "%s: the command saw what the model reads", name)
	}
}

// TestCommandFailuresNameTheArgvAndBlockShortly: a failing command's
// diagnostic names its whole argv and keeps its stderr; under failClosed
// the model reads a short reason naming the hook.
func TestCommandFailuresNameTheArgvAndBlockShortly(t *testing.T) {
	var rec recorder
	fail := script(t, "fail.sh")
	run := start(t, &rec, commandHooks(t, with(with(entry("pre_tool_call", "sh", fail), "failClosed", true), "name", "guard"))...)
	res, err := run.CallTool(bg, shellCall("ls"), echoTool(&rec))
	require.NoError(t, err)
	assert.Equal(t, "Tool call blocked: hook guard failed: exit status 3", res.Text)
	require.Len(t, rec.diagnostics(), 1)
	d := rec.diagnostics()[0]
	assert.Equal(t, "guard", d.Hook)
	assert.Contains(t, d.Err.Error(), `command ["sh" "`+fail+`"]`)
	assert.Contains(t, d.Err.Error(), "something broke", "the diagnostic keeps stderr")
}
