package claudecode_test

import (
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/claudecode"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A child run is a subagent: SubagentStart runs at its start (matching
// agent_type, its additionalContext in every request of the child),
// the parent's PreToolUse guards its tool calls with agent_id and
// agent_type in their input, and SubagentStop runs on its final reply,
// sending it on once (block), then letting it stop; SessionStart,
// UserPromptSubmit, Stop and SessionEnd stay the session's.
func TestSubagentStartAndStopFireForChildRuns(t *testing.T) {
	var rec recorder
	log := filepath.Join(t.TempDir(), "seen")
	record := claudeScript(t, "record.sh", log)
	settings := claudeSettings(t, map[string][]map[string]any{
		"SessionStart":     {ccGroup("", record)},
		"UserPromptSubmit": {ccGroup("", record)},
		"PreToolUse":       {ccGroup("Bash", record, claudeScript(t, "bash_guard.sh"))},
		"Stop":             {ccGroup("", record)},
		"SessionEnd":       {ccGroup("", record)},
		"SubagentStart": {ccGroup("Explore", record,
			ccEmit(t, `{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"Read only."}}`, "0", "")),
			ccGroup("other", ccEmit(t, "", "1", "must not run"))},
		"SubagentStop": {ccGroup("Explore", record, claudeScript(t, "stop_until_tests.js"))},
	})
	_, run := claudeRun(t, &rec, claudeHost(t, &ccPerson{}), settings, ccToolNames)
	parentLines := func() int { in, _ := ccInputs(t, log); return len(in) }()
	require.Equal(t, 1, parentLines, "the parent's SessionStart")

	child, err := run.Child(claudecode.AgentType(bg, "Explore"), hooks.RunStart{Input: "look around"})
	require.NoError(t, err)
	step, err := child.BeforeModelRequest(bg, hooks.ModelRequest{System: "You explore.", Messages: []hooks.Message{{Role: "user", Text: "look around"}}})
	require.NoError(t, err)
	assert.Equal(t, "You explore.\n\nRead only.", step.Request.System)

	res, err := child.CallTool(bg, ccBash("rm -rf /"), ccShell(&rec))
	require.NoError(t, err)
	assert.True(t, res.IsError, "the parent's guard refuses the subagent's call")
	assert.Empty(t, rec.got())

	reply, err := child.AfterModelResponse(bg, step, hooks.ModelResponse{Text: "Found three files."})
	require.NoError(t, err)
	assert.Equal(t, "Run the tests and say whether they pass before you stop.", reply.Continue)
	step, err = child.BeforeModelRequest(bg, hooks.ModelRequest{Messages: []hooks.Message{{Role: "user", Text: reply.Continue}}})
	require.NoError(t, err)
	reply, err = child.AfterModelResponse(bg, step, hooks.ModelResponse{Text: "Still three files."})
	require.NoError(t, err)
	assert.Empty(t, reply.Continue, "stop_hook_active lets it stop")
	child.End(bg, hooks.RunEnd{})

	inputs, _ := ccInputs(t, log)
	var events []string
	for _, in := range inputs[1:] {
		events = append(events, in["hook_event_name"].(string))
		assert.Equal(t, child.ID(), in["agent_id"])
		assert.Equal(t, "Explore", in["agent_type"])
	}
	assert.Equal(t, []string{"SubagentStart", "PreToolUse", "SubagentStop", "SubagentStop"}, events)
	assert.Equal(t, false, inputs[3]["stop_hook_active"])
	assert.Equal(t, "Found three files.", inputs[3]["last_assistant_message"])
	assert.Equal(t, true, inputs[4]["stop_hook_active"])
	assert.NotEmpty(t, inputs[3]["agent_transcript_path"])
	_, parentHas := inputs[0]["agent_id"]
	assert.False(t, parentHas, "the parent's events name no agent")
	assert.Empty(t, rec.diagnostics())
}

// PostToolUse and PostToolUseFailure read duration_ms (Claude Code
// v2.1.119): how long the tool took, in milliseconds.
func TestPostToolUseReadsDurationMS(t *testing.T) {
	var rec recorder
	log := filepath.Join(t.TempDir(), "seen")
	record := claudeScript(t, "record.sh", log)
	_, run := claudeRun(t, &rec, claudeHost(t, &ccPerson{}), claudeSettings(t, map[string][]map[string]any{
		"PreToolUse": {ccGroup("", record)}, "PostToolUse": {ccGroup("", record)}, "PostToolUseFailure": {ccGroup("", record)}}))
	slow := func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		start := time.Now()
		for time.Since(start) < 30*time.Millisecond { // a tool that takes its time, without sleeping
			runtime.Gosched()
		}
		return hooks.ToolResult{Text: "done", IsError: call.Name == "fails"}, nil
	}
	_, err := run.CallTool(bg, hooks.ToolCall{ID: "a", Name: "works"}, slow)
	require.NoError(t, err)
	_, err = run.CallTool(bg, hooks.ToolCall{ID: "b", Name: "fails"}, slow)
	require.NoError(t, err)
	inputs, _ := ccInputs(t, log)
	require.Len(t, inputs, 4)
	_, pre := inputs[0]["duration_ms"]
	assert.False(t, pre, "PreToolUse has no duration")
	for _, in := range []map[string]any{inputs[1], inputs[3]} {
		ms, ok := in["duration_ms"].(float64)
		require.True(t, ok, "%v", in)
		assert.GreaterOrEqual(t, ms, 30.0)
		assert.Less(t, ms, 30_000.0)
	}
	assert.Equal(t, "PostToolUseFailure", inputs[3]["hook_event_name"])
}

// StopFailure loads (no diagnostic) and runs when the host fires it where
// its model call failed, its matcher taking the error's type.
func TestStopFailureIsFiredByTheHost(t *testing.T) {
	var diags []hooks.Diagnostic
	log := filepath.Join(t.TempDir(), "seen")
	hs, err := claudecode.Hooks(claudeSettings(t, map[string][]map[string]any{
		"StopFailure": {ccGroup("rate_limit", claudeScript(t, "record.sh", log))}}),
		claudecode.Diagnostics(func(d hooks.Diagnostic) { diags = append(diags, d) }))
	require.NoError(t, err)
	assert.Empty(t, diags)
	c := &hooks.Context{Context: bg, Workdir: t.TempDir(), Session: hooks.Session{ID: "s"}}
	for _, kind := range []string{"rate_limit", "authentication_failed"} {
		out, err := claudecode.Fire(c, hs, claudecode.Event{Name: "StopFailure", Subject: kind,
			Input: map[string]any{"error": kind, "error_details": "429 Too Many Requests", "last_assistant_message": ""}})
		require.NoError(t, err)
		assert.Equal(t, claudecode.Outcome{}, out)
	}
	inputs, _ := ccInputs(t, log)
	require.Len(t, inputs, 1)
	assert.Equal(t, "StopFailure", inputs[0]["hook_event_name"])
	assert.Equal(t, "429 Too Many Requests", inputs[0]["error_details"])
}
