//go:build !unix

package proc

import "os/exec"

// ownGroup kills only the process itself where there are no process
// groups; WaitDelay still bounds the wait for its children's output.
func ownGroup(cmd *exec.Cmd) {}
