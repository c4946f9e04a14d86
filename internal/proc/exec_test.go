//go:build linux

package proc

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

// An overflow without DrainOut kills the command and what it started, as
// Run does, and Exec still returns the start of stdout and its size so
// far: a caller can read what the command meant to say.
func TestProcExecKeepsTheStartOfAnOverflow(t *testing.T) {
	defer goleak.VerifyNone(t)
	r := script(t, `sh -c "$sleeper" "$d" & setsid sh -c "$sleeper" "$d" & await 2; printf '{"decision":"block"'; yes`)
	out, err := Exec(context.Background(), r.cmd)
	require.ErrorIs(t, err, ErrOutputTooLarge)
	assert.True(t, out.Overflow)
	require.Len(t, out.Stdout, 1<<10)
	assert.True(t, bytes.HasPrefix(out.Stdout, []byte(`{"decision":"block"y`+"\n")), "%.40q", out.Stdout)
	assert.Greater(t, out.Written, int64(1<<10))
	r.assertAllDead(t, 2)
}

// With DrainOut, a command that prints past MaxOut runs to its own end:
// its exit status and stderr are known, its stdout is kept up to MaxOut
// and counted in full, and what it started still dies.
func TestProcExecDrainsAnOverflowToTheCommandsEnd(t *testing.T) {
	defer goleak.VerifyNone(t)
	r := script(t, `sh -c "$sleeper" "$d" & setsid sh -c "$sleeper" "$d" & await 2
head -c 307200 /dev/zero | tr '\0' x; i=0; while [ $i -lt 300 ]; do echo "err $i" >&2; i=$((i+1)); done; exit 2`)
	r.cmd.DrainOut = 1 << 20
	out, err := Exec(context.Background(), r.cmd)
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "the command's own end, not an overflow")
	assert.NotErrorIs(t, err, ErrOutputTooLarge)
	assert.Equal(t, 2, exit.ExitCode())
	assert.True(t, out.Overflow)
	assert.Equal(t, int64(307200), out.Written)
	assert.Equal(t, strings.Repeat("x", 1<<10), string(out.Stdout))
	assert.True(t, strings.HasSuffix(strings.TrimSpace(string(out.Stderr)), "err 299"), "%q", out.Stderr)
	assert.LessOrEqual(t, len(out.Stderr), maxStderr)
	r.assertAllDead(t, 2)

	// Run keeps its contract: an overflow is no output and ErrOutputTooLarge.
	r = script(t, `head -c 4096 /dev/zero`)
	r.cmd.DrainOut = 1 << 20
	got, err := Run(context.Background(), r.cmd)
	require.ErrorIs(t, err, ErrOutputTooLarge)
	assert.Nil(t, got)
}

// A command that prints past DrainOut is killed with what it started: a
// drain is bounded, not a way to run forever.
func TestProcExecDrainIsBounded(t *testing.T) {
	defer goleak.VerifyNone(t)
	r := script(t, `sh -c "$sleeper" "$d" & await 1; yes`)
	r.cmd.DrainOut = 64 << 10
	out, err := Exec(context.Background(), r.cmd)
	require.ErrorIs(t, err, ErrOutputTooLarge)
	assert.Contains(t, err.Error(), "more than 65536 bytes on stdout")
	assert.True(t, out.Overflow)
	assert.Greater(t, out.Written, int64(64<<10))
	assert.Len(t, out.Stdout, 1<<10)
	r.assertAllDead(t, 1)
}
