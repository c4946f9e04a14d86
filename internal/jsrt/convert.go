package jsrt

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"unsafe"

	"github.com/dop251/goja"
)

// Limits on a value crossing between Go and JavaScript, either way. A hook
// gets and returns JSON-shaped data: nothing real comes near them, and a
// value past them (a cycle, a 100,000-deep array, a million-element flood)
// is an error that names where, instead of a crash or a conversion that
// runs on past the call's deadline.
const (
	MaxDepth  = 1000    // levels of nesting
	MaxValues = 1 << 20 // values in one conversion
)

// checkEvery is how many values a conversion handles between two looks at
// its context: often enough to stop promptly, rarely enough to cost nothing.
const checkEvery = 1024

// trackFrom is the depth from which a conversion remembers the containers
// it is inside, to name a cycle. Shallower values (all real ones) pay
// nothing; a cycle always goes deeper, and is named once it does.
const trackFrom = 32

// ValueError is a value that cannot cross: it names where in the value
// (".arguments.self.self…") and why.
type ValueError struct {
	Path   string // "" for the value itself
	Reason string
}

// Error names the place and the reason.
func (e *ValueError) Error() string {
	if e.Path == "" {
		return e.Reason
	}
	return "at " + e.Path + ": " + e.Reason
}

// within prefixes err's path with seg, as the conversion unwinds.
func within(err error, seg string) error {
	if ve, ok := err.(*ValueError); ok {
		ve.Path = seg + ve.Path
	}
	return err
}

func keySeg(k string) string { return "." + k }
func indexSeg(i int) string  { return "[" + strconv.Itoa(i) + "]" }
func tooDeep() *ValueError {
	return &ValueError{Reason: fmt.Sprintf("nested deeper than %d levels", MaxDepth)}
}
func cycle() *ValueError    { return &ValueError{Reason: "the value contains itself (a cycle)"} }
func tooMany() *ValueError  { return &ValueError{Reason: fmt.Sprintf("more than %d values", MaxValues)} }
func notJSON(e error) error { return &ValueError{Reason: "not JSON data: " + e.Error()} }
func bigint() *ValueError   { return &ValueError{Reason: "a BigInt, which JSON cannot hold"} }

// budget counts the values of one conversion and looks at its context.
type budget struct {
	ctx   context.Context
	count int
}

func (b *budget) spend() error {
	b.count++
	if b.count > MaxValues {
		return tooMany()
	}
	if b.count%checkEvery == 0 {
		return b.ctx.Err()
	}
	return nil
}

// ToJS copies v, a JSON-shaped Go value, into native JavaScript values of
// rt: a hook that changes what it got changes nothing on the Go side.
// (goja's own ToValue would wrap Go maps and slices, so that a change in
// JavaScript would write through.) Other Go values go through
// encoding/json first. With a freeze function (Object.freeze, taken before
// the hook's code ran), objects and arrays are read-only to the hook. Keys
// come in sorted order, as encoding/json writes them. A cycle, a value past
// the limits, or one JSON cannot hold is a *ValueError.
func ToJS(ctx context.Context, rt *goja.Runtime, v any, freeze goja.Callable) (goja.Value, error) {
	c := converter{rt: rt, freeze: freeze, budget: budget{ctx: ctx}}
	return c.value(v, true, 0)
}

type converter struct {
	rt     *goja.Runtime
	freeze goja.Callable // nil: leave objects writable
	budget
	inside []unsafe.Pointer // the maps and slices being converted, from trackFrom on
}

func (c *converter) value(v any, viaJSON bool, depth int) (goja.Value, error) {
	if err := c.spend(); err != nil {
		return nil, err
	}
	switch v := v.(type) {
	case nil:
		return goja.Null(), nil
	case string, bool, float64, int, int64, float32, int32, uint, uint32, uint64:
		return c.rt.ToValue(v), nil
	case map[string]any:
		return c.container(v, depth, func() (goja.Value, error) { return c.object(v, viaJSON, depth) })
	case map[string]string:
		o := c.rt.NewObject()
		for _, k := range sortedKeys(v) {
			define(o, k, c.rt.ToValue(v[k]))
		}
		return c.done(o)
	case []any:
		return c.container(v, depth, func() (goja.Value, error) { return c.array(v, viaJSON, depth) })
	case []string:
		items := make([]any, len(v))
		for i, e := range v {
			items[i] = e
		}
		return c.done(c.rt.NewArray(items...))
	}
	if !viaJSON {
		return nil, notJSON(fmt.Errorf("cannot convert %T", v))
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, notJSON(err)
	}
	var generic any
	if err := json.Unmarshal(data, &generic); err != nil {
		return nil, notJSON(err)
	}
	return c.value(generic, false, depth)
}

// container converts a map or a slice one level deeper, watching for a
// cycle once the value is deep enough to hold one unnoticed.
func (c *converter) container(v any, depth int, convert func() (goja.Value, error)) (goja.Value, error) {
	if depth >= MaxDepth {
		return nil, tooDeep()
	}
	if depth < trackFrom {
		return convert()
	}
	p := reflect.ValueOf(v).UnsafePointer()
	if p != nil && reflect.ValueOf(v).Len() > 0 {
		if slices.Contains(c.inside, p) {
			return nil, cycle()
		}
		c.inside = append(c.inside, p)
		defer func() { c.inside = c.inside[:len(c.inside)-1] }()
	}
	return convert()
}

func (c *converter) object(m map[string]any, viaJSON bool, depth int) (goja.Value, error) {
	o := c.rt.NewObject()
	for _, k := range sortedKeys(m) {
		ev, err := c.value(m[k], viaJSON, depth+1)
		if err != nil {
			return nil, within(err, keySeg(k))
		}
		define(o, k, ev)
	}
	return c.done(o)
}

// define gives o the own property k. Not Set: Set("__proto__", v) would
// run JavaScript's __proto__ setter and make v o's prototype, so that a
// hook would see a call without that key (and with v's keys inherited)
// while the tool gets the call with it.
func define(o *goja.Object, k string, v goja.Value) {
	_ = o.DefineDataProperty(k, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
}

func (c *converter) array(s []any, viaJSON bool, depth int) (goja.Value, error) {
	items := make([]any, len(s))
	for i, e := range s {
		ev, err := c.value(e, viaJSON, depth+1)
		if err != nil {
			return nil, within(err, indexSeg(i))
		}
		items[i] = ev
	}
	return c.done(c.rt.NewArray(items...))
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

func (c *converter) done(o *goja.Object) (goja.Value, error) {
	if c.freeze != nil {
		if _, err := c.freeze(goja.Undefined(), o); err != nil {
			return nil, Error(err)
		}
	}
	return o, nil
}
