//go:build unix

package proc

import (
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own, which killNow and
// the sweep kill as a whole: a kill of a group reaches the children that
// a fork in progress is adding to it too.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killNow kills the command's process group.
func killNow(cmd *exec.Cmd) {
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
