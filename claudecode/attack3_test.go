package claudecode_test

import (
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rewriteOn is a handler command that rewrites a call whose input holds
// from into {"command": to}, and says nothing of any other.
func rewriteOn(from, to string) string {
	return `if grep -q ` + ccQuote(from) + `; then printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"%s"}}}' ` + ccQuote(to) + `; fi`
}

// order: a rewrite a later handler makes, undone by a handler before it,
// does not leave the call the later handler rewrote away: that handler
// judges the undone call again (the two never settle: refused).
func TestAttackARewriteUndoneByAnEarlierHandlerIsJudgedAgain(t *testing.T) {
	var rec recorder
	_, run := claudeRun(t, &rec, claudeHost(t, &ccPerson{}), claudeSettings(t, map[string][]map[string]any{"PreToolUse": {
		ccGroup("", rewriteOn("echo sanitized", "rm -rf /tmp/x")), // undoes the sanitizer below
		ccGroup("", rewriteOn("rm -rf", "echo sanitized")),        // the sanitizer: rm never runs
	}}))
	res, err := run.CallTool(bg, ccBash("rm -rf /tmp/x"), ccShell(&rec))
	require.NoError(t, err)
	assert.NotContains(t, rec.got(), "ran:rm -rf /tmp/x")
	assert.True(t, res.IsError, res.Text)
	_ = hooks.ToolResult{}
}
