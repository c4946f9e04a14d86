package hooks

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dop251/goja"

	"github.com/rienda/hooks/internal/jsrt"
)

// jsHook is a JavaScript hook. Every invocation runs in a runtime of its
// own, used once and thrown away, so no JavaScript state survives a call.
// Runtimes are prepared ahead (module evaluated, ctx built) off the hot
// path; a call that finds none ready prepares its own.
type jsHook struct {
	name    string
	timeout time.Duration        // 0: none, per the seed
	prog    *jsrt.Program        // nil: a broken hook, handling nothing
	exports [len(allPoints)]bool // by pointIndex
	ready   jsPool
	filling atomic.Bool
	lastEnd atomic.Int64   // when the last call ended, as time.Since(epoch)
	dry     atomic.Bool    // calls came back to back and found no runtime ready
	refills sync.WaitGroup // running refills (benchmarks wait on it)
}

func newJSHook(name string, prog *jsrt.Program, timeout time.Duration, report func(error)) *jsHook {
	h := &jsHook{name: name, timeout: timeout}
	ctx, cancel := context.WithTimeout(context.Background(), evalTimeout)
	defer cancel()
	in, err := prepareJS(ctx, prog, true)
	if err != nil {
		report(err)
		return h
	}
	kind := typeOf(in.exports)
	if kind != "an object" {
		report(fmt.Errorf("module.exports is %s; want an object of functions named after points (%s)", kind, validPoints))
		return h
	}
	for _, key := range in.exports.Keys() {
		i := pointIndex(Point(key))
		if i < 0 {
			report(fmt.Errorf("export %q is not a point: ignored; the points are %s", key, validPoints))
			continue
		}
		if v := in.exports.Get(key); typeOf(v) != "a function" {
			report(fmt.Errorf("export %q is %s, not a function: ignored", key, typeOf(v)))
			continue
		}
		h.exports[i] = true
	}
	h.prog = prog
	h.ready.put(in) // evaluated, never called: as fresh as any
	return h
}

// Name returns the hook's name: its folder's name.
func (h *jsHook) Name() string { return h.name }

// Handles reports whether the hook exports a function for p.
func (h *jsHook) Handles(p Point) bool {
	i := pointIndex(p)
	return i >= 0 && h.exports[i]
}

// hookPolicy: a throwing JS hook is a diagnostic, and the run goes on (seed 000).
func (h *jsHook) hookPolicy() Policy { return Report }

func (in *jsInstance) call(c *Context, p Point, out any, args func(in *jsInstance) ([]goja.Value, error)) (bool, error) {
	fn, ok := goja.AssertFunction(in.exports.Get(string(p)))
	if !ok {
		return false, fmt.Errorf("export %q is no longer a function", p)
	}
	in.cur = c
	vals, err := args(in)
	if err != nil {
		return false, err
	}
	v, err := jsrt.Call(c, in.rt, fn, in.exports, append([]goja.Value{in.ctx}, vals...)...)
	if err != nil {
		return false, err
	}
	data, err := jsrt.JSON(in.rt, v)
	if err != nil || data == nil || out == nil {
		return false, err
	}
	if data[0] != '{' {
		return false, fmt.Errorf("returned %s; want an object, or nothing for no opinion", clip(data))
	}
	if err := json.Unmarshal(data, out); err != nil {
		return false, fmt.Errorf("returned %s: %w", clip(data), err)
	}
	return true, nil
}

func clip(data []byte) string {
	const max = 200
	if len(data) > max {
		return string(data[:max]) + "…"
	}
	return string(data)
}

// The shapes JavaScript returns. encoding/json matches their names without
// regard to case; null keeps, like a missing field.
type (
	jsEnd struct {
		Output string `json:"output"`
	}
	jsRunPatch struct {
		State any `json:"state"`
	}
	jsModelRequestPatch struct {
		System   *string         `json:"system"`
		Messages json.RawMessage `json:"messages"`
		Respond  *ModelResponse  `json:"respond"`
		End      *jsEnd          `json:"end"`
	}
	jsModelResponsePatch struct {
		Text     *string `json:"text"`
		End      *jsEnd  `json:"end"`
		Continue *string `json:"continue"`
	}
	jsToolCallPatch struct {
		Allow     *bool          `json:"allow"`
		Reason    *string        `json:"reason"`
		Arguments map[string]any `json:"arguments"`
		Result    *ToolResult    `json:"result"`
	}
	jsToolResultPatch struct {
		Text    *string `json:"text"`
		IsError *bool   `json:"isError"`
		Value   any     `json:"value"`
	}
)

func (e *jsEnd) end() *End {
	if e == nil {
		return nil
	}
	return &End{Output: e.Output}
}

// BeforeRun runs beforeRun(ctx, start); {state} becomes the hook's state.
func (h *jsHook) BeforeRun(c *Context, start RunStart) (*RunPatch, error) {
	var out jsRunPatch
	ok, err := h.call(c, BeforeRun, &out, func(in *jsInstance) ([]goja.Value, error) {
		return in.values(map[string]any{"runId": start.RunID, "input": start.Input, "resumed": start.Resumed})
	})
	if !ok || out.State == nil {
		return nil, err
	}
	return &RunPatch{State: out.State}, nil
}

// AfterRun runs afterRun(ctx, event); what it returns is ignored.
func (h *jsHook) AfterRun(c *Context, end RunEnd) error {
	_, err := h.call(c, AfterRun, nil, func(in *jsInstance) ([]goja.Value, error) {
		return in.values(map[string]any{"runId": end.RunID, "outcome": string(end.Outcome), "reason": end.Reason, "output": end.Output})
	})
	return err
}

// BeforeModelRequest runs beforeModelRequest(ctx, request), with
// request.messages read-only; a returned messages is ignored with a
// diagnostic.
func (h *jsHook) BeforeModelRequest(c *Context, req ModelRequest) (*ModelRequestPatch, error) {
	var out jsModelRequestPatch
	ok, err := h.call(c, BeforeModelRequest, &out, func(in *jsInstance) ([]goja.Value, error) {
		msgs := make([]any, len(req.Messages))
		for i, m := range req.Messages {
			msgs[i] = map[string]any{"role": m.Role, "text": m.Text}
		}
		return in.object(map[string]any{"system": req.System}, map[string]any{"messages": msgs})
	})
	if !ok {
		return nil, err
	}
	if len(out.Messages) > 0 && string(out.Messages) != "null" {
		c.diagnose(BeforeModelRequest, fmt.Errorf("returned messages: ignored, messages are read-only to JavaScript hooks"))
	}
	return &ModelRequestPatch{System: out.System, Respond: out.Respond, End: out.End.end()}, nil
}

// AfterModelResponse runs afterModelResponse(ctx, response), with
// response.toolCalls read-only.
func (h *jsHook) AfterModelResponse(c *Context, resp ModelResponse) (*ModelResponsePatch, error) {
	var out jsModelResponsePatch
	ok, err := h.call(c, AfterModelResponse, &out, func(in *jsInstance) ([]goja.Value, error) {
		calls := make([]any, len(resp.ToolCalls))
		for i, tc := range resp.ToolCalls {
			calls[i] = toolCallJS(tc)
		}
		return in.object(map[string]any{"text": resp.Text}, map[string]any{"toolCalls": calls})
	})
	if !ok {
		return nil, err
	}
	return &ModelResponsePatch{Text: out.Text, End: out.End.end(), Continue: out.Continue}, nil
}

// BeforeToolExecute runs beforeToolExecute(ctx, call) on a copy of the call.
func (h *jsHook) BeforeToolExecute(c *Context, call ToolCall) (*ToolCallPatch, error) {
	var out jsToolCallPatch
	ok, err := h.call(c, BeforeToolExecute, &out, func(in *jsInstance) ([]goja.Value, error) {
		return in.values(toolCallJS(call))
	})
	if !ok {
		return nil, err
	}
	return &ToolCallPatch{Allow: out.Allow, Reason: out.Reason, Arguments: out.Arguments, Result: out.Result}, nil
}

// AfterToolExecute runs afterToolExecute(ctx, call, result).
func (h *jsHook) AfterToolExecute(c *Context, call ToolCall, res ToolResult) (*ToolResultPatch, error) {
	var out jsToolResultPatch
	ok, err := h.call(c, AfterToolExecute, &out, func(in *jsInstance) ([]goja.Value, error) {
		return in.values(toolCallJS(call), map[string]any{"text": res.Text, "isError": res.IsError, "value": res.Value})
	})
	if !ok {
		return nil, err
	}
	return &ToolResultPatch{Text: out.Text, IsError: out.IsError, Value: out.Value}, nil
}

// BeforeTrustDecision runs beforeTrustDecision(ctx, {path, decision,
// isNew}); {approve: true} recommends trusting the project (it can only
// upgrade ask to trusted).
func (h *jsHook) BeforeTrustDecision(c *Context, req TrustRequest) (*TrustPatch, error) {
	var out struct {
		Approve bool `json:"approve"`
	}
	ok, err := h.call(c, BeforeTrustDecision, &out, func(in *jsInstance) ([]goja.Value, error) {
		return in.values(map[string]any{"path": req.Path, "decision": string(req.Decision), "isNew": req.IsNew})
	})
	if !ok {
		return nil, err
	}
	return &TrustPatch{Approve: out.Approve}, nil
}

func toolCallJS(call ToolCall) map[string]any {
	args := call.Arguments
	if args == nil {
		args = map[string]any{}
	}
	return map[string]any{"id": call.ID, "name": call.Name, "arguments": args}
}

// values copies Go values into the runtime, as arguments.
func (in *jsInstance) values(vs ...any) ([]goja.Value, error) {
	out := make([]goja.Value, len(vs))
	for i, v := range vs {
		jv, err := jsrt.ToJS(in.rt, v, false)
		if err != nil {
			return nil, err
		}
		out[i] = jv
	}
	return out, nil
}

// object builds one argument from writable fields and read-only ones.
func (in *jsInstance) object(fields, frozen map[string]any) ([]goja.Value, error) {
	v, err := jsrt.ToJS(in.rt, fields, false)
	if err != nil {
		return nil, err
	}
	o := v.(*goja.Object)
	for k, f := range frozen {
		fv, err := jsrt.ToJS(in.rt, f, true)
		if err != nil {
			return nil, err
		}
		_ = o.Set(k, fv)
	}
	return []goja.Value{o}, nil
}

// pointIndex is p's place in allPoints (the exports a JavaScript hook may
// have), or -1.
func pointIndex(p Point) int {
	return slices.Index(allPoints[:], p)
}

// typeOf describes a JavaScript value for a message: "a function", "a string".
func typeOf(v goja.Value) string {
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
	switch v.ExportType().Kind().String() {
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	}
	return "a number"
}
