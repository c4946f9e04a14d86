package hooks

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
)

// WrapToolHook wraps the tool call itself, with next the rest of it: to
// retry a flaky tool, time it, put a span, a timeout or a circuit breaker
// around it. Wraps sit innermost, as LangChain's wrap_tool_call does: every
// before-hook has run (the wrap sees the call as rewritten, ready to run;
// Context.OriginalCall gives the model's), then the wraps run in list
// order around the tool, each one's next calling the following wrap, the
// last one's the tool; then the after-hooks run once, on what the
// outermost wrap returned. So a retry runs the tool again, not the guards
// (nobody is asked twice to approve one call), and the after-hooks (a
// redaction) see only the final result.
//
// A wrap may call next any number of times (each call runs the inner wraps
// and the tool again), change the call it passes, or answer without
// calling it. To give the inner layers another context (a timeout), pass
// c.WithContext(ctx). An error a wrap returns is the call's error, as a
// tool's is: outer wraps see it (and may retry), then Run.CallTool returns
// it and no after-hook runs. A panic is the hook's failure under its
// policy: under FailRun the call fails with a *HookError; under Block the
// call is refused (the model reads "Tool call blocked: …", a Diagnostic
// carries the panic), even if the tool ran; under Report the layer is
// skipped (a Diagnostic), keeping the result of its last call of next if
// it made one. A next the wrap kept and calls after it returned runs
// nothing and returns an error. Wraps run only when the host lets the library run
// the tool: Run.CallTool, or Run.ExecuteTool between the split methods.
type WrapToolHook interface {
	Hook
	WrapTool(c *Context, call ToolCall, next ToolFunc) (ToolResult, error)
}

// WrapModelHook wraps the model call itself, with next the rest of it: to
// retry, fall back to another model, or time the call. It sits innermost,
// after the BeforeModelRequest hooks and before the AfterModelResponse
// hooks, with the rules of WrapToolHook.
type WrapModelHook interface {
	Hook
	WrapModel(c *Context, req ModelRequest, next ModelFunc) (ModelResponse, error)
}

// WithContext returns a copy of c whose context.Context is ctx, for a wrap
// hook that gives the rest of the call another context (a deadline):
// next(c.WithContext(ctx), call). The copy is valid as long as c is.
func (c *Context) WithContext(ctx context.Context) *Context {
	d := *c
	d.Context = ctx
	return &d
}

// ExecuteTool runs tool for a step BeforeToolExecute let through, inside
// the chain's wrap hooks: for hosts that use the split methods and run the
// tool themselves. A step that was refused or answered runs nothing and
// returns its Result. Run.CallTool calls it; a host that runs a tool
// between the split methods without it skips the wraps, and the chain
// says so once per run, as a Diagnostic.
func (r *Run) ExecuteTool(ctx context.Context, step ToolStep, tool ToolFunc) (ToolResult, error) {
	if res, ok := step.answer(); ok {
		return res, nil
	}
	ws := r.chain.wrapTool
	if len(ws) == 0 { // the common case, kept free of the layers' allocations
		if err := ctx.Err(); err != nil {
			return ToolResult{}, interrupted(WrapToolCall, "", err)
		}
		c := r.pointContext(ctx, WrapToolCall, 0)
		defer r.release(c)
		c.life.call, c.life.hasCall, c.rewritten = step.original(), true, step.Rewritten()
		res, err := tool(c, step.Call)
		return res, tooLate(ctx, WrapToolCall, err)
	}
	res, err := r.wrapTool(ctx, step, tool)
	return res, tooLate(ctx, WrapToolCall, err)
}

// tooLate is a call's error, or, when ctx ended while it ran and it
// returned none, the context's: an answer that came after the deadline is
// not used, as at every point (the after-point would refuse it anyway).
func tooLate(ctx context.Context, at Point, err error) error {
	if err == nil {
		if cerr := ctx.Err(); cerr != nil {
			return interrupted(at, "", cerr)
		}
	}
	return err
}

// wrapTool is ExecuteTool through the wraps. It is a function of its own
// so that the step it keeps a pointer to is not moved to the heap on
// ExecuteTool's common path.
func (r *Run) wrapTool(ctx context.Context, step ToolStep, tool ToolFunc) (ToolResult, error) {
	r.wraps[0].ran.Add(1)
	l := layers[WrapToolHook, ToolCall, ToolResult, ToolFunc]{r: r, at: WrapToolCall, ws: r.chain.wrapTool, step: &step, call: tool, outer: ctx,
		wrap: func(h WrapToolHook, c *Context, call ToolCall, next ToolFunc) (ToolResult, error) {
			return h.WrapTool(c, call, next)
		}}
	return l.run(ctx, 0, step.Call)
}

// ExecuteModel calls model for a step BeforeModelRequest let through,
// inside the chain's wrap hooks, as ExecuteTool does for tools. A step
// that a hook answered returns its Response; one that ended the run, an
// empty response.
func (r *Run) ExecuteModel(ctx context.Context, step ModelStep, model ModelFunc) (ModelResponse, error) {
	switch {
	case step.End != nil:
		return ModelResponse{}, nil
	case step.Response != nil:
		return *step.Response, nil
	}
	ws := r.chain.wrapModel
	if len(ws) == 0 {
		if err := ctx.Err(); err != nil {
			return ModelResponse{}, interrupted(WrapModelCall, "", err)
		}
		c := r.pointContext(ctx, WrapModelCall, 0)
		defer r.release(c)
		resp, err := model(c, step.Request)
		return resp, tooLate(ctx, WrapModelCall, err)
	}
	resp, err := r.wrapModel(ctx, step, model)
	return resp, tooLate(ctx, WrapModelCall, err)
}

// wrapModel is ExecuteModel through the wraps, kept apart as wrapTool is.
func (r *Run) wrapModel(ctx context.Context, step ModelStep, model ModelFunc) (ModelResponse, error) {
	r.wraps[1].ran.Add(1)
	l := layers[WrapModelHook, ModelRequest, ModelResponse, ModelFunc]{r: r, at: WrapModelCall, ws: r.chain.wrapModel, call: model, outer: ctx,
		wrap: func(h WrapModelHook, c *Context, req ModelRequest, next ModelFunc) (ModelResponse, error) {
			return h.WrapModel(c, req, next)
		},
		vet: wrapVet(step.Request)}
	return l.run(ctx, 0, step.Request)
}

// layers is one call through the wraps ws (hooks H) around call, on a
// payload X with a result R.
type layers[H, X, R any, F ~func(*Context, X) (R, error)] struct {
	r     *Run
	at    Point
	ws    []entry[H]
	step  *ToolStep // tool calls: every layer's Context gives the model's call
	call  F
	wrap  func(h H, c *Context, x X, next F) (R, error)
	outer context.Context // the host's: a layer given another context still stops when it ends
	// vet checks what a wrap passes to next (out) against what it was
	// given (in), and may return it canonical; nil: no check.
	vet func(in, out X) (X, error)
}

// run runs layer i (the call itself past the last wrap) on x.
func (l *layers[H, X, R, F]) run(ctx context.Context, i int, x X) (R, error) {
	r := l.r
	if err := l.cancelled(ctx); err != nil { // no layer, and no call, starts on an ended context
		var zero R
		return zero, interrupted(l.at, "", err)
	}
	c := r.pointContext(ctx, l.at, min(len(l.ws)-i, 1))
	defer r.release(c)
	if l.step != nil {
		// The layer's call may be an outer wrap's: Rewritten compares it
		// with the model's, so that a host re-encodes a wrap's change too.
		c.life.call, c.life.hasCall = l.step.original(), true
		c.rewritten = !sameArguments(c.life.call.Arguments, any(x).(ToolCall).Arguments)
	}
	if i == len(l.ws) {
		return l.call(c, x)
	}
	e := l.ws[i]
	c = c.forHook(0, e.index)
	var last struct { // what the layer's last call of next gave it
		sync.Mutex // a wrap may call next from several goroutines (a hedged request)
		called     bool
		res        R
		err        error
	}
	var returned atomic.Bool // the wrap has returned: a next it kept runs nothing
	xIn := x
	next := F(func(inner *Context, x X) (R, error) {
		if returned.Load() {
			var zero R
			return zero, fmt.Errorf("hooks: %s: wrap hook %q called next after it returned: nothing ran", l.at, r.chain.names[e.index])
		}
		if l.vet != nil {
			checked, err := l.vet(xIn, x)
			if err != nil { // the wrap's own error: the call never reaches the layer below
				var zero R
				return zero, &HookError{Hook: r.chain.names[e.index], Point: l.at, Err: err}
			}
			x = checked
		}
		cx := ctx
		if inner != nil && inner.Context != nil {
			cx = inner.Context // the wrap gave the rest of the call another context
		}
		res, err := l.run(cx, i+1, x)
		last.Lock()
		last.called, last.res, last.err = true, res, err
		last.Unlock()
		return res, err
	})
	t0, tracing := r.traceStart()
	res, err, panicked := callWrap(l.wrap, e.h, c, x, next)
	returned.Store(true)
	last.Lock() // the wrap has returned: only a goroutine it left behind could still call next
	called, lastRes, lastErr := last.called, last.res, last.err
	last.Unlock()
	v := noOpinion
	switch {
	case panicked != nil:
		v = judge(r.chain.names, l.at, e.index, e.policy, panicked)
	case !called:
		v = verdict{decision: DecisionAnswered}
	}
	if tracing {
		r.traced(t0, c, l.at, e.index, e.policy, v)
	}
	if panicked == nil {
		return res, err // a returned error is the call's, as a tool's is
	}
	if err := r.failure(ctx, l.at, e.index, v.failurePolicy(e.policy), panicked); err != nil {
		return res, err
	}
	if v.decision == DecisionRefused { // a guard that fails refuses, as a before-hook under Block does
		return any(ToolResult{Text: v.reason, IsError: true}).(R), nil
	}
	if called { // the layer failed after its call: keep what the call gave it
		return lastRes, lastErr
	}
	return l.run(ctx, i+1, x) // the layer failed before its call: skip it
}

// cancelled is the error of the host's context, or of the context the
// layer was given (a wrap's timeout), if either has ended: a wrap that
// passes a context of its own (context.Background) cannot run the call
// past the host's cancellation.
func (l *layers[H, X, R, F]) cancelled(ctx context.Context) error {
	if err := l.outer.Err(); err != nil {
		return err
	}
	return ctx.Err()
}

// callWrap runs one wrap; panicked is its panic, as a *PanicError.
func callWrap[H, X, R, F any](wrap func(H, *Context, X, F) (R, error), h H, c *Context, x X, next F) (res R, err, panicked error) {
	defer recoverPanic(&panicked)
	res, err = wrap(h, c, x, next)
	return res, err, nil
}

// wrapCount tells, for one kind of call, whether the host runs its calls
// through the wraps: ExecuteTool (or ExecuteModel) counts each call it ran,
// and each after-method that finds no count left for its call tells the
// host, once per run. A count, not a mark on the step, keeps the steps
// (returned by value on every call) as small as they were.
type wrapCount struct {
	ran    atomic.Int64 // calls run through the wraps whose after-method has not come yet
	warned atomic.Bool
}

// after takes one call's count; with none left, the host ran the call
// itself, and is told once.
func (w *wrapCount) after(r *Run, at Point, names []string) {
	for {
		n := w.ran.Load()
		if n > 0 {
			if w.ran.CompareAndSwap(n, n-1) {
				return
			}
			continue
		}
		if w.warned.CompareAndSwap(false, true) {
			how := "Run.CallTool, or Run.ExecuteTool between BeforeToolExecute and AfterToolExecute"
			if at == WrapModelCall {
				how = "Run.CallModel, or Run.ExecuteModel between BeforeModelRequest and AfterModelResponse"
			}
			r.chain.diagnose(Diagnostic{Point: at, Err: fmt.Errorf(
				"the wrap hooks %s did not run: the host made the call itself; use %s", strings.Join(names, ", "), how)})
		}
		return
	}
}

// skipAfter takes back the count of a call that ran through the wraps but
// whose after-method will not come (the call failed), if it was counted.
func (w *wrapCount) skipAfter(counted bool) {
	if counted {
		w.ran.Add(-1)
	}
}

// wrapNames names the wrap hooks ws, for the diagnostic of wrapCount.
func wrapNames[H any](c *Chain, ws []entry[H]) []string {
	names := make([]string, len(ws))
	for i, e := range ws {
		names[i] = c.names[e.index]
	}
	return names
}

// sameArguments compares two argument maps as values; the same map (the
// common case: no wrap changed the call) is not walked.
func sameArguments(a, b map[string]any) bool {
	if reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer() {
		return true
	}
	return reflect.DeepEqual(a, b)
}
