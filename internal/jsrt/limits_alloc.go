package jsrt

import (
	"fmt"
	"math"
	"reflect"

	"github.com/dop251/goja"
)

// goja allocates in one step what some built-ins are asked for by a number
// the hook gives: new ArrayBuffer(2**40) asks Go for a terabyte at once,
// and Go's answer to an allocation it cannot make is a fatal error that no
// recover catches and no GOMEMLIMIT prevents (typedarrays.go
// _newArrayBuffer, builtin_typedarrays.go allocateTypedArray,
// builtin_string.go stringproto_repeat and padStart, builtin_function.go
// createListFromArrayLike). A runtime of New checks such a number against
// its Limits before the built-in runs, and throws a catchable RangeError
// past them (limits_alloc.go); the built-ins that loop in Go over a length
// the hook sets are bounded and interruptible (limits_loop.go).

// DefaultMaxAlloc is the default of Limits.MaxAlloc: far above what a hook
// needs (a tool's output, a conversation), far below what exhausts a host.
const DefaultMaxAlloc = 64 << 20

// Limits are the allocation limits of a runtime.
type Limits struct {
	// MaxAlloc bounds, in bytes, what one built-in call may allocate from a
	// number the hook gives: an ArrayBuffer or typed array, a string that
	// repeat, padStart, padEnd or join builds. Arrays count 16 bytes an
	// element: a built-in that loops over an array-like, or builds an array
	// from one, refuses a length past MaxAlloc/16 (4 Mi elements by
	// default). 0: DefaultMaxAlloc.
	MaxAlloc int64
}

// maxArgs bounds the arguments Function.prototype.apply, Reflect.apply and
// Reflect.construct spread from an array-like: V8 stops near 120,000.
const maxArgs = 1 << 17

// allocGuard holds a runtime's limits.
type allocGuard struct {
	*depthGuard
	maxBytes int64         // one allocation of bytes or string characters (2 bytes each)
	maxElems int64         // elements of an array a built-in loops over or builds
	check    goja.Callable // a JavaScript function: calling it throws a pending interrupt
	count    int           // elements since the last interrupt check
	reflect  reflectOps
	typed    typedOps
}

func newAllocGuard(g *depthGuard, l Limits) *allocGuard {
	maxBytes := l.MaxAlloc
	if maxBytes <= 0 {
		maxBytes = DefaultMaxAlloc
	}
	return &allocGuard{depthGuard: g, maxBytes: maxBytes, maxElems: max(maxBytes/16, 1)}
}

// tooLarge throws the RangeError of a built-in asked for more than its
// limit.
func (a *allocGuard) tooLarge(what string, asked float64, limit int64, unit string) {
	a.throwRange(fmt.Sprintf("%s: %.0f %s is more than the %d a hook may ask for at once (Loader.MaxAlloc)", what, asked, unit, limit))
}

// boundAllocations installs the checks on what allocates from a number.
func (a *allocGuard) boundAllocations() {
	rt := a.rt
	strProto := rt.Get("String").(*goja.Object).Get("prototype").(*goja.Object)
	a.replaceMethod(strProto, "repeat", func(f native) native {
		return func(call goja.FunctionCall) goja.Value {
			s := call.This.String()
			n := call.Argument(0).ToFloat()
			if n > 0 && float64(len(s))*n > float64(a.maxBytes/2) { // a char is 2 bytes at most
				a.tooLarge("String.prototype.repeat", float64(len(s))*n, a.maxBytes/2, "characters")
			}
			return f(call)
		}
	})
	for _, name := range []string{"padStart", "padEnd"} {
		a.replaceMethod(strProto, name, func(f native) native {
			return func(call goja.FunctionCall) goja.Value {
				if n := call.Argument(0).ToFloat(); n > float64(a.maxBytes/2) {
					a.tooLarge("String.prototype."+name, n, a.maxBytes/2, "characters")
				}
				return f(call)
			}
		})
	}
	fnProto := rt.Get("Function").(*goja.Object).Get("prototype").(*goja.Object)
	a.replaceMethod(fnProto, "apply", a.argsAt(1, "Function.prototype.apply"))
	reflect := rt.Get("Reflect").(*goja.Object)
	a.replaceMethod(reflect, "apply", a.argsAt(2, "Reflect.apply"))
	a.replaceMethod(reflect, "construct", a.argsAt(1, "Reflect.construct"))
	array := rt.Get("Array").(*goja.Object)
	a.replaceMethod(array, "from", a.lengthAt(0, "Array.from", a.maxElems))
	a.boundBuffers()
	a.boundStrings()
	a.boundTypedArrays()
	a.refuseBigInt()
}

// argsAt checks that argument i, an array-like of arguments, is not longer
// than maxArgs.
func (a *allocGuard) argsAt(i int, what string) func(native) native {
	return a.lengthAt(i, what, maxArgs)
}

// lengthAt checks that argument i, when an object, has no length past
// limit.
func (a *allocGuard) lengthAt(i int, what string, limit int64) func(native) native {
	return func(f native) native {
		return func(call goja.FunctionCall) goja.Value {
			arg := call.Argument(i)
			if o, ok := arg.(*goja.Object); ok {
				n := lengthOf(o)
				if n > float64(limit) {
					a.tooLarge(what, n, limit, "elements")
				}
				if !stableLength(o) && !iterable(o) { // the original reads the length again
					args := append([]goja.Value(nil), call.Arguments...)
					args[i] = a.pinned(o, n)
					return f(goja.FunctionCall{This: call.This, Arguments: args})
				}
			} else if isStringPrimitive(arg) {
				if n := lengthOf(arg.ToObject(a.rt)); n > float64(limit) {
					a.tooLarge(what, n, limit, "characters")
				}
			}
			return f(call)
		}
	}
}

// iterable reports whether o has a Symbol.iterator: Array.from and
// TypedArray.from iterate it instead of reading its length, and need o
// itself (a Set's values, a generator's next refuse a Proxy of it).
func iterable(o *goja.Object) bool {
	v := o.GetSymbol(goja.SymIterator)
	return v != nil && !goja.IsUndefined(v) && !goja.IsNull(v)
}

// lengthOf is ToLength(o.length), as a float: 2**53-1 at most.
func lengthOf(o *goja.Object) float64 {
	v := o.Get("length")
	if v == nil {
		return 0
	}
	n := v.ToFloat()
	if math.IsNaN(n) || n <= 0 {
		return 0
	}
	return math.Min(math.Trunc(n), 1<<53-1)
}

// typedArrays are the constructors that allocate a buffer, with the bytes
// of an element.
var typedArrays = [...]struct {
	name  string
	bytes int64
}{
	{"ArrayBuffer", 1}, {"Int8Array", 1}, {"Uint8Array", 1}, {"Uint8ClampedArray", 1},
	{"Int16Array", 2}, {"Uint16Array", 2}, {"Int32Array", 4}, {"Uint32Array", 4},
	{"Float32Array", 4}, {"Float64Array", 8}, {"BigInt64Array", 8}, {"BigUint64Array", 8},
}

// boundBuffers replaces each buffer constructor, as a global and as its
// prototype's constructor, with a native constructor that checks the size
// asked for (a length, or an array-like's length) and then constructs with
// the original, for the same new.target: subclassing with extends,
// instanceof, the prototype and the statics are the original's. (A Proxy
// of the constructor would do, but goja's instanceof refuses a Proxy.)
// %TypedArray%.from, which reads an array-like before it constructs,
// checks the array-like's length.
func (a *allocGuard) boundBuffers() {
	rt := a.rt
	global := rt.GlobalObject()
	for _, ta := range typedArrays {
		orig, ok := global.Get(ta.name).(*goja.Object)
		if !ok {
			continue
		}
		construct, _ := goja.AssertConstructor(orig)
		name, size := ta.name, ta.bytes
		var fn *goja.Object
		fn = rt.ToValue(func(c goja.ConstructorCall) *goja.Object {
			target := c.NewTarget
			if target == nil { // goja's new of the function itself; or a call without new, which constructs too
				target = fn
			}
			a.checkBuffer(name, size, c.Arguments)
			o, err := construct(target, c.Arguments...)
			if err != nil {
				panic(err)
			}
			return o
		}).(*goja.Object)
		_ = fn.DefineDataProperty("name", rt.ToValue(name), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
		_ = fn.DefineDataProperty("length", orig.Get("length"), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
		proto := orig.Get("prototype").(*goja.Object)
		_ = fn.DefineDataProperty("prototype", proto, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
		_ = fn.SetPrototype(orig.Prototype())
		for _, static := range []string{"BYTES_PER_ELEMENT", "isView"} {
			if v := orig.Get(static); v != nil {
				_ = fn.DefineDataProperty(static, v, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
			}
		}
		_ = global.DefineDataProperty(name, fn, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		_ = proto.DefineDataProperty("constructor", fn, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		if name == "Uint8Array" {
			if typed := orig.Prototype(); typed != nil && typed.Get("from") != nil {
				a.replaceMethod(typed, "from", a.lengthAt(0, "TypedArray.from", a.maxElems))
			}
		}
	}
}

var arrayBufferType = reflect.TypeFor[goja.ArrayBuffer]()

// checkBuffer throws when new name(args...) would allocate more than
// MaxAlloc bytes: from a length, or from an array-like (not a buffer).
func (a *allocGuard) checkBuffer(name string, size int64, args []goja.Value) {
	if len(args) == 0 {
		return
	}
	var n float64
	switch v := args[0].(type) {
	case *goja.Object:
		if v.ExportType() == arrayBufferType { // never Export: it copies an array whole
			return // a view on a buffer that exists
		}
		n = lengthOf(v)
	default:
		n = v.ToFloat()
	}
	if bytes := n * float64(size); bytes > float64(a.maxBytes) {
		a.tooLarge(name, bytes, a.maxBytes, "bytes")
	}
}
