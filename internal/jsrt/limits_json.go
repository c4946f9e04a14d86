package jsrt

import (
	"reflect"
	"slices"
	"strconv"

	"github.com/dop251/goja"
)

// boundJSON counts the levels of JSON.stringify and JSON.parse, which
// recurse in Go once per level of the value (goja's builtin_json.go: str,
// ja and jo; decodeArray, decodeObject and reviveWalk).
func (g *depthGuard) boundJSON() {
	json := g.rt.Get("JSON").(*goja.Object)
	g.replaceMethod(json, "stringify", g.stringify)
	g.replaceMethod(json, "parse", g.parse)
}

// jsonWalk follows one JSON.stringify: goja calls the replacer with each
// value to write and the object that holds it, so that the objects written
// around the value are known, and counted, as they open and close.
type jsonWalk struct {
	open  []*goja.Object // the holder of the value being written, and those around it, outermost first
	user  goja.Value     // the hook's replacer function, if any
	keys  []string       // the hook's replacer array (the keys to write), if any
	stand []*goja.Object // with keys: the objects that open's elements stand for
	outer *jsonWalk      // the JSON.stringify this one runs inside (from a toJSON), if any
}

// stringify wraps JSON.stringify: it passes the original a replacer of
// its own, which calls the hook's (a function), or stands for it (an array,
// which the original would read instead of calling a replacer).
func (g *depthGuard) stringify(f native) native {
	return func(call goja.FunctionCall) goja.Value {
		w := &jsonWalk{outer: g.json}
		if r, ok := call.Argument(1).(*goja.Object); ok {
			if g.isArray(r) {
				w.keys = propertyList(r)
			} else if _, ok := goja.AssertFunction(r); ok {
				w.user = r
			}
		}
		g.json = w
		defer func() {
			g.depth -= len(w.open)
			g.json = w.outer
		}()
		args := []goja.Value{call.Argument(0), g.jsonReplacer(), call.Argument(2)}
		return f(goja.FunctionCall{This: call.This, Arguments: args})
	}
}

// jsonReplacer returns the runtime's replacer, made at its first use.
func (g *depthGuard) jsonReplacer() goja.Value {
	if g.replacer == nil {
		g.replacer = g.rt.ToValue(func(call goja.FunctionCall) goja.Value {
			holder, ok := call.This.(*goja.Object)
			if g.json == nil || !ok { // only goja's JSON.stringify has it, and calls it so
				return call.Argument(1)
			}
			return g.json.replace(g, holder, call.Argument(0), call.Argument(1))
		})
	}
	return g.replacer
}

// replace is what the hook's replacer makes of value, the property key of
// holder; an object to write opens a level.
func (w *jsonWalk) replace(g *depthGuard, holder *goja.Object, key, value goja.Value) goja.Value {
	w.reach(g, holder)
	if w.user != nil {
		value = g.call(w.user, holder, key, value)
	}
	o, ok := value.(*goja.Object)
	if !ok {
		return value
	}
	if _, fn := goja.AssertFunction(o); fn {
		return value // not written
	}
	stand := o
	if w.keys != nil && !g.isArray(o) && !boxed[o.ClassName()] {
		w.checkCycle(g, o)
		o = g.rt.NewDynamicObject(&listed{obj: o, keys: w.keys})
		_ = o.SetPrototype(nil) // what it has not, it must not inherit
		value = o
	}
	w.push(g, o, stand)
	return value
}

// reach closes the levels written inside holder since it opened: holder is
// the object being written, one of the open ones (or the first holder, the
// wrapper goja puts the value in, which then opens).
func (w *jsonWalk) reach(g *depthGuard, holder *goja.Object) {
	for i := len(w.open) - 1; i >= 0; i-- {
		if w.open[i] == holder {
			g.depth -= len(w.open) - 1 - i
			clear(w.open[i+1:])
			w.open = w.open[:i+1]
			if w.stand != nil {
				clear(w.stand[i+1:])
				w.stand = w.stand[:i+1]
			}
			return
		}
	}
	w.push(g, holder, holder)
}

// push opens a level: o is being written, in place of stand.
func (w *jsonWalk) push(g *depthGuard, o, stand *goja.Object) {
	g.enter(1, "JSON.stringify")
	w.open = append(w.open, o)
	if w.keys != nil {
		w.stand = append(w.stand, stand)
	}
}

// checkCycle throws goja's TypeError when o is being written already: with
// a replacer array, goja sees the stand-ins, never the same twice.
func (w *jsonWalk) checkCycle(g *depthGuard, o *goja.Object) {
	for _, s := range w.stand {
		if s == o {
			panic(g.rt.NewTypeError("Converting circular structure to JSON"))
		}
	}
}

// boxed are the classes of the objects JSON.stringify writes as primitives.
var boxed = map[string]bool{"Number": true, "String": true, "Boolean": true, "Symbol": true, "BigInt": true}

// propertyList reads a replacer array as goja does: its strings and
// numbers (and String and Number objects), once each, in order.
func propertyList(r *goja.Object) []string {
	n := r.Get("length").ToInteger()
	keys := []string{}
	seen := map[string]bool{}
	for i := int64(0); i < n; i++ {
		v := r.Get(strconv.FormatInt(i, 10))
		if v == nil {
			continue
		}
		if o, ok := v.(*goja.Object); ok {
			if c := o.ClassName(); c != "Number" && c != "String" {
				continue
			}
		} else if k := v.ExportType(); k == nil || (k.Kind() != reflect.String && k.Kind() != reflect.Int64 && k.Kind() != reflect.Float64) {
			continue
		}
		if k := v.String(); !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	return keys
}

// listed stands for an object being written with a replacer array: it has
// the array's keys, in its order, and reads them from the object when goja
// writes them (as goja would, one at a time).
type listed struct {
	obj  *goja.Object
	keys []string
}

func (l *listed) Get(key string) goja.Value       { return l.obj.Get(key) }
func (l *listed) Set(string, goja.Value) bool     { return false }
func (l *listed) Has(key string) bool             { return slices.Contains(l.keys, key) }
func (l *listed) Delete(string) bool              { return false }
func (l *listed) Keys() []string                  { return l.keys }
func (g *depthGuard) isArray(o *goja.Object) bool { return isArrayOrThrow(g.rt, o) }

// parse wraps JSON.parse: the text's nesting is counted before the
// original reads it, and a reviver is applied here, counting its levels
// (the original's walk would go down a value the reviver attached, however
// deep, before calling it again).
func (g *depthGuard) parse(f native) native {
	return func(call goja.FunctionCall) goja.Value {
		text := call.Argument(0)
		if _, ok := text.(*goja.Object); ok {
			text = text.ToString() // once: the original then gets a string, and calls no toString again
		}
		reviver := call.Argument(1)
		args := []goja.Value{text, reviver}
		if _, ok := goja.AssertFunction(reviver); ok {
			args = args[:1]
		}
		value := g.parseText(f, call.This, args, jsonDepth(text.String()))
		if len(args) == 2 {
			return value
		}
		root := g.rt.NewObject()
		_ = root.Set("", value)
		return g.newReviving(reviver).revive(root, "")
	}
}

// parseText runs the original JSON.parse on a text nested depth levels.
func (g *depthGuard) parseText(f native, this goja.Value, args []goja.Value, depth int) goja.Value {
	g.enter(depth, "JSON.parse")
	defer g.leave(depth)
	return f(goja.FunctionCall{This: this, Arguments: args})
}

// jsonDepth returns how deeply arrays and objects nest in text (outside
// strings), which is how deeply the original's decoding recurses.
func jsonDepth(text string) int {
	depth, deepest := 0, 0
	inString, escaped := false, false
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			depth++
			deepest = max(deepest, depth)
		case c == ']' || c == '}':
			depth--
		}
	}
	return deepest
}

// reviving is one JSON.parse applying a reviver.
type reviving struct {
	g       *depthGuard
	reviver goja.Value
	// Reflect.defineProperty and deleteProperty change a property as goja's
	// own walk does: a failure is no error, a trap's throw is. They are the
	// global Reflect's, read at the parse rather than kept from the start,
	// which would cost every runtime: a hook that replaced them changes
	// only its own revivers.
	define, remove goja.Value
	desc           *goja.Object // the descriptor define gets, {value, writable, enumerable, configurable}
}

// newReviving prepares applying reviver.
func (g *depthGuard) newReviving(reviver goja.Value) *reviving {
	reflect, ok := g.rt.Get("Reflect").(*goja.Object)
	if !ok {
		panic(g.rt.NewTypeError("Reflect is not an object"))
	}
	desc := g.rt.NewObject()
	for _, k := range []string{"writable", "enumerable", "configurable"} {
		_ = desc.Set(k, true)
	}
	return &reviving{g: g, reviver: reviver, define: reflect.Get("defineProperty"), remove: reflect.Get("deleteProperty"), desc: desc}
}

// revive is the specification's InternalizeJSONProperty, as goja's
// reviveWalk does it, one counted level per call.
func (r *reviving) revive(holder *goja.Object, name string) goja.Value {
	r.g.enter(1, "JSON.parse")
	defer r.g.leave(1)
	value := holder.Get(name)
	if value == nil {
		value = goja.Undefined()
	}
	if o, ok := value.(*goja.Object); ok {
		var keys []string
		if r.g.isArray(o) {
			n := max(o.Get("length").ToInteger(), 0)
			for i := int64(0); i < n; i++ {
				keys = append(keys, strconv.FormatInt(i, 10))
			}
		} else {
			keys = o.Keys()
		}
		for _, k := range keys {
			r.reviveProperty(o, k)
		}
	}
	return r.g.call(r.reviver, holder, r.g.rt.ToValue(name), value)
}

// reviveProperty replaces o[key] with what the reviver makes of it, or
// deletes it for undefined; a property that cannot change stays.
func (r *reviving) reviveProperty(o *goja.Object, key string) {
	v := r.revive(o, key)
	k := r.g.rt.ToValue(key)
	if goja.IsUndefined(v) {
		r.g.call(r.remove, goja.Undefined(), o, k)
		return
	}
	_ = r.desc.Set("value", v)
	r.g.call(r.define, goja.Undefined(), o, k, r.desc)
}

// call calls fn as goja calls a function from Go: what it throws goes on.
func (g *depthGuard) call(fn, this goja.Value, args ...goja.Value) goja.Value {
	f, ok := goja.AssertFunction(fn)
	if !ok {
		panic(g.rt.NewTypeError("%v is not a function", fn))
	}
	v, err := f(this, args...)
	if err != nil {
		panic(err)
	}
	return v
}
