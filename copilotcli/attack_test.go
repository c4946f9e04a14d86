package copilotcli_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/copilotcli"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func pre(t *testing.T, entry map[string]any, opts ...copilotcli.Option) *harness {
	t.Helper()
	return start(t, file(t, map[string][]map[string]any{"preToolUse": {entry}}), opts...)
}

// Since 1.0.57 Copilot CLI denies a call whose preToolUse hook exits
// non-zero (any code) or cannot start; a timeout still lets it run.
func TestPreToolUseFailsClosedOnAnErrorAndOpenOnATimeout(t *testing.T) {
	for _, code := range []string{"1", "2", "3", "127"} {
		h := pre(t, bash(`cat >/dev/null; echo '{"permissionDecision":"allow"}'; exit `+code))
		step := h.call(t, "bash", map[string]any{"command": "ls"})
		assert.True(t, step.Refused, "exit %s", code)
		assert.Contains(t, step.Reason, "Denied by preToolUse hook (hook errored)")
	}
	h := pre(t, map[string]any{"bash": "./does-not-exist.sh"})
	assert.True(t, h.call(t, "bash", nil).Refused, "a command that is not there errors")

	slow := bash(`cat >/dev/null; sleep 5`)
	slow["timeoutSec"] = 0.2
	h = pre(t, slow)
	step := h.call(t, "bash", map[string]any{"command": "ls"})
	assert.False(t, step.Refused)
	assert.Contains(t, h.diag.text(), "timed out")

	// A deny printed before the timeout still denies.
	slowDeny := bash(`cat >/dev/null; echo '{"permissionDecision":"deny","permissionDecisionReason":"no"}'; sleep 5`)
	slowDeny["timeoutSec"] = 1.5
	h = pre(t, slowDeny)
	assert.True(t, h.call(t, "bash", nil).Refused, h.diag.text())
}

// A deny whose JSON a quote of the call broke, in another case, under a
// key in another case, or as a list, still denies; an allow whose reason
// quotes "deny" stays an allow.
func TestADenyTheModelShapedStillDenies(t *testing.T) {
	denies := []string{
		`{"permissionDecision":"deny","permissionDecisionReason":"bad "quote" here"}`,
		`{"permissionDecision":"Deny"}`,
		`{"PermissionDecision":"deny"}`,
		`{"permissionDecision":["deny"]}`,
		`{"permissionDecision":"allow","permissionDecision":"deny"}`,
		`{"permissionDecision":"deny","permissionDecision":"allow"}`, // a repeated key never turns a deny into an allow
		`{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"vs code"}}`,
	}
	for _, out := range denies {
		h := pre(t, bash("cat >/dev/null; printf '%s' "+quote(out)))
		assert.True(t, h.call(t, "bash", map[string]any{"command": "x"}).Refused, "%s: %s", out, h.diag.text())
	}
	allows := []string{
		`{"permissionDecision":"allow","permissionDecisionReason":"the command says deny"}`,
		`{"permissionDecision":"allow","permissionDecisionReason":"deny"}`,
		``,
		`{}`,
	}
	for _, out := range allows {
		h := pre(t, bash("cat >/dev/null; printf '%s' "+quote(out)))
		assert.False(t, h.call(t, "bash", nil).Refused, "%s: %s", out, h.diag.text())
	}
}

// Output past the cap cannot be read, and the model controls its size:
// the call is refused.
func TestOversizedGuardOutputRefuses(t *testing.T) {
	h := pre(t, bash(`cat >/dev/null; head -c 400000 /dev/zero | tr '\0' a; echo '{"permissionDecision":"allow"}'`))
	step := h.call(t, "bash", nil)
	assert.True(t, step.Refused)
	assert.Contains(t, step.Reason, "too large")
}

// modifiedArgs replaces the call's arguments, as an object or (older
// builds) a JSON string; one that is neither refuses: the call the hook
// meant cannot be known.
func TestModifiedArgsReplaceTheCall(t *testing.T) {
	for _, out := range []string{
		`{"permissionDecision":"allow","modifiedArgs":{"command":"ls -l"}}`,
		`{"modifiedArgs":"{\"command\":\"ls -l\"}"}`,
	} {
		h := pre(t, bash("cat >/dev/null; printf '%s' "+quote(out)))
		step := h.call(t, "bash", map[string]any{"command": "rm -rf /"})
		require.False(t, step.Refused, h.diag.text())
		assert.Equal(t, map[string]any{"command": "ls -l"}, step.Call.Arguments, out)
	}
	for _, out := range []string{`{"modifiedArgs":"rm"}`, `{"modifiedArgs":[1]}`, `{"modifiedArgs":"{broken"}`} {
		h := pre(t, bash("cat >/dev/null; printf '%s' "+quote(out)))
		assert.True(t, h.call(t, "bash", map[string]any{"command": "rm -rf /"}).Refused, out)
	}
}

// The guard reads the arguments that will run: toolArgs as a JSON string
// is the very arguments the tool gets, whatever they hold (a value that
// is itself JSON text stays a string inside it).
func TestToolArgsAsStringIsTheCallThatRuns(t *testing.T) {
	needJQ(t)
	entry := bash(`jq -r '.toolArgs' | jq -e '.command == "{\"command\":\"ls\"}"' >/dev/null && echo '{"permissionDecision":"deny","permissionDecisionReason":"seen"}'`)
	h := pre(t, entry, copilotcli.ToolArgsAsString())
	step := h.call(t, "bash", map[string]any{"command": `{"command":"ls"}`})
	assert.True(t, step.Refused, h.diag.text())
	assert.Equal(t, "seen", step.Reason)
}

// A matcher must match the whole name, case included, as in Copilot CLI;
// a plain name in another case still guards its tool here (with a
// diagnostic), never a prefix or a longer name.
func TestMatcherWholeNameAndCase(t *testing.T) {
	deny := bash(`cat >/dev/null; echo '{"permissionDecision":"deny"}'`)
	cases := []struct {
		matcher, tool string
		refused       bool
	}{
		{"bash", "bash", true},
		{"bash", "bash2", false},
		{"bas", "bash", false},
		{"Bash", "bash", true},
		{"edit|Bash", "bash", true},
		{"ba.*", "bash", true},
		{"", "anything", true},
		{"*", "anything", true},
		{"(?!edit)[a-z]+", "bash", true}, // JavaScript's lookahead
		{"(?!edit)[a-z]+", "edit", false},
	}
	for _, tc := range cases {
		e := map[string]any{"type": "command", "bash": deny["bash"], "matcher": tc.matcher}
		h := pre(t, e)
		assert.Equal(t, tc.refused, h.call(t, tc.tool, nil).Refused, "%q on %q", tc.matcher, tc.tool)
		if tc.matcher == "Bash" {
			assert.Contains(t, h.diag.text(), "in another case")
		}
	}
	_, err := copilotcli.Hooks(file(t, map[string][]map[string]any{"preToolUse": {{"bash": "x", "matcher": "(unclosed"}}}))
	assert.ErrorContains(t, err, "hooks.preToolUse[0].matcher")
}

// An entry with only a powershell command never runs as bash on Linux:
// as a guard it refuses what it matches, elsewhere it does nothing; both
// say so at load.
func TestPowerShellOnlyEntriesOnLinux(t *testing.T) {
	settings := file(t, map[string][]map[string]any{
		"preToolUse":  {{"type": "command", "powershell": "Write-Output '{}'", "matcher": "bash"}},
		"postToolUse": {{"type": "command", "powershell": "exit 1"}},
	})
	h := start(t, settings)
	assert.Contains(t, h.diag.text(), "only a powershell command")
	step := h.call(t, "bash", nil)
	assert.True(t, step.Refused)
	assert.Contains(t, step.Reason, "cannot run here")
	assert.False(t, h.call(t, "edit", nil).Refused, "the matcher still selects")
}

// Strict reading: a key Copilot CLI does not define, a typo of an event,
// a bad version or timeout are errors naming the entry.
func TestSettingsErrorsNameTheEntry(t *testing.T) {
	cases := map[string]string{
		`{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"x","timeoutsec":5}]}}`: `hooks.preToolUse[0].timeoutsec: unknown key; did you mean "timeoutSec"?`,
		`{"version":1,"hooks":{"preToolUse":[{"type":"command","Bash":"x"}]}}`:                `hooks.preToolUse[0].Bash: unknown key; did you mean "bash"?`,
		`{"version":1,"hooks":{"pretooluse":[{"bash":"x"}]}}`:                                 `hooks.pretooluse: unknown event; did you mean`,
		`{"version":2,"hooks":{}}`: `version: must be 1`,
		`{"version":1,"hooks":{"preToolUse":[{"bash":"x","timeoutSec":0}]}}`:  `hooks.preToolUse[0].timeoutSec: must be a positive number`,
		`{"version":1,"hooks":{"preToolUse":[{"bash":"  "}]}}`:                `hooks.preToolUse[0].bash: must be a non-empty command`,
		`{"version":1,"hooks":{"preToolUse":[{"type":"command"}]}}`:           `hooks.preToolUse[0]: needs a "bash" or a "powershell" command`,
		`{"version":1,"hooks":{"preToolUse":[{"type":"script","bash":"x"}]}}`: `hooks.preToolUse[0].type: must be "command" or "prompt"`,
		`{"version":1,"hoks":{}}`:                                             `hoks: unknown key; did you mean "hooks"?`,
		`[]`:                                                                  `must be a JSON object`,
	}
	for in, want := range cases {
		_, err := copilotcli.Hooks([]byte(in))
		assert.ErrorContains(t, err, want, in)
	}
	// GitHub's own examples carry "comment"; unsupported events load with a diagnostic.
	d := &diags{}
	hs, err := copilotcli.Hooks([]byte(`{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"x","comment":"runs first"}],"preCompact":[{"bash":"y"}]}}`), copilotcli.Diagnostics(d.add))
	require.NoError(t, err)
	assert.Len(t, hs, 1)
	assert.Contains(t, d.text(), `hooks.preCompact: event "preCompact" not run by this library`)
}

// An unknown key in what a guard prints is a diagnostic with the key it
// resembles; the call is decided on the keys Copilot CLI reads.
func TestUnknownOutputKeysAreDiagnosed(t *testing.T) {
	h := pre(t, bash(`cat >/dev/null; echo '{"permissionDecision":"allow","modifiedArg":{"command":"x"}}'`))
	step := h.call(t, "bash", map[string]any{"command": "ls"})
	assert.False(t, step.Refused)
	assert.Equal(t, map[string]any{"command": "ls"}, step.Call.Arguments)
	assert.Contains(t, h.diag.text(), `printed the key "modifiedArg", which is not read: did you mean "modifiedArgs"?`)
}

// permissionRequest: exit 2 and behavior deny refuse; a later allow
// never undoes a deny; interrupt is not done (a diagnostic says so).
func TestPermissionRequest(t *testing.T) {
	settings := file(t, map[string][]map[string]any{"permissionRequest": {
		bash(`cat >/dev/null; echo '{"behavior":"deny","message":"not now","interrupt":true}'`),
		bash(`cat >/dev/null; echo '{"behavior":"allow"}'`),
	}})
	h := start(t, settings)
	step := h.call(t, "bash", nil)
	assert.True(t, step.Refused)
	assert.Equal(t, "not now", step.Reason)
	assert.Contains(t, h.diag.text(), "asked to interrupt the agent")

	h = start(t, file(t, map[string][]map[string]any{"permissionRequest": {bash(`cat >/dev/null; exit 2`)}}))
	assert.True(t, h.call(t, "bash", nil).Refused)
	h = start(t, file(t, map[string][]map[string]any{"permissionRequest": {bash(`cat >/dev/null; exit 1`)}}))
	assert.False(t, h.call(t, "bash", nil).Refused, "a failing permission hook is logged and skipped")
}

// agentStop's block sends the run on with its reason, at most
// StopContinuations times in a row.
func TestAgentStopContinuesBounded(t *testing.T) {
	h := start(t, file(t, map[string][]map[string]any{"agentStop": {bash(`cat >/dev/null; echo '{"decision":"block","reason":"run the tests"}'`)}}),
		copilotcli.StopContinuations(2))
	var sent int
	for range 4 {
		step, err := h.run.BeforeModelRequest(bg, hooks.ModelRequest{Messages: []hooks.Message{{Role: "user", Text: "x"}}})
		require.NoError(t, err)
		reply, err := h.run.AfterModelResponse(bg, step, hooks.ModelResponse{Text: "done"})
		require.NoError(t, err)
		if reply.Continue == "" {
			break
		}
		assert.Equal(t, "run the tests", reply.Continue)
		sent++
	}
	assert.Equal(t, 2, sent)
	assert.True(t, strings.Contains(h.diag.text(), "continuations in a row"), h.diag.text())
}

// A guard killed by a signal (a crash the input may cause) errored: the
// call is refused, as for any non-zero exit.
func TestACrashedGuardRefuses(t *testing.T) {
	for _, script := range []string{`cat >/dev/null; kill -SEGV $$`, `cat >/dev/null; kill -KILL $$`} {
		h := pre(t, bash(script))
		step := h.call(t, "bash", map[string]any{"command": "ls"})
		assert.True(t, step.Refused, "%s: %s", script, h.diag.text())
	}
}

// Cancelling the call stops a slow guard at once: the method returns the
// context's error, and no process is left.
func TestCancelStopsAGuard(t *testing.T) {
	h := pre(t, bash(`cat >/dev/null; sleep 30`))
	ctx, cancel := context.WithCancel(bg)
	cancel()
	_, err := h.run.BeforeToolExecute(ctx, hooks.ToolCall{Name: "bash"})
	assert.ErrorIs(t, err, context.Canceled)

	ctx, cancel = context.WithTimeout(bg, 300*time.Millisecond)
	defer cancel()
	began := time.Now()
	_, err = h.run.BeforeToolExecute(ctx, hooks.ToolCall{Name: "bash"})
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Less(t, time.Since(began), 10*time.Second)
}
