//go:build linux

package geminicli_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// alive reports whether pid is a process that has not exited (a zombie
// has).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z"
}

// childOf reads the pid hang.sh recorded, once it has (false before).
func childOf(t *testing.T, pidFile string) (int, bool) {
	data, err := os.ReadFile(pidFile)
	if err != nil || strings.TrimSpace(string(data)) == "" {
		return 0, false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	require.NoError(t, err)
	return pid, true
}

// A handler that hangs is killed at its timeout ("timeout" in
// milliseconds) with the child it started, which ignores SIGTERM; the
// call goes on (Gemini CLI fails open on a timeout) with a diagnostic
// naming the handler. The timeout must come once hang.sh has started its
// child: on a machine too busy for that, the test runs again with more.
func TestHangingHandlerIsKilledWithItsChild(t *testing.T) {
	for _, ms := range []int{300, 2000, 8000} {
		pidFile := filepath.Join(t.TempDir(), "child.pid")
		var rec recorder
		hd := handler(script(t, "hang.sh", pidFile))
		hd["timeout"] = ms
		run := start(t, &rec, host(t, &rec), settings(t, map[string][]map[string]any{"BeforeTool": {group("", hd)}}))
		res, err := run.CallTool(bg, hooks.ToolCall{Name: "ls"}, (&tool{text: "ran"}).run)
		require.NoError(t, err)
		assert.Equal(t, hooks.ToolResult{Text: "ran"}, res, "fail open")
		require.Len(t, rec.errors(), 1)
		assert.Contains(t, rec.errors()[0], "BeforeTool[0].hooks[0]")
		assert.Contains(t, rec.errors()[0], "timed out after")
		pid, ok := childOf(t, pidFile)
		if !ok {
			continue // killed before it recorded its child: again, with more time
		}
		assert.False(t, alive(pid), "the child %d outlived the call", pid)
		return
	}
	t.Fatal("hang.sh never got to start its child")
}

// Cancelling the call kills the handler with what it started, and the
// call returns the cancellation at once.
func TestCancellingKillsTheHandler(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	require.NoError(t, syscall.Mkfifo(pidFile, 0o600)) // reading it waits for hang.sh's child
	var rec recorder
	run := start(t, &rec, host(t, &rec), settings(t, map[string][]map[string]any{"BeforeTool": {group("", handler(script(t, "hang.sh", pidFile)))}}))
	ctx, cancel := context.WithCancelCause(bg)
	done := make(chan error, 1)
	go func() {
		_, err := run.CallTool(ctx, hooks.ToolCall{Name: "ls"}, (&tool{}).run)
		done <- err
	}()
	pid, ok := childOf(t, pidFile)
	require.True(t, ok)
	cancel(nil)
	err := <-done
	assert.ErrorIs(t, err, context.Canceled)
	assert.False(t, alive(pid), "the child %d outlived the call", pid)
}
