package adapt

import (
	"bytes"
	"encoding/json"
	"reflect"

	"github.com/rienda/hooks"
)

// Tools rebuilds a provider's tool list from specs, the tools the hooks
// left offered (hooks.ModelRequest.Tools), so that a hook that narrows,
// reorders, describes or adds tools changes what is sent, and one that
// changes nothing changes nothing:
//
//   - nil specs (a request made without the tools) keep base;
//   - specs equal to base's, in order, return base itself;
//   - otherwise, in the specs' order, a spec equal to the one a base tool
//     of its name makes keeps that tool as it was (the provider's own
//     fields: strict mode, cache marks, a server tool's settings), and any
//     other is made by build from that tool (nil for a new name) and the
//     spec.
//
// spec is the ToolSpec a provider's tool shows the hooks.
func Tools[T any](base []T, specs []hooks.ToolSpec, spec func(T) hooks.ToolSpec,
	build func(orig *T, s hooks.ToolSpec) (T, error)) ([]T, error) {
	if specs == nil {
		return base, nil
	}
	was := make([]hooks.ToolSpec, len(base))
	for i, t := range base {
		was[i] = spec(t)
	}
	if len(was) == len(specs) && allSame(was, specs) {
		return base, nil
	}
	out := make([]T, 0, len(specs))
	for _, s := range specs {
		i := indexOf(was, s.Name)
		if i >= 0 && SameSpec(was[i], s) {
			out = append(out, base[i])
			continue
		}
		var orig *T
		if i >= 0 {
			orig = &base[i]
		}
		t, err := build(orig, s)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

func allSame(a, b []hooks.ToolSpec) bool {
	for i := range a {
		if !SameSpec(a[i], b[i]) {
			return false
		}
	}
	return true
}

func indexOf(specs []hooks.ToolSpec, name string) int {
	for i, s := range specs {
		if s.Name == name {
			return i
		}
	}
	return -1
}

// SameSpec reports whether a and b offer the same tool: equal name and
// description, and schemas that decode to the same JSON value (a hook in
// JavaScript gives the schema back re-encoded).
func SameSpec(a, b hooks.ToolSpec) bool {
	if a.Name != b.Name || a.Description != b.Description {
		return false
	}
	if bytes.Equal(a.Schema, b.Schema) {
		return true
	}
	var x, y any
	if json.Unmarshal(a.Schema, &x) != nil || json.Unmarshal(b.Schema, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// Schema encodes a provider's schema value for a ToolSpec; nil when there
// is none or it does not encode.
func Schema(v any) json.RawMessage {
	if v == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil || string(b) == "null" || string(b) == "{}" {
		return nil
	}
	return b
}

// Specs are the ToolSpecs of a provider's tools, as spec makes them; nil
// when there are none.
func Specs[T any](tools []T, spec func(T) hooks.ToolSpec) []hooks.ToolSpec {
	if len(tools) == 0 {
		return nil
	}
	specs := make([]hooks.ToolSpec, len(tools))
	for i, t := range tools {
		specs[i] = spec(t)
	}
	return specs
}

// OpenAIStopReason maps an OpenAI-style finish_reason (the Chat
// Completions API's, and most eino models') onto the hooks' words; another
// keeps its own.
func OpenAIStopReason(finish string) hooks.StopReason {
	switch finish {
	case "stop":
		return hooks.StopEndTurn
	case "tool_calls", "function_call":
		return hooks.StopToolUse
	case "length":
		return hooks.StopMaxTokens
	case "content_filter":
		return hooks.StopContentFilter
	}
	return hooks.StopReason(finish)
}
