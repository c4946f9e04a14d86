package proc

import "os/exec"

// exit is the end of the command's process, as Run waits for it.
type exit struct {
	cmd    *exec.Cmd
	done   chan struct{} // closed when the process has exited
	reaped bool          // exec's Wait already ran (err is its result)
	err    error
}

// reap returns the result of exec's Wait, calling it if it did not run.
// It returns at once: the process has exited, and exec has no goroutine
// to wait for since the command's files are *os.File.
func (e *exit) reap() error {
	if e.reaped {
		return e.err
	}
	return e.cmd.Wait()
}
