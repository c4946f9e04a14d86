package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDecisions runs the loop and checks what the Claude Code scripts
// decided: the allowed fetch runs, the other host and rm -rf are refused
// with the scripts' reasons, and nothing is diagnosed.
func TestDecisions(t *testing.T) {
	var buf bytes.Buffer
	out = &buf
	t.Cleanup(func() { out = nil })
	require.NoError(t, run(context.Background()))
	story := buf.String()

	assert.Equal(t, 1, strings.Count(story, "tool runs"), "only the allowed call runs:\n%s", story)
	assert.Contains(t, story, "model asks fetch {\"url\":\"https://example.com/release\"}\n  tool runs fetch\n")
	assert.Contains(t, story, "  claude:PreToolUse ⤷ refused: WebFetch may only reach example.com\n", "a JSON deny")
	assert.Contains(t, story, "  claude:PreToolUse ⤷ refused: rm -rf is not allowed\n", "exit 2, stderr the reason")
	assert.Contains(t, story, `model reads "rm -rf is not allowed" (error: true)`)
	assert.NotContains(t, story, "diagnostic")
	assert.True(t, strings.HasSuffix(story, "final answer: The notes say: ship on Friday.\n"), story)
}
