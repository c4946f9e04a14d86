package claudecode_test

import (
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// PreToolUse's additionalContext reaches the model as Claude Code gives
// it: in its context the next time it is called (this library: the
// System of the next model request, that one only); the call goes on.
func TestPreToolUseAdditionalContextReachesTheNextRequest(t *testing.T) {
	var rec recorder
	_, run := claudeRun(t, &rec, claudeHost(t, &ccPerson{}), claudeSettings(t, map[string][]map[string]any{
		"PreToolUse": {ccGroup("Bash", claudeScript(t, "branch_context.py"))}}), ccToolNames)
	msgs, _ := loopTurn(t, &rec, run, []hooks.Message{{Role: "user", Text: "list"}}, "", ccBash("ls"))
	assert.Equal(t, []string{"ran:ls"}, rec.got())
	step, err := run.BeforeModelRequest(bg, hooks.ModelRequest{System: "base", Messages: msgs})
	require.NoError(t, err)
	assert.Equal(t, "base\n\nCurrent git branch: feature/auth (before Bash)", step.Request.System)
	step, err = run.BeforeModelRequest(bg, hooks.ModelRequest{System: "base", Messages: msgs})
	require.NoError(t, err)
	assert.Equal(t, "base", step.Request.System, "once")
	assert.Empty(t, rec.diagnostics())
}

// Stop's additionalContext goes with the continuation when a Stop sends
// the run on, and to the next request when none does.
func TestStopAdditionalContext(t *testing.T) {
	for _, c := range []struct {
		out, cont, next string
	}{
		{`{"decision":"block","reason":"run the tests","hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"go test ./..."}}`,
			"run the tests\n\ngo test ./...", "base"},
		{`{"hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"3 files changed"}}`, "", "base\n\n3 files changed"},
	} {
		var rec recorder
		_, run := claudeRun(t, &rec, claudeHost(t, &ccPerson{}), claudeSettings(t, map[string][]map[string]any{
			"Stop": {ccGroup("", ccEmit(t, c.out, "0", ""))}}))
		msgs := []hooks.Message{{Role: "user", Text: "go"}}
		_, reply := ccTurn(t, run, msgs, "done")
		assert.Equal(t, c.cont, reply.Continue)
		next := "thanks"
		if reply.Continue != "" {
			next = reply.Continue
		}
		msgs = append(msgs, hooks.Message{Role: "assistant", Text: "done"}, hooks.Message{Role: "user", Text: next})
		step, err := run.BeforeModelRequest(bg, hooks.ModelRequest{System: "base", Messages: msgs})
		require.NoError(t, err)
		assert.Equal(t, c.next, step.Request.System)
		assert.Empty(t, rec.diagnostics())
	}
}

// suppressOriginalPrompt: the user's prompt is not sent; what the
// handlers added takes its place, and with nothing added no model call
// is made.
func TestSuppressOriginalPrompt(t *testing.T) {
	for _, c := range []struct{ out, want string }{
		{`{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","suppressOriginalPrompt":true,"additionalContext":"Summarise the diff."}}`, "Summarise the diff."},
		{`{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","suppressOriginalPrompt":true}}`, ""},
	} {
		var rec recorder
		_, run := claudeRun(t, &rec, claudeHost(t, &ccPerson{}), claudeSettings(t, map[string][]map[string]any{
			"UserPromptSubmit": {ccGroup("", ccEmit(t, c.out, "0", ""))}}))
		step, err := run.BeforeModelRequest(bg, hooks.ModelRequest{System: "base", Messages: []hooks.Message{
			{Role: "user", Text: "first"}, {Role: "assistant", Text: "ok"}, {Role: "user", Text: "/summarise secret-token"}}})
		require.NoError(t, err)
		if c.want == "" {
			require.NotNil(t, step.End)
			assert.Equal(t, "The prompt was not sent: Claude Code hook UserPromptSubmit[0].hooks[0] suppressed it.", step.End.Output)
			continue
		}
		require.Nil(t, step.End)
		assert.Equal(t, []hooks.Message{{Role: "user", Text: "first"}, {Role: "assistant", Text: "ok"}, {Role: "user", Text: c.want}},
			step.Request.Messages)
		assert.Equal(t, "base", step.Request.System)
		assert.Empty(t, rec.diagnostics())
	}
}
