//go:build !unix

package prebuilt

import "errors"

var syscallENOTDIR = errors.New("not a directory") // never matched off unix
