package hooks

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dop251/goja"

	"github.com/rienda/hooks/internal/jsrt"
)

// jsHook is a JavaScript hook. Its calls run in runtimes whose built-ins
// are frozen, each call evaluating the module anew, so no JavaScript state
// survives a call; the runtimes are kept for later calls (jsPool).
type jsHook struct {
	name    string
	timeout time.Duration        // 0: none
	prog    *jsrt.Program        // nil: a broken hook, handling nothing
	exports [len(allPoints)]bool // by pointIndex
	jsPool                       // its idle runtimes
}

func newJSHook(name string, prog *jsrt.Program, timeout, loadTimeout time.Duration, limits jsrt.Limits, report func(error)) *jsHook {
	h := &jsHook{name: name, timeout: timeout, jsPool: jsPool{limits: limits}}
	if loadTimeout <= 0 {
		loadTimeout = evalTimeout
	}
	ctx, cancel := context.WithTimeoutCause(context.Background(), loadTimeout,
		fmt.Errorf("loading hook %q took longer than its load timeout, %s (Loader.LoadTimeout)", name, loadTimeout))
	defer cancel()
	in, err := newJSInstance(ctx, limits)
	if err != nil {
		report(err)
		return h
	}
	defer in.end()
	err = jsrt.Guard(ctx, in.rt, func() error { return in.begin(ctx, prog) })
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
	if derr := in.drain(ctx); err == nil {
		err = derr // a job the reads queued threw past its Promise, or looped
	}
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
	h.put(in, ctx, nil) // its module scope is gone with the call that made it
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
		v := in.exports.Get(key)
		if _, ok := goja.AssertFunction(v); !ok {
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

// DefaultPolicy: a throwing JS hook is a diagnostic, and the run goes on.
func (h *jsHook) DefaultPolicy() Policy { return Report }

// call runs the export for p with the arguments args builds, and returns
// what it returned, exported to Go (nil for no opinion).
func (h *jsHook) call(c *Context, p Point, args jsArgs) (any, error) {
	if h.prog == nil {
		return nil, fmt.Errorf("hook %q did not load: it handles no point", h.name)
	}
	// A runtime made now is the library's work, not the hook's: it runs no
	// code of the hook, so only the call's own context bounds it.
	in, err := h.get(c.base())
	if err != nil {
		return nil, err
	}
	// The timeout bounds the whole invocation: the module's evaluation too.
	if h.timeout > 0 {
		ctx, cancel := context.WithTimeoutCause(c.base(), h.timeout, fmt.Errorf("hook %q ran out of its %s", h.name, h.timeout))
		defer cancel()
		bounded := *c // the hook's ctx.http and ctx.confirm get the deadline too
		bounded.Context = ctx
		c = &bounded
	}
	v, err := in.call(c, h.prog, p, args)
	h.put(in, c.base(), err)
	var thrown *jsrt.ScriptError
	if errors.As(err, &thrown) {
		// A hook that throws is reported as a notice (a person sees it),
		// besides the diagnostic, while the run goes on.
		message, _, _ := strings.Cut(thrown.Message, "\n")
		c.Notify(Notice{Title: fmt.Sprintf("hook %s failed at %s", h.name, p), Body: message})
	}
	return v, err
}

// clipMax bounds what a message quotes of a value.
const clipMax = 200

// clip is data for a message, cut at clipMax bytes on a character's
// boundary.
func clip(data []byte) string {
	if len(data) <= clipMax {
		return string(data)
	}
	cut := clipMax
	for cut > 0 && !utf8.RuneStart(data[cut]) {
		cut--
	}
	return string(data[:cut]) + "…"
}

// BeforeRun runs beforeRun(ctx, start); {state} becomes the hook's state.
func (h *jsHook) BeforeRun(c *Context, start RunStart) (*RunPatch, error) {
	v, err := h.call(c, BeforeRun, func(in *jsInstance) ([]goja.Value, error) {
		return in.values(map[string]any{"runId": start.RunID, "input": start.Input, "resumed": start.Resumed,
			"parentRunId": start.ParentRunID})
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
// request.messages and request.tools read-only; a returned messages is
// ignored with a diagnostic, a returned model or tools replaces the one
// sent.
func (h *jsHook) BeforeModelRequest(c *Context, req ModelRequest) (*ModelRequestPatch, error) {
	v, err := h.call(c, BeforeModelRequest, func(in *jsInstance) ([]goja.Value, error) {
		o := in.rt.NewObject()
		_ = o.Set("system", req.System)
		in.lazyField(o, "messages", func() (goja.Value, error) { return in.messagesJS(req.Messages), nil })
		_ = o.Set("model", req.Model)
		in.lazyField(o, "tools", func() (goja.Value, error) { return in.toolSpecsJS(req.Tools), nil })
		in.setRequestFieldsJS(o, req) // toolChoice, settings
		return []goja.Value{o}, nil
	})
	r, err := read(c, BeforeModelRequest, v, err)
	if r == nil {
		return nil, err
	}
	if r.field("messages") != nil {
		c.diagnose(BeforeModelRequest, fmt.Errorf("returned messages: ignored, messages are read-only to JavaScript hooks"))
	}
	p := &ModelRequestPatch{System: r.str("system"), Model: r.str("model"), Tools: r.toolSpecs("tools"),
		ToolChoice: r.toolChoice("toolChoice"), Settings: r.settings("settings")}
	var respond, end *returned
	p.Respond, respond = r.response("respond")
	p.End, end = r.end("end")
	return p, r.done(respond, end)
}

// AfterModelResponse runs afterModelResponse(ctx, response), with
// response.toolCalls and response.usage read-only.
func (h *jsHook) AfterModelResponse(c *Context, resp ModelResponse) (*ModelResponsePatch, error) {
	v, err := h.call(c, AfterModelResponse, func(in *jsInstance) ([]goja.Value, error) {
		o := in.rt.NewObject()
		_ = o.Set("text", resp.Text)
		in.lazyField(o, "toolCalls", func() (goja.Value, error) { return in.toolCallsJS(resp.ToolCalls), nil })
		in.lazyField(o, "usage", func() (goja.Value, error) { return in.usageJS(resp.Usage) })
		_ = o.Set("stopReason", string(resp.StopReason))
		in.setReasoningJS(o, resp.Reasoning)
		return []goja.Value{o}, nil
	})
	r, err := read(c, AfterModelResponse, v, err)
	if r == nil {
		return nil, err
	}
	p := &ModelResponsePatch{Text: r.str("text"), Continue: r.str("continue"), Reasoning: r.str("reasoning")}
	var end *returned
	p.End, end = r.end("end")
	return p, r.done(end)
}

// BeforeToolExecute runs beforeToolExecute(ctx, call) on a copy of the
// call. {block: "reason"} refuses like {allow: false,
// reason}.
func (h *jsHook) BeforeToolExecute(c *Context, call ToolCall) (*ToolCallPatch, error) {
	v, err := h.call(c, BeforeToolExecute, func(in *jsInstance) ([]goja.Value, error) {
		return in.values(toolCallJS(call))
	})
	r, err := read(c, BeforeToolExecute, v, err)
	if r == nil {
		return nil, err
	}
	if refused, reason := r.refusal(); refused {
		// A refusal stands whatever else came with it: a field of the
		// wrong type beside it is a diagnostic, never a reason to drop it.
		r.arguments("arguments")
		_, result := r.toolResult("result")
		if err := r.done(result); err != nil {
			c.diagnose(BeforeToolExecute, fmt.Errorf("%w: ignored; the call is refused", err))
		}
		return &ToolCallPatch{Allow: new(false), Reason: reason}, nil
	}
	p := &ToolCallPatch{Allow: r.boolean("allow"), Reason: r.str("reason"), Arguments: r.arguments("arguments")}
	var result *returned
	p.Result, result = r.toolResult("result")
	return p, r.done(result)
}

// AfterToolExecute runs afterToolExecute(ctx, call, result).
func (h *jsHook) AfterToolExecute(c *Context, call ToolCall, res ToolResult) (*ToolResultPatch, error) {
	v, err := h.call(c, AfterToolExecute, func(in *jsInstance) ([]goja.Value, error) {
		args, err := in.values(toolCallJS(call))
		if err != nil {
			return nil, err
		}
		result, err := in.resultJS(res)
		if err != nil {
			return nil, fmt.Errorf("the second argument: %w", err)
		}
		return append(args, result), nil
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

// pointIndex is p's place in allPoints (the exports a JavaScript hook may
// have), or -1.
func pointIndex(p Point) int {
	return slices.Index(allPoints[:], p)
}
