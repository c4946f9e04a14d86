package claudecode_test

import (
	"strings"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/claudecode"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// diagnosed joins what the chain diagnosed, for assertions on its text.
func diagnosed(rec *recorder) string {
	var b strings.Builder
	for _, d := range rec.diagnostics() {
		b.WriteString(d.String() + "\n")
	}
	return b.String()
}

// Output names match exactly, case included, and a repeated key keeps its
// last value, as Claude Code's JSON.parse reads them: a second key that
// differs only in case cannot turn a deny into an allow; a misspelt key
// is a diagnostic naming the key it resembles; a value of the wrong type
// costs that key alone.
func TestOutputNamesAreExact(t *testing.T) {
	for name, tc := range map[string]struct {
		out     string
		refused string // "": the tool runs
		diag    string // in the diagnostics; "": none
	}{
		"deny, then Allow": {`{"hookSpecificOutput":{"permissionDecision":"deny","PermissionDecision":"allow","permissionDecisionReason":"no"}}`,
			"no", `"hookSpecificOutput.PermissionDecision" is ignored`},
		"only a capitalised deny (evidently a refusal: it refuses)": {`{"hookSpecificOutput":{"PermissionDecision":"deny"}}`,
			"refused by Claude Code hook PreToolUse[0].hooks[0]", `did you mean "hookSpecificOutput.permissionDecision"?`},
		"repeated: the last": {`{"hookSpecificOutput":{"permissionDecision":"allow","permissionDecision":"deny"}}`,
			"refused by Claude Code hook PreToolUse[0].hooks[0]", ""},
		"legacy block, then Decision":   {`{"decision":"block","Decision":"approve","reason":"legacy no"}`, "legacy no", `"Decision" is ignored`},
		"continue false, then Continue": {`{"continue":false,"Continue":true,"stopReason":"halt"}`, "halt", `"Continue" is ignored`},
		"a wrong type elsewhere": {`{"continue":"yes","hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"typed"}}`,
			"typed", `"continue" is "yes", of a type this library does not read`},
	} {
		t.Run(name, func(t *testing.T) {
			var rec recorder
			_, run := claudeRun(t, &rec, claudeHost(t, &ccPerson{}),
				claudeSettings(t, map[string][]map[string]any{"PreToolUse": {ccGroup("", ccEmit(t, tc.out, "0", ""))}}))
			res, err := run.CallTool(bg, ccBash("ls"), ccShell(&rec))
			require.NoError(t, err)
			if tc.refused != "" {
				assert.Equal(t, hooks.ToolResult{Text: tc.refused, IsError: true}, res)
				assert.Empty(t, rec.got(), "the tool did not run")
			} else {
				assert.Equal(t, "ran", res.Text)
			}
			if tc.diag == "" {
				assert.Empty(t, rec.diagnostics())
			} else {
				assert.Contains(t, diagnosed(&rec), tc.diag)
			}
		})
	}
}

// hugeCommand is a call the model may send: rm -rf, then 300 KB.
func hugeCommand() hooks.ToolCall { return ccBash("rm -rf / " + strings.Repeat("a", 300<<10)) }

// The model chooses a call's size. A guard whose JSON reason quotes a
// 300 KB command denies, its reason cut with a marker; a guard that logs
// its input to stdout and exits 2 denies with its stderr, whatever stdout
// held.
func TestAGuardQuotingAHugeCallStillRefuses(t *testing.T) {
	for name, tc := range map[string]struct {
		script string
		want   func(t *testing.T, text string)
	}{
		"JSON deny quoting the command": {"quote_guard.py", func(t *testing.T, text string) {
			assert.True(t, strings.HasPrefix(text, "refusing: rm -rf / aaa"), text[:40])
			assert.Contains(t, text, " […cut: ")
			assert.Less(t, len(text), 17<<10, "cut to 16 KiB and the marker")
		}},
		"exit 2 after logging the input": {"log_and_block.sh", func(t *testing.T, text string) {
			assert.Equal(t, "no rm -rf", text)
		}},
	} {
		t.Run(name, func(t *testing.T) {
			var rec recorder
			_, run := claudeRun(t, &rec, claudeHost(t, &ccPerson{}), claudeSettings(t, map[string][]map[string]any{
				"PreToolUse": {ccGroup("Bash", claudeScript(t, tc.script))}}), ccToolNames)
			res, err := run.CallTool(bg, hugeCommand(), ccShell(&rec))
			require.NoError(t, err)
			assert.True(t, res.IsError)
			tc.want(t, res.Text)
			assert.Empty(t, rec.got(), "the tool did not run")
			assert.Empty(t, rec.diagnostics())
		})
	}
}

// A PreToolUse handler that prints more than can be read (16 MiB) and
// exits 0, or prints more than is drained (64 MiB) whatever its exit, has
// a decision nobody knows: the call is refused, traced as refused with
// the error, and diagnosed.
func TestOutputTooLargeToReadRefusesTheCall(t *testing.T) {
	for _, c := range []struct{ bytes, code string }{{"17000000", "0"}, {"68000000", "2"}} {
		var rec recorder
		var trace []hooks.TraceEvent
		hs, err := claudecode.Hooks(claudeSettings(t, map[string][]map[string]any{
			"PreToolUse": {ccGroup("", claudeScript(t, "flood.sh", c.bytes, c.code))}}))
		require.NoError(t, err)
		chain, err := hooks.NewChain(hs, hooks.WithDiagnostics(rec.diagnose), hooks.WithTrace(func(e hooks.TraceEvent) { trace = append(trace, e) }))
		require.NoError(t, err)
		run, err := chain.Start(bg, claudeHost(t, &ccPerson{}), hooks.RunStart{})
		require.NoError(t, err)
		res, err := run.CallTool(bg, ccBash("ls"), ccShell(&rec))
		require.NoError(t, err)
		run.End(bg, hooks.RunEnd{})
		assert.Equal(t, hooks.ToolResult{IsError: true,
			Text: "Tool call blocked: Claude Code hook PreToolUse[0].hooks[0] printed more than can be read, so its decision is unknown"}, res, "%s bytes, exit %s", c.bytes, c.code)
		assert.Empty(t, rec.got(), "the tool did not run")
		assert.Contains(t, diagnosed(&rec), "output too large")
		var decisions []hooks.Decision
		for _, e := range trace {
			if e.Point == hooks.BeforeToolExecute {
				decisions = append(decisions, e.Decision)
			}
		}
		assert.Equal(t, []hooks.Decision{hooks.DecisionRefused}, decisions)
	}
}

// An exit 2 after more stdout than can be read (a guard that quotes a
// huge call, then refuses it) still decides: the call is refused, and
// with no stderr the reason is the start of what the guard printed, cut
// with a marker saying how much there was.
func TestExit2AfterTooMuchOutputRefusesWithItsWords(t *testing.T) {
	var rec recorder
	_, run := claudeRun(t, &rec, claudeHost(t, &ccPerson{}), claudeSettings(t, map[string][]map[string]any{
		"PreToolUse": {ccGroup("", claudeScript(t, "flood.sh", "17000000", "2"))}}))
	res, err := run.CallTool(bg, ccBash("ls"), ccShell(&rec))
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.True(t, strings.HasPrefix(res.Text, "xxxx"), res.Text[:40])
	assert.True(t, strings.HasSuffix(res.Text, "x […cut: 17000000 bytes in all]"), res.Text[len(res.Text)-40:])
	assert.Less(t, len(res.Text), 17<<10)
	assert.Empty(t, rec.got(), "the tool did not run")
	assert.Empty(t, rec.diagnostics(), "a decision, not a failure")
}

// An exit 2 whose stderr is longer than what is kept (its last 2 KiB)
// still refuses, its reason marked as cut.
func TestALongStderrReasonIsMarkedCut(t *testing.T) {
	var rec recorder
	_, run := claudeRun(t, &rec, claudeHost(t, &ccPerson{}), claudeSettings(t, map[string][]map[string]any{
		"PreToolUse": {ccGroup("", claudeScript(t, "flood.sh", "10", "2", "5000"))}}))
	res, err := run.CallTool(bg, ccBash("ls"), ccShell(&rec))
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.True(t, strings.HasPrefix(res.Text, "[…stderr cut: only its last 2 KiB are kept] eeee"), res.Text[:60])
	assert.Empty(t, rec.got())
}

// A PostToolUse handler (a redactor, say) whose output cannot be read
// withholds the result from the model: what it was there to change is
// not let through unchanged.
func TestPostToolUseTooLargeWithholdsTheResult(t *testing.T) {
	var rec recorder
	_, run := claudeRun(t, &rec, claudeHost(t, &ccPerson{}), claudeSettings(t, map[string][]map[string]any{
		"PostToolUse": {ccGroup("", claudeScript(t, "flood.sh", "17000000"))}}))
	res, err := run.CallTool(bg, ccBash("env"), func(*hooks.Context, hooks.ToolCall) (hooks.ToolResult, error) {
		return hooks.ToolResult{Text: "KEY=sk-secret", Value: map[string]any{"KEY": "sk-secret"}}, nil
	})
	require.NoError(t, err)
	want := "The result was withheld: Claude Code hook PostToolUse[0].hooks[0] printed more than can be read."
	assert.Equal(t, hooks.ToolResult{Text: want, IsError: true, Value: want}, res)
	assert.Contains(t, diagnosed(&rec), "the result is withheld from the model")
}

// Output too large to read, at the events that are not tool calls: a
// UserPromptSubmit ends the run (the prompt was not checked); a Stop and
// a SessionStart are diagnostics, and nothing is added or sent on.
func TestOutputTooLargeAtTheOtherEvents(t *testing.T) {
	var rec recorder
	flood := claudeScript(t, "flood.sh", "17000000", "0")
	_, run := claudeRun(t, &rec, claudeHost(t, &ccPerson{}), claudeSettings(t, map[string][]map[string]any{
		"SessionStart":     {ccGroup("", flood)},
		"UserPromptSubmit": {ccGroup("", flood)},
		"Stop":             {ccGroup("", flood)},
	}))
	require.Len(t, rec.diagnostics(), 1, "SessionStart's")
	step, err := run.BeforeModelRequest(bg, hooks.ModelRequest{System: "base", Messages: []hooks.Message{{Role: "user", Text: "hi"}}})
	require.NoError(t, err)
	require.NotNil(t, step.End)
	assert.Equal(t, "The prompt was not sent: Claude Code hook UserPromptSubmit[0].hooks[0] printed more than can be read, so it could not check it.", step.End.Output)
	step, err = run.BeforeModelRequest(bg, hooks.ModelRequest{System: "base", Messages: []hooks.Message{{Role: "tool", Text: "x"}}})
	require.NoError(t, err)
	assert.Equal(t, "base", step.Request.System, "SessionStart added nothing")
	reply, err := run.AfterModelResponse(bg, step, hooks.ModelResponse{Text: "done"})
	require.NoError(t, err)
	assert.Empty(t, reply.Continue)
	assert.Nil(t, reply.End)
	d := diagnosed(&rec)
	assert.Equal(t, 3, strings.Count(d, "output too large"), d)
	assert.Contains(t, d, "the run ends: the prompt was not checked")
	assert.NotContains(t, d, "the call goes on", "no tool call here")
}
