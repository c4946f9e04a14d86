package copilotcli_test

import (
	"os/exec"
	"testing"
	"time"

	"github.com/rienda/hooks/copilotcli"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A permissionDecision that is none of allow, deny, ask (a value the
// guard means but Copilot CLI does not spell, "prompt", "no", "allow "
// with a space) cannot be understood: the call is refused, never run.
// Where the top-level and the VS Code decision differ, the stricter one
// decides: an "ask" beside a hookSpecificOutput "allow" still asks.
func TestAnUnknownDecisionNeverAllows(t *testing.T) {
	for _, out := range []string{
		`{"permissionDecision":"prompt"}`,
		`{"permissionDecision":"no"}`,
		`{"permissionDecision":"allow "}`,
		`{"permissionDecision":"ALLOW"}`,
		`{"permissionDecision":"","hookSpecificOutput":{"permissionDecision":"nope"}}`,
		`{"hookSpecificOutput":{"permissionDecision":"maybe"}}`,
	} {
		h := pre(t, bash("cat >/dev/null; printf '%s' "+quote(out)))
		step := h.call(t, "bash", map[string]any{"command": "ls"})
		assert.True(t, step.Refused, "%s ran; diagnostics: %s", out, h.diag.text())
	}
	// ask beside an allow asks: the host here approves nothing.
	h := pre(t, bash("cat >/dev/null; printf '%s' "+quote(`{"permissionDecision":"ask","hookSpecificOutput":{"permissionDecision":"allow"}}`)))
	assert.True(t, h.call(t, "bash", map[string]any{"command": "ls"}).Refused, h.diag.text())
	h = pre(t, bash("cat >/dev/null; printf '%s' "+quote(`{"permissionDecision":"allow","hookSpecificOutput":{"permissionDecision":"ask"}}`)))
	assert.True(t, h.call(t, "bash", map[string]any{"command": "ls"}).Refused, h.diag.text())
	// Plain allows still allow.
	for _, out := range []string{`{"permissionDecision":"allow"}`, `{}`, ``, `{"permissionDecision":"allow","permissionDecisionReason":"not a deny"}`} {
		h := pre(t, bash("cat >/dev/null; printf '%s' "+quote(out)))
		assert.False(t, h.call(t, "bash", map[string]any{"command": "ls"}).Refused, "%s: %s", out, h.diag.text())
	}
}

// A deny in an encoding the host does not read as UTF-8 text (UTF-16
// with or without its byte order mark, a UTF-8 byte order mark, NULs
// between the characters) is still evidently a deny.
func TestADenyInAnotherEncodingStillDenies(t *testing.T) {
	for name, script := range map[string]string{
		"utf-16le bom": `printf '{"permissionDecision":"deny"}' | iconv -f UTF-8 -t UTF-16`,
		"utf-16le":     `printf '{"permissionDecision":"deny"}' | iconv -f UTF-8 -t UTF-16LE`,
		"utf-16be":     `printf '{"permissionDecision":"deny"}' | iconv -f UTF-8 -t UTF-16BE`,
		"utf-8 bom":    `printf '\xef\xbb\xbf{"permissionDecision":"deny"}'`,
		"nul inside":   `printf '{"permissionDecision":"de\0ny"}'`,
	} {
		h := pre(t, bash("cat >/dev/null; "+script))
		assert.True(t, h.call(t, "bash", map[string]any{"command": "ls"}).Refused, "%s: %s", name, h.diag.text())
	}
}

// A matcher pattern that matches no tool of the run ("bas.h", a NUL
// after the name) is a guard that never runs: the linter says so, and a
// pattern that matches a tool is no problem.
func TestAPatternThatMatchesNoToolIsAProblem(t *testing.T) {
	entry := func(matcher string) []byte {
		return file(t, map[string][]map[string]any{"preToolUse": {{"type": "command", "bash": "exit 2", "matcher": matcher}}})
	}
	for _, m := range []string{"bas.h", "bash\x00", "bash\\b.+"} {
		problems, err := copilotcli.CheckToolNames(entry(m), []string{"bash", "edit"})
		require.NoError(t, err)
		assert.Len(t, problems, 1, "%q", m)
	}
	for _, m := range []string{"ba.h", "[b]ash", "^bash$", "edit|bash"} {
		problems, err := copilotcli.CheckToolNames(entry(m), []string{"bash", "edit"})
		require.NoError(t, err)
		assert.Empty(t, problems, "%q", m)
	}
}

// An entry's modifiedArgs never carry a call past an earlier entry that
// refuses it: the earlier entries see the call as rewritten before it
// runs. Rewrites that do not settle on one call refuse it; a rewrite the
// earlier entries accept runs.
func TestARewriteNeverPassesAnEarlierGuard(t *testing.T) {
	guardRm := bash(`grep -q 'rm -rf' && echo '{"permissionDecision":"deny","permissionDecisionReason":"no rm"}'; true`)
	rewrite := func(cmd string) map[string]any {
		return bash(`cat >/dev/null; echo '{"modifiedArgs":{"command":"` + cmd + `"}}'`)
	}
	h := start(t, file(t, map[string][]map[string]any{"preToolUse": {guardRm, rewrite("rm -rf /")}}))
	step := h.call(t, "bash", map[string]any{"command": "ls"})
	assert.True(t, step.Refused, "a later entry's rewrite ran past the guard: %+v", step.Call)
	assert.Contains(t, step.Reason, "no rm")

	// Two rewrites that disagree: the call that would run cannot be known.
	h = start(t, file(t, map[string][]map[string]any{"preToolUse": {rewrite("ls -a"), rewrite("ls -l")}}))
	assert.True(t, h.call(t, "bash", map[string]any{"command": "ls"}).Refused)

	// A rewrite the earlier guard accepts runs, as rewritten.
	h = start(t, file(t, map[string][]map[string]any{"preToolUse": {guardRm, rewrite("ls -l")}}))
	step = h.call(t, "bash", map[string]any{"command": "ls"})
	require.False(t, step.Refused, step.Reason)
	assert.Equal(t, map[string]any{"command": "ls -l"}, step.Call.Arguments)
}

// A guard that leaves a process behind holding its stdout (in its group,
// or escaped with setsid) returns when the guard exits, and its deny
// stands; an allow from such a guard does not hang the call either.
func TestAGrandchildHoldingStdoutNeitherHangsNorAllows(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid")
	}
	for _, script := range []string{
		`cat >/dev/null; sleep 30 & echo '{"permissionDecision":"deny","permissionDecisionReason":"no"}'`,
		`cat >/dev/null; setsid sleep 30 & echo '{"permissionDecision":"deny","permissionDecisionReason":"no"}'`,
		`cat >/dev/null; echo '{"permissionDecision":"deny","permissionDecisionReason":"no"}'; exec setsid sleep 30`,
	} {
		entry := bash(script)
		entry["timeoutSec"] = 2
		h := pre(t, entry)
		begin := time.Now()
		step := h.call(t, "bash", map[string]any{"command": "ls"})
		assert.True(t, step.Refused, "%s: %s", script, h.diag.text())
		assert.Less(t, time.Since(begin), 20*time.Second, script)
	}
}
