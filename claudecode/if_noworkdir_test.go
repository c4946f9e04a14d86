package claudecode_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A run with no Workdir still runs a handler narrowed by "if": a Bash
// rule is judged on the command (it needs no directory), and a path rule,
// which cannot place a relative path, takes the call rather than skip a
// guard.
func TestIfWithoutWorkdirNeverSkipsAGuard(t *testing.T) {
	var rec recorder
	log := filepath.Join(t.TempDir(), "seen")
	host := claudeHost(t, &ccPerson{})
	host.Workdir = ""
	record := claudeScript(t, "record.sh", log)
	settings, err := json2(map[string]any{"hooks": map[string]any{"PreToolUse": []any{map[string]any{"hooks": []any{
		map[string]any{"type": "command", "command": record, "if": "Bash(git push *)"},
		map[string]any{"type": "command", "command": record, "if": "Write(src/**)"},
	}}}}})
	require.NoError(t, err)
	_, run := claudeRun(t, &rec, host, settings, ccToolNames)
	write := hooks.ToolCall{ID: "w", Name: "write_file", Arguments: map[string]any{"file_path": "docs/x.md", "content": "x"}}
	for _, call := range []hooks.ToolCall{ccBash("cd repo && git push --force"), ccBash("ls"), write} {
		_, err := run.CallTool(bg, call, ccShell(&rec))
		require.NoError(t, err)
	}
	inputs, _ := ccInputs(t, log)
	var seen []string
	for _, in := range inputs {
		args := in["tool_input"].(map[string]any)
		seen = append(seen, fmt.Sprint(in["tool_name"], " ", args["command"], args["file_path"]))
	}
	assert.Equal(t, []string{"Bash cd repo && git push --force<nil>", "Write <nil>docs/x.md"}, seen)
}
