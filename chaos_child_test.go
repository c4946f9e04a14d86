package hooks

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// childEnv names the test a child process of the test binary runs.
const childEnv = "HOOKS_CHAOS_CHILD"

// inChild reports whether this process is the child that runs t's body.
// In the parent it runs t again in a child process of the test binary and
// checks that the child passed: a case whose failure would be a fatal
// error (a stack overflow, a nil dereference in another goroutine, memory
// exhausted), which no recover catches, must not take the test binary
// down with it. Call it first, from a top-level test:
//
//	if !inChild(t) { return }
func inChild(t *testing.T) bool {
	t.Helper()
	if os.Getenv(childEnv) == t.Name() {
		return true
	}
	require.NotContains(t, t.Name(), "/", "inChild runs top-level tests")
	cmd := exec.Command(os.Args[0], "-test.run=^"+regexp.QuoteMeta(t.Name())+"$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), childEnv+"="+t.Name())
	out, err := cmd.CombinedOutput()
	if !assert.NoError(t, err, "the child process running %s died or failed", t.Name()) {
		t.Logf("the child's output:\n%s", tail(string(out), 8000))
	}
	assert.Contains(t, string(out), "--- PASS: "+t.Name())
	return false
}

// tail is the end of s, at most n bytes.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:][strings.IndexByte(s[len(s)-n:], '\n')+1:]
}
