package claudecode_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/claudecode"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rmCall is the model's call of the host's shell tool to remove a file.
var rmCall = hooks.ToolCall{ID: "toolu_1", Name: "shell", Arguments: map[string]any{"command": "rm -rf build"}}

// loopTurn is one step of an agent loop: the request, the model's reply
// (text and calls), and each call run through the chain, whose result it
// returns as messages for the next request.
func loopTurn(t *testing.T, rec *recorder, run *hooks.Run, msgs []hooks.Message, text string, calls ...hooks.ToolCall) ([]hooks.Message, hooks.ModelReply) {
	t.Helper()
	step, err := run.BeforeModelRequest(bg, hooks.ModelRequest{System: "base", Messages: msgs})
	require.NoError(t, err)
	reply, err := run.AfterModelResponse(bg, step, hooks.ModelResponse{Text: text, ToolCalls: calls})
	require.NoError(t, err)
	msgs = append(msgs, hooks.Message{Role: "assistant", Text: text, ToolCalls: calls})
	for _, call := range calls {
		res, err := run.CallTool(bg, call, ccShell(rec))
		require.NoError(t, err)
		msgs = append(msgs, hooks.Message{Role: "tool", ToolCallID: call.ID, Text: res.Text})
	}
	return msgs, reply
}

// A PreToolUse guard that lets rm through only when the user wrote SUDO
// in the session reads it from transcript_path: it refuses before, and
// lets the call through once the user's message says SUDO.
func TestTranscriptLetsTheSudoGuardSeeTheUser(t *testing.T) {
	var rec recorder
	_, run := claudeRun(t, &rec, claudeHost(t, &ccPerson{}), claudeSettings(t, map[string][]map[string]any{
		"PreToolUse": {ccGroup("Bash", claudeScript(t, "sudo_guard.py"))}}), ccToolNames)
	msgs, _ := loopTurn(t, &rec, run, []hooks.Message{{Role: "user", Text: "clean the build"}}, "Removing it.", rmCall)
	assert.Equal(t, "rm needs SUDO from the user", msgs[len(msgs)-1].Text)
	assert.Empty(t, rec.got(), "refused")

	msgs = append(msgs, hooks.Message{Role: "assistant", Text: "I may not."}, hooks.Message{Role: "user", Text: "SUDO do it"})
	loopTurn(t, &rec, run, msgs, "Removing it.", rmCall)
	assert.Equal(t, []string{"ran:rm -rf build"}, rec.got())
	assert.Empty(t, rec.diagnostics())
}

// The ralph loop's Stop hook reads the last assistant message from the
// transcript: it sends the run on until the model promises it is done,
// then lets it stop and removes its state.
func TestTranscriptDrivesTheRalphLoop(t *testing.T) {
	var rec recorder
	state := filepath.Join(t.TempDir(), "ralph-loop")
	require.NoError(t, os.WriteFile(state, []byte("1 10\n"), 0o600))
	_, run := claudeRun(t, &rec, claudeHost(t, &ccPerson{}), claudeSettings(t, map[string][]map[string]any{
		"Stop": {ccGroup("", claudeScript(t, "ralph_stop.sh", state))}}))
	msgs := []hooks.Message{{Role: "user", Text: "port the parser"}}
	var replies []string
	for _, text := range []string{"Ported half.", "Ported the rest.", "Tests pass. <promise>DONE</promise>"} {
		var reply hooks.ModelReply
		msgs, reply = loopTurn(t, &rec, run, msgs, text)
		replies = append(replies, reply.Continue)
		msgs = append(msgs, hooks.Message{Role: "user", Text: reply.Continue})
	}
	want := "Keep going: finish the task, then say <promise>DONE</promise>."
	assert.Equal(t, []string{want, want, ""}, replies)
	assert.NoFileExists(t, state, "the loop ended itself")
	assert.Empty(t, rec.diagnostics())
}

// A UserPromptSubmit hook that counts turns and tool calls in the
// transcript sees every user turn, call and result so far.
func TestTranscriptCountsTurns(t *testing.T) {
	var rec recorder
	_, run := claudeRun(t, &rec, claudeHost(t, &ccPerson{}), claudeSettings(t, map[string][]map[string]any{
		"UserPromptSubmit": {ccGroup("", claudeScript(t, "turn_counter.js"))}}))
	msgs, _ := loopTurn(t, &rec, run, []hooks.Message{{Role: "user", Text: "list files"}}, "", ccBash("ls"))
	msgs = append(msgs, hooks.Message{Role: "assistant", Text: "Two files."}, hooks.Message{Role: "user", Text: "thanks"})
	step, err := run.BeforeModelRequest(bg, hooks.ModelRequest{System: "base", Messages: msgs})
	require.NoError(t, err)
	assert.Equal(t, "base\n\nturn 2, 1 tool call(s), 1 result(s) so far", step.Request.System)
	assert.Empty(t, rec.diagnostics())
}

// The transcript is Claude Code's JSONL: one entry per message, linked by
// parentUuid, with sessionId, cwd and a timestamp; the reply's tool_use
// carries the Claude tool name and the call's id, and the result a
// tool_result of that id.
func TestTranscriptFormat(t *testing.T) {
	var rec recorder
	log := filepath.Join(t.TempDir(), "seen")
	host := claudeHost(t, &ccPerson{})
	_, run := claudeRun(t, &rec, host, claudeSettings(t, map[string][]map[string]any{
		"Stop": {ccGroup("", claudeScript(t, "record.sh", log))}}), ccToolNames)
	msgs, _ := loopTurn(t, &rec, run, []hooks.Message{{Role: "user", Text: "list files"}}, "Listing.", ccBash("ls"))
	loopTurn(t, &rec, run, msgs, "Two files.")
	inputs, _ := ccInputs(t, log)
	require.Len(t, inputs, 1)
	entries := readTranscript(t, inputs[0]["transcript_path"].(string))
	require.Len(t, entries, 4)
	var types []string
	for i, e := range entries {
		types = append(types, e["type"].(string))
		assert.Equal(t, "sess-1", e["sessionId"])
		assert.Equal(t, host.Workdir, e["cwd"])
		_, err := time.Parse(time.RFC3339, e["timestamp"].(string))
		assert.NoError(t, err)
		if i == 0 {
			assert.Nil(t, e["parentUuid"])
		} else {
			assert.Equal(t, entries[i-1]["uuid"], e["parentUuid"])
		}
	}
	assert.Equal(t, []string{"user", "assistant", "user", "assistant"}, types)
	assert.Equal(t, map[string]any{"role": "user", "content": "list files"}, entries[0]["message"])
	assert.Equal(t, map[string]any{"role": "assistant", "content": []any{
		map[string]any{"type": "text", "text": "Listing."},
		map[string]any{"type": "tool_use", "id": "call-1", "name": "Bash", "input": map[string]any{"command": "ls"}},
	}}, entries[1]["message"])
	assert.Equal(t, map[string]any{"role": "user", "content": []any{
		map[string]any{"type": "tool_result", "tool_use_id": "call-1", "content": "ran"},
	}}, entries[2]["message"])
	assert.Equal(t, map[string]any{"role": "assistant", "content": []any{
		map[string]any{"type": "text", "text": "Two files."}}}, entries[3]["message"])
}

// readTranscript reads a JSONL transcript.
func readTranscript(t *testing.T, path string) []map[string]any {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e map[string]any
		require.NoError(t, json.Unmarshal(sc.Bytes(), &e), sc.Text())
		out = append(out, e)
	}
	require.NoError(t, sc.Err())
	return out
}

// By default the transcript is in a temporary directory removed when the
// run ends: no file is left behind. With TranscriptDir it is the host's
// file, "<session>.jsonl", kept.
func TestTranscriptPlace(t *testing.T) {
	for _, kept := range []bool{false, true} {
		var rec recorder
		log := filepath.Join(t.TempDir(), "seen")
		dir := t.TempDir()
		opts := []claudecode.Option{}
		if kept {
			opts = append(opts, claudecode.TranscriptDir(dir))
		}
		hs, err := claudecode.Hooks(claudeSettings(t, map[string][]map[string]any{
			"SessionEnd": {ccGroup("", claudeScript(t, "record.sh", log))}}), opts...)
		require.NoError(t, err)
		chain, err := hooks.NewChain(hs, hooks.WithDiagnostics(rec.diagnose))
		require.NoError(t, err)
		run, err := chain.Start(bg, claudeHost(t, &ccPerson{}), hooks.RunStart{})
		require.NoError(t, err)
		ccTurn(t, run, []hooks.Message{{Role: "user", Text: "hi"}}, "hello")
		run.End(bg, hooks.RunEnd{})
		inputs, _ := ccInputs(t, log)
		require.Len(t, inputs, 1)
		path := inputs[0]["transcript_path"].(string)
		if kept {
			assert.Equal(t, filepath.Join(dir, "sess-1.jsonl"), path)
			assert.Len(t, readTranscript(t, path), 2, "SessionEnd read the whole conversation")
		} else {
			assert.True(t, strings.HasPrefix(path, os.TempDir()), path)
			assert.NoDirExists(t, filepath.Dir(path), "removed at the run's end")
		}
		assert.Empty(t, rec.diagnostics())
	}
}

// The transcript follows the conversation the host sends: when a request
// no longer holds what an earlier one did (the host compacted it), the
// lines from the first that differs are made again, and the rest kept.
func TestTranscriptFollowsARewrittenConversation(t *testing.T) {
	var rec recorder
	log := filepath.Join(t.TempDir(), "seen")
	_, run := claudeRun(t, &rec, claudeHost(t, &ccPerson{}), claudeSettings(t, map[string][]map[string]any{
		"UserPromptSubmit": {ccGroup("", claudeScript(t, "record.sh", log))}}))
	ccTurn(t, run, []hooks.Message{{Role: "user", Text: "one"}, {Role: "assistant", Text: "a"}, {Role: "user", Text: "two"}}, "b")
	ccTurn(t, run, []hooks.Message{{Role: "user", Text: "one"}, {Role: "system", Text: "summary: a"}, {Role: "user", Text: "three"}}, "c")
	inputs, _ := ccInputs(t, log)
	require.Len(t, inputs, 2)
	var texts []any
	for _, e := range readTranscript(t, inputs[1]["transcript_path"].(string)) {
		texts = append(texts, e["message"].(map[string]any)["content"])
	}
	assert.Equal(t, []any{"one", "three"}, texts)
	assert.Empty(t, rec.diagnostics())
}
