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

// TestStory runs the loop and checks what the Gemini CLI scripts did: the
// tools offered narrowed to the prompt's intent, rm -rf refused with the
// guard's reason, a tool call required (mode ANY), the leaked key redacted, and the answer sent back once
// for its missing summary.
func TestStory(t *testing.T) {
	for _, tool := range []string{"bash", "python3", "node"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("the example needs %s: %v", tool, err)
		}
	}
	var buf bytes.Buffer
	out = &buf
	t.Cleanup(func() { out = nil })
	require.NoError(t, run(context.Background()))
	story := buf.String()

	assert.True(t, strings.HasPrefix(story, "model is offered read, ls, shell and must call one\n"),
		"BeforeToolSelection keeps the tools the prompt needs, and its mode ANY makes the model call one:\n%s", story)
	assert.NotContains(t, story, "diagnostic:", "every setting of the scripts is understood")
	assert.Equal(t, 1, strings.Count(story, "tool runs"), "only the read runs:\n%s", story)
	assert.Contains(t, story, `model reads "Tool execution blocked: rm -rf is not allowed in this project" (error: true)`)
	assert.Contains(t, story, `model said "The config uses key [REDACTED KEY]; build left alone."; AfterAgent sends the run on: "Your response is missing a Summary section. Please add one."`)
	assert.NotContains(t, story, "AKIA")
	assert.True(t, strings.HasSuffix(story, "final answer: Summary: read the config; rm -rf was refused, so build stays.\n"), story)
}
