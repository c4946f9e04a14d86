package jsrt

import (
	"strconv"

	"github.com/dop251/goja"
)

// boundArrays counts the array built-ins that recurse into nested arrays in
// Go without converting them to primitives (which boundConversions counts):
// toLocaleString calls each element's toLocaleString from Go, which for an
// array is toLocaleString again (builtin_array.go, writeItemLocaleString);
// flat(depth) recurses depth levels (flattenIntoArray).
func (g *depthGuard) boundArrays() {
	proto := g.rt.NewArray().Prototype()
	g.countMethod(proto, "toLocaleString", "Array.prototype.toLocaleString")
	g.replaceMethod(proto, "flat", g.flat)
}

// flat wraps Array.prototype.flat, which recurses in Go once per level it
// flattens, up to its depth argument (Infinity is common). It lets the
// original flatten at most half the levels the runtime has left (half, so
// that what runs inside, a getter, a species constructor, can still nest),
// counting them; an array nested deeper than that is a RangeError, which
// flattening fewer levels shows: an element of the result is still an array.
func (g *depthGuard) flat(f native) native {
	return func(call goja.FunctionCall) goja.Value {
		depth := int64(1)
		args := call.Arguments
		if len(args) > 0 {
			// Converted here, once: the original gets a number, and calls no
			// valueOf again (which now runs before this's length is read).
			depth = args[0].ToInteger()
			args = append([]goja.Value{nil}, args[1:]...)
		} else {
			args = []goja.Value{nil}
		}
		allowed := int64(MaxNesting-g.depth) / 2
		cut := depth > allowed
		if cut {
			depth = allowed
		}
		cost := int(max(depth, 0))
		g.enter(cost, "Array.prototype.flat")
		defer g.leave(cost)
		args[0] = g.rt.ToValue(depth)
		res := f(goja.FunctionCall{This: call.This, Arguments: args})
		if cut && g.holdsArray(res) {
			g.throwRange("Maximum nesting depth exceeded (" + strconv.Itoa(MaxNesting) + ") in Array.prototype.flat")
		}
		return res
	}
}

// holdsArray reports whether one of the elements of the array-like v is
// an array.
func (g *depthGuard) holdsArray(v goja.Value) bool {
	o, ok := v.(*goja.Object)
	if !ok {
		return false
	}
	n := o.Get("length").ToInteger()
	for i := int64(0); i < n; i++ {
		if e, ok := o.Get(strconv.FormatInt(i, 10)).(*goja.Object); ok && g.isArray(e) {
			return true
		}
	}
	return false
}

// isArrayOrThrow is JavaScript's Array.isArray: an array, or a Proxy of
// one; a revoked Proxy is a TypeError, as in goja.
func isArrayOrThrow(rt *goja.Runtime, o *goja.Object) bool {
	for o.ExportType() == proxyType {
		if o = o.Export().(goja.Proxy).Target(); o == nil {
			panic(rt.NewTypeError("Cannot perform 'IsArray' on a proxy that has been revoked"))
		}
	}
	return o.ClassName() == "Array"
}
