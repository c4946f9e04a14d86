//go:build linux

package claudecode_test

import (
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

// A script that hangs is killed at its timeout with the child it started;
// the call goes on (fail open) with a diagnostic naming the handler. The
// timeout must come once hang.sh has started its child: on a machine too
// busy for that within the first timeout, the test runs again with more.
func TestHangingScriptIsKilledWithItsChild(t *testing.T) {
	for _, seconds := range []string{"0.3", "2", "8"} {
		pidFile := filepath.Join(t.TempDir(), "child.pid")
		var rec recorder
		settings := []byte(`{"PreToolUse":[{"hooks":[{"type":"command","timeout":` + seconds + `,"command":` +
			strconv.Quote(claudeScript(t, "hang.sh", pidFile)) + `}]}]}`)
		_, run := claudeRun(t, &rec, claudeHost(t, &ccPerson{}), settings)
		res, err := run.CallTool(bg, ccBash("ls"), ccShell(&rec))
		require.NoError(t, err)
		assert.Equal(t, hooks.ToolResult{Text: "ran"}, res, "fail open")
		require.Len(t, rec.diagnostics(), 1)
		assert.Contains(t, rec.diagnostics()[0].Err.Error(), "PreToolUse[0].hooks[0]")
		assert.Contains(t, rec.diagnostics()[0].Err.Error(), "timed out after")

		data, err := os.ReadFile(pidFile)
		if os.IsNotExist(err) || (err == nil && strings.TrimSpace(string(data)) == "") {
			continue // killed before it recorded its child: again, with more time
		}
		require.NoError(t, err)
		var pid int
		_, err = fmt.Sscan(string(data), &pid)
		require.NoError(t, err)
		assert.False(t, alive(pid), "the child %d outlived the call", pid)
		return
	}
	t.Fatal("hang.sh never got to start its child")
}

// alive reports whether pid runs (a zombie does not).
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
