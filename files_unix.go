//go:build unix

package hooks

import (
	"os"
	"syscall"
)

// openNonBlocking opens p without waiting: opening a FIFO otherwise blocks
// until its other end is opened, which may be never. A regular file
// ignores the flag.
func openNonBlocking(p string, flag int, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(p, flag|syscall.O_NONBLOCK, perm)
}
