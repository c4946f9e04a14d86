package proc

import (
	"bytes"
	"encoding/binary"
)

// procStat is what the sweep reads of /proc/<pid>/stat.
type procStat struct {
	state   byte // R, S, D, T, Z (zombie), X (dead)…
	pgrp    int
	flags   uint64
	threads uint64
	start   uint64 // since boot: with the pid, it names one process
	envEnd  uint64 // where its environment ends in its memory; 0: none yet
	hasEnv  bool   // the line has envEnd (Linux 3.5 and later)
}

// pfExiting is the flag of a process that has begun to exit (PF_EXITING):
// it set it before releasing its memory, so from then on its environment
// reads empty.
const pfExiting = 0x4

// running reports whether the process has not exited. A zombie with
// threads left is running: /proc shows the state of its first thread,
// which may exit before the others.
func (p procStat) running() bool {
	switch p.state {
	case 'Z':
		return p.threads > 1
	case 'X':
		return false
	}
	return true
}

// pfKthread is the flag of a kernel thread, which has no environment.
const pfKthread = 0x00200000

// exiting reports a process on its way out, no longer able to fork: one
// whose environment may already be gone.
func (p procStat) exiting() bool {
	return p.flags&pfExiting != 0 && p.state != 'Z'
}

// execing reports a process inside execve, between the switch to its new
// memory and the copy of its environment there: for that moment its
// environment reads empty. (An empty environment that was set up has an
// end, at its start.)
func (p procStat) execing() bool {
	return p.hasEnv && p.envEnd == 0 && p.flags&pfKthread == 0
}

// parseStat reads a /proc/<pid>/stat line: "pid (comm) state ppid pgrp
// session tty tpgid flags … num_threads itrealvalue starttime …
// env_start env_end exit_code". The command name may hold spaces and
// parentheses, so fields count from the last ')'.
func parseStat(line []byte) (procStat, bool) {
	i := bytes.LastIndexByte(line, ')')
	if i < 0 {
		return procStat{}, false
	}
	var st procStat
	var pgrp uint64
	rest := line[i+1:]
	for n := 0; n <= 48; n++ {
		var f []byte
		f, rest, _ = bytes.Cut(bytes.TrimLeft(rest, " "), []byte{' '})
		f = bytes.TrimSpace(f)
		if n > 19 && len(f) == 0 {
			break // an old kernel: no env_end
		}
		ok := true
		switch n {
		case 0:
			ok = len(f) == 1
			if ok {
				st.state = f[0]
			}
		case 2:
			pgrp, ok = parseUint(f)
		case 6:
			st.flags, ok = parseUint(f)
		case 17:
			st.threads, ok = parseUint(f)
		case 19:
			st.start, ok = parseUint(f)
		case 48:
			st.envEnd, ok = parseUint(f)
			st.hasEnv = ok
		}
		if !ok {
			return procStat{}, false
		}
	}
	st.pgrp = int(pgrp)
	return st, true
}

// parseUint reads a decimal number of up to 19 digits.
func parseUint(b []byte) (uint64, bool) {
	if len(b) == 0 || len(b) > 19 {
		return 0, false
	}
	var n uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	return n, true
}

// parsePid reads a decimal number that fits a pid; anything else (a
// name of /proc that is not a process) is not one.
func parsePid(b []byte) (int, bool) {
	if len(b) > 10 {
		return 0, false
	}
	n, ok := parseUint(b)
	return int(n), ok
}

// A linux_dirent64 as getdents64 returns it: ino (8 bytes), off (8),
// reclen (2), type (1), then the name, NUL-terminated and padded.
const (
	direntReclen = 16
	direntName   = 19
)

// nextDirent returns the name of the first entry of b and the entries
// after it.
func nextDirent(b []byte) (name, rest []byte) {
	if len(b) < direntName {
		return nil, nil
	}
	reclen := int(binary.NativeEndian.Uint16(b[direntReclen:]))
	if reclen < direntName || reclen > len(b) {
		return nil, nil
	}
	name = b[direntName:reclen]
	if i := bytes.IndexByte(name, 0); i >= 0 {
		name = name[:i]
	}
	return name, b[reclen:]
}

// lastPid returns the pid most recently allocated in this pid namespace:
// the last field of /proc/loadavg ("0.00 0.01 0.05 1/123 4567").
func (s *sweeper) lastPid() (int, bool) {
	data, ok := s.read("/proc/loadavg")
	if !ok {
		return 0, false
	}
	data = bytes.TrimSpace(data)
	return parsePid(data[bytes.LastIndexByte(data, ' ')+1:])
}
