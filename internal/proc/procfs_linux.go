package proc

import (
	"os"
	"strconv"
	"sync"
	"syscall"
)

// sweeper is the state of one sweep. Its buffers are reused across runs:
// a sweep reads /proc without allocating more than the paths.
type sweeper struct {
	pgid      int
	token     string
	since     uint64 // the command's start time: the run's processes started later
	sinceRead bool   // since is read (see commandStart)
	uid, euid uint32
	alive     []seen // the run's processes found running by this pass
	prev      []seen // and by the last one
	dents     []byte // for getdents on /proc
	buf       []byte // for the files read
}

// sweepers keeps sweepers between runs, for their buffers.
var sweepers = sync.Pool{New: func() any {
	return &sweeper{dents: make([]byte, 8<<10), buf: make([]byte, 4<<10)}
}}

// newSweeper returns a sweeper for the group pgid and the run's token.
func newSweeper(pgid int, token string) *sweeper {
	s := sweepers.Get().(*sweeper)
	s.pgid, s.token, s.since, s.sinceRead = pgid, token, 0, false
	s.uid, s.euid = uint32(os.Getuid()), uint32(os.Geteuid())
	return s
}

// commandStart returns the command's start time, read once per sweep and only
// if a process is to be judged: most sweeps find none.
func (s *sweeper) commandStart() uint64 {
	if !s.sinceRead {
		s.sinceRead = true
		if info, ok := s.stat("/proc/" + strconv.Itoa(s.pgid)); ok {
			s.since = info.start // the command is a zombie until reaped: still there
		}
	}
	return s.since
}

// free gives s back to the pool, without a buffer grown by a huge environ.
func (s *sweeper) free() {
	if cap(s.buf) > 64<<10 {
		s.buf = make([]byte, 4<<10)
	}
	s.alive, s.prev = s.alive[:0], s.prev[:0]
	sweepers.Put(s)
}

// read reads a whole file of /proc into s.buf; the data is valid until
// the next read.
func (s *sweeper) read(path string) ([]byte, bool) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, false
	}
	defer syscall.Close(fd)
	for n := 0; ; {
		if n == len(s.buf) {
			s.buf = append(s.buf, make([]byte, len(s.buf))...)
		}
		m, err := syscall.Read(fd, s.buf[n:])
		switch {
		case err == syscall.EINTR:
		case err != nil:
			return nil, false
		case m == 0:
			return s.buf[:n], true
		default:
			n += m
		}
	}
}

// list visits the pids from `from` on that /proc lists.
func (s *sweeper) list(from int) {
	fd, err := syscall.Open("/proc", syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	defer syscall.Close(fd)
	for {
		n, err := syscall.Getdents(fd, s.dents)
		if err == syscall.EINTR {
			continue
		}
		if err != nil || n <= 0 {
			return
		}
		for b := s.dents[:n]; len(b) > 0; {
			var name []byte
			name, b = nextDirent(b)
			if pid, ok := parsePid(name); ok && pid >= from && pid != s.pgid {
				s.visit(pid)
			}
		}
	}
}
