package geminicli_test

import (
	"bytes"
	"os/exec"
	"testing"

	"github.com/rienda/hooks"
)

// benchCommand is a guard that reads its input and allows.
const benchCommand = `cat >/dev/null; echo '{"decision":"allow"}'`

// BenchmarkBeforeToolHandler is one tool call through a BeforeTool hook
// running benchCommand; compare with BenchmarkExecBash, the same command
// spawned with os/exec (the design's bound: within 1.2x).
func BenchmarkBeforeToolHandler(b *testing.B) {
	var rec recorder
	hs, err := geminiHooks(b, benchCommand)
	if err != nil {
		b.Fatal(err)
	}
	chain, err := hooks.NewChain(hs, hooks.WithDiagnostics(rec.diagnose))
	if err != nil {
		b.Fatal(err)
	}
	run, err := chain.Start(bg, hooks.Host{Workdir: b.TempDir(), Session: hooks.Session{ID: "s"}}, hooks.RunStart{})
	if err != nil {
		b.Fatal(err)
	}
	defer run.End(bg, hooks.RunEnd{})
	call := hooks.ToolCall{ID: "1", Name: "run_shell_command", Arguments: map[string]any{"command": "ls"}}
	noop := func(*hooks.Context, hooks.ToolCall) (hooks.ToolResult, error) {
		return hooks.ToolResult{Text: "ok"}, nil
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := run.CallTool(bg, call, noop); err != nil {
			b.Fatal(err)
		}
	}
	if len(rec.errors()) > 0 {
		b.Fatal(rec.errors())
	}
}

// BenchmarkExecBash spawns benchCommand with os/exec, with an input of the
// size a BeforeTool handler reads.
func BenchmarkExecBash(b *testing.B) {
	in := []byte(`{"session_id":"s","transcript_path":"","cwd":"/tmp","hook_event_name":"BeforeTool","timestamp":"2026-01-01T00:00:00.000Z","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`)
	b.ReportAllocs()
	for b.Loop() {
		cmd := exec.Command("bash", "-c", benchCommand)
		cmd.Stdin = bytes.NewReader(in)
		if _, err := cmd.Output(); err != nil {
			b.Fatal(err)
		}
	}
}

// geminiHooks is the hooks of a settings file with one BeforeTool handler.
func geminiHooks(b *testing.B, command string) ([]hooks.Hook, error) {
	return geminicliHooks(settings(b, map[string][]map[string]any{"BeforeTool": {group("", handler(command))}}))
}
