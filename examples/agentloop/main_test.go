package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTrace runs the loop and checks the story its trace tells.
func TestTrace(t *testing.T) {
	var buf bytes.Buffer
	out = &buf
	t.Cleanup(func() { out = nil })
	require.NoError(t, run(context.Background()))
	trace := buf.String()

	assert.Equal(t, 1, strings.Count(trace, "tool             runs read_file"), "only the first read runs the tool:\n%s", trace)
	assert.Contains(t, trace, `runs read_file {"path":"/workspace/notes.txt"}`, "the tool sees the rewritten path")
	assert.Contains(t, trace, `model reads      "rm -rf is not allowed" (error: true)`)
	assert.NotContains(t, trace, "runs shell", "the refused command never runs")
	assert.Contains(t, trace, "answers read_file")
	assert.Equal(t, 2, strings.Count(trace, `model reads      "ship on Friday; API_KEY=[redacted]"`), "the cached answer is redacted too")
	assert.NotContains(t, trace, "sk-live", "no secret reaches the model")
	assert.Equal(t, 4, strings.Count(trace, `gets system prompt "You are a careful assistant. Never print secrets. Today is 2026-12-03."`),
		"the Go and the JS hook add to the prompt on every turn")
	assert.Contains(t, trace, `https-only       js: rewrites url "http://example.com/release" to "https://example.com/release"`)
	assert.Contains(t, trace, `tool             runs fetch {"url":"https://example.com/release"}`, "the tool sees the JS rewrite")
	assert.Contains(t, trace, `model reads      "fetch may only reach example.com" (error: true)`, "the command hook blocks")
	assert.NotContains(t, trace, "runs fetch {\"url\":\"https://paste.test", "the blocked fetch never runs")
	assert.Contains(t, trace, "  pre_tool_call#0  ⤷ refused: fetch may only reach example.com\n", "the chain's trace names the command hook")
	assert.Contains(t, trace, "  cache            ⤷ answered\n")
	assert.NotContains(t, trace, "diagnostic")
	assert.True(t, strings.HasSuffix(trace, "run demo completed after 4 model calls (audit)\n"), trace)
}

// TestRunsFromAnyDirectory runs the loop from a folder that holds none of
// its files, as go run from elsewhere does, and checks it tells the same
// story and leaves no temporary folder behind.
func TestRunsFromAnyDirectory(t *testing.T) {
	var here bytes.Buffer
	out = &here
	t.Cleanup(func() { out = nil })
	require.NoError(t, run(context.Background()))

	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // where the loop unpacks its files
	t.Chdir(t.TempDir())
	var elsewhere bytes.Buffer
	out = &elsewhere
	require.NoError(t, run(context.Background()))
	assert.Equal(t, here.String(), elsewhere.String())
	left, err := os.ReadDir(tmp)
	require.NoError(t, err)
	assert.Empty(t, left, "the unpacked files are removed")
}

// TestTraceExplainsItself checks the trace says what its ⤷ lines are
// before the first one, and what the first one (the cache's state) is.
func TestTraceExplainsItself(t *testing.T) {
	var buf bytes.Buffer
	out = &buf
	t.Cleanup(func() { out = nil })
	require.NoError(t, run(context.Background()))
	lines := strings.Split(buf.String(), "\n")
	require.Greater(t, len(lines), 4)
	assert.Contains(t, lines[0], "⤷", "the legend comes first")
	assert.Contains(t, lines[0], "hooks.WithTrace")
	assert.Equal(t, "start", lines[1])
	assert.Equal(t, "  cache            starts an empty cache for this run (its run state)", lines[2])
	assert.Equal(t, "  cache            ⤷ changed state", lines[3])
}
