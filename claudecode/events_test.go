package claudecode_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/claudecode"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ccInputs reads what record.sh saved: each input, decoded, and the
// environment lines after it.
func ccInputs(t *testing.T, path string) ([]map[string]any, []string) {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var inputs []map[string]any
	var rest []string
	for line := range strings.Lines(string(data)) {
		line = strings.TrimSuffix(line, "\n")
		if strings.HasPrefix(line, "{") {
			var m map[string]any
			require.NoError(t, json.Unmarshal([]byte(line), &m), line)
			inputs = append(inputs, m)
			continue
		}
		rest = append(rest, line)
	}
	return inputs, rest
}

// PreToolUse reads Claude Code's input: snake_case, the Claude tool name,
// tool_input as an object, in the workdir with CLAUDE_PROJECT_DIR.
func TestInputOnStdin(t *testing.T) {
	var rec recorder
	log := filepath.Join(t.TempDir(), "seen")
	host := claudeHost(t, &ccPerson{})
	_, run := claudeRun(t, &rec, host, claudeSettings(t, map[string][]map[string]any{
		"PreToolUse": {ccGroup("Bash", claudeScript(t, "record.sh", log))}}), ccToolNames)
	_, err := run.CallTool(bg, ccBash("ls && pwd"), ccShell(&rec))
	require.NoError(t, err)
	inputs, env := ccInputs(t, log)
	require.Len(t, inputs, 1)
	assert.Equal(t, map[string]any{"session_id": "sess-1", "transcript_path": "", "cwd": host.Workdir,
		"hook_event_name": "PreToolUse", "permission_mode": "default", "tool_name": "Bash",
		"tool_input": map[string]any{"command": "ls && pwd"}, "tool_use_id": "call-1"}, inputs[0])
	assert.Equal(t, []string{"CLAUDE_PROJECT_DIR=" + host.Workdir, "PWD=" + host.Workdir}, env)
}

// "args" runs the command without a shell: a word with a space stays one.
func TestArgsRunWithoutAShell(t *testing.T) {
	var rec recorder
	dir := t.TempDir()
	log := filepath.Join(dir, "a log")
	script, err := filepath.Abs("testdata/record.sh")
	require.NoError(t, err)
	settings, err := json.Marshal(map[string]any{"hooks": map[string]any{"PreToolUse": []any{map[string]any{
		"hooks": []any{map[string]any{"type": "command", "command": script, "args": []string{log}}}}}}})
	require.NoError(t, err)
	_, run := claudeRun(t, &rec, claudeHost(t, &ccPerson{}), settings)
	_, err = run.CallTool(bg, ccBash("ls"), ccShell(&rec))
	require.NoError(t, err)
	inputs, _ := ccInputs(t, log)
	assert.Len(t, inputs, 1)
}

// PostToolUse: exit 2 and "decision": "block" add the reason to the result
// the model reads; a node script's updatedToolOutput replaces the result
// and its systemMessage reaches Notify. PostToolUseFailure runs only on an
// error result, with the error.
func TestPostToolUse(t *testing.T) {
	var rec recorder
	p := &ccPerson{}
	log := filepath.Join(t.TempDir(), "failures")
	_, run := claudeRun(t, &rec, claudeHost(t, p), claudeSettings(t, map[string][]map[string]any{
		"PostToolUse": {ccGroup("Bash", claudeScript(t, "redact.js"),
			ccEmit(t, `{"decision":"block","reason":"lint failed"}`, "0", ""),
			ccEmit(t, "", "2", "format the file"))},
		"PostToolUseFailure": {ccGroup("Bash", claudeScript(t, "record.sh", log))},
	}), ccToolNames)
	tool := func(text string, isError bool) hooks.ToolFunc {
		return func(*hooks.Context, hooks.ToolCall) (hooks.ToolResult, error) {
			return hooks.ToolResult{Text: text, IsError: isError}, nil
		}
	}
	res, err := run.CallTool(bg, ccBash("env"), tool("KEY=sk-abcdefgh12345", false))
	require.NoError(t, err)
	assert.Equal(t, "KEY=sk-REDACTED\n\nPostToolUse hook feedback: lint failed\n\nPostToolUse hook feedback: format the file", res.Text)
	assert.Equal(t, []hooks.Notice{{Title: "Claude Code hook (PostToolUse)", Body: "redacted an API key from Bash output"}}, p.shown())
	_, err = os.Stat(log)
	assert.ErrorIs(t, err, os.ErrNotExist, "PostToolUseFailure does not run on a success")

	res, err = run.CallTool(bg, ccBash("false"), tool("exit status 1", true))
	require.NoError(t, err)
	assert.Equal(t, hooks.ToolResult{Text: "exit status 1", IsError: true}, res, "PostToolUse does not run on an error")
	inputs, _ := ccInputs(t, log)
	require.Len(t, inputs, 1)
	assert.Equal(t, "PostToolUseFailure", inputs[0]["hook_event_name"])
	assert.Equal(t, "exit status 1", inputs[0]["error"])
	assert.Equal(t, "exit status 1", inputs[0]["tool_response"])
}

// A result's Value is what tool_response carries when it is set.
func TestToolResponseIsTheValue(t *testing.T) {
	var rec recorder
	log := filepath.Join(t.TempDir(), "seen")
	_, run := claudeRun(t, &rec, claudeHost(t, &ccPerson{}), claudeSettings(t, map[string][]map[string]any{
		"PostToolUse": {ccGroup("", claudeScript(t, "record.sh", log))}}))
	_, err := run.CallTool(bg, ccBash("ls"), func(*hooks.Context, hooks.ToolCall) (hooks.ToolResult, error) {
		return hooks.ToolResult{Text: "a b", Value: map[string]any{"files": []any{"a", "b"}}}, nil
	})
	require.NoError(t, err)
	inputs, _ := ccInputs(t, log)
	require.Len(t, inputs, 1)
	assert.Equal(t, map[string]any{"files": []any{"a", "b"}}, inputs[0]["tool_response"])
}

// turn is one model call of a small loop: the request ends with messages,
// the model replies text.
func ccTurn(t *testing.T, run *hooks.Run, messages []hooks.Message, text string) (hooks.ModelStep, hooks.ModelReply) {
	t.Helper()
	step, err := run.BeforeModelRequest(bg, hooks.ModelRequest{System: "base", Messages: messages})
	require.NoError(t, err)
	if step.End != nil {
		return step, hooks.ModelReply{End: step.End}
	}
	reply, err := run.AfterModelResponse(bg, step, hooks.ModelResponse{Text: text})
	require.NoError(t, err)
	return step, reply
}

// A node Stop hook sends the run on once; the reply after it has
// stop_hook_active true and may stop. UserPromptSubmit does not fire for
// the continuation, but does for the next user prompt.
func TestStopContinuesOnce(t *testing.T) {
	var rec recorder
	dir := t.TempDir()
	stops, prompts := filepath.Join(dir, "stops"), filepath.Join(dir, "prompts")
	_, run := claudeRun(t, &rec, claudeHost(t, &ccPerson{}), claudeSettings(t, map[string][]map[string]any{
		"Stop":             {ccGroup("", claudeScript(t, "record.sh", stops), claudeScript(t, "stop_until_tests.js"))},
		"UserPromptSubmit": {ccGroup("", claudeScript(t, "record.sh", prompts))},
	}))
	msgs := []hooks.Message{{Role: "user", Text: "fix the bug"}}
	_, reply := ccTurn(t, run, msgs, "I fixed it.")
	assert.Equal(t, "Run the tests and say whether they pass before you stop.", reply.Continue)
	msgs = append(msgs, hooks.Message{Role: "assistant", Text: "I fixed it."}, hooks.Message{Role: "user", Text: reply.Continue})
	_, reply = ccTurn(t, run, msgs, "I fixed it.")
	assert.Empty(t, reply.Continue, "stop_hook_active lets the script stop")
	msgs = append(msgs, hooks.Message{Role: "assistant", Text: "I fixed it."}, hooks.Message{Role: "user", Text: "thanks"})
	ccTurn(t, run, msgs, "You're welcome.")

	inputs, _ := ccInputs(t, stops)
	require.Len(t, inputs, 3)
	for i, want := range []bool{false, true, false} {
		assert.Equal(t, want, inputs[i]["stop_hook_active"], "stop %d", i)
	}
	assert.Equal(t, "I fixed it.", inputs[0]["last_assistant_message"])
	inputs, _ = ccInputs(t, prompts)
	require.Len(t, inputs, 2, "not for the continuation")
	assert.Equal(t, "fix the bug", inputs[0]["prompt"])
	assert.Equal(t, "thanks", inputs[1]["prompt"])
}

// A Stop script that always blocks sends the run on at most the bound
// times in a row; then the reply stands, with a diagnostic.
func TestStopContinuationsAreBounded(t *testing.T) {
	var rec recorder
	_, run := claudeRun(t, &rec, claudeHost(t, &ccPerson{}), claudeSettings(t, map[string][]map[string]any{
		"Stop": {ccGroup("", ccEmit(t, `{"decision":"block","reason":"keep going"}`, "0", ""))}}), claudecode.StopContinuations(2))
	msgs := []hooks.Message{{Role: "user", Text: "go"}}
	var continued int
	for range 4 {
		_, reply := ccTurn(t, run, msgs, "done")
		if reply.Continue == "" {
			break
		}
		continued++
		msgs = append(msgs, hooks.Message{Role: "assistant", Text: "done"}, hooks.Message{Role: "user", Text: reply.Continue})
	}
	assert.Equal(t, 2, continued)
	require.Len(t, rec.diagnostics(), 1)
	assert.Contains(t, rec.diagnostics()[0].Err.Error(), "2 times in a row")
}

// "continue": false from Stop ends the run with stopReason.
func TestStopContinueFalseEnds(t *testing.T) {
	var rec recorder
	_, run := claudeRun(t, &rec, claudeHost(t, &ccPerson{}), claudeSettings(t, map[string][]map[string]any{
		"Stop": {ccGroup("", ccEmit(t, `{"continue":false,"stopReason":"enough"}`, "0", ""))}}))
	_, reply := ccTurn(t, run, []hooks.Message{{Role: "user", Text: "go"}}, "done")
	require.NotNil(t, reply.End)
	assert.Equal(t, "enough", reply.End.Output)
}

// SessionStart's plain stdout is in the System of every model request;
// on resume the handlers run again with source "resume", which a matcher
// can select.
func TestSessionStartContext(t *testing.T) {
	var rec recorder
	host := claudeHost(t, &ccPerson{})
	chain, run := claudeRun(t, &rec, host, claudeSettings(t, map[string][]map[string]any{"SessionStart": {
		ccGroup("", claudeScript(t, "session_context.py")),
		ccGroup("resume", ccEmit(t, `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"resumed"}}`, "0", "")),
	}}))
	want := "base\n\nSession sess-1 (startup): the project uses Go; run go test before you finish."
	for range 2 {
		step, _ := ccTurn(t, run, []hooks.Message{{Role: "user", Text: "hi"}}, "hello")
		assert.Equal(t, want, step.Request.System)
	}
	snap, err := run.Snapshot()
	require.NoError(t, err)
	resumed, err := chain.Resume(bg, host, snap)
	require.NoError(t, err)
	step, _ := ccTurn(t, resumed, []hooks.Message{{Role: "user", Text: "hi"}}, "hello")
	assert.Equal(t, "base\n\nSession sess-1 (resume): the project uses Go; run go test before you finish.\n\nresumed", step.Request.System)
	resumed.End(bg, hooks.RunEnd{})
}

// A node UserPromptSubmit hook blocks a prompt with a password (the run
// ends with the reason) and adds context to the request otherwise.
func TestUserPromptSubmit(t *testing.T) {
	var rec recorder
	_, run := claudeRun(t, &rec, claudeHost(t, &ccPerson{}), claudeSettings(t, map[string][]map[string]any{
		"UserPromptSubmit": {ccGroup("", claudeScript(t, "prompt_guard.js"))}}))
	step, _ := ccTurn(t, run, []hooks.Message{{Role: "user", Text: "list the files"}}, "ok")
	assert.Equal(t, "base\n\nThe user's prompt was checked for secrets.", step.Request.System)
	step, _ = ccTurn(t, run, []hooks.Message{{Role: "user", Text: "log in with password: hunter2"}}, "ok")
	require.NotNil(t, step.End)
	assert.Equal(t, "Your prompt holds a password; remove it and try again.", step.End.Output)
	step, _ = ccTurn(t, run, []hooks.Message{{Role: "user", Text: "x"}, {Role: "tool", Text: "y"}}, "ok")
	assert.Equal(t, "base", step.Request.System, "not a user's turn")
}

// SessionEnd runs at AfterRun with the outcome as its reason, matched by
// the matcher.
func TestSessionEnd(t *testing.T) {
	var rec recorder
	log := filepath.Join(t.TempDir(), "ends")
	hs, err := claudecode.Hooks(claudeSettings(t, map[string][]map[string]any{"SessionEnd": {
		ccGroup("completed|failed", claudeScript(t, "record.sh", log)), ccGroup("interrupted", claudeScript(t, "record.sh", log))}}))
	require.NoError(t, err)
	chain, err := hooks.NewChain(hs, hooks.WithDiagnostics(rec.diagnose))
	require.NoError(t, err)
	run, err := chain.Start(bg, claudeHost(t, &ccPerson{}), hooks.RunStart{})
	require.NoError(t, err)
	run.End(bg, hooks.RunEnd{Outcome: hooks.Completed})
	inputs, _ := ccInputs(t, log)
	require.Len(t, inputs, 1)
	assert.Equal(t, "SessionEnd", inputs[0]["hook_event_name"])
	assert.Equal(t, "completed", inputs[0]["reason"])
	assert.Empty(t, rec.diagnostics())
}
