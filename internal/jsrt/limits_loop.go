package jsrt

import (
	"github.com/dop251/goja"
)

// goja checks for an interrupt between JavaScript instructions only, and
// the generic Array.prototype methods loop in Go over this.length, which
// a hook sets: Array.prototype.indexOf.call({length: 2**53-1}, "x") never
// returns (builtin_array.go, arrayproto_indexOf and every method below),
// and new Array(2e7).fill(0) ran for 20 s. Each of them refuses a length
// past MaxAlloc/16 elements (what it may allocate, and a bound on its
// loop), and over a long length (from watchFrom elements) runs on a Proxy
// of its object that checks the interrupt every checkEvery elements it
// reads or writes, so that the call's deadline stops it. A short array,
// every array a hook really has, runs on the built-in's own fast path.

// watchFrom is the length from which a looping built-in checks the
// interrupt as it goes: shorter loops take well under a millisecond.
const watchFrom = 1 << 16

// loopingMethods are the Array.prototype methods that loop over
// this.length in Go. find and its kin call back into JavaScript at every
// index, but a hole-skipping callback method (forEach, map…) does not.
var loopingMethods = [...]string{
	"concat", "copyWithin", "every", "fill", "filter", "find", "findIndex", "findLast", "findLastIndex",
	"flat", "flatMap", "forEach", "includes", "indexOf", "join", "lastIndexOf", "map", "reduce",
	"reduceRight", "reverse", "shift", "slice", "some", "sort", "splice", "toLocaleString", "toString",
	"unshift", "with", "toReversed", "toSorted", "toSpliced",
}

// boundLoops wraps the looping methods of Array.prototype, and join, whose
// result is also bounded: its separators alone may not pass MaxAlloc.
func (a *allocGuard) boundLoops() {
	check, err := a.rt.RunString("(function () {})")
	if err != nil {
		panic(err) // a function expression in a fresh runtime cannot fail
	}
	a.check, _ = goja.AssertFunction(check)
	reflect := a.rt.Get("Reflect").(*goja.Object)
	a.reflect.get, _ = original(reflect, "get")
	a.reflect.set, _ = original(reflect, "set")
	a.reflect.has, _ = original(reflect, "has")
	a.reflect.deleteProperty, _ = original(reflect, "deleteProperty")
	proto := a.rt.NewArray().Prototype()
	for _, name := range loopingMethods {
		a.replaceMethod(proto, name, func(f native) native { return a.looped("Array.prototype."+name, f) })
	}
	// concat walks its arguments too: each spreadable one must be within
	// the bound (a long one is checked as it goes by the deadline, not
	// watched: goja reads it directly).
	// An array counts whether spreadable or not (a getter may say no, then
	// yes); another spreadable object goes to the original pinned, so that
	// its length cannot grow between the check and the walk.
	a.replaceMethod(proto, "concat", func(f native) native {
		return func(call goja.FunctionCall) goja.Value {
			total := 0.0
			args := append([]goja.Value(nil), call.Arguments...)
			for i, arg := range args {
				o, ok := arg.(*goja.Object)
				if !ok {
					continue
				}
				if o.ExportType() != proxyType && o.ClassName() == "Array" {
					total += lengthOf(o)
				} else if a.spreadable(o) {
					n := lengthOf(o)
					total += n
					args[i] = a.watched(o, n)
				}
			}
			if total > float64(a.maxElems) {
				a.tooLarge("Array.prototype.concat", total, a.maxElems, "elements")
			}
			return f(goja.FunctionCall{This: call.This, Arguments: args})
		}
	})
	// An array iterator reads the length it walks at each step, and spread
	// and Array.from drive it from Go: its next checks the interrupt too.
	iter, err := a.rt.RunString("Object.getPrototypeOf([][Symbol.iterator]())")
	if err != nil {
		panic(err)
	}
	a.replaceMethod(iter.(*goja.Object), "next", func(f native) native {
		return func(call goja.FunctionCall) goja.Value {
			a.tick()
			return f(call)
		}
	})
	a.replaceMethod(proto, "join", func(f native) native {
		return func(call goja.FunctionCall) goja.Value {
			if sep := call.Argument(0); !goja.IsUndefined(sep) {
				if o, ok := call.This.(*goja.Object); ok {
					if chars := (lengthOf(o) - 1) * float64(len(sep.String())); chars > float64(a.maxBytes/2) {
						a.tooLarge("Array.prototype.join", chars, a.maxBytes/2, "characters")
					}
				}
			}
			return f(call)
		}
	})
}

// spreadable is IsConcatSpreadable(o): concat walks o's elements.
func (a *allocGuard) spreadable(o *goja.Object) bool {
	if v := o.GetSymbol(goja.SymIsConcatSpreadable); v != nil && !goja.IsUndefined(v) {
		return v.ToBoolean()
	}
	return isArrayOrThrow(a.rt, o)
}

// looped is f refusing a this longer than maxElems, and over a long one
// checking the interrupt as it goes.
func (a *allocGuard) looped(what string, f native) native {
	return func(call goja.FunctionCall) goja.Value {
		if goja.IsUndefined(call.This) || goja.IsNull(call.This) {
			return f(call) // the built-in's own TypeError
		}
		o := call.This.ToObject(a.rt)
		n := lengthOf(o)
		if n > float64(a.maxElems) {
			a.tooLarge(what, n, a.maxElems, "elements")
		}
		p := a.pinned(o, n)
		if p == o {
			return f(call)
		}
		res := f(goja.FunctionCall{This: p, Arguments: call.Arguments})
		if res == p { // fill, reverse, sort, copyWithin return their object
			return o
		}
		return res
	}
}

// pinned is o when the built-in may read o's length again and get n (an
// array, whose length no code can change between the two reads) and loop
// fast (n under watchFrom); otherwise it is watched(o, n). A length a
// getter or a Proxy gives could otherwise be short when checked and
// 2**53-1 when the built-in reads it.
func (a *allocGuard) pinned(o *goja.Object, n float64) goja.Value {
	if n < watchFrom && stableLength(o) {
		return o
	}
	return a.watched(o, n)
}

// stableLength reports whether reading o's length runs no code of the
// hook: an array's, an arguments object's and a String's is a data
// property; a typed array's is the built-in getter, unless shadowed.
func stableLength(o *goja.Object) bool {
	if o.ExportType() == proxyType {
		return false
	}
	switch o.ClassName() {
	case "Array", "Arguments", "String":
		return true
	}
	return isTypedArray(o)
}

// watched is a Proxy of o whose length reads n (until it is written), that
// checks the interrupt every checkEvery reads and writes of its elements,
// and does what Reflect does with them: anything else goes to o as it is.
func (a *allocGuard) watched(o *goja.Object, n float64) goja.Value {
	rt, r := a.rt, &a.reflect
	idx := func(i int) goja.Value { return rt.ToValue(i) }
	length := rt.ToValue(n)
	return rt.ToValue(rt.NewProxy(o, &goja.ProxyTrapConfig{
		Get: func(t *goja.Object, key string, recv goja.Value) goja.Value {
			if key == "length" && length != nil {
				return length
			}
			return r.get(goja.FunctionCall{Arguments: []goja.Value{t, rt.ToValue(key), recv}})
		},
		Set: func(t *goja.Object, key string, v goja.Value, recv goja.Value) bool {
			if key == "length" {
				length = nil
			}
			return r.set(goja.FunctionCall{Arguments: []goja.Value{t, rt.ToValue(key), v, recv}}).ToBoolean()
		},
		GetIdx: func(t *goja.Object, i int, recv goja.Value) goja.Value {
			a.tick()
			return r.get(goja.FunctionCall{Arguments: []goja.Value{t, idx(i), recv}})
		},
		SetIdx: func(t *goja.Object, i int, v goja.Value, recv goja.Value) bool {
			a.tick()
			return r.set(goja.FunctionCall{Arguments: []goja.Value{t, idx(i), v, recv}}).ToBoolean()
		},
		HasIdx: func(t *goja.Object, i int) bool {
			a.tick()
			return r.has(goja.FunctionCall{Arguments: []goja.Value{t, idx(i)}}).ToBoolean()
		},
		DeletePropertyIdx: func(t *goja.Object, i int) bool {
			a.tick()
			return r.deleteProperty(goja.FunctionCall{Arguments: []goja.Value{t, idx(i)}}).ToBoolean()
		},
	}))
}

// reflectOps are Reflect's functions as the runtime had them before any
// hook ran.
type reflectOps struct{ get, set, has, deleteProperty native }

// tick counts one element, and every checkEvery runs a JavaScript
// function, which throws the interrupt if the call's context ended.
func (a *allocGuard) tick() {
	if a.count++; a.count < checkEvery {
		return
	}
	a.count = 0
	if _, err := a.check(goja.Undefined()); err != nil {
		panic(err)
	}
}
