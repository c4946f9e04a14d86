package hooks

import (
	"context"
	"errors"
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
	name        string
	timeout     time.Duration        // 0: none, per the seed
	evalTimeout time.Duration        // bounds preparing a runtime ahead (evalTimeout when loaded)
	prog        *jsrt.Program        // nil: a broken hook, handling nothing
	exports     [len(allPoints)]bool // by pointIndex
	ready       jsPool
	filling     atomic.Bool
	lastEnd     atomic.Int64   // when the last call ended, as time.Since(epoch)
	dry         atomic.Bool    // calls came back to back and found no runtime ready
	refills     sync.WaitGroup // running refills (benchmarks wait on it)
}

func newJSHook(name string, prog *jsrt.Program, timeout time.Duration, report func(error)) *jsHook {
	h := &jsHook{name: name, timeout: timeout, evalTimeout: evalTimeout}
	ctx, cancel := context.WithTimeout(context.Background(), evalTimeout)
	defer cancel()
	in, err := prepareJS(ctx, prog, true)
	var broken *jsrt.BrokenFileError
	switch {
	case errors.As(err, &broken):
		// A required file did not compile: CompileDir reported it, with
		// its line; the hook handles nothing.
		return h
	case err != nil:
		report(err)
		return h
	}
	var problems []error
	err = jsrt.Guard(ctx, in.rt, func() error {
		problems = h.readExports(in)
		return nil
	})
	if err != nil { // a getter or a Proxy trap of module.exports threw, or looped
		report(fmt.Errorf("reading module.exports: %w", err))
		h.exports = [len(allPoints)]bool{} // what was read before it handles nothing
		return h
	}
	for _, p := range problems {
		report(p)
	}
	if in.exportsKind != "an object" {
		return h
	}
	h.prog = prog
	h.ready.put(in) // evaluated, never called: as fresh as any
	return h
}

// readExports notes which points the module exports a function for, and
// returns what is wrong with the others. It runs JavaScript (getters,
// Proxy traps), so it runs inside jsrt.Guard.
func (h *jsHook) readExports(in *jsInstance) (problems []error) {
	if in.exportsKind != "an object" {
		return []error{fmt.Errorf("module.exports is %s; want an object of functions named after points (%s)", in.exportsKind, validPoints)}
	}
	for _, key := range in.exports.Keys() {
		i := pointIndex(Point(key))
		if i < 0 {
			problems = append(problems, fmt.Errorf("export %q is not a point: ignored; the points are %s", key, validPoints))
			continue
		}
		if v := in.exports.Get(key); jsrt.Kind(v) != "a function" {
			problems = append(problems, fmt.Errorf("export %q is %s, not a function: ignored", key, jsrt.Kind(v)))
			continue
		}
		h.exports[i] = true
	}
	return problems
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

// jsArgs builds the arguments of an export after ctx, in the runtime.
type jsArgs func(in *jsInstance) ([]goja.Value, error)

// call runs the export for p with ctx and the arguments args builds, and
// exports what it returned. Everything it does in the runtime (reading the
// export, building the arguments, the call, reading the returned value)
// runs under the call's context, and ends before call returns.
func (in *jsInstance) call(c *Context, p Point, args jsArgs) (ret any, err error) {
	in.cur = c
	ctx := c.base()
	err = jsrt.Guard(ctx, in.rt, func() error {
		fn, ok := goja.AssertFunction(in.exports.Get(string(p)))
		if !ok {
			return fmt.Errorf("export %q is no longer a function", p)
		}
		vals, err := args(in)
		if err != nil {
			return err
		}
		v, err := jsrt.Call(in.rt, fn, in.exports, append([]goja.Value{in.ctx}, vals...)...)
		if err != nil {
			return err
		}
		if ret, err = jsrt.Export(ctx, in.rt, v); err != nil {
			return fmt.Errorf("returned a value that cannot be read: %w", err)
		}
		return nil
	})
	var pe *jsrt.PanicError
	if errors.As(err, &pe) {
		err = &PanicError{Value: pe.Value, Stack: pe.Stack}
	}
	return ret, err
}

func clip(data []byte) string {
	const max = 200
	if len(data) > max {
		return string(data[:max]) + "…"
	}
	return string(data)
}

// BeforeRun runs beforeRun(ctx, start); {state} becomes the hook's state.
func (h *jsHook) BeforeRun(c *Context, start RunStart) (*RunPatch, error) {
	v, err := h.call(c, BeforeRun, func(in *jsInstance) ([]goja.Value, error) {
		return in.values(map[string]any{"runId": start.RunID, "input": start.Input, "resumed": start.Resumed})
	})
	r, err := read(c, BeforeRun, v, err)
	if r == nil {
		return nil, err
	}
	if state := r.field("state"); state != nil {
		return &RunPatch{State: state}, nil
	}
	return nil, nil
}

// read checks what an export returned; r is nil for no opinion or an error.
func read(c *Context, p Point, v any, err error) (*returned, error) {
	if err != nil {
		return nil, err
	}
	return readReturn(c, p, v)
}

// AfterRun runs afterRun(ctx, event); it cannot change the outcome (a
// returned {state} is kept, for a snapshot taken after the end).
func (h *jsHook) AfterRun(c *Context, end RunEnd) error {
	v, err := h.call(c, AfterRun, func(in *jsInstance) ([]goja.Value, error) {
		return in.values(map[string]any{"runId": end.RunID, "outcome": string(end.Outcome), "reason": end.Reason, "output": end.Output})
	})
	_, err = read(c, AfterRun, v, err)
	return err
}

// BeforeModelRequest runs beforeModelRequest(ctx, request), with
// request.messages read-only; a returned messages is ignored with a
// diagnostic.
func (h *jsHook) BeforeModelRequest(c *Context, req ModelRequest) (*ModelRequestPatch, error) {
	v, err := h.call(c, BeforeModelRequest, func(in *jsInstance) ([]goja.Value, error) {
		msgs := make([]any, len(req.Messages))
		for i, m := range req.Messages {
			msgs[i] = map[string]any{"role": m.Role, "text": m.Text}
		}
		return in.object(map[string]any{"system": req.System}, map[string]any{"messages": msgs})
	})
	r, err := read(c, BeforeModelRequest, v, err)
	if r == nil {
		return nil, err
	}
	if r.field("messages") != nil {
		c.diagnose(BeforeModelRequest, fmt.Errorf("returned messages: ignored, messages are read-only to JavaScript hooks"))
	}
	p := &ModelRequestPatch{System: r.str("system")}
	var respond, end *returned
	p.Respond, respond = r.response("respond")
	p.End, end = r.end("end")
	return p, r.done(respond, end)
}

// AfterModelResponse runs afterModelResponse(ctx, response), with
// response.toolCalls read-only.
func (h *jsHook) AfterModelResponse(c *Context, resp ModelResponse) (*ModelResponsePatch, error) {
	v, err := h.call(c, AfterModelResponse, func(in *jsInstance) ([]goja.Value, error) {
		calls := make([]any, len(resp.ToolCalls))
		for i, tc := range resp.ToolCalls {
			calls[i] = toolCallJS(tc)
		}
		return in.object(map[string]any{"text": resp.Text}, map[string]any{"toolCalls": calls})
	})
	r, err := read(c, AfterModelResponse, v, err)
	if r == nil {
		return nil, err
	}
	p := &ModelResponsePatch{Text: r.str("text"), Continue: r.str("continue")}
	var end *returned
	p.End, end = r.end("end")
	return p, r.done(end)
}

// BeforeToolExecute runs beforeToolExecute(ctx, call) on a copy of the
// call. {block: "reason"} (seed 003's shape) refuses like {allow: false,
// reason}.
func (h *jsHook) BeforeToolExecute(c *Context, call ToolCall) (*ToolCallPatch, error) {
	v, err := h.call(c, BeforeToolExecute, func(in *jsInstance) ([]goja.Value, error) {
		return in.values(toolCallJS(call))
	})
	r, err := read(c, BeforeToolExecute, v, err)
	if r == nil {
		return nil, err
	}
	p := &ToolCallPatch{Allow: r.boolean("allow"), Reason: r.str("reason"), Arguments: r.arguments("arguments")}
	if block := r.str("block"); block != nil {
		p.Allow, p.Reason = new(false), block
	}
	var result *returned
	p.Result, result = r.toolResult("result")
	return p, r.done(result)
}

// AfterToolExecute runs afterToolExecute(ctx, call, result).
func (h *jsHook) AfterToolExecute(c *Context, call ToolCall, res ToolResult) (*ToolResultPatch, error) {
	v, err := h.call(c, AfterToolExecute, func(in *jsInstance) ([]goja.Value, error) {
		return in.values(toolCallJS(call), map[string]any{"text": res.Text, "isError": res.IsError, "value": res.Value})
	})
	r, err := read(c, AfterToolExecute, v, err)
	if r == nil {
		return nil, err
	}
	p := &ToolResultPatch{Text: r.str("text"), IsError: r.boolean("isError"), Value: r.field("value")}
	return p, r.done()
}

// BeforeTrustDecision runs beforeTrustDecision(ctx, {path, decision,
// isNew}); {approve: true} recommends trusting the project (it can only
// upgrade ask to trusted).
func (h *jsHook) BeforeTrustDecision(c *Context, req TrustRequest) (*TrustPatch, error) {
	v, err := h.call(c, BeforeTrustDecision, func(in *jsInstance) ([]goja.Value, error) {
		return in.values(map[string]any{"path": req.Path, "decision": string(req.Decision), "isNew": req.IsNew})
	})
	r, err := read(c, BeforeTrustDecision, v, err)
	if r == nil {
		return nil, err
	}
	approve := r.boolean("approve")
	return &TrustPatch{Approve: approve != nil && *approve}, r.done()
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
		jv, err := jsrt.ToJS(in.cur.base(), in.rt, v, nil)
		if err != nil {
			return nil, fmt.Errorf("the %s argument: %w", ordinal(i), err)
		}
		out[i] = jv
	}
	return out, nil
}

// ordinal names an argument after ctx: "first" is the payload.
func ordinal(i int) string {
	return [...]string{"first", "second", "third"}[min(i, 2)]
}

// object builds one argument from writable fields and read-only ones.
func (in *jsInstance) object(fields, frozen map[string]any) ([]goja.Value, error) {
	ctx := in.cur.base()
	v, err := jsrt.ToJS(ctx, in.rt, fields, nil)
	if err != nil {
		return nil, err
	}
	o := v.(*goja.Object)
	for k, f := range frozen {
		fv, err := jsrt.ToJS(ctx, in.rt, f, in.freeze)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
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
