//go:build linux

package proc

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

// prelude starts every test script. $d is the script's folder. Children
// that must be seen running report their pid on the FIFO $d/fifo with
// $sleeper (run as `sh -c "$sleeper" "$d"`); `await N` reads N reports
// into $d/pids. The FIFO is open read-write on fd 3, so that a read never
// sees an end while no child has it open: no sleeping to synchronise.
const prelude = `#!/bin/sh
d=$1
exec 3<>"$d/fifo"
sleeper='echo $$ >"$0/fifo"; exec sleep 100'
await() { i=0; while [ $i -lt $1 ]; do read p <&3; echo $p >>"$d/pids"; i=$((i+1)); done; }
`

// testRun is a script written for a test, with the tag its processes
// carry in their environment.
type testRun struct {
	dir string
	tag string // PROC_TEST_TAG's value: leftovers finds the processes by it
	cmd Command
}

// script writes prelude+body to a script in a fresh folder and returns
// a Command that runs it with the folder as $1.
func script(t *testing.T, body string) *testRun {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o600))
	path := filepath.Join(dir, "script.sh")
	require.NoError(t, os.WriteFile(path, []byte(prelude+body), 0o700))
	tag := rand.Text()
	return &testRun{dir: dir, tag: tag, cmd: Command{
		Argv: []string{path, dir}, Env: []string{"PATH=" + os.Getenv("PATH"), "PROC_TEST_TAG=" + tag},
		Timeout: time.Minute, MaxOut: 1 << 10, // only against a hang
	}}
}

// pids are the pids the script's children reported.
func (r *testRun) pids(t *testing.T) []int {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(r.dir, "pids"))
	require.NoError(t, err)
	var pids []int
	for _, f := range strings.Fields(string(data)) {
		var pid int
		_, err := fmt.Sscan(f, &pid)
		require.NoError(t, err)
		pids = append(pids, pid)
	}
	return pids
}

// assertAllDead checks that the reported children and every process
// that carries the run's tag have exited.
func (r *testRun) assertAllDead(t *testing.T, reported int) {
	t.Helper()
	pids := r.pids(t)
	assert.Len(t, pids, reported)
	for _, pid := range pids {
		assert.False(t, alive(pid), "child %d still runs", pid)
	}
	assert.Empty(t, leftovers(r.tag), "processes of the run still running")
}

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
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z"
}

// leftovers are the live processes whose environment has PROC_TEST_TAG=tag.
func leftovers(tag string) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		var pid int
		if _, err := fmt.Sscan(e.Name(), &pid); err != nil {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err == nil && bytes.Contains(env, []byte("\x00PROC_TEST_TAG="+tag+"\x00")) && alive(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

func TestProcReturnsStdoutAndWritesStdin(t *testing.T) {
	defer goleak.VerifyNone(t)
	r := script(t, `wc -c`)
	r.cmd.Stdin = bytes.Repeat([]byte("x"), 300<<10) // more than a pipe holds
	out, err := Run(context.Background(), r.cmd)
	require.NoError(t, err)
	assert.Equal(t, "307200", strings.TrimSpace(string(out)))
}

// Each child is started in the background, reports that it runs, and
// outlives the command, which exits at once (and successfully): Run
// returns only when the child is dead. A nil error also says Run did not
// wait for the output pipes: when it has to, it reports ErrEscaped.
func TestProcChildrenDieWhenTheCommandExits(t *testing.T) {
	for name, spawn := range map[string]string{
		"holding stdout":      `sh -c "$sleeper" "$d" &`,
		"stdout to /dev/null": `sh -c "$sleeper" "$d" >/dev/null 2>&1 &`,
		"setsid":              `setsid sh -c "$sleeper" "$d" &`,
		"setsid, no output":   `setsid sh -c "$sleeper" "$d" >/dev/null 2>&1 </dev/null &`,
		"double fork":         `sh -c 'sh -c "$1" "$0" &' "$d" "$sleeper" &`,
		"daemon":              `setsid sh -c 'sh -c "$1" "$0" &' "$d" "$sleeper" >/dev/null 2>&1 &`,
		"nohup":               `nohup sh -c "$sleeper" "$d" &`,
		"ignoring SIGTERM":    `sh -c 'trap "" TERM HUP INT; '"$sleeper" "$d" &`,
		"own process group":   `perl -e 'setpgrp(0,0); exec @ARGV' sh -c "$sleeper" "$d" &`,
		"holding stdin":       `sh -c "$sleeper" "$d" <&0 &`,
		"stopped (SIGSTOP)":   `sh -c 'kill -STOP $$' & sh -c "$sleeper" "$d" &`,
		"setsid, then setsid": `setsid sh -c 'setsid sh -c "$1" "$0" &' "$d" "$sleeper" &`,
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := exec.LookPath("perl"); err != nil && strings.HasPrefix(spawn, "perl") {
				t.Skip("no perl to leave the process group with")
			}
			defer goleak.VerifyNone(t)
			r := script(t, spawn+"\nawait 1\necho done\n")
			r.cmd.Stdin = bytes.Repeat([]byte("x"), 100<<10) // a child holding stdin does not read it
			out, err := Run(context.Background(), r.cmd)
			require.NoError(t, err)
			assert.Equal(t, "done\n", string(out))
			r.assertAllDead(t, 1)
		})
	}
}

// A few dozen children, half of them in sessions of their own, each
// starting more while the command exits.
func TestProcForkStormDies(t *testing.T) {
	defer goleak.VerifyNone(t)
	r := script(t, `
storm='echo $$ >"$0/fifo"; i=0; while [ $i -lt 6 ]; do sleep 100 & i=$((i+1)); done; exec sleep 100'
i=0
while [ $i -lt 24 ]; do
	if [ $((i % 2)) = 0 ]; then sh -c "$storm" "$d" & else setsid sh -c "$storm" "$d" & fi
	i=$((i+1))
done
await 24
`)
	_, err := Run(context.Background(), r.cmd)
	require.NoError(t, err)
	r.assertAllDead(t, 24)
}

// The timeout must come once the children run: on a machine too busy to
// start them within the first timeout, the test runs again with more.
func TestProcTimeoutKillsTheCommandAndItsChildren(t *testing.T) {
	defer goleak.VerifyNone(t)
	for _, timeout := range []time.Duration{300 * time.Millisecond, 2 * time.Second, 8 * time.Second} {
		r := script(t, `sh -c "$sleeper" "$d" & setsid sh -c "$sleeper" "$d" & await 2
echo $$ >>"$d/pids"; : >"$d/ready"; exec sleep 100`)
		r.cmd.Timeout = timeout
		_, err := Run(context.Background(), r.cmd)
		require.ErrorIs(t, err, ErrTimeout)
		assert.Contains(t, err.Error(), "timed out after "+timeout.String())
		if _, err := os.Stat(filepath.Join(r.dir, "ready")); err != nil {
			assert.Empty(t, leftovers(r.tag))
			continue // killed before its children ran: again, with more time
		}
		r.assertAllDead(t, 3)
		return
	}
	t.Fatal("the script never got to start its children")
}

func TestProcCancellationKillsTheCommandAndItsChildren(t *testing.T) {
	defer goleak.VerifyNone(t)
	r := script(t, `setsid sh -c "$sleeper" "$d" & await 1; echo started >"$d/started"; exec sleep 100`)
	require.NoError(t, syscall.Mkfifo(filepath.Join(r.dir, "started"), 0o600))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := Run(ctx, r.cmd)
		done <- err
	}()
	require.Equal(t, "started\n", readFIFO(t, filepath.Join(r.dir, "started"), done)) // its child runs too
	cancel()
	err := <-done
	assert.ErrorIs(t, err, context.Canceled)
	r.assertAllDead(t, 1)
}

// readFIFO reads what the script writes to the FIFO path, failing if Run
// ends (on done) first.
func readFIFO(t *testing.T, path string, done chan error) string {
	t.Helper()
	read := make(chan []byte, 1)
	go func() {
		data, _ := os.ReadFile(path) // returns once the script has written and closed it
		read <- data
	}()
	select {
	case data := <-read:
		return string(data)
	case err := <-done:
		if f, _ := os.OpenFile(path, os.O_RDWR, 0); f != nil {
			f.Close() // a writer came and went: the read ends
		}
		<-read
		t.Fatalf("Run ended before the script wrote to %s: %v", path, err)
		return ""
	}
}

func TestProcOutputCapKillsEverything(t *testing.T) {
	defer goleak.VerifyNone(t)
	r := script(t, `sh -c "$sleeper" "$d" & setsid sh -c "$sleeper" "$d" & await 2; yes`)
	out, err := Run(context.Background(), r.cmd)
	require.ErrorIs(t, err, ErrOutputTooLarge)
	assert.Contains(t, err.Error(), "more than 1024 bytes on stdout")
	assert.Nil(t, out)
	r.assertAllDead(t, 2)
}

func TestProcExitErrorKeepsTheEndOfStderr(t *testing.T) {
	defer goleak.VerifyNone(t)
	r := script(t, `i=0; while [ $i -lt 400 ]; do echo "line $i" >&2; i=$((i+1)); done; echo partial; exit 3`)
	out, err := Run(context.Background(), r.cmd)
	require.Error(t, err)
	assert.Equal(t, "partial\n", string(out), "what was printed comes with the failure")
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit)
	assert.Equal(t, 3, exit.ExitCode())
	assert.Contains(t, err.Error(), "exit status 3: ")
	assert.Contains(t, err.Error(), "line 399")
	assert.NotContains(t, err.Error(), "line 0\n")
	assert.LessOrEqual(t, len(err.Error()), maxStderr+len("exit status 3: "))
}

func TestProcMarksTheEnvironment(t *testing.T) {
	defer goleak.VerifyNone(t)
	r := script(t, `echo "$RIENDA_HOOK_RUN"`)
	r.cmd.Env = append(r.cmd.Env, "RIENDA_HOOK_RUN=outer")
	out, err := Run(context.Background(), r.cmd)
	require.NoError(t, err)
	outer, token, found := strings.Cut(strings.TrimSpace(string(out)), ",")
	require.True(t, found, "an inherited marker keeps its tokens: %q", out)
	assert.Equal(t, "outer", outer)
	assert.Len(t, token, len(rand.Text()), "a fresh token of its own")
}

func TestProcStartFailure(t *testing.T) {
	defer goleak.VerifyNone(t)
	_, err := Run(context.Background(), Command{Argv: []string{filepath.Join(t.TempDir(), "missing")}, Timeout: time.Second})
	assert.ErrorIs(t, err, os.ErrNotExist)
	_, err = Run(context.Background(), Command{Timeout: time.Second})
	assert.EqualError(t, err, "no command")
}

// The documented limit: a child that leaves the group and clears its
// environment is not found. Run does not wait for the stdout it holds:
// it returns what was printed, after drainGrace, and says so.
func TestProcEscapedChildIsReportedNotWaitedFor(t *testing.T) {
	defer goleak.VerifyNone(t)
	r := script(t, `setsid env -i PATH="$PATH" sh -c "$sleeper" "$d" & await 1; echo done`)
	t.Cleanup(func() {
		for _, pid := range r.pids(t) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	out, err := Run(context.Background(), r.cmd)
	require.ErrorIs(t, err, ErrEscaped)
	assert.Contains(t, err.Error(), "still holds the command's output")
	assert.Equal(t, "done\n", string(out))
	require.Len(t, r.pids(t), 1)
	assert.True(t, alive(r.pids(t)[0]), "the escape this test documents")
}
