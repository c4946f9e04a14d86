package codex_test

import (
	"strings"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/hooktest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// What a PreToolUse handler prints (or how it ends) and what it decides:
// Codex's reading where it decides, and the safer reading where Codex
// would run a call its guard refused (docs/codex.md).
func TestPreToolUseDecisions(t *testing.T) {
	const reason = "do not run that"
	deny := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"` + reason + `"}}`
	cases := []struct {
		name    string
		script  string
		refused string // "": the call runs
		args    map[string]any
		diags   int
	}{
		{name: "nothing", script: "true"},
		{name: "plain text", script: printf("looks fine")},
		{name: "documented deny", script: printf(deny), refused: reason},
		{name: "legacy block", script: printf(`{"decision":"block","reason":"` + reason + `"}`), refused: reason},
		{name: "exit 2 with stderr", script: "printf '" + reason + "' >&2; exit 2", refused: reason},
		{name: "exit 2 without stderr refuses here", script: "exit 2", refused: "blocked by Codex hook PreToolUse[0].hooks[0] (exit 2)", diags: 1},
		{name: "allow without updatedInput decides nothing", script: printf(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`), diags: 1},
		{name: "approve decides nothing", script: printf(`{"decision":"approve"}`), diags: 1},
		{name: "an allow quoting deny stays an allow", script: printf(`{"decision":"approve","reason":"echo deny"}`), diags: 1},
		{name: "rewrite", script: printf(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"text":"safe"},"permissionDecisionReason":"deny nothing"}}`), args: map[string]any{"text": "safe"}},
		{name: "updatedInput without allow", script: printf(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"text":"x"}}}`), diags: 1},
		{name: "exit 1", script: "exit 1", diags: 1},
		{name: "Deny in another case", script: printf(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"Deny","permissionDecisionReason":"x"}}`), refused: "refused by Codex hook PreToolUse[0].hooks[0]", diags: 1},
		{name: "DENY", script: printf(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"DENY","permissionDecisionReason":"x"}}`), refused: "refused by Codex hook PreToolUse[0].hooks[0]", diags: 1},
		{name: "deny with an unknown key", script: printf(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"x"},"note":1}`), refused: "refused by Codex hook PreToolUse[0].hooks[0]", diags: 1},
		{name: "deny without hookEventName", script: printf(`{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"x"}}`), refused: "refused by Codex hook PreToolUse[0].hooks[0]", diags: 1},
		{name: "deny without reason", script: printf(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}`), refused: "refused by Codex hook PreToolUse[0].hooks[0]", diags: 1},
		{name: "deny and an allow in another case", script: printf(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","PermissionDecision":"allow","permissionDecisionReason":"x"}}`), refused: "refused by Codex hook PreToolUse[0].hooks[0]", diags: 1},
		{name: "deny broken by a quote", script: printf(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"rm "x""}}`), refused: "refused by Codex hook PreToolUse[0].hooks[0]", diags: 1},
		{name: "deny then a crash", script: printf(deny) + "; exit 1", refused: "refused by Codex hook PreToolUse[0].hooks[0]", diags: 1},
		{name: "key repeated: the last wins", script: printf(`{"decision":"approve","decision":"block","reason":"` + reason + `"}`), refused: reason},
		{name: "a JSON list quoting deny", script: printf(`["deny"]`), diags: 1},
		{name: "an escaped deny is a deny", script: printf(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"\u0064eny","permissionDecisionReason":"` + reason + `"}}`), refused: reason},
		{name: "a look-alike deny", script: printf(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"dеny","permissionDecisionReason":"x"}}`), refused: "refused by Codex hook PreToolUse[0].hooks[0]", diags: 1},
		{name: "a reason of the wrong type", script: printf(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":7}}`), refused: "refused by Codex hook PreToolUse[0].hooks[0]", diags: 1},
		{name: "plain text deny alone", script: printf("deny"), refused: "refused by Codex hook PreToolUse[0].hooks[0]", diags: 1},
		{name: "plain text key=value", script: printf("decision=block"), refused: "refused by Codex hook PreToolUse[0].hooks[0]", diags: 1},
		{name: "a deny inside a JSON string", script: printf(`"{\"permissionDecision\":\"deny\"}"`), refused: "refused by Codex hook PreToolUse[0].hooks[0]", diags: 1},
		{name: "continue false is unsupported", script: printf(`{"continue":false}`), diags: 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := harness(t, guard("Bash", tc.script))
			out := h.ToolCall(hooks.ToolCall{ID: "1", Name: "Bash", Arguments: map[string]any{"text": "hi"}}, hooks.ToolResult{Text: "ran"})
			switch {
			case tc.refused != "":
				require.False(t, out.Ran, "%s", out)
				assert.Contains(t, out.Result.Text, tc.refused)
			case tc.args != nil:
				out.RequireArguments(t, tc.args)
			default:
				out.RequireAllowed(t)
				out.RequireArguments(t, map[string]any{"text": "hi"})
			}
			h.RequireDiagnostics(t, tc.diags)
		})
	}
}

// A deny printed before a timeout refuses: the timeout may be the
// model's doing (a call that makes the guard hang after it decided).
func TestADenyBeforeATimeoutRefuses(t *testing.T) {
	deny := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`
	settings := strings.Replace(guard("Bash", printf(deny)+"; sleep 60"), `"timeout":10`, `"timeout":3`, 1)
	h := harness(t, settings)
	out := h.Tool("Bash", nil)
	require.False(t, out.Ran)
	assert.Contains(t, out.Result.Text, "refused by Codex hook PreToolUse[0].hooks[0]")
	require.Len(t, h.Diagnostics(), 1)
	assert.Contains(t, h.Diagnostics()[0].Err.Error(), "timed out")
}

// permissionDecision "ask" is a failed hook in Codex (the call runs);
// here the person is asked, and a no refuses.
func TestAskAsksThePerson(t *testing.T) {
	ask := guard("Bash", printf(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"pushes to main"}}`))
	for _, yes := range []bool{false, true} {
		h := harnessWith(t, hooktest.Options{Answers: []bool{yes}, Host: hooks.Host{Env: hermetic(t.TempDir())}}, ask)
		out := h.Tool("Bash", map[string]any{"command": "git push"})
		require.Len(t, h.Prompts(), 1)
		assert.Contains(t, h.Prompts()[0].Body, "pushes to main")
		if yes {
			out.RequireAllowed(t)
		} else {
			require.False(t, out.Ran)
			assert.Contains(t, out.Result.Text, "not approved")
		}
	}
}

// Matching handlers start at once (Codex); a refusal by any refuses,
// whatever the order; two rewrites that differ refuse the call (Codex
// keeps whichever finished last); the same rewrite twice applies; a
// rewrite is shown to the other handlers before it runs.
func TestConcurrentHandlersDecideDeterministically(t *testing.T) {
	rewrite := func(text string) string {
		return `{"type":"command","command":` + quote(printf(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"text":"`+text+`"}}}`)) + `}`
	}
	denyLate := `{"type":"command","command":` + quote("sleep 0.2; printf no >&2; exit 2") + `}`
	settings := func(hs ...string) string {
		return `{"hooks":{"PreToolUse":[{"hooks":[` + strings.Join(hs, ",") + `]}]}}`
	}
	h := harness(t, settings(rewrite("a"), denyLate))
	h.Tool("Bash", map[string]any{"text": "x"}).RequireRefused(t, "no")
	h = harness(t, settings(denyLate, rewrite("a")))
	h.Tool("Bash", map[string]any{"text": "x"}).RequireRefused(t, "no")

	h = harness(t, settings(rewrite("a"), rewrite("b")))
	out := h.Tool("Bash", map[string]any{"text": "x"})
	require.False(t, out.Ran)
	assert.Contains(t, out.Result.Text, "rewrote the call's input differently")

	h = harness(t, settings(rewrite("a"), rewrite("a")))
	h.Tool("Bash", map[string]any{"text": "x"}).RequireArguments(t, map[string]any{"text": "a"})

	// A guard that let the original through is shown the rewrite before it
	// runs: Codex would run "rm" unseen by the guard that refuses it.
	guardRm := `{"type":"command","command":` + quote(`jq -e '.tool_input.text == "rm"' >/dev/null && { echo 'no rm' >&2; exit 2; }; exit 0`) + `}`
	h = harness(t, settings(guardRm, rewrite("rm")))
	h.Tool("Bash", map[string]any{"text": "ls"}).RequireRefused(t, "no rm")
	h = harness(t, settings(guardRm, rewrite("pwd")))
	h.Tool("Bash", map[string]any{"text": "ls"}).RequireArguments(t, map[string]any{"text": "pwd"})
}
