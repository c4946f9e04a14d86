package proc

import (
	"os/exec"
	"syscall"
	"unsafe"
)

// awaitExit watches for the command's exit without reaping it: until Run
// reaps it, its pid (the process group's id) cannot be given to another
// process, so killing the group after the exit cannot reach a stranger.
func awaitExit(cmd *exec.Cmd) *exit {
	e := &exit{cmd: cmd, done: make(chan struct{})}
	go func() {
		defer close(e.done)
		if waitNoReap(cmd.Process.Pid) != nil {
			// waitid is missing (old emulations) or failed: reap now,
			// and kill the group after all, as other unix systems do.
			e.err, e.reaped = cmd.Wait(), true
		}
	}()
	return e
}

// waitNoReap blocks until pid has exited, leaving it to be reaped (waitid
// with WNOWAIT, as os does before its own Wait).
func waitNoReap(pid int) error {
	const pPID = 1      // P_PID
	var info [16]uint64 // a siginfo_t
	for {
		_, _, errno := syscall.Syscall6(syscall.SYS_WAITID, pPID, uintptr(pid),
			uintptr(unsafe.Pointer(&info)), syscall.WEXITED|syscall.WNOWAIT, 0, 0)
		if errno != syscall.EINTR {
			if errno != 0 {
				return errno
			}
			return nil
		}
	}
}
