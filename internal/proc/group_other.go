//go:build !unix

package proc

import "os/exec"

// ownGroup does nothing where there are no process groups.
func ownGroup(cmd *exec.Cmd) {}

// killNow kills the command's own process: where there are no process
// groups, its children are not reached.
func killNow(cmd *exec.Cmd) {
	_ = cmd.Process.Kill()
}
