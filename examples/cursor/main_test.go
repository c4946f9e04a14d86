package main

import (
	"bytes"
	"context"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStory runs the loop: git is refused with block-git.sh's message, ls
// runs, the edit is logged, and the stop hook sends the agent back once.
func TestStory(t *testing.T) {
	for _, tool := range []string{"bash", "jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("the example needs %s: %v", tool, err)
		}
	}
	var buf bytes.Buffer
	out = &buf
	t.Cleanup(func() { out = nil })
	require.NoError(t, run(context.Background()))
	story := buf.String()
	assert.Contains(t, story, `shell git push origin main: error=true "The git command '$command' has been blocked by a project hook`)
	assert.Contains(t, story, `shell ls: error=false "ran shell"`)
	assert.Contains(t, story, "afterFileEdit logged: ")
	assert.Contains(t, story, "write main.go: error=false")
	assert.Contains(t, story, "/main.go\n")
	assert.Contains(t, story, "turn 1: stop hook follow-up: Run the tests before you stop.\nturn 2: the agent stops\n")
	assert.NotContains(t, story, "diagnostic")
}
