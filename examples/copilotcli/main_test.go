package main

import (
	"bytes"
	"context"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStory runs the loop: the files load in name order, agentStop sends
// the agent back before it ran a command, GitHub's guard refuses rm -rf /
// and lets ls run, tool-stats.sh records the one result, and agentStop
// then lets the agent stop.
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
	assert.Equal(t, `loaded copilot:review.json:agentStop
loaded copilot:security.json:preToolUse
loaded copilot:security.json:postToolUse
agentStop before any command: "Run a command first."
shell "rm -rf /": error=true "Dangerous command detected"
shell "ls -la": error=false "ran ls -la"
tool-stats.csv rows: 1
agentStop after ls: ""
`, buf.String())
}
