package claudecode_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/claudecode"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rewriteOn is a handler command that rewrites a call whose input holds
// from into {"command": to}, and says nothing of any other.
func rewriteOn(from, to string) string {
	return `if grep -q ` + ccQuote(from) + `; then printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"%s"}}}' ` + ccQuote(to) + `; fi`
}

// order: a rewrite a later handler makes, undone by a handler before it,
// does not leave the call the later handler rewrote away: that handler
// judges the undone call again (the two never settle: refused).
func TestAttackARewriteUndoneByAnEarlierHandlerIsJudgedAgain(t *testing.T) {
	var rec recorder
	_, run := claudeRun(t, &rec, claudeHost(t, &ccPerson{}), claudeSettings(t, map[string][]map[string]any{"PreToolUse": {
		ccGroup("", rewriteOn("echo sanitized", "rm -rf /tmp/x")), // undoes the sanitizer below
		ccGroup("", rewriteOn("rm -rf", "echo sanitized")),        // the sanitizer: rm never runs
	}}))
	res, err := run.CallTool(bg, ccBash("rm -rf /tmp/x"), ccShell(&rec))
	require.NoError(t, err)
	assert.NotContains(t, rec.got(), "ran:rm -rf /tmp/x")
	assert.True(t, res.IsError, res.Text)
}

// decoding: a deny Claude Code would not read ("Deny", "block" in
// permissionDecision, "deny" in the legacy decision, a list holding
// "deny") is never an allow: it evidently refuses, and the call is
// refused without asking anyone.
func TestAttackAnUnknownPermissionDecisionIsNeverAnAllow(t *testing.T) {
	for _, out := range []string{
		`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"Deny","permissionDecisionReason":"no rm"}}`,
		`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"block"}}`,
		`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"DENY "}}`,
		`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"reject"}}`,
		`{"decision":"deny","reason":"no rm"}`,
		`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":["deny"]}}`,
		`{"decision":"Block","reason":"no rm"}`,
	} {
		var rec recorder
		person := &ccPerson{}
		_, run := claudeRun(t, &rec, claudeHost(t, person), handlerSettings(t, "PreToolUse", "",
			map[string]any{"type": "command", "command": ccEmit(t, out, "0", "")}))
		res, err := run.CallTool(bg, ccBash("rm -rf /tmp/x"), ccShell(&rec))
		require.NoError(t, err)
		assert.Empty(t, rec.got(), out)
		assert.True(t, res.IsError, out)
		assert.Empty(t, person.prompts(), out)
	}
}

// decoding: an ask or a defer spelt as Claude Code would not read it, or
// a permissionDecision of another type, still asks: a person's no
// refuses the call.
func TestAttackAnAskSpeltOtherwiseStillAsks(t *testing.T) {
	for _, out := range []string{
		`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"Ask"}}`,
		`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"DEFER"}}`,
		`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"prompt"}}`,
		`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"maybe"}}`,
		`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":{"v":1}}}`,
		`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":2}}`,
		`{"decision":"ask"}`,
	} {
		var rec recorder
		person := &ccPerson{}
		_, run := claudeRun(t, &rec, claudeHost(t, person), handlerSettings(t, "PreToolUse", "",
			map[string]any{"type": "command", "command": ccEmit(t, out, "0", "")}))
		res, err := run.CallTool(bg, ccBash("rm -rf /tmp/x"), ccShell(&rec))
		require.NoError(t, err)
		assert.Empty(t, rec.got(), out)
		assert.True(t, res.IsError, out)
		assert.Len(t, person.prompts(), 1, out)
	}
}

// state: a subagent resumed from its parent's snapshot keeps its
// agent_type: the SubagentStop guard that matches it still runs (it is
// not disarmed by a resume that lost the type), and what its
// SubagentStart added stays in the child's System.
func TestAttackAResumedSubagentKeepsItsAgentType(t *testing.T) {
	var rec recorder
	log := filepath.Join(t.TempDir(), "seen")
	settings := claudeSettings(t, map[string][]map[string]any{
		"SubagentStart": {ccGroup("Explore",
			ccEmit(t, `{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"Read only."}}`, "0", ""))},
		"SubagentStop": {ccGroup("Explore", claudeScript(t, "record.sh", log), ccEmit(t, "", "2", "run the tests first"))},
	})
	host := claudeHost(t, &ccPerson{})
	chain, run := claudeRun(t, &rec, host, settings)
	child, err := run.Child(claudecode.AgentType(bg, "Explore"), hooks.RunStart{Input: "look around"})
	require.NoError(t, err)
	_, err = child.BeforeModelRequest(bg, hooks.ModelRequest{System: "You explore.", Messages: []hooks.Message{{Role: "user", Text: "look"}}})
	require.NoError(t, err)
	snap, err := run.Snapshot()
	require.NoError(t, err)

	resumed, err := chain.Resume(bg, host, snap)
	require.NoError(t, err)
	defer resumed.End(bg, hooks.RunEnd{})
	require.Len(t, resumed.Children(), 1)
	kid := resumed.Children()[0]
	step, err := kid.BeforeModelRequest(bg, hooks.ModelRequest{System: "You explore.", Messages: []hooks.Message{{Role: "user", Text: "look"}}})
	require.NoError(t, err)
	assert.Equal(t, "You explore.\n\nRead only.", step.Request.System)
	reply, err := kid.AfterModelResponse(bg, step, hooks.ModelResponse{Text: "done"})
	require.NoError(t, err)
	assert.Equal(t, "run the tests first", reply.Continue, "the SubagentStop guard still matches the resumed subagent")
	inputs, _ := ccInputs(t, log)
	require.Len(t, inputs, 1)
	assert.Equal(t, "Explore", inputs[0]["agent_type"])
}

// time, failure: a guard whose deny is printed before a grandchild that
// keeps stdout open is refused at once, not when the
// grandchild ends, in the group or out of it (setsid).
func TestAttackAGrandchildHoldingStdoutCannotHoldTheCall(t *testing.T) {
	deny := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm"}}`
	for name, hd := range map[string]map[string]any{
		"deny then hold": {"type": "command", "command": "echo '" + deny + "'; sleep 60 &", "timeout": 1},
		"setsid hold":    {"type": "command", "command": "echo '" + deny + "'; setsid sleep 60 &", "timeout": 1},
	} {
		var rec recorder
		_, run := claudeRun(t, &rec, claudeHost(t, &ccPerson{}), handlerSettings(t, "PreToolUse", "", hd))
		start := time.Now()
		res, err := run.CallTool(bg, ccBash("rm -rf /tmp/x"), ccShell(&rec))
		require.NoError(t, err, name)
		assert.True(t, res.IsError, "%s: %s", name, res.Text)
		assert.Empty(t, rec.got(), name)
		assert.Less(t, time.Since(start), 30*time.Second, name)
	}
}

// order, state: a SubagentStop handler that always blocks cannot keep a
// subagent going forever: the child is sent on at most the configured
// number of times in a row, then its reply stands.
func TestAttackSubagentStopCannotLoopForever(t *testing.T) {
	var rec recorder
	settings := claudeSettings(t, map[string][]map[string]any{"SubagentStop": {ccGroup("", ccEmit(t, "", "2", "keep going"))}})
	_, run := claudeRun(t, &rec, claudeHost(t, &ccPerson{}), settings)
	child, err := run.Child(claudecode.AgentType(bg, "Explore"), hooks.RunStart{Input: "look"})
	require.NoError(t, err)
	defer child.End(bg, hooks.RunEnd{})
	sent := 0
	for range 50 {
		step, err := child.BeforeModelRequest(bg, hooks.ModelRequest{Messages: []hooks.Message{{Role: "user", Text: "look"}}})
		require.NoError(t, err)
		reply, err := child.AfterModelResponse(bg, step, hooks.ModelResponse{Text: "done"})
		require.NoError(t, err)
		if reply.Continue == "" {
			break
		}
		sent++
	}
	assert.Less(t, sent, 50)
	assert.Positive(t, sent)
}

// spelling, names: a handler that says "onFailure": "continue" and also
// a misspelt "onfailure": "block" is not silently open: the load says
// so, and the handler stays closed.
func TestAttackOnFailureContinueBesideAMisspeltBlock(t *testing.T) {
	settings := `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"exit 1","onFailure":"continue","onfailure":"block"}]}]}}`
	var diags []hooks.Diagnostic
	hs, err := claudecode.Hooks([]byte(settings), claudecode.Diagnostics(func(d hooks.Diagnostic) { diags = append(diags, d) }))
	if err != nil {
		return // refused at load: loud
	}
	chain, err := hooks.NewChain(hs)
	require.NoError(t, err)
	run, err := chain.Start(bg, claudeHost(t, &ccPerson{}), hooks.RunStart{})
	require.NoError(t, err)
	defer run.End(bg, hooks.RunEnd{})
	step, err := run.BeforeToolExecute(bg, ccBash("ls"))
	require.NoError(t, err)
	assert.NotEmpty(t, diags)
	assert.True(t, step.Refused)
}

// spelling, shape: arguments that hold the command twice, in two cases
// (the guard reads "command", a tool may read "Command"), from the model
// or from a handler's updatedInput, do not reach the tool unjudged.
func TestAttackACommandInTwoCasesIsNotRunPastTheGuard(t *testing.T) {
	rewrite := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"ls","COMMAND":"rm -rf /"}}}`
	for name, c := range map[string]struct {
		handlers []string
		args     map[string]any
	}{
		"model":   {[]string{claudeScript(t, "bash_guard.sh")}, map[string]any{"command": "ls", "Command": "rm -rf /"}},
		"rewrite": {[]string{claudeScript(t, "bash_guard.sh"), ccEmit(t, rewrite, "0", "")}, map[string]any{"command": "ls"}},
	} {
		var rec recorder
		var groups []map[string]any
		for _, hd := range c.handlers {
			groups = append(groups, ccGroup("", hd))
		}
		_, run := claudeRun(t, &rec, claudeHost(t, &ccPerson{}), claudeSettings(t, map[string][]map[string]any{"PreToolUse": groups}), ccToolNames)
		var ran []map[string]any
		res, err := run.CallTool(bg, hooks.ToolCall{ID: "c1", Name: "shell", Arguments: c.args},
			func(_ *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
				ran = append(ran, call.Arguments)
				return hooks.ToolResult{Text: "ran"}, nil
			})
		require.NoError(t, err, name)
		assert.True(t, res.IsError, "%s: %s", name, res.Text)
		for _, a := range ran {
			for k, v := range a {
				assert.NotEqual(t, "rm -rf /", v, "%s: %s reached the tool: %s", name, k, res.Text)
			}
		}
	}
}
