package jsrt

import (
	"fmt"

	"github.com/dop251/goja"
)

// goja counts the JavaScript frames of a runtime (MaxCallStack) in its VM,
// but several built-ins recurse in Go instead, without pushing a frame:
// converting an array to a string converts its elements from Go,
// JSON.stringify walks a value recursively, a generator delegating with
// yield* calls the inner generator's next from Go, a bound function calls
// its target from Go. Such a recursion runs until the Go stack exceeds its
// limit, a fatal error that no recover catches. A runtime of New counts
// these recursions and throws a catchable RangeError past MaxNesting
// (MaxChain for chains): Object.prototype gets a Symbol.toPrimitive that
// counts every conversion (limits_primitive.go), and the other built-ins
// are replaced with ones that count (limits_array.go, limits_json.go,
// limits_generator.go, limits_chain.go).
//
// What cannot be bounded from outside goja (a native function used as a
// getter, a Proxy trap or a callback that calls itself; prototype and
// class chains; the parser, for eval and the hook's own source) is
// described in docs/guarantees.md (JavaScript).

// MaxNesting bounds, per runtime, how many of the counted built-ins may be
// running inside one another: levels of conversion to a primitive (an
// array within an array…), of JSON being written or read, of generators
// delegating to each other, of arrays being flattened. A level costs a few
// kilobytes of Go stack at most, so that the Go stack stays far below its
// limit (1 GB), even on top of MaxCallStack frames. Not much more than real
// values need (JSON 1,000 deep must work; the values that cross into a hook
// stop at MaxDepth) because some levels cost more than stack: goja's
// JSON.stringify compares each object with every open level (a cycle
// check), and indents each line by its depth, both growing with the square
// of the depth, in Go code that no interrupt stops.
const MaxNesting = 2000

// MaxChain bounds the chains that goja follows by recursing in Go, which a
// hook builds one link at a time: a bound function of a bound function…, a
// Proxy of a Proxy… (a Proxy's handler counts too). Real code binds a bound
// function or wraps a Proxy a few times at most. It is small because goja
// may follow a whole chain at each of the MaxCallStack frames and
// MaxNesting levels: at up to about 1 KB of Go stack per link, that is
// about 100 MB at most, far below the Go stack's limit.
const MaxChain = 16

// boundRecursion makes the paths by which JavaScript recursion reaches Go
// recursion count against a depth limit, as far as a runtime's built-ins
// can be changed from outside goja, so that a hook cannot overflow the Go
// stack (a fatal error no recover catches). What each line adds to a
// runtime (BenchmarkNewRuntime makes one and evaluates a small module in
// 7 KB, 73 allocations): conversions 1.4 KB (23), arrays 4.0 KB (53),
// JSON 4.1 KB (57), generators 9.6 KB (138, most of it goja's generator
// machinery, made before its first use), chains 5.7 KB (80).
func boundRecursion(rt *goja.Runtime) *depthGuard {
	g := &depthGuard{rt: rt, chains: &chainDepths{}}
	g.boundConversions()
	g.boundArrays()
	g.boundJSON()
	g.boundGenerators()
	g.boundChains()
	return g
}

// depthGuard holds the nesting count of one runtime. A runtime runs on one
// goroutine at a time, as goja requires, so the count needs no lock.
type depthGuard struct {
	rt     *goja.Runtime
	depth  int          // levels of counted built-ins running now
	chains *chainDepths // apart: its cleanups must not keep the runtime alive

	json     *jsonWalk  // the innermost JSON.stringify running, if any
	replacer goja.Value // the replacer JSON.stringify gets, made at its first use
}

// native is a built-in function as goja calls it from Go.
type native = func(goja.FunctionCall) goja.Value

// enter counts cost more levels for what (a built-in's name), or throws a
// RangeError when that would pass MaxNesting. Each enter is paired with a
// deferred leave of the same cost, which a throw unwinds too.
func (g *depthGuard) enter(cost int, what string) {
	if g.depth+cost > MaxNesting {
		g.throwRange(fmt.Sprintf("Maximum nesting depth exceeded (%d) in %s", MaxNesting, what))
	}
	g.depth += cost
}

// leave uncounts what enter counted.
func (g *depthGuard) leave(cost int) { g.depth -= cost }

// throwRange throws a RangeError with message: a JavaScript exception that
// the hook can catch, and that the host reports if it does not. The
// constructor is the global one, read now rather than kept from the start,
// which would cost every runtime; a hook that replaced it gets a TypeError.
func (g *depthGuard) throwRange(message string) {
	if ex, err := g.rt.New(g.rt.Get("RangeError"), g.rt.ToValue(message)); err == nil {
		panic(ex)
	}
	panic(g.rt.NewTypeError(message))
}

// counted returns f counting one level for each call of it.
func (g *depthGuard) counted(what string, f native) native {
	return func(call goja.FunctionCall) goja.Value {
		g.enter(1, what)
		defer g.leave(1)
		return f(call)
	}
}

// original returns the built-in function obj[name] as goja calls it, and
// its length.
func original(obj *goja.Object, name string) (native, goja.Value) {
	fn := obj.Get(name).(*goja.Object)
	return fn.Export().(native), fn.Get("length")
}

// replaceMethod replaces the built-in method obj[name] with wrap of it,
// keeping the method's name, length and property attributes (writable,
// configurable, not enumerable).
func (g *depthGuard) replaceMethod(obj *goja.Object, name string, wrap func(native) native) {
	f, length := original(obj, name)
	fn := g.function(name, length, wrap(f))
	_ = obj.DefineDataProperty(name, fn, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// countMethod replaces the built-in method obj[name] with one that counts
// one level for each call, as what.
func (g *depthGuard) countMethod(obj *goja.Object, name, what string) {
	g.replaceMethod(obj, name, func(f native) native { return g.counted(what, f) })
}

// function makes a native function with the name and length a built-in
// shows (goja names a Go function after its Go symbol, with length 0, which
// a nil length keeps).
func (g *depthGuard) function(name string, length goja.Value, f native) *goja.Object {
	fn := g.rt.ToValue(f).(*goja.Object)
	_ = fn.DefineDataProperty("name", g.rt.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	if length != nil && length.ToInteger() != 0 {
		_ = fn.DefineDataProperty("length", length, goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	}
	return fn
}
