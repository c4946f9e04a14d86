package claudecode_test

import (
	"path/filepath"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/claudecode"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A host fires PermissionRequest from its approval step (here inside a
// tool call, with the call's Context): a python handler allows with a
// rewritten input, denies with a message and an interrupt, or has no
// opinion, and then the person decides; the matcher takes the Claude
// tool name.
func TestFirePermissionRequest(t *testing.T) {
	var rec recorder
	hs, err := claudecode.Hooks(claudeSettings(t, map[string][]map[string]any{
		"PermissionRequest": {ccGroup("Read|Write", claudeScript(t, "permission.py"))}}),
		claudecode.ToolNames(map[string]string{"read_file": "Read", "write_file": "Write"}))
	require.NoError(t, err)
	chain, err := hooks.NewChain(hs, hooks.WithDiagnostics(rec.diagnose))
	require.NoError(t, err)
	run, err := chain.Start(bg, claudeHost(t, &ccPerson{}), hooks.RunStart{})
	require.NoError(t, err)
	defer run.End(bg, hooks.RunEnd{})
	fire := func(tool, path string) claudecode.Outcome {
		var out claudecode.Outcome
		_, err := run.CallTool(bg, hooks.ToolCall{ID: "p", Name: tool}, func(c *hooks.Context, _ hooks.ToolCall) (hooks.ToolResult, error) {
			var err error
			out, err = claudecode.Fire(c, hs, claudecode.Event{Name: "PermissionRequest", Subject: tool,
				Input: map[string]any{"tool_name": map[string]string{"read_file": "Read", "write_file": "Write", "shell": "Bash"}[tool],
					"tool_input": map[string]any{"file_path": path}}})
			return hooks.ToolResult{}, err
		})
		require.NoError(t, err)
		return out
	}
	assert.Equal(t, claudecode.Outcome{Allow: true, UpdatedInput: map[string]any{"file_path": "src/main.go"}}, fire("read_file", "/src/main.go"))
	assert.Equal(t, claudecode.Outcome{Block: true, Reason: "secrets stay put", Interrupt: true}, fire("write_file", ".env"))
	// No handler decides: the person is asked (Context.Review, served
	// here by the host's Confirm, which says no).
	assert.Equal(t, claudecode.Outcome{Block: true, Reason: hooks.DefaultRejection}, fire("write_file", "main.go"))
	assert.Equal(t, claudecode.Outcome{Block: true, Reason: hooks.DefaultRejection}, fire("shell", ".env"), "the matcher does not take Bash")
	assert.Empty(t, rec.diagnostics())
}

// Notification, PreCompact/PostCompact and SubagentStart/SubagentStop
// fire with their matchers (notification_type, trigger, agent_type) and
// inputs; a node SubagentStop handler sends the subagent on (Block with
// its reason), a bash SubagentStart handler adds context; handlers of a
// set made only of such events still reach Fire, from a Context made
// outside a run.
func TestFireOtherEvents(t *testing.T) {
	var rec recorder
	log := filepath.Join(t.TempDir(), "seen")
	record := claudeScript(t, "record.sh", log)
	hs, err := claudecode.Hooks(claudeSettings(t, map[string][]map[string]any{
		"Notification":  {ccGroup("idle_prompt", record)},
		"PreCompact":    {ccGroup("auto", record, ccEmit(t, "", "2", "not now: a release is running"))},
		"PostCompact":   {ccGroup("", record)},
		"SubagentStart": {ccGroup("reviewer", ccEmit(t, `{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"Review for security first."}}`, "0", ""))},
		"SubagentStop":  {ccGroup("", claudeScript(t, "stop_until_tests.js"))},
	}), claudecode.Diagnostics(rec.diagnose))
	require.NoError(t, err)
	assert.Equal(t, []string{"claude:Events"}, ccNames(hs))
	c := &hooks.Context{Context: bg, Workdir: t.TempDir(), Session: hooks.Session{ID: "s"}}

	out, err := claudecode.Fire(c, hs, claudecode.Event{Name: "Notification", Subject: "idle_prompt",
		Input: map[string]any{"message": "Claude is waiting", "notification_type": "idle_prompt"}})
	require.NoError(t, err)
	assert.Equal(t, claudecode.Outcome{}, out)
	out, err = claudecode.Fire(c, hs, claudecode.Event{Name: "Notification", Subject: "permission_prompt"})
	require.NoError(t, err)
	assert.Equal(t, claudecode.Outcome{}, out)
	out, err = claudecode.Fire(c, hs, claudecode.Event{Name: "PreCompact", Subject: "auto", Input: map[string]any{"trigger": "auto", "custom_instructions": ""}})
	require.NoError(t, err)
	assert.Equal(t, claudecode.Outcome{Block: true, Reason: "not now: a release is running"}, out)
	out, err = claudecode.Fire(c, hs, claudecode.Event{Name: "PostCompact", Subject: "manual", Input: map[string]any{"trigger": "manual"}})
	require.NoError(t, err)
	assert.Equal(t, claudecode.Outcome{}, out)
	out, err = claudecode.Fire(c, hs, claudecode.Event{Name: "SubagentStart", Subject: "reviewer", Input: map[string]any{"agent_id": "a1", "agent_type": "reviewer"}})
	require.NoError(t, err)
	assert.Equal(t, claudecode.Outcome{Context: "Review for security first."}, out)
	out, err = claudecode.Fire(c, hs, claudecode.Event{Name: "SubagentStop", Subject: "reviewer", Input: map[string]any{
		"agent_id": "a1", "agent_type": "reviewer", "stop_hook_active": false, "last_assistant_message": "Looks fine."}})
	require.NoError(t, err)
	assert.Equal(t, claudecode.Outcome{Block: true, Reason: "Run the tests and say whether they pass before you stop."}, out)

	inputs, _ := ccInputs(t, log)
	var events []string
	for _, in := range inputs {
		events = append(events, in["hook_event_name"].(string))
		assert.Equal(t, "s", in["session_id"])
		assert.Equal(t, "", in["transcript_path"], "no run, no transcript")
	}
	assert.Equal(t, []string{"Notification", "PreCompact", "PostCompact"}, events)
	assert.Equal(t, "Claude is waiting", inputs[0]["message"])
	assert.Equal(t, "auto", inputs[1]["trigger"])

	_, err = claudecode.Fire(c, hs, claudecode.Event{Name: "Notify"})
	assert.ErrorContains(t, err, `"Notify" is not an event a host fires`)
	assert.Empty(t, rec.diagnostics())
}
