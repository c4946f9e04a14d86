//go:build unix

package prebuilt

import "syscall"

// syscallENOTDIR is what Lstat says of a path through a file: nothing
// there can be a link either.
var syscallENOTDIR error = syscall.ENOTDIR
