package hooks

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
)

// Run is one run of an agent through a chain: the host calls its methods
// at each point of its loop, or wraps its model and tool calls with
// CallModel and CallTool. A Run is safe for concurrent tool calls (the
// parallel tool calls of one turn); Start, Resume and End bracket it.
type Run struct {
	chain  *Chain
	id     string
	input  string
	host   Host  // resolved: no nil defaults left
	states []any // per hook, by list index; written only before the run is returned

	modelCalls atomic.Int64
	memo       memoTable
	ended      atomic.Bool

	template Context // what every Context of the run starts as
	spare    atomic.Pointer[Context]
}

// ModelStep is what BeforeModelRequest decided about one model call. Pass
// it to AfterModelResponse so that only the hooks it entered unwind.
type ModelStep struct {
	Request  ModelRequest   // what to send
	Response *ModelResponse // non-nil: a hook answered; do not call the model
	End      *End           // non-nil: end the run with End.Output

	stop int // list index + 1 of the hook that answered or ended; 0: every hook entered
}

// ModelReply is the model's reply after the AfterModelResponse hooks.
type ModelReply struct {
	Response ModelResponse
	End      *End
	Continue string // non-empty: the reply was final; send the run on with this message
}

// ToolStep is what BeforeToolExecute decided about one tool call. Pass it
// to AfterToolExecute so that only the hooks it entered unwind.
type ToolStep struct {
	Call    ToolCall    // the call as the tool must see it
	Result  *ToolResult // non-nil: do not run the tool; a refusal is IsError with the reason as Text
	Refused bool
	Reason  string

	stop      int            // list index + 1 of the hook that answered; 0: every hook entered
	rewritten bool           // a hook replaced the arguments: origArgs are the model's
	origArgs  map[string]any // the arguments as the model asked for them
}

// original returns the call as the model asked for it.
func (s *ToolStep) original() ToolCall {
	call := s.Call
	if s.rewritten {
		call.Arguments = s.origArgs
	}
	return call
}

// ToolFunc runs a tool. c carries the run's capabilities (c.Hook() is "").
type ToolFunc func(c *Context, call ToolCall) (ToolResult, error)

// ModelFunc calls a model. c carries the run's capabilities (c.Hook() is "").
type ModelFunc func(c *Context, req ModelRequest) (ModelResponse, error)

// emptyChain stands for a nil *Chain.
var emptyChain = &Chain{}

// Start begins a run: it runs the BeforeRun hooks in list order, keeping
// each hook's State. An empty start.RunID gets a random id. If a BeforeRun
// hook fails the run (policy FailRun), the hooks already entered (those up
// to and including it in the list) get AfterRun with outcome Failed, and
// Start returns the *HookError.
func (c *Chain) Start(ctx context.Context, host Host, start RunStart) (*Run, error) {
	if c == nil {
		c = emptyChain
	}
	if start.RunID == "" {
		start.RunID = newRunID()
	}
	r := c.newRun(host, start.RunID, start.Input)
	if err := r.beforeRun(ctx, start); err != nil {
		return nil, err
	}
	return r, nil
}

func (c *Chain) newRun(host Host, id, input string) *Run {
	r := &Run{chain: c, id: id, input: input, host: host.resolved(), states: make([]any, len(c.hooks))}
	h := &r.host
	r.template = Context{Workdir: h.Workdir, Session: h.Session, Agent: h.Agent, Config: h.Config,
		Env: h.Env, HTTP: h.HTTP, Files: h.Files, System: h.System, run: r, hook: -1}
	return r
}

func newRunID() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return hex.EncodeToString(b[:])
}

// beforeRun runs the BeforeRun hooks, and unwinds the entered ones when
// one fails the run or the context is cancelled.
func (r *Run) beforeRun(ctx context.Context, start RunStart) error {
	if err := ctx.Err(); err != nil {
		return interrupted(BeforeRun, "", err)
	}
	c := r.context(ctx)
	defer r.release(c)
	for _, e := range r.chain.beforeRun {
		c.hook = e.index
		p, err := callBeforeRun(e.h, c, start)
		if err != nil {
			if err = r.failure(ctx, BeforeRun, e.index, e.policy, err); err != nil {
				outcome := Failed
				if ctx.Err() != nil {
					outcome = Interrupted
				}
				r.ended.Store(true)
				r.afterRun(ctx, RunEnd{RunID: r.id, Outcome: outcome, Reason: err.Error(), Err: err}, e.index+1)
				return err
			}
			continue
		}
		if p != nil && p.State != nil {
			r.states[e.index] = p.State
		}
	}
	return nil
}

// ID returns the run's id.
func (r *Run) ID() string { return r.id }

// End ends the run: it runs the AfterRun hooks once (later calls do
// nothing) in reverse list order. It fills end.RunID and, when they are
// empty, Outcome (Failed when end.Err is set, Interrupted when ctx or
// end.Err is a cancellation, else Completed) and Reason (end.Err's message,
// else the outcome). It keeps ctx's values but not its cancellation, so an
// interrupted run is still audited. AfterRun errors are diagnostics.
func (r *Run) End(ctx context.Context, end RunEnd) {
	if r == nil || !r.ended.CompareAndSwap(false, true) {
		return
	}
	end.RunID = r.id
	if end.Outcome == "" {
		switch {
		case errors.Is(end.Err, context.Canceled), errors.Is(end.Err, context.DeadlineExceeded):
			end.Outcome = Interrupted
		case end.Err != nil:
			end.Outcome = Failed
		case ctx.Err() != nil:
			end.Outcome = Interrupted
		default:
			end.Outcome = Completed
		}
	}
	if end.Reason == "" {
		if end.Err != nil {
			end.Reason = end.Err.Error()
		} else {
			end.Reason = string(end.Outcome)
		}
	}
	r.afterRun(ctx, end, 0)
}

// afterRun runs the AfterRun hooks of the hooks with list index < stop
// (all when stop is 0), detached from ctx's cancellation.
func (r *Run) afterRun(ctx context.Context, end RunEnd, stop int) {
	ctx = context.WithoutCancel(ctx)
	c := r.context(ctx)
	defer r.release(c)
	for _, e := range r.chain.afterRun {
		if stop > 0 && e.index >= stop {
			continue
		}
		c.hook = e.index
		if err := callAfterRun(e.h, c, end); err != nil {
			r.chain.diagnose(Diagnostic{Hook: r.chain.names[e.index], Point: AfterRun, Err: err})
		}
	}
}

// BeforeModelRequest runs the BeforeModelRequest hooks in list order on
// req. The first End or Respond stops the remaining hooks; the step then
// says not to call the model. A step let through counts in ModelCalls.
func (r *Run) BeforeModelRequest(ctx context.Context, req ModelRequest) (ModelStep, error) {
	if err := ctx.Err(); err != nil {
		return ModelStep{Request: req}, interrupted(BeforeModelRequest, "", err)
	}
	c := r.context(ctx)
	defer r.release(c)
	var step ModelStep
	hs := r.chain.beforeModel
	for i := 0; ; i++ {
		at, p, err := nextBeforeModel(hs, c, req, i)
		if at == len(hs) {
			break
		}
		i = at
		e := hs[at]
		if err != nil {
			if err = r.failure(ctx, BeforeModelRequest, e.index, e.policy, err); err != nil {
				step.Request = req
				return step, err
			}
			continue
		}
		if p.System != nil {
			req.System = *p.System
		}
		if p.Messages != nil {
			req.Messages = p.Messages
		}
		if p.End != nil {
			step.End, step.stop = p.End, e.index+1
			break
		}
		if p.Respond != nil {
			resp := *p.Respond
			step.Response, step.stop = &resp, e.index+1
			break
		}
	}
	step.Request = req
	if err := ctx.Err(); err != nil {
		return step, interrupted(BeforeModelRequest, "", err)
	}
	if step.stop == 0 {
		r.modelCalls.Add(1)
	}
	return step, nil
}

// AfterModelResponse runs the AfterModelResponse hooks of the hooks step
// entered, in reverse list order, on resp. Every hook runs (no
// short-circuit); Text rewrites the reply, End ends the run, Continue
// sends the run on. End wins over Continue. Continue is dropped, with a
// diagnostic naming the hook, when the reply has tool calls: the loop goes
// on with the tool results anyway. A step that ended the run runs no hook.
func (r *Run) AfterModelResponse(ctx context.Context, step ModelStep, resp ModelResponse) (ModelReply, error) {
	if step.End != nil {
		return ModelReply{Response: resp, End: step.End}, nil
	}
	if err := ctx.Err(); err != nil {
		return ModelReply{Response: resp}, interrupted(AfterModelResponse, "", err)
	}
	c := r.context(ctx)
	defer r.release(c)
	var reply ModelReply
	continuedBy := -1
	hs := r.chain.afterModel
	for i := 0; ; i++ {
		at, p, err := nextAfterModel(hs, c, resp, i, step.stop)
		if at == len(hs) {
			break
		}
		i = at
		e := hs[at]
		if err != nil {
			if err = r.failure(ctx, AfterModelResponse, e.index, e.policy, err); err != nil {
				reply.Response = resp
				return reply, err
			}
			continue
		}
		if p.Text != nil {
			resp.Text = *p.Text
		}
		if p.End != nil {
			reply.End = p.End
		}
		if p.Continue != nil {
			reply.Continue, continuedBy = *p.Continue, e.index
		}
	}
	reply.Response = resp
	switch {
	case reply.End != nil:
		reply.Continue = ""
	case reply.Continue != "" && len(resp.ToolCalls) > 0:
		r.chain.diagnose(Diagnostic{Hook: r.chain.names[continuedBy], Point: AfterModelResponse,
			Err: fmt.Errorf("continue %q ignored: the reply has %d tool call(s)", reply.Continue, len(resp.ToolCalls))})
		reply.Continue = ""
	}
	return reply, nil
}

// BeforeToolExecute runs the BeforeToolExecute hooks in list order on
// call. The first refusal (Allow false, a *ToolError, or an error under
// policy Block) stops everything: the step is Refused, its Result is the
// error result the model reads, and no after-hook runs. A Result answers
// the call: the remaining before-hooks and the tool do not run, and the
// entered hooks' after-hooks still run on it.
func (r *Run) BeforeToolExecute(ctx context.Context, call ToolCall) (step ToolStep, err error) {
	if err := ctx.Err(); err != nil {
		return ToolStep{Call: call}, interrupted(BeforeToolExecute, "", err)
	}
	hs := r.chain.beforeTool
	if len(hs) == 0 {
		return ToolStep{Call: call}, nil
	}
	c := r.context(ctx)
	c.call, c.hasCall = call, true
	defer r.release(c)
	for i := 0; ; i++ {
		at, p, err := nextBeforeTool(hs, c, call, i)
		if at == len(hs) {
			break
		}
		i = at
		e := hs[at]
		if err != nil {
			var te *ToolError
			switch {
			case errors.As(err, &te):
				r.refuse(&step, e.index, te.Message)
			case ctx.Err() != nil || e.policy == FailRun:
				step.Call = call
				return step, r.failure(ctx, BeforeToolExecute, e.index, e.policy, err)
			default:
				r.chain.diagnose(Diagnostic{Hook: r.chain.names[e.index], Point: BeforeToolExecute, Err: err})
				if e.policy != Block {
					continue
				}
				r.refuse(&step, e.index, "Tool call blocked: "+err.Error())
			}
			step.Call = call
			return step, nil
		}
		if p.Arguments != nil {
			if !step.rewritten {
				step.rewritten, step.origArgs = true, call.Arguments
			}
			call.Arguments = p.Arguments
		}
		if p.Allow != nil && !*p.Allow {
			reason := ""
			if p.Reason != nil {
				reason = *p.Reason
			}
			r.refuse(&step, e.index, reason)
			step.Call = call
			return step, nil
		}
		if p.Result != nil {
			res := *p.Result
			step.Result, step.stop = &res, e.index+1
			break
		}
	}
	step.Call = call
	if err := ctx.Err(); err != nil {
		return step, interrupted(BeforeToolExecute, "", err)
	}
	return step, nil
}

// refuse marks step refused by the hook at index with reason, or with a
// reason naming the hook when it gave none.
func (r *Run) refuse(step *ToolStep, index int, reason string) {
	if reason == "" {
		reason = "refused by hook " + r.chain.names[index]
	}
	step.Refused, step.Reason, step.stop = true, reason, index+1
	step.Result = &ToolResult{Text: reason, IsError: true}
}

// AfterToolExecute runs the AfterToolExecute hooks of the hooks step
// entered, in reverse list order, on res, and returns the result the model
// reads. A zero step counts as every hook entered (set step.Call for hosts
// that have only an after-callback). A refused step runs no hook and
// returns the refusal.
func (r *Run) AfterToolExecute(ctx context.Context, step ToolStep, res ToolResult) (ToolResult, error) {
	if step.Refused && step.Result != nil {
		return *step.Result, nil
	}
	if err := ctx.Err(); err != nil {
		return res, interrupted(AfterToolExecute, "", err)
	}
	c := r.context(ctx)
	c.call, c.hasCall = step.original(), true
	defer r.release(c)
	hs := r.chain.afterTool
	for i := 0; ; i++ {
		at, p, err := nextAfterTool(hs, c, step.Call, res, i, step.stop)
		if at == len(hs) {
			break
		}
		i = at
		e := hs[at]
		if err != nil {
			if err = r.failure(ctx, AfterToolExecute, e.index, e.policy, err); err != nil {
				return res, err
			}
			continue
		}
		if p.Text != nil {
			res.Text = *p.Text
		}
		if p.IsError != nil {
			res.IsError = *p.IsError
		}
		if p.Value != nil {
			res.Value = p.Value
		}
	}
	return res, nil
}

// CallModel runs one model call through the chain: BeforeModelRequest,
// then model (unless a hook answered or ended the run), then
// AfterModelResponse on the entered hooks. A model error is returned as
// is, and no after-hook runs.
func (r *Run) CallModel(ctx context.Context, req ModelRequest, model ModelFunc) (ModelReply, error) {
	step, err := r.BeforeModelRequest(ctx, req)
	if err != nil {
		return ModelReply{}, err
	}
	if step.End != nil {
		return ModelReply{End: step.End}, nil
	}
	var resp ModelResponse
	if step.Response != nil {
		resp = *step.Response
	} else {
		c := r.context(ctx)
		resp, err = model(c, step.Request)
		r.release(c)
		if err != nil {
			return ModelReply{Response: resp}, err
		}
	}
	return r.AfterModelResponse(ctx, step, resp)
}

// CallTool runs one tool call through the chain: BeforeToolExecute, then
// tool (unless a hook refused or answered), then AfterToolExecute on the
// entered hooks. A refusal is returned as the error result the model
// reads, with a nil error. A tool error is returned as is, and no
// after-hook runs.
func (r *Run) CallTool(ctx context.Context, call ToolCall, tool ToolFunc) (ToolResult, error) {
	step, err := r.BeforeToolExecute(ctx, call)
	if err != nil {
		return ToolResult{}, err
	}
	if step.Refused {
		return *step.Result, nil
	}
	var res ToolResult
	if step.Result != nil {
		res = *step.Result
	} else {
		c := r.context(ctx)
		c.call, c.hasCall = step.original(), true
		res, err = tool(c, step.Call)
		r.release(c)
		if err != nil {
			return res, err
		}
	}
	return r.AfterToolExecute(ctx, step, res)
}

// failure decides what a hook's error does: it returns the error the Run
// method must return (the context's when it was cancelled, a *HookError
// under FailRun), or nil after reporting it as a diagnostic.
func (r *Run) failure(ctx context.Context, p Point, index int, policy Policy, err error) error {
	name := r.chain.names[index]
	if cerr := ctx.Err(); cerr != nil {
		return interrupted(p, name, cerr)
	}
	if policy == FailRun {
		return &HookError{Hook: name, Point: p, Err: err}
	}
	r.chain.diagnose(Diagnostic{Hook: name, Point: p, Err: err})
	return nil
}

// interrupted is the error of a call whose context was cancelled; it
// matches the context's error with errors.Is.
func interrupted(p Point, hook string, cause error) error {
	if hook == "" {
		return fmt.Errorf("hooks: %s interrupted: %w", p, cause)
	}
	return fmt.Errorf("hooks: %s interrupted in hook %q: %w", p, hook, cause)
}

// A run keeps one spare Context, so that a call does not allocate; calls
// running in parallel take theirs from a shared pool.
var contextPool = sync.Pool{New: func() any { return new(Context) }}

func (r *Run) context(ctx context.Context) *Context {
	c := contextPool.Get().(*Context)
	*c = r.template
	c.Context = ctx
	return c
}

func (r *Run) release(c *Context) {
	c.Context, c.run = nil, nil // the pool must not keep the run alive
	contextPool.Put(c)
}

// The call* functions run one hook method and turn its panic into an error.

func callBeforeRun(h BeforeRunHook, c *Context, s RunStart) (p *RunPatch, err error) {
	defer recoverPanic(&err)
	return h.BeforeRun(c, s)
}

func callAfterRun(h AfterRunHook, c *Context, e RunEnd) (err error) {
	defer recoverPanic(&err)
	return h.AfterRun(c, e)
}

// The next* functions are the hot loops: they call the hooks of one point
// from index i on, and return at the first that has an opinion (a patch)
// or an error, with at its index (len(hs) when none had). They recover a
// panic as that hook's error: one deferred recover per call, not per hook,
// keeps a chain of hooks without opinion close to direct calls. Hooks with
// list index >= stop (when stop > 0) were not entered and are skipped.

func nextBeforeModel(hs []entry[BeforeModelRequestHook], c *Context, req ModelRequest, i int) (at int, p *ModelRequestPatch, err error) {
	defer recoverPanic(&err)
	for at = i; at < len(hs); at++ {
		c.hook = hs[at].index
		if p, err = hs[at].h.BeforeModelRequest(c, req); p != nil || err != nil {
			return at, p, err
		}
	}
	return at, nil, nil
}

func nextAfterModel(hs []entry[AfterModelResponseHook], c *Context, resp ModelResponse, i, stop int) (at int, p *ModelResponsePatch, err error) {
	defer recoverPanic(&err)
	for at = i; at < len(hs); at++ {
		if stop > 0 && hs[at].index >= stop {
			continue
		}
		c.hook = hs[at].index
		if p, err = hs[at].h.AfterModelResponse(c, resp); p != nil || err != nil {
			return at, p, err
		}
	}
	return at, nil, nil
}

func nextBeforeTool(hs []entry[BeforeToolExecuteHook], c *Context, call ToolCall, i int) (at int, p *ToolCallPatch, err error) {
	defer recoverPanic(&err)
	for at = i; at < len(hs); at++ {
		c.hook = hs[at].index
		if p, err = hs[at].h.BeforeToolExecute(c, call); p != nil || err != nil {
			return at, p, err
		}
	}
	return at, nil, nil
}

func nextAfterTool(hs []entry[AfterToolExecuteHook], c *Context, call ToolCall, res ToolResult, i, stop int) (at int, p *ToolResultPatch, err error) {
	defer recoverPanic(&err)
	for at = i; at < len(hs); at++ {
		if stop > 0 && hs[at].index >= stop {
			continue
		}
		c.hook = hs[at].index
		if p, err = hs[at].h.AfterToolExecute(c, call, res); p != nil || err != nil {
			return at, p, err
		}
	}
	return at, nil, nil
}
