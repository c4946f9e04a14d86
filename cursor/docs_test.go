package cursor_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/cursor"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Cursor's block-git.sh, unchanged: git is denied with its agentMessage
// (the camelCase spelling of Cursor's first releases), gh asks a person,
// anything else runs.
func TestBlockGitDecidesAsDocumented(t *testing.T) {
	needJQ(t)
	settings := file(t, map[string][]map[string]any{"beforeShellExecution": {cmd(docScript(t, "audit.sh")), cmd(docScript(t, "block-git.sh"))}})
	h := start(t, settings)
	step := h.call(t, "shell", map[string]any{"command": "git push origin main"})
	assert.True(t, step.Refused, h.diag.text())
	assert.Contains(t, step.Reason, "The git command '$command' has been blocked by a project hook.")
	assert.False(t, h.call(t, "shell", map[string]any{"command": "ls -la"}).Refused)
	assert.True(t, h.call(t, "shell", map[string]any{"command": "gh pr create"}).Refused, "ask, and no person to approve")
	assert.False(t, h.call(t, "read", map[string]any{"command": "git push"}).Refused, "not a shell tool")
}

// With a person who approves, an ask lets the call run.
func TestAskRunsWhenApproved(t *testing.T) {
	needJQ(t)
	hs, err := cursor.Hooks(file(t, map[string][]map[string]any{"beforeShellExecution": {cmd(docScript(t, "block-git.sh"))}}), tools...)
	require.NoError(t, err)
	chain, err := hooks.NewChain(hs)
	require.NoError(t, err)
	run, err := chain.Start(bg, hooks.Host{Workdir: t.TempDir(), AutoApprove: true}, hooks.RunStart{})
	require.NoError(t, err)
	defer run.End(bg, hooks.RunEnd{Outcome: hooks.Completed})
	step, err := run.BeforeToolExecute(bg, hooks.ToolCall{Name: "shell", Arguments: map[string]any{"command": "gh pr list"}})
	require.NoError(t, err)
	assert.False(t, step.Refused)
}

// Cursor's redact-secrets.sh, unchanged, sees the file's content and
// denies a read of a token; it exits 3 after printing its deny, which
// still denies here (an evident refusal).
func TestRedactSecretsDecidesAsDocumented(t *testing.T) {
	needJQ(t)
	h := start(t, file(t, map[string][]map[string]any{"beforeReadFile": {cmd(docScript(t, "redact-secrets.sh"))}}))
	require.NoError(t, os.WriteFile(filepath.Join(h.dir, "token.txt"), []byte("ghp_"+"abcdefghijklmnopqrstuvwxyz0123456789\n"), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(h.dir, "plain.txt"), []byte("hello\n"), 0o600))
	assert.True(t, h.call(t, "read", map[string]any{"file_path": "token.txt"}).Refused, h.diag.text())
	assert.False(t, h.call(t, "read", map[string]any{"path": "plain.txt"}).Refused, h.diag.text())
	// A link with an innocent name reads the token file: the hook sees what will be read.
	require.NoError(t, os.Symlink(filepath.Join(h.dir, "token.txt"), filepath.Join(h.dir, "notes.md")))
	assert.True(t, h.call(t, "read", map[string]any{"file_path": "notes.md"}).Refused)
	// A file: URL, in any spelling, is the file it names.
	for _, u := range []string{"file://" + filepath.Join(h.dir, "token.txt"), "FILE://localhost" + filepath.Join(h.dir, "token.txt"), "file:" + filepath.Join(h.dir, "token.txt")} {
		assert.True(t, h.call(t, "read", map[string]any{"file_path": u}).Refused, u)
	}
	assert.True(t, h.call(t, "read", map[string]any{"path": "file://elsewhere/etc/passwd"}).Refused, "another host cannot be shown")
}

// The quickstart's format.sh and audit.sh run after an edit, with the
// edit's file and changes.
func TestAfterFileEditSeesTheEdit(t *testing.T) {
	settings := file(t, map[string][]map[string]any{"afterFileEdit": {
		cmd(docScript(t, "format.sh")), cmd(`cat > edit.json`)}})
	h := start(t, settings)
	step := h.call(t, "write", map[string]any{"file_path": "main.go", "old_string": "a", "new_string": "b"})
	_, err := h.run.AfterToolExecute(bg, step, hooks.ToolResult{Text: "ok"})
	require.NoError(t, err)
	data, err := os.ReadFile(filepath.Join(h.dir, "edit.json"))
	require.NoError(t, err, h.diag.text())
	assert.Contains(t, string(data), `"hook_event_name":"afterFileEdit"`)
	assert.Contains(t, string(data), `"edits":[{"new_string":"b","old_string":"a"}]`)
	assert.Contains(t, string(data), `"file_path":"`+filepath.Join(h.dir, "main.go")+`"`)
	assert.Empty(t, h.diag.text())
}
