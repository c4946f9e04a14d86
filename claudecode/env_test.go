package claudecode_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The command's environment is exactly Host.Env plus CLAUDE_PROJECT_DIR,
// which names the workdir even when Host.Env sets it otherwise.
func TestEnvironmentIsHostEnv(t *testing.T) {
	var rec recorder
	host := claudeHost(t, &ccPerson{})
	host.Env = map[string]string{"PATH": os.Getenv("PATH"), "ONLY": "1", "CLAUDE_PROJECT_DIR": "/elsewhere"}
	log := filepath.Join(t.TempDir(), "env")
	_, run := claudeRun(t, &rec, host, claudeSettings(t, map[string][]map[string]any{
		"PreToolUse": {ccGroup("", "env >"+ccQuote(log))}}))
	_, err := run.CallTool(bg, ccBash("ls"), ccShell(&rec))
	require.NoError(t, err)
	data, err := os.ReadFile(log)
	require.NoError(t, err)
	env := strings.Split(strings.TrimSpace(string(data)), "\n")
	assert.Contains(t, env, "ONLY=1")
	assert.Contains(t, env, "CLAUDE_PROJECT_DIR="+host.Workdir)
	assert.NotContains(t, env, "CLAUDE_PROJECT_DIR=/elsewhere")
	for _, kv := range env {
		assert.False(t, strings.HasPrefix(kv, "HOME="), "the process environment leaked: %s", kv)
	}
}

// The bash guard reads tool_input.command with python3 when jq is
// missing, and decides the same.
func TestBashGuardWithoutJq(t *testing.T) {
	bin := t.TempDir()
	for _, name := range []string{"bash", "sh", "cat", "grep", "python3", "printf"} {
		path, err := exec.LookPath(name)
		if name == "python3" {
			if _, serr := os.Stat("/usr/bin/python3"); serr == nil {
				path, err = "/usr/bin/python3", nil // not a version manager's shim, which needs its own PATH
			}
		}
		if err != nil {
			t.Skipf("%s is not installed: %v", name, err)
		}
		require.NoError(t, os.Symlink(path, filepath.Join(bin, name)))
	}
	var rec recorder
	host := claudeHost(t, &ccPerson{})
	host.Env = map[string]string{"PATH": bin}
	guard := strings.Replace(claudeScript(t, "bash_guard.sh"), "bash ", filepath.Join(bin, "bash")+" ", 1)
	_, run := claudeRun(t, &rec, host, claudeSettings(t, map[string][]map[string]any{"PreToolUse": {ccGroup("Bash", guard)}}), ccToolNames)
	res, err := run.CallTool(bg, ccBash("git push origin main --force"), ccShell(&rec))
	require.NoError(t, err)
	assert.Equal(t, hooks.ToolResult{Text: "Blocked: 'git push origin main --force' is destructive. Use a safer alternative.", IsError: true}, res)
	assert.Empty(t, rec.diagnostics())
}
