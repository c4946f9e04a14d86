package jsrt

import (
	"reflect"

	"github.com/dop251/goja"
)

// A typed array of MaxAlloc bytes (64 Mi elements of a Uint8Array) is one
// allocation within the bound, and %TypedArray%.prototype's methods loop
// over all of it in Go with no interrupt check: new Uint8Array(2**26).join()
// ran past 6 s (a string per element), indexOf, includes, sort, slice,
// reverse and fill for 0.6 to 3 s. join, toString (which calls join) and
// toLocaleString run over views of checkEvery*16 elements, the interrupt
// checked between them; the other looping methods refuse a typed array
// longer than MaxAlloc/16 elements, as Array.prototype's do.

// typedChunk is the elements each view of a long join covers.
const typedChunk = checkEvery * 16

// typedLoopingMethods are the methods of %TypedArray%.prototype that loop
// over the whole array in Go without calling back into JavaScript.
var typedLoopingMethods = [...]string{"indexOf", "lastIndexOf", "includes", "fill", "reverse", "sort", "slice",
	"set", "copyWithin", "toReversed", "toSorted", "with"}

// typedOps are the built-in getters of %TypedArray%.prototype, taken
// before any hook ran, and the typed array constructors by name.
type typedOps struct {
	length, buffer, byteOffset, tag goja.Callable
	ctors                           map[string]*goja.Object
}

var typedGetters = goja.MustCompile("typed", `(function () {
	const P = Object.getPrototypeOf(Uint8Array.prototype), get = (k) => Object.getOwnPropertyDescriptor(P, k).get;
	return [get("length"), get("buffer"), get("byteOffset"), get(Symbol.toStringTag), P];
})()`, true)

// boundTypedArrays installs the bounds on %TypedArray%.prototype.
func (a *allocGuard) boundTypedArrays() {
	rt := a.rt
	v, err := rt.RunProgram(typedGetters)
	if err != nil {
		panic(err) // built-ins of a fresh runtime
	}
	list := v.(*goja.Object)
	get := func(i string) goja.Callable {
		f, _ := goja.AssertFunction(list.Get(i))
		return f
	}
	a.typed = typedOps{length: get("0"), buffer: get("1"), byteOffset: get("2"), tag: get("3"), ctors: map[string]*goja.Object{}}
	for _, ta := range typedArrays {
		if c, ok := rt.Get(ta.name).(*goja.Object); ok {
			a.typed.ctors[ta.name] = c
		}
	}
	proto := list.Get("4").(*goja.Object)
	a.replaceMethod(proto, "join", func(f native) native { return a.typedJoin(f, false) })
	a.replaceMethod(proto, "toLocaleString", func(f native) native { return a.typedJoin(f, true) })
	for _, name := range typedLoopingMethods {
		a.replaceMethod(proto, name, func(f native) native {
			return func(call goja.FunctionCall) goja.Value {
				if o, ok := call.This.(*goja.Object); ok && isTypedArray(o) {
					if n := a.typedLength(o); n > a.maxElems {
						a.tooLarge("TypedArray.prototype."+name, float64(n), a.maxElems, "elements")
					}
				}
				return f(call)
			}
		})
	}
}

// typedArrayTypes are what goja exports a typed array as.
var typedArrayTypes = map[reflect.Type]bool{
	reflect.TypeFor[[]int8](): true, reflect.TypeFor[[]uint8](): true, reflect.TypeFor[[]int16](): true,
	reflect.TypeFor[[]uint16](): true, reflect.TypeFor[[]int32](): true, reflect.TypeFor[[]uint32](): true,
	reflect.TypeFor[[]float32](): true, reflect.TypeFor[[]float64](): true, reflect.TypeFor[[]int64](): true,
	reflect.TypeFor[[]uint64](): true,
}

// isTypedArray reports whether o is a typed array (not a Proxy of one).
func isTypedArray(o *goja.Object) bool {
	return typedArrayTypes[o.ExportType()]
}

// typedLength is o's length, as the built-in getter gives it.
func (a *allocGuard) typedLength(o *goja.Object) int64 {
	return a.callTyped(a.typed.length, o).ToInteger()
}

func (a *allocGuard) callTyped(getter goja.Callable, o *goja.Object) goja.Value {
	v, err := getter(o)
	if err != nil {
		panic(err)
	}
	return v
}

// typedJoin wraps join (or toLocaleString, locale): on a long typed array
// it joins views of typedChunk elements with the original, checking the
// interrupt between them, and refuses a result past MaxAlloc.
func (a *allocGuard) typedJoin(f native, locale bool) native {
	return func(call goja.FunctionCall) goja.Value {
		o, ok := call.This.(*goja.Object)
		if !ok || !isTypedArray(o) {
			return f(call)
		}
		n := a.typedLength(o)
		if n < watchFrom {
			return f(call)
		}
		sep := goja.Value(a.rt.ToValue(","))
		if !locale && !goja.IsUndefined(call.Argument(0)) {
			sep = a.rt.ToValue(call.Argument(0).String()) // converted once
		}
		sepLen := int64(len(sep.String()))
		limit := a.maxBytes / 2
		if (n-1)*sepLen > limit {
			a.tooLarge("TypedArray.prototype.join", float64((n-1)*sepLen), limit, "characters")
		}
		ctor := a.typed.ctors[a.callTyped(a.typed.tag, o).String()]
		construct, ok := goja.AssertConstructor(ctor)
		if !ok {
			return f(call)
		}
		buffer, offset := a.callTyped(a.typed.buffer, o), a.callTyped(a.typed.byteOffset, o).ToInteger()
		size := ctor.Get("BYTES_PER_ELEMENT").ToInteger()
		var b goja.StringBuilder
		var length int64
		for i := int64(0); i < n; i += typedChunk {
			view, err := construct(nil, buffer, a.rt.ToValue(offset+i*size), a.rt.ToValue(min(typedChunk, n-i)))
			if err != nil {
				panic(err)
			}
			if i > 0 {
				b.WriteString(sep.(goja.String))
				length += sepLen
			}
			part := f(goja.FunctionCall{This: view, Arguments: []goja.Value{sep}}).(goja.String)
			b.WriteString(part)
			if length += int64(part.Length()); length > limit {
				a.tooLarge("TypedArray.prototype.join", float64(length), limit, "characters")
			}
			if _, err := a.check(goja.Undefined()); err != nil {
				panic(err)
			}
		}
		return b.String()
	}
}
