package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// hookcheck detects Cursor's hooks.json and Copilot CLI's hook files,
// lints them strictly, runs their fixtures, and checks their matchers'
// names against the tools there are.
func TestCursorAndCopilotFiles(t *testing.T) {
	r := hookcheck(t, "", "lint", "testdata/cursor/.cursor/hooks.json", "testdata/copilot/.github/hooks/guard.json")
	assert.Equal(t, 0, r.code, r.stdout+r.stderr)
	assert.Equal(t, "ok: 0 hook(s), 0 agent file(s), 2 settings file(s)\n", r.stdout)

	r = hookcheck(t, "", "lint", "testdata/cursor/typo.json", "testdata/copilot/typo.json")
	assert.Equal(t, 1, r.code, r.stderr)
	assert.Equal(t, `testdata/cursor/typo.json: cursor: Cursor hooks.json: line 4: hooks.beforeShellExecution[0].failclosed: unknown key; did you mean "failClosed"?
testdata/copilot/typo.json: copilotcli: Copilot CLI hook file: line 4: hooks.preToolUse[0].timeoutsec: unknown key; did you mean "timeoutSec"?
2 problem(s)
`, r.stdout)

	for _, args := range []string{"testdata/cursor/.cursor/hooks.json testdata/cursor/fixtures", "testdata/copilot/.github/hooks/guard.json testdata/copilot/fixtures"} {
		r = hookcheck(t, "", append([]string{"test"}, strings.Fields(args)...)...)
		assert.Equal(t, 0, r.code, r.stdout+r.stderr)
		assert.Contains(t, r.stdout, "ok   denies-rm\n")
	}

	r = hookcheck(t, "", "lint", "-tools", "shell,write", "testdata/cursor/.cursor/hooks.json", "testdata/copilot/.github/hooks/guard.json")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stdout, `"Shell" names tool "shell" in another case`)
	assert.Contains(t, r.stdout, `hooks.preToolUse[0].matcher: "bash" names no tool`)
}
