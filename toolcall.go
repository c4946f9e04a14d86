package hooks

import (
	"encoding/json"
	"reflect"
)

// ToolCall is a call the model asked for.
type ToolCall struct {
	ID        string         `json:"id"`
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
}

// ToolResult is what the model reads back from a tool call.
type ToolResult struct {
	Text    string `json:"text"`
	IsError bool   `json:"isError"`
	Value   any    `json:"value,omitempty"`
}

// Number returns the argument key as a float64, and whether it holds a
// number.
//
// Arguments from a model are JSON, so their numbers are float64 (see package
// hooktest, which gives hooks arguments the same way). Go code may put in
// other types: a host that builds a call, a hook's ToolCallPatch.Arguments,
// a decoder with UseNumber (json.Number). Number accepts every Go numeric
// type (named ones too, like a type Cents int64) and json.Number, so that a
// hook reads a number the same whoever produced it. Integers beyond 2^53
// lose precision, as they do in JSON.
//
// A missing key, a number in a string ("600"), and any other type give
// false. A guard should treat false as it treats a value it refuses: a
// model that quotes a number must not get past a limit.
func (c ToolCall) Number(key string) (float64, bool) {
	switch v := c.Arguments[key].(type) {
	case float64: // the common case, from JSON: no reflection
		return v, true
	case json.Number:
		f, err := v.Float64()
		return f, err == nil
	case nil:
		return 0, false
	default:
		rv := reflect.ValueOf(v)
		switch rv.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			return float64(rv.Int()), true
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			return float64(rv.Uint()), true
		case reflect.Float32, reflect.Float64:
			return rv.Float(), true
		}
		return 0, false
	}
}
