package hooks

import (
	"encoding/json"
	"reflect"
	"unsafe"
)

// copyJSON copies the maps and lists of v (JSON's types, at any depth),
// keeping other values as they are; ok is false for a value that contains
// itself or is nested past maxRewriteDepth.
func copyJSON(v any) (any, bool) {
	c := copier{onPath: map[ref]bool{}, done: map[ref]any{}}
	out := c.value(v, 0)
	return out, !c.failed
}

// copier walks one value. A map or list shared by several places is
// copied once, and the copy shared alike, so that sharing cannot make the
// copy exponential.
type copier struct {
	onPath map[ref]bool
	done   map[ref]any
	failed bool
}

func (c *copier) value(v any, depth int) any {
	if c.failed {
		return nil
	}
	var r ref
	switch x := v.(type) {
	case map[string]any:
		if x == nil {
			return x
		}
		r = ref{reflect.ValueOf(x).UnsafePointer(), -1}
	case []any:
		if x == nil {
			return x
		}
		r = ref{unsafe.Pointer(unsafe.SliceData(x)), len(x)}
	default:
		return c.other(v)
	}
	if depth >= maxRewriteDepth || c.onPath[r] {
		c.failed = true
		return nil
	}
	if out, ok := c.done[r]; ok {
		return out
	}
	c.onPath[r] = true
	var out any
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = c.value(e, depth+1)
		}
		out = m
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = c.value(e, depth+1)
		}
		out = l
	}
	delete(c.onPath, r)
	c.done[r] = out
	return out
}

// other copies a value that is not one of JSON's maps or lists. A
// scalar is kept as it is. A value of Go's own composite types (a
// []string, a map[string]string, a pointer, a struct) is read in its JSON
// form: a copy in JSON's types, which guards read as they read the
// model's arguments, and which shares nothing with the value the host may
// write to after answering. What has no JSON form (a func, a channel, a
// cycle) fails the copy: a verdict carrying it is a rejection.
func (c *copier) other(v any) (out any) {
	defer func() {
		if recover() != nil { // a MarshalJSON of the host's that panics: no JSON form
			c.failed, out = true, nil
		}
	}()
	switch reflect.ValueOf(v).Kind() {
	case reflect.Invalid, reflect.Bool, reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return v
	}
	data, err := json.Marshal(v)
	if err == nil {
		err = json.Unmarshal(data, &out) // numbers as float64, as in the model's arguments
	}
	if err != nil {
		c.failed = true
		return nil
	}
	return out
}
