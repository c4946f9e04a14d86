package jsrt

import (
	"context"
	"math"
	"math/big"
	"slices"
	"strconv"

	"github.com/dop251/goja"
)

// Export returns v as the JSON that JSON.stringify would write decodes with
// encoding/json: numbers are float64, objects map[string]any, arrays []any;
// undefined, functions and symbols are left out of objects and are null in
// arrays; NaN and ±Infinity are null; toJSON is honoured. Undefined and
// null give nil.
//
// It walks the value itself rather than calling JSON.stringify, which a
// hook may have replaced and which recurses and loops in Go where an
// interrupt cannot reach: the walk looks at ctx as it goes, and a cycle, a
// value past MaxDepth or MaxValues, or a BigInt is a *ValueError naming
// where. It runs getters, toJSON and Proxy traps, so it must run inside
// Guard.
func Export(ctx context.Context, rt *goja.Runtime, v goja.Value) (any, error) {
	e := exporter{rt: rt, budget: budget{ctx: ctx}}
	out, _, err := e.value(v, "", 0)
	return out, err
}

type exporter struct {
	rt *goja.Runtime
	budget
	inside []*goja.Object // the objects being exported, from trackFrom on
}

// value exports v, found under key; keep is false for what JSON leaves out.
func (e *exporter) value(v goja.Value, key string, depth int) (out any, keep bool, err error) {
	if err := e.spend(); err != nil {
		return nil, false, err
	}
	if v == nil { // goja's Get of a missing property
		return nil, false, nil
	}
	o, ok := v.(*goja.Object)
	if !ok {
		return primitive(v)
	}
	if toJSON, ok := goja.AssertFunction(o.Get("toJSON")); ok {
		if v, err = toJSON(o, e.rt.ToValue(key)); err != nil {
			return nil, false, Error(err)
		}
		if o, ok = v.(*goja.Object); !ok {
			return primitive(v)
		}
	}
	if _, ok := goja.AssertFunction(o); ok {
		return nil, false, nil
	}
	switch o.ClassName() {
	case "String": // goja exports a String object as an empty map: JSON writes its text
		return primitive(o.String())
	case "Number", "Boolean", "BigInt": // boxed primitives
		return primitive(o.Export())
	}
	if depth >= MaxDepth {
		return nil, false, tooDeep()
	}
	if depth >= trackFrom {
		if slices.Contains(e.inside, o) {
			return nil, false, cycle()
		}
		e.inside = append(e.inside, o)
		defer func() { e.inside = e.inside[:len(e.inside)-1] }()
	}
	if o.ClassName() == "Array" {
		out, err = e.array(o, depth)
	} else {
		out, err = e.object(o, depth)
	}
	return out, err == nil, err
}

func (e *exporter) array(o *goja.Object, depth int) (any, error) {
	n := o.Get("length").ToInteger()
	if n > int64(MaxValues-e.count) {
		return nil, tooMany()
	}
	out := make([]any, n)
	for i := range out {
		v, _, err := e.value(o.Get(strconv.Itoa(i)), strconv.Itoa(i), depth+1)
		if err != nil {
			return nil, within(err, indexSeg(i))
		}
		out[i] = v
	}
	return out, nil
}

func (e *exporter) object(o *goja.Object, depth int) (any, error) {
	keys := o.Keys()
	out := make(map[string]any, len(keys))
	for _, k := range keys {
		v, keep, err := e.value(o.Get(k), k, depth+1)
		if err != nil {
			return nil, within(err, keySeg(k))
		}
		if keep {
			out[k] = v
		}
	}
	return out, nil
}

// primitive exports a value that is not an object (or a boxed one's
// Export); keep is false for undefined and symbols.
func primitive(v any) (out any, keep bool, err error) {
	if gv, ok := v.(goja.Value); ok {
		if v == nil || goja.IsUndefined(gv) {
			return nil, false, nil
		}
		v = gv.Export()
	}
	switch v := v.(type) {
	case nil:
		return nil, true, nil
	case bool, string:
		return v, true, nil
	case int64:
		return float64(v), true, nil
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, true, nil
		}
		return v, true, nil
	case *big.Int:
		return nil, false, bigint()
	}
	return nil, false, nil // a symbol
}

// Primitive exports v when it is not an object: nil for undefined and
// null, a bool, a string or a float64; keep is false for undefined and
// symbols, and a BigInt is an error. It runs no JavaScript.
func Primitive(v goja.Value) (out any, keep bool, err error) {
	if _, ok := v.(*goja.Object); ok {
		return nil, false, &ValueError{Reason: "an object, not a primitive"}
	}
	return primitive(v)
}

// Kind describes a JavaScript value for a message: "a function", "an
// array", "a string", "null". It runs no JavaScript.
func Kind(v goja.Value) string {
	switch {
	case v == nil || goja.IsUndefined(v):
		return "undefined"
	case goja.IsNull(v):
		return "null"
	}
	if o, ok := v.(*goja.Object); ok {
		if _, ok := goja.AssertFunction(o); ok {
			return "a function"
		}
		if o.ClassName() == "Array" {
			return "an array"
		}
		return "an object"
	}
	switch v.Export().(type) {
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case int64, float64:
		return "a number"
	case *big.Int:
		return "a BigInt"
	}
	return "a symbol"
}
