package cursor_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/cursor"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func shellGuard(t *testing.T, entry map[string]any) *harness {
	t.Helper()
	return start(t, file(t, map[string][]map[string]any{"beforeShellExecution": {entry}}))
}

func printing(out string) map[string]any { return cmd("cat >/dev/null; printf '%s' " + quote(out)) }

// Exit 2 denies (stderr the reason); any other failure lets the call run
// unless the entry says failClosed; a timeout is a failure.
func TestExitCodesAndFailClosed(t *testing.T) {
	h := shellGuard(t, cmd(`cat >/dev/null; echo "no rm" >&2; exit 2`))
	step := h.call(t, "shell", map[string]any{"command": "rm x"})
	assert.True(t, step.Refused)
	assert.Equal(t, "no rm", step.Reason)

	h = shellGuard(t, cmd(`cat >/dev/null; exit 1`))
	assert.False(t, h.call(t, "shell", map[string]any{"command": "ls"}).Refused)
	assert.Contains(t, h.diag.text(), "exited 1")

	closed := cmd(`cat >/dev/null; exit 1`)
	closed["failClosed"] = true
	h = shellGuard(t, closed)
	step = h.call(t, "shell", map[string]any{"command": "ls"})
	assert.True(t, step.Refused)
	assert.Contains(t, step.Reason, "fails closed")

	slow := cmd(`cat >/dev/null; sleep 5`)
	slow["timeout"] = 0.2
	h = shellGuard(t, slow)
	assert.False(t, h.call(t, "shell", map[string]any{"command": "ls"}).Refused)
	slow["failClosed"] = true
	h = shellGuard(t, slow)
	assert.True(t, h.call(t, "shell", map[string]any{"command": "ls"}).Refused)

	// A deny printed before a timeout denies, failClosed or not.
	deny := cmd(`cat >/dev/null; echo '{"permission":"deny"}'; sleep 5`)
	deny["timeout"] = 1.5
	h = shellGuard(t, deny)
	assert.True(t, h.call(t, "shell", map[string]any{"command": "ls"}).Refused, h.diag.text())
}

// What the model shapes (a quote breaking the JSON, another case, a
// repeated key) never turns a deny into an allow; a reason quoting
// "deny" stays an allow.
func TestShapedDeniesStillDeny(t *testing.T) {
	for _, out := range []string{
		`{"permission":"deny","agent_message":"blocked "rm" here"}`,
		`{"permission":"Deny"}`,
		`{"Permission":"deny"}`,
		`{"permision":"deny"}`,
		`{"permission":["deny"]}`,
		`{"permission":"allow","permission":"deny"}`,
		`{"permission":"deny","permission":"allow"}`,
		`{"permission":"allow","continue":false}`,
		`permission: deny`,
	} {
		h := shellGuard(t, printing(out))
		assert.True(t, h.call(t, "shell", map[string]any{"command": "x"}).Refused, "%s: %s", out, h.diag.text())
	}
	for _, out := range []string{
		`{"permission":"allow","agent_message":"the user said deny"}`,
		`{"permission":"allow","user_message":"{\"permission\":\"deny\"}"}`,
		``,
		`{}`,
	} {
		h := shellGuard(t, printing(out))
		assert.False(t, h.call(t, "shell", map[string]any{"command": "x"}).Refused, "%s: %s", out, h.diag.text())
	}
}

// Output past the cap refuses: the model controls its size.
func TestOversizedOutputRefuses(t *testing.T) {
	h := shellGuard(t, cmd(`cat >/dev/null; head -c 400000 /dev/zero | tr '\0' a; echo '{"permission":"allow"}'`))
	step := h.call(t, "shell", map[string]any{"command": "x"})
	assert.True(t, step.Refused)
	assert.Contains(t, step.Reason, "too large")
}

// A shell tool whose command is not a string cannot be shown to the
// guard: the call is refused. A read whose file is larger than the hook
// can be shown, or not a regular file, is refused.
func TestWhatAGuardCannotSeeIsRefused(t *testing.T) {
	h := shellGuard(t, cmd(`cat >/dev/null`))
	assert.True(t, h.call(t, "shell", map[string]any{"command": []any{"rm", "-rf", "/"}}).Refused)
	assert.True(t, h.call(t, "shell", map[string]any{"cmd": "rm -rf /"}).Refused)

	h = start(t, file(t, map[string][]map[string]any{"beforeReadFile": {cmd(`cat >/dev/null`)}}))
	big := filepath.Join(h.dir, "big")
	require.NoError(t, os.WriteFile(big, make([]byte, cursor.MaxReadContent+1), 0o600))
	assert.True(t, h.call(t, "read", map[string]any{"file_path": big}).Refused)
	assert.True(t, h.call(t, "read", map[string]any{"file_path": "/dev/zero"}).Refused)
	assert.True(t, h.call(t, "read", map[string]any{"offset": 3}).Refused)
	assert.False(t, h.call(t, "read", map[string]any{"file_path": "missing.txt"}).Refused, "the tool fails on it itself")
}

// Tool-name matchers: plain names are exact (case set aside, with a
// diagnostic); a shell event's matcher is a regular expression the
// command is tested against.
func TestMatchers(t *testing.T) {
	deny := `cat >/dev/null; echo '{"permission":"deny"}'`
	cases := []struct {
		event, matcher, tool string
		args                 map[string]any
		refused              bool
	}{
		{"preToolUse", "shell", "shell", nil, true},
		{"preToolUse", "Shell", "shell", nil, true},
		{"preToolUse", "shel", "shell", nil, false},
		{"preToolUse", "read|shell", "shell", nil, true},
		{"preToolUse", "sh.*", "shell", nil, true},
		{"beforeShellExecution", "git", "shell", map[string]any{"command": "git push"}, true},
		{"beforeShellExecution", "git", "shell", map[string]any{"command": "ls"}, false},
		{"beforeMCPExecution", "db_query", "db_query", nil, true},
		{"beforeMCPExecution", "db_query", "shell", map[string]any{"command": "x"}, false},
	}
	for _, tc := range cases {
		e := cmd(deny)
		e["matcher"] = tc.matcher
		h := start(t, file(t, map[string][]map[string]any{tc.event: {e}}))
		args := tc.args
		if args == nil {
			args = map[string]any{"command": "x"}
		}
		assert.Equal(t, tc.refused, h.call(t, tc.tool, args).Refused, "%s %q on %s", tc.event, tc.matcher, tc.tool)
	}
	_, err := cursor.Hooks(file(t, map[string][]map[string]any{"preToolUse": {{"command": "x", "matcher": "(unclosed"}}}))
	assert.ErrorContains(t, err, "hooks.preToolUse[0].matcher")
}

// updated_input replaces the call (preToolUse) or its command
// (beforeShellExecution); one that is not an object refuses.
func TestUpdatedInput(t *testing.T) {
	h := start(t, file(t, map[string][]map[string]any{"preToolUse": {printing(`{"permission":"allow","updated_input":{"command":"ls -l"}}`)}}))
	step := h.call(t, "shell", map[string]any{"command": "rm -rf /"})
	require.False(t, step.Refused, h.diag.text())
	assert.Equal(t, map[string]any{"command": "ls -l"}, step.Call.Arguments)

	h = shellGuard(t, printing(`{"permission":"allow","updated_input":{"command":"ls -l"}}`))
	step = h.call(t, "shell", map[string]any{"command": "rm -rf /", "timeout": 5.0})
	assert.Equal(t, map[string]any{"command": "ls -l", "timeout": 5.0}, step.Call.Arguments)

	h = shellGuard(t, printing(`{"permission":"allow","updated_input":"ls"}`))
	assert.True(t, h.call(t, "shell", map[string]any{"command": "rm -rf /"}).Refused)
}

// stop's followup_message sends the run on while loop_count is under the
// entry's loop_limit (default 5; null: no limit).
func TestStopFollowupBoundedByLoopLimit(t *testing.T) {
	count := func(limit any) (int, string) {
		e := cmd(`cat > last-stop.json; echo '{"followup_message":"keep going"}'`)
		if limit != "default" {
			e["loop_limit"] = limit
		}
		h := start(t, file(t, map[string][]map[string]any{"stop": {e}}))
		sent := 0
		for range 8 {
			step, err := h.run.BeforeModelRequest(bg, hooks.ModelRequest{Messages: []hooks.Message{{Role: "user", Text: "x"}}})
			require.NoError(t, err)
			reply, err := h.run.AfterModelResponse(bg, step, hooks.ModelResponse{Text: "done"})
			require.NoError(t, err)
			if reply.Continue == "" {
				break
			}
			assert.Equal(t, "keep going", reply.Continue)
			sent++
		}
		data, _ := os.ReadFile(filepath.Join(h.dir, "last-stop.json"))
		return sent, string(data)
	}
	n, last := count(2)
	assert.Equal(t, 2, n)
	assert.Contains(t, last, `"loop_count":2`)
	assert.Contains(t, last, `"status":"completed"`)
	n, _ = count("default")
	assert.Equal(t, cursor.DefaultLoopLimit, n)
	n, _ = count(nil)
	assert.Equal(t, 8, n, "null: no limit (the test stops at 8)")
}

// beforeSubmitPrompt's continue false, or exit 2, ends the run with the
// user_message before the model is called.
func TestBeforeSubmitPromptBlocks(t *testing.T) {
	for _, e := range []map[string]any{
		printing(`{"continue":false,"user_message":"no secrets in prompts"}`),
		cmd(`cat >/dev/null; echo "no secrets in prompts" >&2; exit 2`),
	} {
		h := start(t, file(t, map[string][]map[string]any{"beforeSubmitPrompt": {e}}))
		step, err := h.run.BeforeModelRequest(bg, hooks.ModelRequest{Messages: []hooks.Message{{Role: "user", Text: "my key is x"}}})
		require.NoError(t, err)
		require.NotNil(t, step.End, h.diag.text())
		assert.Equal(t, "no secrets in prompts", step.End.Output)
	}
}

// Strict reading: errors name the entry; unsupported events load with a
// diagnostic.
func TestSettingsErrors(t *testing.T) {
	cases := map[string]string{
		`{"version":1,"hooks":{"stop":[{"command":"x","loop_limt":3}]}}`:                     `hooks.stop[0].loop_limt: unknown key; did you mean "loop_limit"?`,
		`{"version":1,"hooks":{"beforeShellExecution":[{"command":"x","failclosed":true}]}}`: `did you mean "failClosed"?`,
		`{"version":1,"hooks":{"beforeShellExecutions":[{"command":"x"}]}}`:                  `hooks.beforeShellExecutions: unknown event; did you mean "beforeShellExecution"?`,
		`{"version":1,"hooks":{"stop":[{"command":"x","loop_limit":-1}]}}`:                   `hooks.stop[0].loop_limit: must be a whole number`,
		`{"version":1,"hooks":{"afterFileEdit":[{"command":"x","loop_limit":1}]}}`:           `hooks.afterFileEdit[0].loop_limit: is only for stop entries`,
		`{"version":1,"hooks":{"stop":[{"command":""}]}}`:                                    `hooks.stop[0].command: must be a non-empty command`,
		`{"version":1,"hooks":{"stop":[{"command":"x","timeout":0}]}}`:                       `hooks.stop[0].timeout: must be a positive number of seconds`,
		`{"hooks":{}}`:             `version: missing`,
		`{"version":2,"hooks":{}}`: `version: must be 1`,
	}
	for in, want := range cases {
		_, err := cursor.Hooks([]byte(in))
		assert.ErrorContains(t, err, want, in)
	}
	d := &diags{}
	hs, err := cursor.Hooks([]byte(`{"version":1,"hooks":{"afterTabFileEdit":[{"command":"x"}],"stop":[{"type":"prompt","prompt":"done?"}]}}`), cursor.Diagnostics(d.add))
	require.NoError(t, err)
	assert.Empty(t, hs)
	assert.Contains(t, d.text(), `event "afterTabFileEdit" not run by this library`)
	assert.Contains(t, d.text(), "a prompt hook")
	assert.True(t, strings.Count(d.text(), "\n") >= 1)
}

// Cancelling the call stops a slow guard at once.
func TestCancelStopsAGuard(t *testing.T) {
	h := shellGuard(t, cmd(`cat >/dev/null; sleep 30`))
	ctx, cancel := context.WithTimeout(bg, 300*time.Millisecond)
	defer cancel()
	began := time.Now()
	_, err := h.run.BeforeToolExecute(ctx, hooks.ToolCall{Name: "shell", Arguments: map[string]any{"command": "ls"}})
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Less(t, time.Since(began), 10*time.Second)
}

// A deny quoted in a reason, or a reason that is the word alone, stays an
// allow.
func TestAReasonSayingDenyIsNoDeny(t *testing.T) {
	for _, out := range []string{`{"permission":"allow","agent_message":"deny"}`, `{"permission":"allow","user_message":"permission: deny"}`} {
		h := shellGuard(t, printing(out))
		assert.False(t, h.call(t, "shell", map[string]any{"command": "x"}).Refused, out)
	}
}

// A message quoting a huge input is cut for the model.
func TestAHugeMessageIsCut(t *testing.T) {
	h := shellGuard(t, cmd(`cat >/dev/null; printf '{"permission":"deny","agent_message":"%s"}' "$(head -c 100000 /dev/zero | tr '\0' a)"`))
	step := h.call(t, "shell", map[string]any{"command": "x"})
	require.True(t, step.Refused)
	assert.Less(t, len(step.Reason), 17<<10)
	assert.Contains(t, step.Reason, "[…cut: 100000 bytes in all]")
}

// The shell guard is shown where the command will run: the call's cwd.
func TestShellGuardSeesTheCallsCwd(t *testing.T) {
	needJQ(t)
	h := shellGuard(t, cmd(`jq -r .cwd > seen-cwd`))
	h.call(t, "shell", map[string]any{"command": "ls", "cwd": "sub"})
	data, err := os.ReadFile(filepath.Join(h.dir, "seen-cwd"))
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(h.dir, "sub")+"\n", string(data))
}
