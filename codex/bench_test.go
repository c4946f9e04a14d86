package codex_test

import (
	"bytes"
	"os"
	"os/exec"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/codex"
)

// BenchmarkPreToolUse is one guarded call with one handler that prints
// nothing; BenchmarkSpawn spawns the same command ($SHELL -lc with the
// same stdin) with os/exec: their ratio is the cost of the dialect.
func BenchmarkPreToolUse(b *testing.B) {
	hs, err := codex.Hooks([]byte(guard("", "cat >/dev/null")))
	if err != nil {
		b.Fatal(err)
	}
	chain, err := hooks.NewChain(hs)
	if err != nil {
		b.Fatal(err)
	}
	run, err := chain.Start(bg, hooks.Host{Env: map[string]string{"PATH": os.Getenv("PATH"), "SHELL": "/bin/sh", "HOME": b.TempDir()}}, hooks.RunStart{})
	if err != nil {
		b.Fatal(err)
	}
	defer run.End(bg, hooks.RunEnd{})
	call := hooks.ToolCall{ID: "1", Name: "Bash", Arguments: map[string]any{"command": "ls -la"}}
	tool := func(*hooks.Context, hooks.ToolCall) (hooks.ToolResult, error) {
		return hooks.ToolResult{Text: "ok"}, nil
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := run.CallTool(bg, call, tool); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSpawn(b *testing.B) {
	stdin := []byte(`{"session_id":"","turn_id":"r","transcript_path":null,"cwd":"/tmp","hook_event_name":"PreToolUse","model":"","permission_mode":"default","tool_name":"Bash","tool_input":{"command":"ls -la"},"tool_use_id":"1"}`)
	env := []string{"PATH=" + os.Getenv("PATH"), "SHELL=/bin/sh", "HOME=" + b.TempDir()}
	b.ReportAllocs()
	for b.Loop() {
		cmd := exec.Command("/bin/sh", "-lc", "cat >/dev/null")
		cmd.Env, cmd.Stdin = env, bytes.NewReader(stdin)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
	}
}
