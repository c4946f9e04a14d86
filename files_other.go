//go:build !unix

package hooks

import (
	"fmt"
	"os"
)

// openNonBlocking refuses what is not a regular file before opening it
// (there is no O_NONBLOCK to open a FIFO without waiting).
func openNonBlocking(p string, flag int, perm os.FileMode) (*os.File, error) {
	if fi, err := os.Stat(p); err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file: refused", p)
	}
	return os.OpenFile(p, flag, perm)
}
