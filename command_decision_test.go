package hooks_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// printing is a guard entry whose command reads its envelope and prints
// text, exactly.
func printing(t *testing.T, event, text string) map[string]any {
	t.Helper()
	path := filepath.Join(t.TempDir(), "out")
	require.NoError(t, os.WriteFile(path, []byte(text), 0o600))
	return entry(event, "/bin/sh", "-c", `cat >/dev/null; cat "$1"`, "sh", path)
}

// decided runs one tool call past a guard that prints text, and returns
// whether it ran, what the model read, and the diagnostics.
func decided(t *testing.T, text string, failClosed bool) (ran bool, res hooks.ToolResult, diags []string) {
	t.Helper()
	var rec recorder
	run := start(t, &rec, commandHooks(t, with(printing(t, "pre_tool_call", text), "failClosed", failClosed))...)
	res, err := run.CallTool(context.Background(), shellCall("rm -rf /"), echoTool(&rec))
	require.NoError(t, err)
	for _, d := range rec.diagnostics() {
		assert.Equal(t, "pre_tool_call#0", d.Hook)
		diags = append(diags, d.Err.Error())
	}
	return len(rec.got()) > 0, res, diags
}

// What a guard prints is read as JSON.parse and a property read do (names
// exactly, case included). Seed 004's rule holds: what cannot be read is
// a failure, which fails open unless failClosed; but output that
// evidently refuses refuses under either policy, whatever else is wrong
// with it: a decision key, or a key within a typo of it, in any case,
// holding a refusal word or a typo of one, in malformed JSON too; a
// refusal among repeated decisions. Each case runs under both policies;
// refusedOpen is what happens without failClosed (with it, every case but
// a clean allow refuses).
func TestCommandGuardOutputIsReadExactly(t *testing.T) {
	for _, tc := range []struct {
		name, out   string
		refusedOpen bool
		reason      string // what the model reads when refused, "" for no check
		diag        string // a part of the one diagnostic, "" for none
	}{
		{"a key in another case after the decision", `{"decision":"block","Decision":"allow"}`, true, "", `unknown keys "Decision" (did you mean "decision"? names match exactly, case included)`},
		{"a key in another case before it", `{"Decision":"allow","decision":"block","reason":"no"}`, true, "no", `"Decision" (did you mean "decision"?`},
		{"only a key in another case", `{"Decision":"block"}`, true, "refused by hook pre_tool_call#0", `printed "Decision": "block": read as a refusal`},
		{"a typo of the key", `{"decison":"block"}`, true, "", `"decison" (did you mean "decision"?`},
		{"a typo of the key beside its reason", `{"decison":"deny","reason":"no rm"}`, true, "no rm", `"decison": "deny": read as a refusal`},
		{"an allow with a refusal in another case", `{"decision":"allow","Decision":"block"}`, true, "", `unknown keys "Decision"`},
		{"an allow with a typo of reason", `{"decision":"allow","reasn":"fine"}`, false, "", `"reasn" (did you mean "reason"?`},
		{"an allow beside an unknown key that is not a decision", `{"decision":"allow","verdict":"ok"}`, false, "", `unknown keys "verdict"`},
		{"a typo of the key holding an allow", `{"decison":"allow"}`, false, "", `"decison" (did you mean "decision"?`},
		{"deny, the word of other tools", `{"decision":"deny","reason":"no rm"}`, true, "no rm", `the decision "deny": read as "block"`},
		{"Block in capitals", `{"decision":"Block"}`, true, "refused by hook pre_tool_call#0", `"Block": read as "block"`},
		{"a refusal with words after it", `{"decision":"DENY: no rm"}`, true, "refused by hook pre_tool_call#0", `read as "block"`},
		{"a typo of block", `{"decision":"blok"}`, true, "refused by hook pre_tool_call#0", `"blok" (did you mean "block"?): read as "block"`},
		{"allow: false", `{"allow":false,"reason":"no rm"}`, true, "no rm", `"allow": false: read as a refusal`},
		{"block: true", `{"block":true}`, true, "", `"block": true: read as a refusal`},
		{"Claude Code's deny", `{"hookSpecificOutput":{"permissionDecision":"deny"}}`, true, "", `"permissionDecision": "deny": read as a refusal`},
		{"a refusal beside a reason of another type", `{"decision":"block","reason":404}`, true, "refused by hook pre_tool_call#0", `it says "decision": "block", so it refuses`},
		{"an allow beside a reason of another type", `{"decision":"allow","reason":404}`, false, "", `reason: json: cannot unmarshal number`},
		{"a word no guard writes", `{"decision":"maybe"}`, false, "", `the decisions are "block" and "allow"`},
		{"allow in capitals", `{"decision":"Allow"}`, false, "", `(did you mean "allow"?)`},
		{"a decision of another type", `{"decision":true}`, false, "", `decision: json: cannot unmarshal bool`},
		{"a bare refusal word", `"block"`, true, "refused by hook pre_tool_call#0", `printed "block" alone`},
		{"a bare refusal word, unquoted", "DENIED.\n", true, "", `printed "DENIED" alone`},
		{"not an object", `"fine"`, false, "", `not an object`},
		{"null", `null`, false, "", `not an object`},
		{"malformed JSON with a refusal", `{"decision": block`, true, "refused by hook pre_tool_call#0", `malformed JSON`},
		{"malformed JSON with a refusal and its reason", `{"decision":"block","reason":"refused "rm -rf /""}`, true, "refused ", `it says "decision": "block"`},
		{"a refusal after a broken reason", `{"reason":"x"y","decision":"deny"}`, true, "x", `it says "decision": "deny"`},
		{"Python's repr of a refusal", `{'decision': 'block', 'reason': 'no rm'}`, true, "no rm", `malformed JSON`},
		{"an escaped key in malformed JSON", `{"\u0064ecision":"block",}`, true, "", `it says "decision": "block"`},
		{"a refusal as JSON text in a string", `"{\"decision\":\"block\"}"`, true, "", `it says "decision": "block"`},
		{"malformed JSON without a refusal", `{"decision":"allow"`, false, "", `malformed JSON`},
		{"two values", `{"decision":"allow"} {"decision":"block"}`, true, "", `malformed JSON`},
		{"two allows, as two values", `{"decision":"allow"} {"decision":"allow"}`, false, "", `malformed JSON`},
		{"a block, then an allow", `{"decision":"block","reason":"x","decision":"allow"}`, true, "x", `printed "decision" 2 times`},
		{"an allow, then a block", `{"decision":"allow","decision":"block"}`, true, "", `printed "decision" 2 times`},
		{"an unknown value, then a refusal", `{"decision":"maybe","decision":"deny"}`, true, "", `printed "decision" 2 times`},
		{"an escaped key", `{"decision":"block","\u0064ecision":"allow"}`, true, "", `printed "decision" 2 times`},
		{"two allows", `{"decision":"allow","decision":"allow"}`, false, "", `printed "decision" 2 times`},
		{"an allow, then a value no guard writes", `{"decision":"allow","decision":"maybe"}`, false, "", `"maybe" is not a decision`},
		{"a block", `{"decision":"block","reason":"no rm"}`, true, "no rm", ""},
		{"an allow", `{"decision":"allow"}`, false, "", ""},
		{"approve", `{"decision":"approve"}`, false, "", ""},
		{"an empty object", `{}`, false, "", ""},
		{"a reason alone", `{"reason":"looked"}`, false, "", ""},
		{"nothing", ``, false, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, failClosed := range []bool{false, true} {
				ran, res, diags := decided(t, tc.out, failClosed)
				refused := tc.refusedOpen || failClosed && tc.diag != ""
				assert.Equal(t, !refused, ran, "failClosed %v: ran", failClosed)
				assert.Equal(t, refused, res.IsError, "failClosed %v: %s", failClosed, res.Text)
				if tc.refusedOpen && tc.reason != "" {
					assert.True(t, strings.HasPrefix(res.Text, tc.reason), "failClosed %v: %q", failClosed, res.Text)
				}
				if tc.diag == "" {
					assert.Empty(t, diags)
					continue
				}
				if assert.Len(t, diags, 1, "failClosed %v", failClosed) {
					assert.Contains(t, diags[0], tc.diag)
				}
			}
		})
	}
}

// An overlong reason is cut with a marker saying how long it was, never
// dropped; one under the bound reaches the model whole.
func TestCommandLongReasonIsCutWithAMarker(t *testing.T) {
	long := strings.Repeat("é", 100_000) // 200 KB, under the output cap
	_, res, diags := decided(t, fmt.Sprintf(`{"decision":"block","reason":"%s"}`, long), false)
	assert.True(t, res.IsError)
	assert.True(t, strings.HasPrefix(res.Text, strings.Repeat("é", 1000)), "the start of the reason")
	assert.True(t, strings.HasSuffix(res.Text, "… [cut: 200 KB]"), "%q", res.Text[len(res.Text)-40:])
	assert.Less(t, len(res.Text), 17<<10)
	assert.Empty(t, diags)

	_, res, _ = decided(t, `{"decision":"block","reason":"`+strings.Repeat("a", 10_000)+`"}`, false)
	assert.Equal(t, strings.Repeat("a", 10_000), res.Text)
}

// A trust guard is read the same way: what evidently refuses denies,
// whatever its policy; other output that cannot be read follows it.
func TestCommandTrustOutputIsReadExactly(t *testing.T) {
	for out, want := range map[string]hooks.TrustDecision{
		`{"decision":"deny"}`:                       hooks.Untrusted,
		`{"decision":"block","Decision":"allow"}`:   hooks.Untrusted,
		`{"decison":"block"}`:                       hooks.Untrusted,
		`{"decision": block`:                        hooks.Untrusted,
		`{"decision":"allow","decision":"block"}`:   hooks.Untrusted,
		`{"decision":"allow"}`:                      hooks.Ask,
		`{"decision":"allow","Decision":"block"}`:   hooks.Untrusted, // evidently a refusal, in another case
		`{"decision":"allow"`:                       hooks.Ask,       // malformed, no refusal: the policy's (fail open), with a diagnostic
		`{"decision":"maybe"}`:                      hooks.Ask,
		``:                                          hooks.Ask,
		`{"decision":"block","reason":"untrusted"}`: hooks.Untrusted,
		// Past the cap, even an allow cannot be read whole: a repeated key
		// after the cut could change it.
		`{"decision":"allow","reason":"` + strings.Repeat("x", 300_000) + `"}`: hooks.Untrusted,
	} {
		var rec recorder
		chain, err := hooks.NewChain(commandHooks(t, printing(t, "pre_trust_decision", out)), hooks.WithDiagnostics(rec.diagnose))
		require.NoError(t, err)
		got, err := chain.DecideTrust(context.Background(), hooks.Host{}, hooks.TrustRequest{Path: t.TempDir(), Decision: hooks.Ask})
		require.NoError(t, err)
		assert.Equal(t, want, got, "%.60s", out)
	}
}

// An advisory command that prints past the cap is not killed for it: its
// first 256 KiB are logged, the last line kept ends with a marker, and
// the overflow is a diagnostic.
func TestAdvisoryOutputPastTheCapIsLoggedAndCut(t *testing.T) {
	var rec recorder
	var mu sync.Mutex
	var logs []string
	host := hooks.Host{Log: func(hook, line string) {
		mu.Lock()
		defer mu.Unlock()
		logs = append(logs, line)
	}}
	body := `cat >/dev/null; i=0; while [ $i -lt 30000 ]; do echo "line $i of a chatty hook"; i=$((i+1)); done`
	startWith(t, &rec, host, commandHooks(t, entry("session_start", "/bin/sh", "-c", body))...)
	mu.Lock()
	defer mu.Unlock()
	require.NotEmpty(t, logs)
	assert.Equal(t, "line 0 of a chatty hook", logs[0])
	assert.Regexp(t, `… \[cut: \d+ KB\]$`, logs[len(logs)-1])
	assert.Less(t, len(logs), 30000)
	require.Len(t, rec.diagnostics(), 1)
	assert.ErrorIs(t, rec.diagnostics()[0].Err, hooks.ErrCommandOutputTooLarge)
	assert.Contains(t, rec.diagnostics()[0].Err.Error(), "the log has its first 256 KiB")
}

// Output past the cap refuses the call under either policy: a guard's
// output is often built from the call (a reason quoting the command), so
// the model chooses its size. Malformed output that says refuse
// (malformed.sh prints {"decision": block) refuses under either policy
// too; malformed output that does not follows the policy (seed 004): a
// diagnostic and the call goes on, or refused under failClosed.
func TestCommandOutputThatCannotBeReadRefusesOrFollowsThePolicy(t *testing.T) {
	for name, tc := range map[string]struct {
		script, want string
		refusedOpen  bool
		reason       string
	}{
		"over the cap":              {"flood.sh", "more than the 256 KiB a decision may take", true, "Tool call blocked: hook pre_tool_call#0 failed: "},
		"malformed, with a refusal": {"malformed.sh", "printed malformed JSON", true, "refused by hook pre_tool_call#0"},
		"malformed, without":        {"garbled.sh", "printed malformed JSON", false, "Tool call blocked: hook pre_tool_call#0 failed: "},
	} {
		t.Run(name, func(t *testing.T) {
			for _, failClosed := range []bool{false, true} {
				var rec recorder
				run := start(t, &rec, commandHooks(t, with(entry("pre_tool_call", script(t, tc.script)), "failClosed", failClosed))...)
				res, err := run.CallTool(bg, shellCall("ls"), echoTool(&rec))
				require.NoError(t, err)
				refused := tc.refusedOpen || failClosed
				assert.Equal(t, refused, res.IsError, "failClosed %v: %s", failClosed, res.Text)
				assert.Equal(t, refused, len(rec.got()) == 0, "failClosed %v: the tool ran", failClosed)
				if refused {
					assert.True(t, strings.HasPrefix(res.Text, tc.reason), res.Text)
				}
				require.Len(t, rec.diagnostics(), 1)
				assert.Contains(t, rec.diagnostics()[0].Err.Error(), tc.script)
				assert.Contains(t, rec.diagnostics()[0].Err.Error(), tc.want)
			}
		})
	}
}
