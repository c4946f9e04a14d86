package proc

import (
	"os"
	"syscall"
	"unsafe"
)

// pollFd is a struct pollfd.
type pollFd struct {
	fd              int32
	events, revents int16
}

// pollHup is POLLHUP: on a pipe's read end, no writer is left.
const pollHup = 0x10

// hungUp reports whether no process holds the write end of the pipe that
// f reads: the reader will then see the end once it has read what is
// buffered, however long it takes to be scheduled.
func hungUp(f *os.File) bool {
	rc, err := f.SyscallConn() // unlike Fd, leaves the file non-blocking
	if err != nil {
		return false
	}
	hup := false
	_ = rc.Control(func(fd uintptr) {
		fds := [1]pollFd{{fd: int32(fd)}}
		var now syscall.Timespec // a zero timeout: look, do not wait
		n, _, errno := syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&fds[0])), 1,
			uintptr(unsafe.Pointer(&now)), 0, 0, 0)
		hup = errno == 0 && n == 1 && fds[0].revents&pollHup != 0
	})
	return hup
}
