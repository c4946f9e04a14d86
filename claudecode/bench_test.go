package claudecode_test

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/claudecode"
)

// benchClaudeScript is the trivial script both benchmarks run.
func benchClaudeScript(b *testing.B) (path, dir string) {
	path, err := filepath.Abs("testdata/allow.sh")
	if err != nil {
		b.Fatal(err)
	}
	return path, b.TempDir()
}

// BenchmarkClaudeExec spawns testdata/allow.sh as Claude Code does,
// with sh -c, through os/exec: it writes the input and reads the output.
// The floor for a Claude Code hook.
func BenchmarkClaudeExec(b *testing.B) {
	path, dir := benchClaudeScript(b)
	stdin := []byte(`{"session_id":"","transcript_path":"","cwd":"` + dir + `","hook_event_name":"PreToolUse","permission_mode":"default","tool_name":"Bash","tool_input":{"command":"ls"}}`)
	b.ReportAllocs()
	for b.Loop() {
		cmd := exec.Command("sh", "-c", path)
		cmd.Dir, cmd.Env = dir, []string{"CLAUDE_PROJECT_DIR=" + dir}
		cmd.Stdin = bytes.NewReader(stdin)
		if out, err := cmd.Output(); err != nil || string(out) != "{}\n" {
			b.Fatalf("%v %q", err, out)
		}
	}
}

// BenchmarkClaudeHook runs the same script as a PreToolUse handler through
// Run.BeforeToolExecute.
func BenchmarkClaudeHook(b *testing.B) {
	path, dir := benchClaudeScript(b)
	hs, err := claudecode.Hooks([]byte(`{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":`+strconv.Quote(path)+`}]}]}`),
		claudecode.ToolNames(map[string]string{"shell": "Bash"}))
	if err != nil {
		b.Fatal(err)
	}
	chain, err := hooks.NewChain(hs)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	run, err := chain.Start(ctx, hooks.Host{Workdir: dir, Env: map[string]string{}}, hooks.RunStart{RunID: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	defer run.End(ctx, hooks.RunEnd{})
	call := hooks.ToolCall{Name: "shell", Arguments: map[string]any{"command": "ls"}}
	b.ReportAllocs()
	for b.Loop() {
		if step, err := run.BeforeToolExecute(ctx, call); err != nil || step.Refused {
			b.Fatal("unexpected decision")
		}
	}
}
