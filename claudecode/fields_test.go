package claudecode_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/claudecode"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// "if" narrows a handler to the calls its permission rule names: Bash(git
// *) sees git commands only, Write(src/**) writes under src only
// (relative or absolute), and the rule names the Claude tool.
func TestIfNarrowsWhichCallsAHandlerSees(t *testing.T) {
	var rec recorder
	log := filepath.Join(t.TempDir(), "seen")
	host := claudeHost(t, &ccPerson{})
	record := claudeScript(t, "record.sh", log)
	settings, err := json2(map[string]any{"hooks": map[string]any{"PreToolUse": []any{map[string]any{"hooks": []any{
		map[string]any{"type": "command", "command": record, "if": "Bash(git *)"},
		map[string]any{"type": "command", "command": record, "if": "Write(src/**)"},
	}}}}})
	require.NoError(t, err)
	_, run := claudeRun(t, &rec, host, settings, ccToolNames)
	write := func(path string) hooks.ToolCall {
		return hooks.ToolCall{ID: "w", Name: "write_file", Arguments: map[string]any{"file_path": path, "content": "x"}}
	}
	for _, call := range []hooks.ToolCall{ccBash("git status"), ccBash("ls"), ccBash("echo git status"),
		write("src/a/b.go"), write(filepath.Join(host.Workdir, "src/c.go")), write("docs/x.md"), write("srcx/y.go")} {
		_, err := run.CallTool(bg, call, ccShell(&rec))
		require.NoError(t, err)
	}
	inputs, _ := ccInputs(t, log)
	var seen []string
	for _, in := range inputs {
		args := in["tool_input"].(map[string]any)
		seen = append(seen, fmt.Sprint(in["tool_name"], " ", args["command"], args["file_path"]))
	}
	assert.Equal(t, []string{"Bash git status<nil>", "Write <nil>src/a/b.go", "Write <nil>" + filepath.Join(host.Workdir, "src/c.go")}, seen)
	assert.Empty(t, rec.diagnostics())
}

// json2 is v's JSON.
func json2(v any) ([]byte, error) { return json.Marshal(v) }

// An "if" that is not a permission rule is an error naming it; "once"
// and "async" must be booleans.
func TestBadHandlerFieldsAreErrors(t *testing.T) {
	for settings, want := range map[string]string{
		`{"PreToolUse":[{"hooks":[{"type":"command","command":"true","if":"Bash(git *"}]}]}`: "hooks.PreToolUse[0].hooks[0].if",
		`{"PreToolUse":[{"hooks":[{"type":"command","command":"true","once":"yes"}]}]}`:      "hooks.PreToolUse[0].hooks[0].once: must be true or false",
		`{"Stop":[{"hooks":[{"type":"command","command":"true","async":1}]}]}`:               "hooks.Stop[0].hooks[0].async: must be true or false",
	} {
		_, err := claudecode.Hooks([]byte(settings))
		assert.ErrorContains(t, err, want, settings)
	}
}

// "once" runs a handler the first time it is taken in a run, not again
// in that run, and again in the next run.
func TestOnceRunsOncePerRun(t *testing.T) {
	log := filepath.Join(t.TempDir(), "seen")
	settings := []byte(`{"UserPromptSubmit":[{"hooks":[{"type":"command","once":true,"command":` +
		strconv.Quote(claudeScript(t, "record.sh", log)) + `}]}]}`)
	for range 2 {
		var rec recorder
		_, run := claudeRun(t, &rec, claudeHost(t, &ccPerson{}), settings)
		msgs := []hooks.Message{{Role: "user", Text: "one"}}
		_, _ = ccTurn(t, run, msgs, "ok")
		ccTurn(t, run, append(msgs, hooks.Message{Role: "assistant", Text: "ok"}, hooks.Message{Role: "user", Text: "two"}), "ok")
		run.End(bg, hooks.RunEnd{})
		assert.Empty(t, rec.diagnostics())
	}
	inputs, _ := ccInputs(t, log)
	require.Len(t, inputs, 2, "once in each of two runs")
	assert.Equal(t, "one", inputs[0]["prompt"])
	assert.Equal(t, "one", inputs[1]["prompt"])
}

// An async handler runs without the call waiting for it: the call has
// returned while it still waits on a FIFO (the test's write to it opens
// only once the script reads it). What it adds reaches the model at the
// next model request, as Claude Code delivers it on the next turn.
func TestAsyncRunsWithoutWaitingAndItsContextComesNext(t *testing.T) {
	var rec recorder
	fifo := filepath.Join(t.TempDir(), "go")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	settings := []byte(`{"PostToolUse":[{"hooks":[{"type":"command","async":true,"command":` +
		strconv.Quote(claudeScript(t, "async_lint.sh", fifo)) + `}]}]}`)
	hs, err := claudecode.Hooks(settings)
	require.NoError(t, err)
	chain, err := hooks.NewChain(hs, hooks.WithDiagnostics(rec.diagnose))
	require.NoError(t, err)
	run, err := chain.Start(bg, claudeHost(t, &ccPerson{}), hooks.RunStart{})
	require.NoError(t, err)
	res, err := run.CallTool(bg, ccBash("go build"), ccShell(&rec))
	require.NoError(t, err)
	assert.Equal(t, hooks.ToolResult{Text: "ran"}, res, "an async handler changes no result")

	f, err := os.OpenFile(fifo, os.O_WRONLY, 0) // opens once the handler, still running, reads it
	require.NoError(t, err)
	_, err = f.WriteString("go\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	claudecode.WaitAsync(hs)

	step, err := run.BeforeModelRequest(bg, hooks.ModelRequest{System: "base", Messages: []hooks.Message{{Role: "tool", Text: "ran"}}})
	require.NoError(t, err)
	assert.Equal(t, "base\n\nlint: 2 warnings in main.go", step.Request.System)
	run.End(bg, hooks.RunEnd{})
	assert.Empty(t, rec.diagnostics())
}

// An async handler still running when the run ends is killed with what
// it started, and says so: none outlives the run.
func TestAsyncHandlerDoesNotOutliveTheRun(t *testing.T) {
	var rec recorder
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	settings := []byte(`{"PreToolUse":[{"hooks":[{"type":"command","async":true,"command":` +
		strconv.Quote(claudeScript(t, "hang.sh", pidFile)) + `}]}]}`)
	_, run := claudeRun(t, &rec, claudeHost(t, &ccPerson{}), settings)
	res, err := run.CallTool(bg, ccBash("ls"), ccShell(&rec))
	require.NoError(t, err)
	assert.Equal(t, hooks.ToolResult{Text: "ran"}, res)
	run.End(bg, hooks.RunEnd{})
	require.Len(t, rec.diagnostics(), 1)
	assert.Contains(t, rec.diagnostics()[0].Err.Error(), "the run ended while it ran: killed with what it started")
	if data, err := os.ReadFile(pidFile); err == nil && strings.TrimSpace(string(data)) != "" {
		pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
		require.NoError(t, err)
		assert.False(t, alive(pid), "the child %d outlived the run", pid)
	}
}

// The same handler in two settings files (user and project, each its own
// Hooks call in one chain) runs once per event, as Claude Code runs it;
// a handler that differs runs in each, and a set never skips its own.
func TestIdenticalHandlersOfTwoSetsRunOnce(t *testing.T) {
	var rec recorder
	dir := t.TempDir()
	shared, own := filepath.Join(dir, "shared"), filepath.Join(dir, "own")
	var hs []hooks.Hook
	for _, prefix := range []string{"user:", "project:"} {
		set, err := claudecode.Hooks(claudeSettings(t, map[string][]map[string]any{
			"PreToolUse": {ccGroup("Bash", claudeScript(t, "record.sh", shared), claudeScript(t, "record.sh", own+prefix))},
			"Stop":       {ccGroup("", claudeScript(t, "record.sh", shared))},
		}), claudecode.NamePrefix(prefix), ccToolNames)
		require.NoError(t, err)
		hs = append(hs, set...)
	}
	chain, err := hooks.NewChain(hs, hooks.WithDiagnostics(rec.diagnose))
	require.NoError(t, err)
	run, err := chain.Start(bg, claudeHost(t, &ccPerson{}), hooks.RunStart{})
	require.NoError(t, err)
	msgs, _ := loopTurn(t, &rec, run, []hooks.Message{{Role: "user", Text: "go"}}, "", ccBash("ls"), hooks.ToolCall{ID: "call-2", Name: "shell", Arguments: map[string]any{"command": "pwd"}})
	loopTurn(t, &rec, run, msgs, "done")
	run.End(bg, hooks.RunEnd{})
	inputs, _ := ccInputs(t, shared)
	var events []string
	for _, in := range inputs {
		events = append(events, fmt.Sprint(in["hook_event_name"], " ", in["tool_input"]))
	}
	assert.Equal(t, []string{"PreToolUse map[command:ls]", "PreToolUse map[command:pwd]", "Stop <nil>"}, events)
	for _, prefix := range []string{"user:", "project:"} {
		inputs, _ := ccInputs(t, own+prefix)
		assert.Len(t, inputs, 2, prefix)
	}
	assert.Equal(t, []string{"ran:ls", "ran:pwd"}, rec.got())
	assert.Empty(t, rec.diagnostics())
}
