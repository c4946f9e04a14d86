//go:build !unix

package proc

import (
	"os/exec"
	"time"
)

// sweep does nothing where there are no process groups: the command's
// children are not found.
func sweep(cmd *exec.Cmd, token string, started time.Time) (stuck bool) {
	return false
}
