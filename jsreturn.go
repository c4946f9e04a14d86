package hooks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// What a JavaScript export returns is read field by field, by the exact
// names the point's return shape has (as JavaScript itself matches names:
// "Allow" is not "allow"). null and undefined keep the current value, like
// a missing field. A field of the wrong type is the hook's error; a field
// the shape does not have is a diagnostic that names it and the valid ones,
// and is otherwise ignored.

// The fields each point's return shape has, in the order messages list them.
// Every export may also return state, the hook's new run state.
var returnFields = map[Point][]string{
	BeforeRun:           {"state"},
	AfterRun:            {"state"},
	BeforeModelRequest:  {"system", "model", "tools", "toolChoice", "settings", "respond", "end", "output", "messages", "state"},
	AfterModelResponse:  {"text", "reasoning", "end", "output", "continue", "state"},
	BeforeToolExecute:   {"allow", "reason", "block", "arguments", "result", "state"},
	AfterToolExecute:    {"text", "isError", "value", "state"},
	BeforeTrustDecision: {"approve", "state"},
}

// returned reads one returned object. The first wrong type is kept in err;
// later reads then return nothing.
type returned struct {
	m    map[string]any
	err  error
	path string // where m is in the returned value: "", "result."
}

// readReturn checks that v, what an export returned (exported to Go), is an
// object or nothing, and reports the fields p's shape does not have.
func readReturn(c *Context, p Point, v any) (*returned, error) {
	if v == nil {
		return nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("returned %s; want an object, or nothing for no opinion", clipJSON(v))
	}
	valid := returnFields[p]
	var unknown []string
	for k := range m {
		if !slices.Contains(valid, k) {
			unknown = append(unknown, k)
		}
	}
	slices.Sort(unknown) // the same diagnostics, in the same order, every call
	for _, k := range unknown {
		c.diagnose(p, unknownField(k, valid))
	}
	if state := m["state"]; state != nil && p != BeforeRun { // BeforeRun's is its RunPatch
		c.SetState(state)
	}
	return &returned{m: m}, nil
}

// unknownField says that k is not a field of the shape, and which are.
func unknownField(k string, valid []string) error {
	hint := ""
	for _, f := range valid {
		if strings.EqualFold(f, k) {
			hint = fmt.Sprintf(" (did you mean %q? names match exactly)", f)
		}
	}
	return fmt.Errorf("returned an unknown field %q%s: ignored; the fields are %s", k, hint, strings.Join(valid, ", "))
}

// field returns m[k], or nil when it is absent or null, or an error was met.
func (r *returned) field(k string) any {
	if r == nil || r.err != nil {
		return nil
	}
	return r.m[k]
}

func (r *returned) wrong(k, want string, v any) {
	r.err = fmt.Errorf("returned %s%s: %s; want %s", r.path, k, clipJSON(v), want)
}

// typed returns field k of r when it is a T, nil when absent; of another
// type it keeps an error saying what was wanted.
func typed[T any](r *returned, k, want string) *T {
	v := r.field(k)
	if v == nil {
		return nil
	}
	t, ok := v.(T)
	if !ok {
		r.wrong(k, want, v)
		return nil
	}
	return &t
}

func (r *returned) str(k string) *string   { return typed[string](r, k, "a string") }
func (r *returned) boolean(k string) *bool { return typed[bool](r, k, "true or false") }

// object returns the object field k, read the same way, or nil.
func (r *returned) object(k string) *returned {
	m := typed[map[string]any](r, k, "an object")
	if m == nil {
		return nil
	}
	return &returned{m: *m, path: r.path + k + "."}
}

// done returns the first error met reading r or any object read from it.
func (r *returned) done(parts ...*returned) error {
	if r == nil {
		return nil
	}
	for _, p := range parts {
		if p != nil && p.err != nil {
			return p.err
		}
	}
	return r.err
}

// refusal reports whether r refuses a tool call, and with what reason:
// allow false, or block (its text the reason). What is meant as a refusal
// refuses even when it is not well formed: an allow that is not true or
// false, a block that is not a string (false aside). A reason of the wrong
// type is a diagnostic kept in r.err; the refusal then has none of its own.
func (r *returned) refusal() (bool, *string) {
	allow, block := r.m["allow"], r.m["block"]
	refused := false
	switch a := allow.(type) {
	case nil, bool:
		refused = a == false
	default:
		refused = true
		r.keep(fmt.Errorf("returned allow: %s; want true or false: read as a refusal", clipJSON(a)))
	}
	var reason *string
	switch b := block.(type) {
	case nil:
	case string:
		return true, &b
	case bool:
		if b {
			return true, nil
		}
	default:
		r.keep(fmt.Errorf("returned block: %s; want a string: read as a refusal", clipJSON(b)))
		return true, nil
	}
	if !refused {
		return false, nil
	}
	switch why := r.m["reason"].(type) {
	case nil:
	case string:
		reason = &why
	default:
		r.wrong("reason", "a string", why)
	}
	return true, reason
}

// keep notes err, unless an error was met first.
func (r *returned) keep(err error) {
	if r.err == nil {
		r.err = err
	}
}

// end reads end: {output}, or end: true beside output.
func (r *returned) end(k string) (*End, *returned) {
	if b, ok := r.field(k).(bool); ok {
		if !b {
			return nil, nil
		}
		out := r.str("output")
		if out == nil {
			return &End{}, nil
		}
		return &End{Output: *out}, nil
	}
	o := r.object(k)
	if o == nil {
		return nil, nil
	}
	out := o.str("output")
	if out == nil {
		return &End{}, o
	}
	return &End{Output: *out}, o
}

// toolResult reads {text, isError, value}.
func (r *returned) toolResult(k string) (*ToolResult, *returned) {
	o := r.object(k)
	if o == nil {
		return nil, nil
	}
	res := &ToolResult{Value: o.field("value")}
	if t := o.str("text"); t != nil {
		res.Text = *t
	}
	if e := o.boolean("isError"); e != nil {
		res.IsError = *e
	}
	return res, o
}

// response reads {text, reasoning, toolCalls: [{id, name, arguments}]}.
func (r *returned) response(k string) (*ModelResponse, *returned) {
	o := r.object(k)
	if o == nil {
		return nil, nil
	}
	resp := &ModelResponse{}
	if t := o.str("text"); t != nil {
		resp.Text = *t
	}
	if t := o.str("reasoning"); t != nil {
		resp.Reasoning = *t
	}
	calls := o.field("toolCalls")
	if calls == nil {
		return resp, o
	}
	list, ok := calls.([]any)
	if !ok {
		o.wrong("toolCalls", "an array", calls)
		return resp, o
	}
	for i, e := range list {
		at := fmt.Sprintf("%stoolCalls[%d]", o.path, i)
		m, ok := e.(map[string]any)
		if !ok {
			o.err = fmt.Errorf("returned %s: %s; want an object", at, clipJSON(e))
			return resp, o
		}
		call := &returned{m: m, path: at + "."}
		tc := ToolCall{Arguments: call.arguments("arguments")}
		if id := call.str("id"); id != nil {
			tc.ID = *id
		}
		if name := call.str("name"); name != nil {
			tc.Name = *name
		}
		if call.err != nil {
			o.err = call.err
			return resp, o
		}
		resp.ToolCalls = append(resp.ToolCalls, tc)
	}
	return resp, o
}

// toolSpecs reads tools: [{name, description, schema}], the tools offered
// to the model instead of the host's; [] offers none. A schema is any JSON
// value, sent as JSON.
func (r *returned) toolSpecs(k string) []ToolSpec {
	v := r.field(k)
	if v == nil {
		return nil
	}
	list, ok := v.([]any)
	if !ok {
		r.wrong(k, "an array of {name, description, schema}", v)
		return nil
	}
	specs := make([]ToolSpec, 0, len(list))
	for i, e := range list {
		at := fmt.Sprintf("%s%s[%d]", r.path, k, i)
		m, ok := e.(map[string]any)
		if !ok {
			r.err = fmt.Errorf("returned %s: %s; want an object {name, description, schema}", at, clipJSON(e))
			return nil
		}
		spec := &returned{m: m, path: at + "."}
		name := spec.str("name")
		if name == nil && spec.err == nil {
			spec.err = fmt.Errorf("returned %s: no name; a tool needs one", at)
		}
		desc := spec.str("description")
		if spec.err != nil {
			r.err = spec.err
			return nil
		}
		ts := ToolSpec{Name: *name}
		if desc != nil {
			ts.Description = *desc
		}
		if schema := m["schema"]; schema != nil {
			data, err := json.Marshal(schema)
			if err != nil {
				r.err = fmt.Errorf("returned %s.schema: %w", at, err)
				return nil
			}
			ts.Schema = data
		}
		specs = append(specs, ts)
	}
	return specs
}

// arguments reads a tool call's arguments object.
func (r *returned) arguments(k string) map[string]any {
	if m := typed[map[string]any](r, k, "an object"); m != nil {
		return *m
	}
	return nil
}

// clipJSON quotes v for a message as JSON, as the hook would read it
// (no HTML escaping: "<run-1>", not "\u003crun-1\u003e"), cut at clipMax
// bytes. A long string is cut before it is encoded.
func clipJSON(v any) string {
	if s, ok := v.(string); ok && len(s) > clipMax {
		v = s[:clipMax+1] // clip then cuts it, and marks the cut
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprintf("%T", v)
	}
	return clip(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}
