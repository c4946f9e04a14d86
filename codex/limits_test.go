package codex_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/codex"
	"github.com/rienda/hooks/hooktest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Output too large to read is a decision nobody knows: the call is
// refused (a guard that quotes a huge call must not turn into an allow),
// whatever the handler printed first; a PostToolUse result is withheld.
func TestOutputPastTheCapRefuses(t *testing.T) {
	flood := "head -c 70000000 /dev/zero | tr '\\0' a"
	h := harness(t, strings.Replace(guard("Bash", flood), `"timeout":10`, `"timeout":120`, 1))
	out := h.Tool("Bash", map[string]any{"text": "x"})
	require.False(t, out.Ran, "%s", out)
	assert.Contains(t, out.Result.Text, "printed more than can be read")

	h = harness(t, `{"hooks":{"PostToolUse":[{"hooks":[{"type":"command","timeout":120,"command":`+quote(flood)+`}]}]}}`)
	out = h.ToolCall(hooks.ToolCall{ID: "1", Name: "Bash"}, hooks.ToolResult{Text: "secret"})
	assert.True(t, out.Result.IsError)
	assert.NotContains(t, out.Result.Text, "secret")
}

// A handler that sleeps past its timeout is killed with the child it
// started; the call goes on (Codex fails open) with a diagnostic, or,
// with failClosed, is refused.
func TestHangingHandlerIsKilledWithItsChild(t *testing.T) {
	for _, failClosed := range []bool{false, true} {
		pidFile := filepath.Join(t.TempDir(), "child.pid")
		script := "sleep 300 & echo $! > " + pidFile + "; wait"
		settings := `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","timeout":1,"failClosed":` +
			strconv.FormatBool(failClosed) + `,"command":` + quote(script) + `}]}]}}`
		h := harness(t, settings)
		start := time.Now()
		out := h.Tool("Bash", map[string]any{"text": "x"})
		assert.Less(t, time.Since(start), 30*time.Second)
		if failClosed {
			require.False(t, out.Ran)
			assert.Contains(t, out.Result.Text, "Tool call blocked: Codex hook PreToolUse[0].hooks[0] failed")
		} else {
			out.RequireAllowed(t)
			require.Len(t, h.Diagnostics(), 1)
			assert.Contains(t, h.Diagnostics()[0].Err.Error(), "timed out")
		}
		data, err := os.ReadFile(pidFile)
		require.NoError(t, err)
		pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
		require.NoError(t, err)
		assert.False(t, alive(pid), "the child %d outlived the call", pid)
	}
}

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

// The command runs under $SHELL -lc, as Codex runs it: the run's SHELL,
// or /bin/sh when it is unset or empty; codex.Shell overrides it.
func TestCommandsRunUnderTheShell(t *testing.T) {
	probe := guard("Bash", `printf '%s' "$0" >&2; exit 2`)
	for _, tc := range []struct {
		env  map[string]string
		opts []codex.Option
		want string
	}{
		{env: map[string]string{"PATH": os.Getenv("PATH")}, want: "/bin/sh"},
		{env: map[string]string{"PATH": os.Getenv("PATH"), "SHELL": ""}, want: "/bin/sh"},
		{env: map[string]string{"PATH": os.Getenv("PATH"), "SHELL": "/bin/bash", "HOME": t.TempDir()}, want: "/bin/bash"},
		{env: map[string]string{"PATH": os.Getenv("PATH")}, opts: []codex.Option{codex.Shell("/bin/bash", "-c")}, want: "/bin/bash"},
	} {
		h := harnessWith(t, hooktest.Options{Host: hooks.Host{Env: tc.env}}, probe, tc.opts...)
		h.Tool("Bash", nil).RequireRefused(t, tc.want)
	}
	_, err := codex.Hooks([]byte(probe), codex.Shell())
	require.Error(t, err)
}
