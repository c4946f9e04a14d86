package proc

import (
	"crypto/rand"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

// startMarked starts `sleep 100` in a session of its own, marked with
// token: a process the sweep can find only by its environment.
func startMarked(t *testing.T, token string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("sleep", "100")
	cmd.Env = []string{markerVar + "=" + token}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return cmd
}

// exited starts `true` in a group of its own, as Run does, and returns
// it exited but not reaped, as sweep gets it.
func exited(t *testing.T) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("true")
	ownGroup(cmd)
	require.NoError(t, cmd.Start())
	require.NoError(t, waitNoReap(cmd.Process.Pid))
	return cmd
}

func TestSweepKillsTheMarkedAndOnlyThem(t *testing.T) {
	defer goleak.VerifyNone(t)
	token := rand.Text()
	cmd := exited(t)
	newer := startMarked(t, token)
	stranger := startMarked(t, rand.Text()) // another run's
	unmarked := exec.Command("sleep", "100")
	require.NoError(t, unmarked.Start())
	defer func() { _ = unmarked.Process.Kill(); _ = unmarked.Wait() }()

	long := time.Now().Add(-fullScanAfter) // a run long enough to read every pid
	assert.False(t, sweep(cmd, token, long), "nothing stuck")
	require.NoError(t, cmd.Wait())
	assert.False(t, alive(newer.Process.Pid))
	assert.True(t, alive(stranger.Process.Pid), "another token is another run")
	assert.True(t, alive(unmarked.Process.Pid), "a process without the marker is not the run's")
}

func TestSweepOfAShortRunReadsTheNewPids(t *testing.T) {
	defer goleak.VerifyNone(t)
	token := rand.Text()
	cmd := exited(t)
	newer := startMarked(t, token)
	stranger := startMarked(t, rand.Text())
	assert.False(t, sweep(cmd, token, time.Now()))
	require.NoError(t, cmd.Wait())
	assert.False(t, alive(newer.Process.Pid))
	assert.True(t, alive(stranger.Process.Pid))
}

func TestNextRange(t *testing.T) {
	type r struct {
		from, to int
		counted  bool
	}
	check := func(last, next int, ok bool) r {
		from, to, counted := nextRange(last, next, ok)
		return r{from, to, counted}
	}
	assert.Equal(t, r{101, 120, true}, check(100, 120, true), "the pids allocated since")
	assert.Equal(t, r{101, 100, true}, check(100, 100, true), "none: an empty range")
	assert.Equal(t, r{1, 40, true}, check(100, 40, true), "the counter wrapped: every pid")
	assert.Equal(t, r{1, 0, false}, check(100, 0, false), "no counter: every pid")
}

func TestSurvivors(t *testing.T) {
	s := &sweeper{}
	known, blocked := s.survivors()
	assert.False(t, known || blocked, "none")
	s.alive = []seen{{pid: 1, state: 'D'}} // not known to be the run's
	known, blocked = s.survivors()
	assert.False(t, known || blocked, "what could not be told does not count")
	s.alive = append(s.alive, seen{pid: 2, known: true, state: 'R'})
	known, blocked = s.survivors()
	assert.True(t, known && !blocked, "runnable: dying, waiting for a CPU")
	s.alive = append(s.alive, seen{pid: 3, known: true, state: 'D'})
	known, blocked = s.survivors()
	assert.True(t, known && blocked, "blocked in the kernel")
}

func TestParseStat(t *testing.T) {
	st, ok := parseStat([]byte("4242 (a) (b c)) S 1 4240 4240 0 -1 4194560 5 0 0 0 0 0 0 0 20 0 3 0 987654321012 0 0\n"))
	require.True(t, ok)
	assert.Equal(t, procStat{state: 'S', pgrp: 4240, flags: 4194560, threads: 3, start: 987654321012}, st)
	assert.True(t, st.running())

	zombie := procStat{state: 'Z', threads: 1}
	assert.False(t, zombie.running())
	assert.True(t, procStat{state: 'Z', threads: 2}.running(), "its first thread exited, others run")
	assert.False(t, procStat{state: 'X'}.running())
	assert.True(t, procStat{state: 'R', flags: pfExiting}.exiting())
	assert.False(t, procStat{state: 'Z', flags: pfExiting}.exiting())

	self, err := os.ReadFile("/proc/self/stat")
	require.NoError(t, err)
	st, ok = parseStat(self)
	require.True(t, ok)
	assert.Equal(t, syscall.Getpgrp(), st.pgrp)
	assert.True(t, st.hasEnv && st.envEnd > 0, "an environment set up has an end")
	assert.False(t, st.execing())
	assert.True(t, procStat{hasEnv: true}.execing(), "inside execve: no environment yet")
	assert.False(t, procStat{hasEnv: true, flags: pfKthread}.execing(), "a kernel thread never has one")
	assert.False(t, procStat{}.execing(), "an old kernel does not tell")

	for _, bad := range []string{"", "1 (a", "1 (a) S 1", "1 (a) SS 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20"} {
		_, ok := parseStat([]byte(bad))
		assert.False(t, ok, "%q", bad)
	}
}

func TestHungUp(t *testing.T) {
	defer goleak.VerifyNone(t)
	r, w, err := os.Pipe()
	require.NoError(t, err)
	defer r.Close()
	assert.False(t, hungUp(r), "a writer is left")
	_, err = w.Write([]byte("buffered"))
	require.NoError(t, err)
	require.NoError(t, w.Close())
	assert.True(t, hungUp(r), "no writer left, data still buffered")
	data := make([]byte, 16)
	n, err := r.Read(data)
	require.NoError(t, err)
	assert.Equal(t, "buffered", string(data[:n]), "the file is still usable")
}

// BenchmarkSweep is the sweep after a command that left nothing behind:
// what every command hook pays for the guarantee. Only the sweep is
// timed; each one follows a fresh command, as in Run, so the pids it
// probes are those allocated on the machine meanwhile.
func BenchmarkSweep(b *testing.B) {
	token := rand.Text()
	b.ReportAllocs()
	for range b.N {
		b.StopTimer()
		cmd := exec.Command("true")
		ownGroup(cmd)
		require.NoError(b, cmd.Start())
		require.NoError(b, waitNoReap(cmd.Process.Pid))
		b.StartTimer()
		if sweep(cmd, token, time.Now()) {
			b.Fatal("stuck")
		}
		b.StopTimer()
		require.NoError(b, cmd.Wait())
		b.StartTimer()
	}
}
