package jsrt

import (
	"reflect"
	"sync"

	"github.com/dop251/goja"
)

// goja runs the Promise jobs a runtime queued only when its outermost call
// returns to Go (Runtime.leave). The library also runs hook code outside
// any such call: reading what an export returned (a getter, a Proxy trap,
// toJSON) or what it threw (toString, a stack getter) goes through
// goja.Object's Go methods, which queue jobs and run none. A job left so
// would run at the start of the runtime's next call, the call of another
// run perhaps, with that call's ctx. So after everything a call does in
// its runtime, the library drains the queue (Drain), under the call's own
// context, and a runtime whose queue is not empty afterwards is never used
// again (Pending).

// jobQueueField is the index of goja.Runtime's job queue (a slice of
// funcs), found once by name; -1 if this goja has none by that name.
var jobQueueField = sync.OnceValue(func() int {
	f, ok := reflect.TypeFor[goja.Runtime]().FieldByName("jobQueue")
	if !ok || f.Type.Kind() != reflect.Slice || len(f.Index) != 1 {
		return -1
	}
	return f.Index[0]
})

// Pending reports whether rt may hold Promise jobs not yet run: true when
// its queue is not empty, or when this goja's queue cannot be seen (the
// caller must then treat the runtime as holding some).
func Pending(rt *goja.Runtime) bool {
	i := jobQueueField()
	if i < 0 {
		return true
	}
	return reflect.ValueOf(rt).Elem().Field(i).Len() > 0
}

// Drain runs the Promise jobs queued in rt, and those they queue, until
// none is left; interrupted, goja discards the rest. It must run inside
// Guard, under the context of the call that queued them, outside any call
// into JavaScript (where goja runs them itself when the call returns).
func Drain(rt *goja.Runtime) error {
	if !Pending(rt) {
		return nil
	}
	// Calling a function from Go at the top level runs the queue as the
	// call returns: goja's own way, the only one it has.
	noop, _ := goja.AssertFunction(rt.ToValue(func(goja.FunctionCall) goja.Value { return goja.Undefined() }))
	if _, err := noop(goja.Undefined()); err != nil {
		return Error(err)
	}
	return nil
}
