//go:build !linux

package proc

import "os/exec"

// awaitExit waits for the command with exec's Wait, which reaps it: these
// systems offer no portable wait that leaves the process to be reaped.
func awaitExit(cmd *exec.Cmd) *exit {
	e := &exit{cmd: cmd, done: make(chan struct{}), reaped: true}
	go func() {
		defer close(e.done)
		e.err = cmd.Wait()
	}()
	return e
}
