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

// TestStory runs the example and checks what the Gemini CLI scripts did
// to a real genai loop: the read runs, rm -rf is refused with the guard's
// reason (the shell never runs), and the leaked key never reaches the
// answer.
func TestStory(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skipf("the example needs python3: %v", err)
	}
	var buf bytes.Buffer
	out = &buf
	require.NoError(t, run(context.Background()))
	story := buf.String()

	assert.Contains(t, story, `read runs with {"path":"config.txt"}`)
	assert.NotContains(t, story, "shell runs", "the guard refused the shell call:\n%s", story)
	assert.Contains(t, story, "model reads for shell: map[error:Tool execution blocked: rm -rf is not allowed in this project]")
	assert.NotContains(t, story, "AKIA")
	assert.True(t, strings.HasSuffix(story, "final answer: The config uses key [REDACTED KEY]; build left alone.\n"), story)
}
