package hooks

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/dop251/goja"

	"github.com/rienda/hooks/internal/jsrt"
)

// A model point's payload grows with the run: request.messages is the whole
// history. Converting it for every call would make a hook's cost grow with
// the conversation, and a run's with its square, whether the hook reads the
// history or not. So the large parts of a payload are views, made when the
// hook first reads them:
//
//   - request.messages and response.toolCalls are read-only arrays
//     (jsList) whose elements are made, frozen, the first time each is
//     read, and kept: a hook pays for what it reads, once per call.
//   - They, and a long result.text, are fields of the payload made on
//     first read (lazyField); from then on they are plain fields, as if
//     they had always been there.
//
// A view behaves as a frozen array does: index access, length,
// for…of, spread, map, filter, JSON.stringify and Array.isArray work;
// writes change nothing (ignored, or a TypeError in strict mode; push
// throws); Object.isFrozen and Object.isSealed say true, Object.isExtensible
// false, and Object.freeze leaves it as it is (frozenBuiltins). What
// differs: Object.getOwnPropertyDescriptor reports an index as writable and
// configurable, and Reflect.isExtensible says true (a write still changes
// nothing); the payload's field reads as an accessor until first read; and
// an element that cannot be converted (a tool call's arguments holding a
// cycle) throws where the hook reads it, instead of failing the call
// before the hook runs.

// lazyTextBytes is the length from which a result's text is converted only
// when read: below it, converting costs less than deferring.
const lazyTextBytes = 4 << 10

// jsList is the handler of a read-only array view of n elements.
type jsList struct {
	items []goja.Value                    // made so far, by index
	build func(i int) (goja.Value, error) // makes element i, frozen
	rt    *goja.Runtime
}

var jsListType = reflect.TypeFor[*jsList]()

// newList returns a read-only array of n elements that build makes on
// first read. An element build cannot make throws where it is read.
func (in *jsInstance) newList(n int, build func(i int) (goja.Value, error)) *goja.Object {
	return in.rt.NewDynamicArray(&jsList{items: make([]goja.Value, n), build: build, rt: in.rt})
}

// Len is the number of elements.
func (l *jsList) Len() int { return len(l.items) }

// Get returns element i, made on its first read; nil (undefined, and the
// prototype is looked at) out of range.
func (l *jsList) Get(i int) goja.Value {
	if i < 0 || i >= len(l.items) {
		return nil
	}
	if v := l.items[i]; v != nil {
		return v
	}
	v, err := l.build(i)
	if err != nil {
		panic(l.rt.NewGoError(fmt.Errorf("[%d]: %w", i, err)))
	}
	l.items[i] = v
	return v
}

// Set changes nothing: the array is read-only.
func (l *jsList) Set(int, goja.Value) bool { return false }

// SetLen changes nothing: the array is read-only.
func (l *jsList) SetLen(int) bool { return false }

// isList reports whether v is a view made by newList. It runs no
// JavaScript and copies nothing.
func isList(v goja.Value) bool {
	o, ok := v.(*goja.Object)
	return ok && o.ExportType() == jsListType
}

// lazyField gives o the enumerable field key whose value build makes when
// the field is first read. From then on (or once the hook assigns it) key
// is a plain writable data field, as every field of a payload is.
func (in *jsInstance) lazyField(o *goja.Object, key string, build func() (goja.Value, error)) {
	rt := in.rt
	var v goja.Value
	settle := func(val goja.Value) {
		v = val
		// Fails, and leaves the accessor, only on an object the hook froze.
		_ = o.DefineDataProperty(key, val, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
	}
	get := rt.ToValue(func(goja.FunctionCall) goja.Value {
		if v == nil {
			val, err := build()
			if err != nil {
				panic(rt.NewGoError(fmt.Errorf("%s: %w", key, err)))
			}
			settle(val)
		}
		return v
	})
	set := rt.ToValue(func(call goja.FunctionCall) goja.Value {
		settle(call.Argument(0))
		return goja.Undefined()
	})
	_ = o.DefineAccessorProperty(key, get, set, goja.FLAG_TRUE, goja.FLAG_TRUE)
}

// messagesJS is request.messages: a view of msgs, each message {role, text}
// and, when set, id, toolCalls and toolCallId, as its JSON has them.
func (in *jsInstance) messagesJS(msgs []Message) *goja.Object {
	return in.newList(len(msgs), func(i int) (goja.Value, error) {
		return in.messageJS(&msgs[i])
	})
}

// messageJS is one message, frozen, its fields in the order of its JSON.
func (in *jsInstance) messageJS(m *Message) (goja.Value, error) {
	rt := in.rt
	o := rt.NewObject()
	field := func(k string, v goja.Value) {
		_ = o.DefineDataProperty(k, v, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	}
	field("role", rt.ToValue(m.Role))
	field("text", rt.ToValue(m.Text))
	if m.ID != "" {
		field("id", rt.ToValue(m.ID))
	}
	if len(m.ToolCalls) > 0 {
		calls := make([]any, len(m.ToolCalls))
		for i, tc := range m.ToolCalls {
			calls[i] = toolCallJS(tc)
		}
		v, err := jsrt.ToJS(in.cur.base(), rt, calls, in.freeze)
		if err != nil {
			return nil, fmt.Errorf("toolCalls: %w", err)
		}
		field("toolCalls", v)
	}
	if m.ToolCallID != "" {
		field("toolCallId", rt.ToValue(m.ToolCallID))
	}
	if _, err := in.freeze(goja.Undefined(), o); err != nil {
		return nil, jsrt.Error(err)
	}
	return o, nil
}

// toolCallsJS is response.toolCalls: a view of calls, each {id, name,
// arguments} deeply frozen.
func (in *jsInstance) toolCallsJS(calls []ToolCall) *goja.Object {
	return in.newList(len(calls), func(i int) (goja.Value, error) {
		return jsrt.ToJS(in.cur.base(), in.rt, toolCallJS(calls[i]), in.freeze)
	})
}

// toolSpecsJS is request.tools: a view of tools, each {name, description,
// schema} deeply frozen, the schema parsed from its JSON (absent: null). A
// schema that is not JSON throws where the hook reads it.
func (in *jsInstance) toolSpecsJS(tools []ToolSpec) *goja.Object {
	return in.newList(len(tools), func(i int) (goja.Value, error) {
		t := &tools[i]
		var schema any
		if len(t.Schema) > 0 {
			if err := json.Unmarshal(t.Schema, &schema); err != nil {
				return nil, fmt.Errorf("tool %q: its schema is not JSON: %w", t.Name, err)
			}
		}
		return jsrt.ToJS(in.cur.base(), in.rt, map[string]any{"name": t.Name, "description": t.Description, "schema": schema}, in.freeze)
	})
}

// usageJS is response.usage, {inputTokens, outputTokens,
// cachedInputTokens}, frozen.
func (in *jsInstance) usageJS(u Usage) (goja.Value, error) {
	return jsrt.ToJS(in.cur.base(), in.rt, map[string]any{"inputTokens": u.InputTokens,
		"outputTokens": u.OutputTokens, "cachedInputTokens": u.CachedInputTokens}, in.freeze)
}

// frozenBuiltins are the built-ins that answer "is it frozen?" or would
// freeze. goja cannot freeze the dynamic array a view is, so they are
// wrapped, before the hook runs, to say of a view what they say of a frozen
// array and to leave it as it is (freeze throws on a dynamic array); other
// values go to the built-in. They are installed once in each runtime,
// before its built-ins are frozen. Reflect.isExtensible sees a view as an
// extensible array to which writes do nothing.
var frozenBuiltins = [...]struct {
	name   string
	onList func(rt *goja.Runtime, list goja.Value) goja.Value
}{
	{"isFrozen", answer(true)},
	{"isSealed", answer(true)},
	{"isExtensible", answer(false)},
	{"freeze", itself},
	{"seal", itself},
	{"preventExtensions", itself},
}

func answer(b bool) func(*goja.Runtime, goja.Value) goja.Value {
	return func(rt *goja.Runtime, _ goja.Value) goja.Value { return rt.ToValue(b) }
}

func itself(_ *goja.Runtime, list goja.Value) goja.Value { return list }

// wrapFrozenBuiltins installs frozenBuiltins in the runtime, once, before
// its built-ins are frozen. It runs inside Guard.
func (in *jsInstance) wrapFrozenBuiltins() {
	rt := in.rt
	object := rt.Get("Object").(*goja.Object)
	for _, b := range frozenBuiltins {
		was, ok := goja.AssertFunction(object.Get(b.name))
		if !ok {
			continue
		}
		onList := b.onList
		fn := rt.ToValue(func(call goja.FunctionCall) goja.Value {
			if arg := call.Argument(0); isList(arg) {
				return onList(rt, arg)
			}
			v, err := was(call.This, call.Arguments...)
			if err != nil {
				panic(err) // its own throw, as it was
			}
			return v
		}).(*goja.Object)
		_ = fn.DefineDataProperty("name", rt.ToValue(b.name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		_ = fn.DefineDataProperty("length", rt.ToValue(1), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		_ = object.DefineDataProperty(b.name, fn, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	}
}

// resultJS is afterToolExecute's result, {isError, text, value}: a long
// text is a field made on first read, so that a hook that does not read a
// tool's output does not pay for converting it.
func (in *jsInstance) resultJS(res ToolResult) (*goja.Object, error) {
	value, err := jsrt.ToJS(in.cur.base(), in.rt, res.Value, nil)
	if err != nil {
		var ve *jsrt.ValueError
		if errors.As(err, &ve) {
			ve.Path = ".value" + ve.Path
		}
		return nil, err
	}
	o := in.rt.NewObject()
	_ = o.Set("isError", res.IsError)
	if len(res.Text) < lazyTextBytes {
		_ = o.Set("text", res.Text)
	} else {
		in.lazyField(o, "text", func() (goja.Value, error) { return in.rt.ToValue(res.Text), nil })
	}
	_ = o.Set("value", value)
	return o, nil
}
