package claudecode_test

import (
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// childEnv names the test a child process of the test binary runs.
const childEnv = "CLAUDECODE_TEST_CHILD"

// inChild runs the calling top-level test again in a child process of the
// test binary, alone, and reports whether this is the child: a test that
// looks at every goroutine of the process needs one where no other test
// ran.
func inChild(t *testing.T) bool {
	t.Helper()
	if os.Getenv(childEnv) == t.Name() {
		return true
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), childEnv+"="+t.Name())
	out, err := cmd.CombinedOutput()
	assert.NoError(t, err, "the child running %s failed:\n%s", t.Name(), out)
	assert.Contains(t, string(out), "--- PASS: "+t.Name())
	return false
}

// clockRunning reports whether regexp2's timeout clock goroutine runs.
func clockRunning() bool {
	buf := make([]byte, 1<<20)
	return strings.Contains(string(buf[:runtime.Stack(buf, true)]), "regexp2.runClock")
}

// Matchers that Go's regexp answers run there: matching tool names with
// them starts no goroutine (regexp2's MatchTimeout starts a clock that
// lives about a second past the match). One that needs ECMAScript-only
// syntax (a lookbehind) does start it: the exception the Guarantees name.
func TestMatchersStartNoGoroutine(t *testing.T) {
	if !inChild(t) {
		return
	}
	var rec recorder
	settings := []byte(`{"PreToolUse":[{"matcher":"^mcp__.*__(create|delete)_","hooks":[{"type":"command","command":"true"}]},
		{"matcher":"[Ee]dit|Write","hooks":[{"type":"command","command":"true"}]}]}`)
	_, run := claudeRun(t, &rec, hooks.Host{Workdir: t.TempDir()}, settings)
	for _, name := range []string{"mcp__github__create_issue", "Edit", "shell", "tool\u00e9"} {
		_, err := run.BeforeToolExecute(bg, hooks.ToolCall{Name: name})
		require.NoError(t, err)
	}
	assert.False(t, clockRunning(), "a Go-regexp matcher started regexp2's clock")

	_, run = claudeRun(t, &rec, hooks.Host{Workdir: t.TempDir()}, []byte(`{"PreToolUse":[{"matcher":"(?<=mcp__)x","hooks":[{"type":"command","command":"true"}]}]}`))
	_, err := run.BeforeToolExecute(bg, hooks.ToolCall{Name: "mcp__x"})
	require.NoError(t, err)
	assert.True(t, clockRunning(), "the ECMAScript-only matcher runs in regexp2, with its clock")
	assert.Empty(t, rec.diagnostics())
}
