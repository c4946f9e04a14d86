package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStory runs the example: the read runs, the shell call is refused
// with the guard's reason, and the key never reaches the model.
func TestStory(t *testing.T) {
	var buf bytes.Buffer
	out = &buf
	require.NoError(t, run(context.Background()))
	story := buf.String()
	assert.Contains(t, story, "read runs with map[path:.env]")
	assert.NotContains(t, story, "shell runs")
	assert.Contains(t, story, "shell: map[error:rm -rf is not allowed here]")
	assert.Contains(t, story, "read: map[result:API_KEY=[REDACTED]]")
	assert.NotContains(t, story, "sk-demo-123")
}
