package main

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDecisions runs the loop and checks what Codex's documented example
// decided: rm -rf is refused with the policy's reason, ls runs and the
// review's context follows its result, the Stop hook sends the run on
// once, and nothing is diagnosed.
func TestDecisions(t *testing.T) {
	for _, tool := range []string{"git", "/usr/bin/python3"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("the documented example needs %s", tool)
		}
	}
	var buf bytes.Buffer
	out = &buf
	t.Cleanup(func() { out = nil })
	require.NoError(t, run(context.Background()))
	story := buf.String()

	assert.Equal(t, 1, strings.Count(story, "tool runs"), "only ls runs:\n%s", story)
	assert.Contains(t, story, "  codex:PreToolUse ⤷ refused: Destructive command blocked by pre_tool_use_policy.py\n")
	assert.Contains(t, story, `model reads "README.md\n\nReviewed: ls" (error: false)`)
	assert.Contains(t, story, `a Stop hook sends the run on: "Run the tests before you stop."`)
	assert.NotContains(t, story, "diagnostic")
	assert.True(t, strings.HasSuffix(story, "final answer: I ran the tests: all tests pass.\n"), story)
}
