package jsrt

import (
	"reflect"

	"github.com/dop251/goja"
)

// boundConversions counts every conversion of an object to a primitive
// (to a string, a number, a property key) that reaches Object.prototype,
// which is all of them but for objects that have a Symbol.toPrimitive of
// their own (Date, Symbol, and what a hook defines): goja looks
// Symbol.toPrimitive up before valueOf and toString (object.go,
// tryExoticToPrimitive), and Object.prototype gets one that does what goja
// would do without it (OrdinaryToPrimitive), counting a level meanwhile.
//
// Conversions recurse in Go whenever a built-in converts something of the
// object it converts: an array converts its elements (String(a), a + "",
// a.join()), an error its message and name, a RegExp its source; and a
// built-in method used as an object's own toString converts the object
// itself again ({toString: "".trim}), without end. One function on
// Object.prototype bounds them all, at a cost a wrapper per built-in
// would pay many times over.
func (g *depthGuard) boundConversions() {
	proto := g.rt.NewObject().Prototype()
	fn := g.function("[Symbol.toPrimitive]", g.rt.ToValue(1), g.toPrimitive)
	_ = proto.DefineDataPropertySymbol(goja.SymToPrimitive, fn, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// toPrimitive is OrdinaryToPrimitive(this, hint), counted: with the hint
// "string", toString first, then valueOf; otherwise valueOf first. The
// first of them that is a function and returns a primitive gives it.
func (g *depthGuard) toPrimitive(call goja.FunctionCall) goja.Value {
	o, ok := call.This.(*goja.Object)
	if !ok {
		panic(g.rt.NewTypeError("Symbol.toPrimitive called on a primitive"))
	}
	g.enter(1, "a conversion to a primitive (toString, valueOf)")
	defer g.leave(1)
	order := [2]string{"valueOf", "toString"}
	if call.Argument(0).String() == "string" {
		order = [2]string{"toString", "valueOf"}
	}
	for _, name := range order {
		if v, ok := g.tryMethod(o, name); ok {
			return v
		}
	}
	panic(g.rt.NewTypeError("Cannot convert object to primitive value"))
}

// tryMethod calls o[name] on o, when it is a function, and reports whether
// it returned a primitive.
func (g *depthGuard) tryMethod(o *goja.Object, name string) (goja.Value, bool) {
	m, ok := o.Get(name).(*goja.Object)
	if !ok {
		return nil, false
	}
	var v goja.Value
	if f, ok := exportedNative(m); ok {
		v = f(goja.FunctionCall{This: o}) // as goja calls it: a throw goes on as a panic
	} else if f, ok := goja.AssertFunction(m); ok { // a class, a Proxy of a function, a Go function
		var err error
		if v, err = f(o); err != nil {
			panic(err)
		}
	} else {
		return nil, false
	}
	if _, isObject := v.(*goja.Object); isObject {
		return nil, false
	}
	return v, true
}

// exportedNative returns the function m is, as goja calls it, when goja
// exports it so (a JavaScript or native function; not a class, which says
// it does but exports its constructor). Export is only called on what
// ExportType says is a function: on other objects it copies them whole.
func exportedNative(m *goja.Object) (native, bool) {
	if m.ExportType() != nativeType {
		return nil, false
	}
	f, ok := m.Export().(native)
	return f, ok
}

// nativeType is what goja exports a JavaScript or native function as.
var nativeType = reflect.TypeOf(native(nil))
