package jsrt

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/dop251/goja"
)

// ToJS copies v, a JSON-shaped Go value, into native JavaScript values of
// rt: a hook that changes what it got changes nothing on the Go side.
// (goja's own ToValue would wrap Go maps and slices, so that a change in
// JavaScript would write through.) Other Go values go through
// encoding/json first. Frozen objects and arrays are read-only to the hook:
// in sloppy-mode code a write to them does nothing. Keys come in sorted
// order, as encoding/json writes them.
func ToJS(rt *goja.Runtime, v any, frozen bool) (goja.Value, error) {
	c := converter{rt: rt}
	if frozen {
		freeze, _ := goja.AssertFunction(rt.Get("Object").ToObject(rt).Get("freeze"))
		c.freeze = freeze
	}
	return c.value(v, true)
}

type converter struct {
	rt     *goja.Runtime
	freeze goja.Callable // nil: leave objects writable
}

func (c converter) value(v any, viaJSON bool) (goja.Value, error) {
	switch v := v.(type) {
	case nil:
		return goja.Null(), nil
	case string, bool, float64, int, int64, float32, int32, uint, uint32, uint64:
		return c.rt.ToValue(v), nil
	case map[string]any:
		o := c.rt.NewObject()
		for _, k := range sortedKeys(v) {
			ev, err := c.value(v[k], viaJSON)
			if err != nil {
				return nil, err
			}
			_ = o.Set(k, ev)
		}
		return c.done(o)
	case map[string]string:
		o := c.rt.NewObject()
		for _, k := range sortedKeys(v) {
			_ = o.Set(k, v[k])
		}
		return c.done(o)
	case []any:
		items := make([]any, len(v))
		for i, e := range v {
			ev, err := c.value(e, viaJSON)
			if err != nil {
				return nil, err
			}
			items[i] = ev
		}
		return c.done(c.rt.NewArray(items...))
	case []string:
		items := make([]any, len(v))
		for i, e := range v {
			items[i] = e
		}
		return c.done(c.rt.NewArray(items...))
	}
	if !viaJSON {
		return nil, fmt.Errorf("cannot convert %T", v)
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var generic any
	if err := json.Unmarshal(data, &generic); err != nil {
		return nil, err
	}
	return c.value(generic, false)
}

// sortedKeys orders an object's keys as encoding/json does, so that a hook
// sees the same key order (Object.keys, JSON.stringify) on every call.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func (c converter) done(o *goja.Object) (goja.Value, error) {
	if c.freeze != nil {
		if _, err := c.freeze(goja.Undefined(), o); err != nil {
			return nil, err
		}
	}
	return o, nil
}

// JSON returns v as JSON.stringify gives it, or nil when v is undefined,
// null or a function (no value). A value JSON cannot hold (a cycle, a
// BigInt) is an error that says why.
func JSON(rt *goja.Runtime, v goja.Value) ([]byte, error) {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return nil, nil
	}
	stringify, _ := goja.AssertFunction(rt.Get("JSON").ToObject(rt).Get("stringify"))
	s, err := stringify(goja.Undefined(), v)
	if err != nil {
		return nil, Error(err)
	}
	if goja.IsUndefined(s) {
		return nil, nil
	}
	return []byte(s.String()), nil
}

// FromJS returns v as encoding/json decodes its JSON: numbers are float64,
// objects map[string]any, arrays []any; undefined and null are nil.
func FromJS(rt *goja.Runtime, v goja.Value) (any, error) {
	data, err := JSON(rt, v)
	if err != nil || data == nil {
		return nil, err
	}
	var out any
	err = json.Unmarshal(data, &out)
	return out, err
}
