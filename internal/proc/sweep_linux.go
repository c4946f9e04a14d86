package proc

import (
	"os/exec"
	"syscall"
	"time"
)

// sweepBudget bounds the wait for the killed to die when one of them is
// stuck in the kernel (uninterruptible sleep): SIGKILL can be neither
// caught nor ignored, so only such a process outlasts it, and Run reports
// it (ErrEscaped) rather than wait for it.
const sweepBudget = time.Second

// dyingBudget bounds the wait for the killed that only wait for a CPU to
// die (runnable, on an overloaded machine): they are not stuck, and
// reporting them would fail hooks for the machine's load.
const dyingBudget = 10 * time.Second

// fullScanAfter is the length of a run past which the sweep reads every
// pid, not only those allocated since the command started: the pid
// counter could have gone round unseen (pid_max, at least 32768, forks)
// and given a descendant a pid below the command's.
const fullScanAfter = time.Second

// probeMax is the most new pids the sweep probes one by one (a few µs
// each, most of them gone); for more it reads the listing of /proc, whose
// cost grows with the processes alive rather than with the pids allocated.
const probeMax = 32

// The pauses between rescans, while killed processes are still dying.
const (
	minPause = 50 * time.Microsecond
	maxPause = 5 * time.Millisecond
)

// sweep kills, once the command has exited (unreaped), its process group
// and every process of the user that carries the run's token, and rescans
// until none of them is alive. It reports stuck when some of them still
// ran at sweepBudget, one of them blocked in the kernel, or at
// dyingBudget (processes it could not tell, see check, do not count).
//
// A pass looks at the survivors of the last one and at the pids allocated
// since: no other pid can be a process of the run, since a pid seen dead
// or foreign stays so, and the counter only moves up between wraps. The
// sweep ends with a pass that found nothing alive while no pid was
// allocated: a process of the run created during that pass would have
// needed a parent of the run alive during it.
func sweep(cmd *exec.Cmd, token string, started time.Time) (stuck bool) {
	s := newSweeper(cmd.Process.Pid, token)
	defer s.free()
	from := s.pgid + 1
	last, counted := s.lastPid()
	if !counted || last < s.pgid || time.Since(started) >= fullScanAfter {
		from = 1 // the counter wrapped, or may have: any pid may be the run's
	}
	now := time.Now()
	stuckAt, giveUpAt := now.Add(sweepBudget), now.Add(dyingBudget)
	for pause := minPause; ; pause = min(2*pause, maxPause) {
		s.pass(from, last, counted)
		next, ok := s.lastPid()
		if len(s.alive) == 0 && (!counted || (ok && next == last)) {
			return false
		}
		from, last, counted = nextRange(last, next, ok)
		if t := time.Now(); t.After(stuckAt) {
			if known, blocked := s.survivors(); !known || blocked || t.After(giveUpAt) {
				return known
			}
		}
		if len(s.alive) > 0 {
			time.Sleep(pause) // give the killed time to die, not the CPU to rescans
		}
	}
}

// nextRange is the range of pids the next pass reads after one that read
// up to last, the counter being now at next (ok: readable).
func nextRange(last, next int, ok bool) (from, to int, counted bool) {
	switch {
	case !ok:
		return 1, 0, false
	case next < last:
		return 1, next, true // it wrapped during the pass: read them all
	default:
		return last + 1, next, true
	}
}

// pass kills the group, then every process of the run among the
// survivors of the last pass and the pids from `from` (up to `to` when
// bounded), and keeps those that still run in s.alive.
func (s *sweeper) pass(from, to int, bounded bool) {
	_ = syscall.Kill(-s.pgid, syscall.SIGKILL)
	s.prev, s.alive = s.alive, s.prev[:0]
	for _, p := range s.prev {
		if p.pid >= from {
			continue // in the range read below
		}
		if p, ok := s.recheck(p); ok {
			s.alive = append(s.alive, p)
		}
	}
	if !bounded || to-from >= probeMax {
		s.list(from)
		return
	}
	for pid := from; pid <= to; pid++ {
		if pid != s.pgid {
			s.visit(pid)
		}
	}
}

// visit checks pid and keeps it among the living if it is the run's.
func (s *sweeper) visit(pid int) {
	if p, ok := s.check(pid); ok {
		s.alive = append(s.alive, p)
	}
}

// survivors reports whether a process known to be the run's still runs,
// and whether one of them is blocked in the kernel (state D), where
// SIGKILL waits for what it waits for.
func (s *sweeper) survivors() (known, blocked bool) {
	for _, p := range s.alive {
		if p.known {
			known = true
			blocked = blocked || p.state == 'D'
		}
	}
	return known, blocked
}
