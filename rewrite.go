package hooks

import (
	"encoding/json"
	"maps"
	"slices"
)

// RewriteStrings returns a patch that applies fn to every string res
// carries: its Text and every string inside its Value (map values, list
// elements, nested; map keys are kept). It is the one way to redact a
// result, since a secret in a tool's structured output (MCP's
// structuredContent, a JSON value) is as visible to the model as one in
// its text. A Value that is not made of JSON types (a Go struct) is read
// as its JSON encoding. It returns nil, no opinion, when fn changed
// nothing.
//
//	AfterToolExecute: func(c *hooks.Context, call hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
//		return hooks.RewriteStrings(res, redact), nil
//	},
func RewriteStrings(res ToolResult, fn func(string) string) *ToolResultPatch {
	var p ToolResultPatch
	if text := fn(res.Text); text != res.Text {
		p.Text = &text
	}
	if res.Value != nil {
		if v, changed := rewriteValue(jsonValue(res.Value), fn); changed {
			p.Value = v
		}
	}
	if p.Text == nil && p.Value == nil {
		return nil
	}
	return &p
}

// jsonValue returns v as JSON types, through its encoding when it holds
// other types; a value that does not encode is kept as it is.
func jsonValue(v any) any {
	switch v.(type) {
	case string, bool, float64, json.Number, nil, map[string]any, []any:
		return v
	}
	data, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	if err := json.Unmarshal(data, &out); err != nil {
		return v
	}
	return out
}

// rewriteValue applies fn to the strings of v, copying only what changed.
func rewriteValue(v any, fn func(string) string) (any, bool) {
	switch x := v.(type) {
	case string:
		s := fn(x)
		return s, s != x
	case map[string]any:
		var out map[string]any
		for k, e := range x {
			if ne, changed := rewriteValue(jsonValue(e), fn); changed {
				if out == nil {
					out = maps.Clone(x)
				}
				out[k] = ne
			}
		}
		if out == nil {
			return v, false
		}
		return out, true
	case []any:
		var out []any
		for i, e := range x {
			if ne, changed := rewriteValue(jsonValue(e), fn); changed {
				if out == nil {
					out = slices.Clone(x)
				}
				out[i] = ne
			}
		}
		if out == nil {
			return v, false
		}
		return out, true
	}
	return v, false
}
