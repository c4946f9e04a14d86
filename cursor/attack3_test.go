package cursor_test

import (
	"testing"

	"github.com/rienda/hooks/cursor"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A permission that is none of allow, deny, ask ("prompt", "no",
// "allow " with a space, a number) cannot be understood: the call is
// refused, never run on a guess. Allows still allow.
func TestAnUnknownPermissionNeverAllows(t *testing.T) {
	for _, out := range []string{
		`{"permission":"prompt"}`,
		`{"permission":"no"}`,
		`{"permission":"allow "}`,
		`{"permission":"ALLOW"}`,
		`{"permission":0}`,
		`{"permission":null,"permission":"nope"}`,
	} {
		h := shellGuard(t, printing(out))
		step := h.call(t, "shell", map[string]any{"command": "ls"})
		assert.True(t, step.Refused, "%s ran; diagnostics: %s", out, h.diag.text())
	}
	for _, out := range []string{`{"permission":"allow"}`, `{}`, ``, `{"permission":"allow","agent_message":"permission: deny was considered"}`} {
		h := shellGuard(t, printing(out))
		assert.False(t, h.call(t, "shell", map[string]any{"command": "ls"}).Refused, "%s: %s", out, h.diag.text())
	}
}

// A deny a Windows tool printed in UTF-16 still denies.
func TestACursorDenyInUTF16StillDenies(t *testing.T) {
	h := shellGuard(t, cmd(`cat >/dev/null; printf '{"permission":"deny"}' | iconv -f UTF-8 -t UTF-16`))
	assert.True(t, h.call(t, "shell", map[string]any{"command": "ls"}).Refused, h.diag.text())
}

// A preToolUse matcher pattern that matches no tool of the run is a
// guard that never runs: the linter says so.
func TestACursorPatternThatMatchesNoToolIsAProblem(t *testing.T) {
	entry := func(matcher string) []byte {
		return file(t, map[string][]map[string]any{"preToolUse": {{"command": "exit 2", "matcher": matcher}}})
	}
	for _, m := range []string{"Shel.l", "^shell$x"} {
		problems, err := cursor.CheckToolNames(entry(m), []string{"shell", "read"}, tools...)
		require.NoError(t, err)
		assert.Len(t, problems, 1, "%q", m)
	}
	for _, m := range []string{"she.l", "^read$", "shell|read"} {
		problems, err := cursor.CheckToolNames(entry(m), []string{"shell", "read"}, tools...)
		require.NoError(t, err)
		assert.Empty(t, problems, "%q", m)
	}
}

// A later entry's updated_input never carries a command past an earlier
// entry that denies it; rewrites that disagree refuse; an accepted
// rewrite runs.
func TestACursorRewriteNeverPassesAnEarlierGuard(t *testing.T) {
	guardRm := cmd(`grep -q 'rm -rf' && echo '{"permission":"deny","agent_message":"no rm"}'; true`)
	rewrite := func(c string) map[string]any {
		return cmd(`cat >/dev/null; echo '{"permission":"allow","updated_input":{"command":"` + c + `"}}'`)
	}
	two := func(a, b map[string]any) []byte {
		return file(t, map[string][]map[string]any{"beforeShellExecution": {a, b}})
	}
	h := start(t, two(guardRm, rewrite("rm -rf /")))
	step := h.call(t, "shell", map[string]any{"command": "ls"})
	assert.True(t, step.Refused, "a later entry's rewrite ran past the guard: %+v", step.Call)
	assert.Contains(t, step.Reason, "no rm")

	h = start(t, two(rewrite("ls -a"), rewrite("ls -l")))
	assert.True(t, h.call(t, "shell", map[string]any{"command": "ls"}).Refused)

	h = start(t, two(guardRm, rewrite("ls -l")))
	step = h.call(t, "shell", map[string]any{"command": "ls"})
	require.False(t, step.Refused, step.Reason)
	assert.Equal(t, "ls -l", step.Call.Arguments["command"])
}
