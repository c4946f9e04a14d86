package codex_test

import (
	"path/filepath"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/codex"
	"github.com/rienda/hooks/hooktest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The full example of Codex's hooks documentation, hooks.json unchanged,
// runs here with its commands as written ($(git rev-parse
// --show-toplevel), ~/.codex/hooks) and the documented outputs decide:
// SessionStart's context reaches every request, UserPromptSubmit blocks a
// prompt holding a key and adds context (with turn_id and model on
// stdin), PreToolUse denies rm -rf and lets ls run, PostToolUse replaces
// output showing a private key with its feedback, Stop sends the turn on
// once.
func TestDocumentedExampleRunsUnchanged(t *testing.T) {
	repo, home := docsRepo(t)
	hs, err := codex.Load(filepath.Join(repo, ".codex", "hooks.json"), codex.ToolNames(map[string]string{"shell": "Bash"}))
	require.NoError(t, err)
	require.Len(t, hs, 5)
	h := hooktest.NewWith(t, hooktest.Options{Host: hooks.Host{Workdir: repo, Env: hermetic(home), Session: hooks.Session{ID: "s1"}}}, hs...)
	h.RequireDiagnostics(t, 0)

	m := h.Model(hooks.ModelRequest{Model: "gpt-5", Messages: []hooks.Message{{Role: "user", Text: "use sk-abcdefghijklmnopqrstuvwxyz please"}}}, hooks.ModelResponse{Text: "x"})
	m.RequireEnded(t, "The prompt holds an API key; remove it and resend.")

	m = h.Model(hooks.ModelRequest{Model: "gpt-5", Messages: []hooks.Message{{Role: "user", Text: "list files"}}}, hooks.ModelResponse{Text: "working"})
	require.NotNil(t, m.Sent)
	assert.Contains(t, m.Sent.System, "Session notes: started from startup")
	assert.Contains(t, m.Sent.System, "Turn "+h.Run().ID()+" on gpt-5")
	m.RequireContinue(t, "Run the tests before you stop.")

	h.Tool("shell", map[string]any{"command": "rm -rf /"}).RequireRefused(t, "Destructive command blocked by pre_tool_use_policy.py")
	ls := h.ToolCall(hooks.ToolCall{ID: "c2", Name: "shell", Arguments: map[string]any{"command": "ls"}}, hooks.ToolResult{Text: "a.txt"})
	ls.RequireAllowed(t)
	ls.RequireResult(t, "a.txt\n\nReviewed: ls")
	key := h.ToolCall(hooks.ToolCall{ID: "c3", Name: "shell", Arguments: map[string]any{"command": "cat id"}}, hooks.ToolResult{Text: "-----BEGIN PRIVATE KEY-----"})
	key.RequireResult(t, "The command printed a private key; its output was withheld.")

	m = h.Model(hooks.ModelRequest{Model: "gpt-5", Messages: []hooks.Message{{Role: "user", Text: "list files"}, {Role: "assistant", Text: "working"}, {Role: "user", Text: "Run the tests before you stop."}}}, hooks.ModelResponse{Text: "still working"})
	require.NotNil(t, m.Sent)
	m.RequireText(t, "still working") // stop_hook_active: the script lets it stop
	h.RequireDiagnostics(t, 0)
}

// The documented config.toml form of the same guard runs the same way.
func TestDocumentedTOMLRunsUnchanged(t *testing.T) {
	repo, home := docsRepo(t)
	hs, err := codex.Load(filepath.Join(repo, ".codex", "config.toml"), codex.ToolNames(map[string]string{"shell": "Bash"}))
	require.NoError(t, err)
	require.Len(t, hs, 1)
	h := hooktest.NewWith(t, hooktest.Options{Host: hooks.Host{Workdir: repo, Env: hermetic(home)}}, hs...)
	h.Tool("shell", map[string]any{"command": "rm -rf ~"}).RequireRefused(t, "Destructive command blocked by pre_tool_use_policy.py")
	h.Tool("shell", map[string]any{"command": "echo hi"}).RequireAllowed(t)
	h.RequireDiagnostics(t, 0)
}
