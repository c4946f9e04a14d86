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
// exactly, case included), and what it cannot have meant as an allow
// refuses: an unknown decision, no decision beside an unknown key, a
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
		{"only a key in another case", `{"Decision":"block"}`, true, "Tool call blocked: hook pre_tool_call#0 failed: printed no \"decision\"", `did you mean "decision"`},
		{"a typo of the key", `{"decison":"block"}`, true, "", `"decison" (did you mean "decision"?`},
		{"an allow with another key in another case", `{"decision":"allow","Decision":"block"}`, false, "", `unknown keys "Decision"`},
		{"an allow with a typo of reason", `{"decision":"allow","reasn":"fine"}`, false, "", `"reasn" (did you mean "reason"?`},
		{"deny, the word of other tools", `{"decision":"deny","reason":"no rm"}`, true, "no rm", `the decision "deny": read as "block"`},
		{"Block in capitals", `{"decision":"Block"}`, true, "refused by hook pre_tool_call#0", `"Block": read as "block"`},
		{"a typo of block", `{"decision":"blok"}`, true, `Tool call blocked: hook pre_tool_call#0 failed: printed the decision "blok" (did you mean "block"?)`, `(did you mean "block"?)`},
		{"a word no guard writes", `{"decision":"maybe"}`, true, "", `the decisions are "block" and "allow"`},
		{"a decision of another type", `{"decision":true}`, true, "", `decision: json: cannot unmarshal bool`},
		{"not an object", `"block"`, true, "", `not an object`},
		{"null", `null`, true, "", `not an object`},
		{"two values", `{"decision":"allow"} {"decision":"block"}`, true, "", `malformed JSON`},
		{"a block, then an allow", `{"decision":"block","reason":"x","decision":"allow"}`, true, "x", `printed "decision" 2 times`},
		{"an allow, then a block", `{"decision":"allow","decision":"block"}`, true, "", `printed "decision" 2 times`},
		{"an escaped key", `{"decision":"block","\u0064ecision":"allow"}`, true, "", `printed "decision" 2 times`},
		{"two allows", `{"decision":"allow","decision":"allow"}`, false, "", `printed "decision" 2 times`},
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

// A trust guard is read the same way: what it cannot have meant as an
// allow denies, whatever its policy.
func TestCommandTrustOutputIsReadExactly(t *testing.T) {
	for out, want := range map[string]hooks.TrustDecision{
		`{"decision":"deny"}`:                     hooks.Untrusted,
		`{"decision":"block","Decision":"allow"}`: hooks.Untrusted,
		`{"decison":"block"}`:                     hooks.Untrusted,
		`{"decision": block`:                      hooks.Untrusted,
		`{"decision":"allow","decision":"block"}`: hooks.Untrusted,
		`{"decision":"allow"}`:                    hooks.Ask,
		`{"decision":"allow","Decision":"block"}`: hooks.Ask, // as JSON.parse reads it, with a diagnostic
		``: hooks.Ask,
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

// Output that cannot be read as a decision (malformed, or past the cap)
// refuses the call under either policy: a guard's output is often built
// from the call (a reason quoting the command), so the model can make it
// unreadable, and that must not let the call through.
func TestCommandOutputThatCannotBeReadRefuses(t *testing.T) {
	for name, tc := range map[string]struct{ script, want string }{
		"malformed json": {"malformed.sh", "printed malformed JSON"},
		"over the cap":   {"flood.sh", "more than the 256 KiB a decision may take"},
	} {
		t.Run(name, func(t *testing.T) {
			for _, failClosed := range []bool{false, true} {
				var rec recorder
				run := start(t, &rec, commandHooks(t, with(entry("pre_tool_call", script(t, tc.script)), "failClosed", failClosed))...)
				res, err := run.CallTool(bg, shellCall("ls"), echoTool(&rec))
				require.NoError(t, err)
				assert.True(t, res.IsError, "failClosed %v", failClosed)
				assert.True(t, strings.HasPrefix(res.Text, "Tool call blocked: hook pre_tool_call#0 failed: "), res.Text)
				assert.Contains(t, res.Text, tc.want)
				assert.Empty(t, rec.got(), "the tool did not run")
				require.Len(t, rec.diagnostics(), 1)
				assert.Contains(t, rec.diagnostics()[0].Err.Error(), tc.script)
			}
		})
	}
}
