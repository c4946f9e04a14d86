package proc

import (
	"os"
	"strconv"
	"syscall"
)

// seen is a process found running by a pass: its pid, and its start
// time, which tells it from a process that took the pid after it died.
type seen struct {
	pid   int
	start uint64
	known bool // the run's, for sure: in the group, or marked (and killed)
	state byte // as last read
}

// check kills pid if it is a process of the run (in the group, or marked
// with the token) and reports whether it is one that still runs, or one
// that cannot be told yet (known false). A process that started before
// the command cannot be the run's; other users' are skipped (see stat).
func (s *sweeper) check(pid int) (seen, bool) {
	dir := "/proc/" + strconv.Itoa(pid)
	info, ok := s.stat(dir)
	if !ok || !info.running() || info.start < s.commandStart() {
		return seen{}, false
	}
	p := seen{pid: pid, start: info.start, known: true, state: info.state}
	if info.pgrp == s.pgid {
		return p, true // killed with the group
	}
	switch s.whose(dir, info) {
	case ours:
		s.kill(p, dir)
		return p, true
	case unsure:
		p.known = false
		return p, true
	}
	return seen{}, false
}

// verdict is what the sweep makes of a process outside the group.
type verdict int

const (
	foreign verdict = iota // not the run's
	ours                   // marked with the run's token
	unsure                 // exiting, or inside execve: no environment to read
)

// whose reads the environment of the process of dir (info: its stat).
// An empty one is read again after another look at the stat: the first
// read may have gone to the memory an execve was dropping. One that stays
// empty while the stat shows it set up was cleared: not the run's marker.
func (s *sweeper) whose(dir string, info procStat) verdict {
	for range 3 {
		env, readable := s.read(dir + "/environ")
		switch {
		case readable && len(env) > 0:
			if marked(env, s.token) {
				return ours
			}
			return foreign
		case info.exiting() || info.execing():
			return unsure // it cannot fork meanwhile; the next pass will tell
		case !readable:
			return foreign // gone, or not this user's to read
		}
		var ok bool
		if info, ok = s.stat(dir); !ok || !info.running() {
			return foreign
		}
	}
	return foreign
}

// recheck is check for a process found by the last pass. One known to be
// the run's is known by its start time from then on: once exiting, it no
// longer shows its marker.
func (s *sweeper) recheck(p seen) (seen, bool) {
	if !p.known {
		return s.check(p.pid)
	}
	dir := "/proc/" + strconv.Itoa(p.pid)
	info, ok := s.stat(dir)
	if !ok || !info.running() || info.start != p.start {
		return seen{}, false
	}
	if info.pgrp != s.pgid {
		s.kill(p, dir)
	}
	p.state = info.state
	return p, true
}

// stat reads /proc/<pid>/stat for a process of the user. Other users'
// processes are skipped: not the run's to kill (a setuid program), and out
// of reach anyway. /proc/<pid> belongs to the process's effective user (to
// root when it is not dumpable, and then its environ is unreadable).
func (s *sweeper) stat(dir string) (procStat, bool) {
	var st syscall.Stat_t
	if syscall.Stat(dir, &st) != nil || (st.Uid != s.uid && st.Uid != s.euid) {
		return procStat{}, false
	}
	data, ok := s.read(dir + "/stat")
	if !ok {
		return procStat{}, false
	}
	return parseStat(data)
}

// kill kills p through a pidfd, after checking its start time once the
// pidfd is open: if p died and a new process took its pid, the signal
// goes to the dead one (the pidfd's), never to the new one.
func (s *sweeper) kill(p seen, dir string) {
	proc, err := os.FindProcess(p.pid)
	if err != nil {
		return
	}
	defer proc.Release()
	if info, ok := s.stat(dir); ok && info.start == p.start {
		_ = proc.Signal(syscall.SIGKILL)
	}
}
