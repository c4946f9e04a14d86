package copilotcli_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/copilotcli"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The scripts of GitHub's hooks-configuration reference, unchanged,
// decide as the page says they do, with toolArgs as an object (current
// builds) and as a JSON string (older builds and that page).
func TestDocumentedGuardScriptsDecideAsDocumented(t *testing.T) {
	needJQ(t)
	cases := []struct {
		script, tool string
		args         map[string]any
		refused      bool
		reason       string
	}{
		{"block-dangerous.sh", "bash", map[string]any{"command": "rm -rf /", "description": "Clean"}, true, "Dangerous command detected"},
		{"block-dangerous.sh", "bash", map[string]any{"command": "ls -la"}, false, ""},
		{"block-dangerous.sh", "bash", map[string]any{"command": "psql -c 'DROP TABLE users'"}, true, "Dangerous command detected"},
		{"edit-paths.sh", "edit", map[string]any{"path": "etc/passwd"}, true, "Can only edit files in src/ or test/ directories"},
		{"edit-paths.sh", "edit", map[string]any{"path": "src/main.go"}, false, ""},
		{"edit-paths.sh", "view", map[string]any{"path": "etc/passwd"}, false, ""},
		{"bash-only.sh", "bash", map[string]any{"command": "sudo reboot"}, true, "Dangerous system command"},
		{"bash-only.sh", "bash", map[string]any{"command": "go test ./..."}, false, ""},
		{"bash-only.sh", "edit", map[string]any{"command": "sudo reboot"}, false, ""},
	}
	for _, asString := range []bool{false, true} {
		for _, tc := range cases {
			var opts []copilotcli.Option
			if asString {
				opts = append(opts, copilotcli.ToolArgsAsString())
			}
			h := start(t, file(t, map[string][]map[string]any{"preToolUse": {bash(docScript(t, tc.script))}}), opts...)
			step := h.call(t, tc.tool, tc.args)
			assert.Equal(t, tc.refused, step.Refused, "%s %s %v (string %v): %s", tc.script, tc.tool, tc.args, asString, h.diag.text())
			if tc.refused {
				assert.Equal(t, tc.reason, step.Reason)
			}
		}
	}
}

// The observing scripts run with the payload the page documents: they
// write what they read.
func TestDocumentedLoggingScriptsReadTheirFields(t *testing.T) {
	needJQ(t)
	settings := file(t, map[string][]map[string]any{
		"sessionStart":        {bash(docScript(t, "session-start.sh"))},
		"userPromptSubmitted": {bash(docScript(t, "log-prompt.sh"))},
		"postToolUse":         {bash(docScript(t, "tool-stats.sh"))},
		"errorOccurred":       {bash(docScript(t, "log-error.sh"))},
	})
	h := start(t, settings)
	_, err := h.run.BeforeModelRequest(bg, hooks.ModelRequest{Messages: []hooks.Message{{Role: "user", Text: "Fix the authentication bug"}}})
	require.NoError(t, err)
	step := h.call(t, "bash", map[string]any{"command": "npm test"})
	_, err = h.run.AfterToolExecute(bg, step, hooks.ToolResult{Text: "All tests passed (15/15)"})
	require.NoError(t, err)
	h.run.End(bg, hooks.RunEnd{Outcome: hooks.Failed, Reason: "Network timeout"})
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join(h.dir, name))
		require.NoError(t, err, h.diag.text())
		return string(data)
	}
	assert.Contains(t, read("session.log"), "Session started from new at ")
	assert.Contains(t, read("prompts.log"), ": Fix the authentication bug")
	assert.Contains(t, read("tool-stats.csv"), ",bash,success")
	assert.Contains(t, read("errors.log"), "[Error] Network timeout")
}
