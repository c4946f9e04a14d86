package jsrt

import (
	"strings"
	"unicode/utf8"

	"github.com/dop251/goja"
)

// A string of MaxAlloc/2 characters is one call of repeat away, and goja
// treats it, wherever a built-in wants an object, as an object with one
// property per character, which several built-ins then walk in Go, making
// an object or a string per character with no interrupt check:
// Object.keys("x".repeat(2**25)) held a call 0.7 s past its deadline,
// Array.from(s) 1.3 s, s.split("") 1.1 s, s.replace(/x/g, "y") 1.2 s.
// boundStrings makes those built-ins refuse a string longer than
// MaxAlloc/16 characters (4 Mi by default: what a built-in that builds an
// array may build) with a RangeError, and makes the iterations that goja
// drives one step at a time (a string's iterator, a regular expression's
// exec, which match, matchAll, replace, split and search call for each
// match) check the interrupt every checkEvery steps.

// boundStrings installs the checks on the built-ins that walk a string.
func (a *allocGuard) boundStrings() {
	rt := a.rt
	object := rt.Get("Object").(*goja.Object)
	for _, name := range []string{"keys", "values", "entries", "getOwnPropertyNames", "getOwnPropertyDescriptors",
		"freeze", "seal", "isFrozen", "isSealed", "defineProperties"} {
		a.replaceMethod(object, name, a.stringsAt("Object."+name, 0, 1))
	}
	a.replaceMethod(object, "assign", a.stringsAt("Object.assign", 1, -1))
	reflect := rt.Get("Reflect").(*goja.Object)
	a.replaceMethod(reflect, "ownKeys", a.stringsAt("Reflect.ownKeys", 0, 1))
	strProto := rt.Get("String").(*goja.Object).Get("prototype").(*goja.Object)
	a.replaceMethod(strProto, "split", a.split)
	a.replaceMethod(rt.Get("String").(*goja.Object), "raw", a.raw)
	// The iterators goja steps from Go (spread, Array.from, for-of of a
	// string) and the exec that every RegExp method calls per match.
	for _, code := range []string{`Object.getPrototypeOf(""[Symbol.iterator]())`, `RegExp.prototype`,
		`Object.getPrototypeOf(/a/g[Symbol.matchAll](""))`} {
		proto, err := rt.RunString(code)
		if err != nil {
			panic(err) // built-ins of a fresh runtime
		}
		name := "next"
		if code == `RegExp.prototype` {
			name = "exec"
		}
		a.replaceMethod(proto.(*goja.Object), name, func(f native) native {
			return func(call goja.FunctionCall) goja.Value {
				a.tick()
				return f(call)
			}
		})
	}
}

// stringsAt checks the arguments from first (count of them, -1: all) that
// are strings or String objects: one longer than maxElems is refused.
func (a *allocGuard) stringsAt(what string, first, count int) func(native) native {
	return func(f native) native {
		return func(call goja.FunctionCall) goja.Value {
			args := call.Arguments
			if first < len(args) {
				args = args[first:]
				if count >= 0 && count < len(args) {
					args = args[:count]
				}
				for _, arg := range args {
					a.checkString(what, arg)
				}
			}
			return f(call)
		}
	}
}

// checkString refuses v when it is a string, or a String object, of more
// than maxElems characters: a built-in would walk one property each.
func (a *allocGuard) checkString(what string, v goja.Value) {
	if o, ok := v.(*goja.Object); ok {
		if o.ClassName() != "String" || o.ExportType() == proxyType {
			return
		}
	} else if !isStringPrimitive(v) {
		return
	}
	if n := lengthOf(v.ToObject(a.rt)); n > float64(a.maxElems) {
		a.tooLarge(what, n, a.maxElems, "characters")
	}
}

// split wraps String.prototype.split. A separator with a Symbol.split
// method (a RegExp) splits as goja would, by calling it (a RegExp's exec
// checks the interrupt); a string separator is counted first: a result of
// more than maxElems parts is refused. Each value is converted once, in
// goja's order, and the original gets the results.
func (a *allocGuard) split(f native) native {
	return func(call goja.FunctionCall) goja.Value {
		this, sep, limit := call.This, call.Argument(0), call.Argument(1)
		if goja.IsUndefined(this) || goja.IsNull(this) {
			return f(call) // the built-in's own TypeError
		}
		if o, ok := sep.(*goja.Object); ok {
			if m, ok := o.GetSymbol(goja.SymSplit).(*goja.Object); ok {
				if splitter, ok := goja.AssertFunction(m); ok {
					v, err := splitter(o, this, limit)
					if err != nil {
						panic(err)
					}
					return v
				}
			}
		}
		s := this.String()
		max := int64(-1)
		if !goja.IsUndefined(limit) {
			max = int64(uint32(limit.ToInteger()))
		}
		if goja.IsUndefined(sep) {
			return f(goja.FunctionCall{This: a.rt.ToValue(s), Arguments: []goja.Value{sep, a.rt.ToValue(max)}})
		}
		sepStr := sep.String()
		var parts int64
		if sepStr == "" {
			parts = int64(utf8.RuneCountInString(s))
		} else {
			parts = int64(strings.Count(s, sepStr)) + 1
		}
		if max >= 0 {
			parts = min(parts, max)
		}
		if parts > a.maxElems {
			a.tooLarge("String.prototype.split", float64(parts), a.maxElems, "parts")
		}
		if parts < watchFrom {
			args := []goja.Value{a.rt.ToValue(sepStr), goja.Undefined()}
			if max >= 0 {
				args[1] = a.rt.ToValue(max)
			}
			return f(goja.FunctionCall{This: a.rt.ToValue(s), Arguments: args})
		}
		return a.splitLong(s, sepStr, parts)
	}
}

// splitLong is what goja's split makes of s (strings.SplitN of its UTF-8
// form, "" splitting it into characters), the first n parts, checking the
// interrupt as it goes: making millions of strings took seconds.
func (a *allocGuard) splitLong(s, sep string, n int64) goja.Value {
	var parts []any
	for int64(len(parts)) < n {
		a.tick()
		if sep == "" {
			if s == "" {
				break
			}
			_, size := utf8.DecodeRuneInString(s)
			parts, s = append(parts, a.rt.ToValue(s[:size])), s[size:]
			continue
		}
		i := strings.Index(s, sep)
		if i < 0 {
			parts = append(parts, a.rt.ToValue(s))
			break
		}
		parts, s = append(parts, a.rt.ToValue(s[:i])), s[i+len(sep):]
	}
	return a.rt.NewArray(parts...)
}

// raw wraps String.raw, which loops over its argument's raw.length in Go,
// a length the hook sets: past maxElems it is refused; the original gets
// the raw array read once, its length pinned, and when long, watched.
func (a *allocGuard) raw(f native) native {
	return func(call goja.FunctionCall) goja.Value {
		if goja.IsUndefined(call.Argument(0)) || goja.IsNull(call.Argument(0)) {
			return f(call)
		}
		cooked := call.Argument(0).ToObject(a.rt)
		rawValue := cooked.Get("raw")
		if rawValue == nil || goja.IsUndefined(rawValue) || goja.IsNull(rawValue) {
			return f(call) // the built-in's own TypeError
		}
		raw := rawValue.ToObject(a.rt)
		n := lengthOf(raw)
		if n > float64(a.maxElems) {
			a.tooLarge("String.raw", n, a.maxElems, "elements")
		}
		o := a.rt.NewObject()
		_ = o.Set("raw", a.pinned(raw, n))
		args := append([]goja.Value{o}, call.Arguments[1:]...)
		return f(goja.FunctionCall{This: call.This, Arguments: args})
	}
}
