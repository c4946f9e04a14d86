package hooks

import (
	"context"
	"fmt"
)

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

// Rewritten reports whether a hook replaced the call's arguments: Call's
// are the hooks', not the model's. A host holding the model's raw JSON
// arguments re-encodes them only then, so that numbers past float64's
// precision reach the tool as the model wrote them unless a hook changed
// them.
func (s *ToolStep) Rewritten() bool { return s.rewritten }

// original returns the call as the model asked for it.
func (s *ToolStep) original() ToolCall {
	call := s.Call
	if s.rewritten {
		call.Arguments = s.origArgs
	}
	return call
}

// ToolFunc runs a tool. c carries the run's capabilities (c.Hook() is "").
//
// c is valid only until the function returns: the chain reuses it. Do not
// hand c to code that keeps its context past the call (a framework's
// client, a goroutine, a cache); hand it c.Context, the context the host
// passed in, or a context derived from that.
type ToolFunc func(c *Context, call ToolCall) (ToolResult, error)

// ModelFunc calls a model. c carries the run's capabilities (c.Hook() is "").
//
// c is valid only until the function returns: the chain reuses it. Do not
// hand c to code that keeps its context past the call (an HTTP client's
// streaming body, a goroutine); hand it c.Context, the context the host
// passed in, or a context derived from that.
type ModelFunc func(c *Context, req ModelRequest) (ModelResponse, error)

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
	t0, one := r.traceStart()
	for i := 0; ; i++ {
		at, p, err := nextBeforeModel(hs, c, req, i, one)
		if at == len(hs) {
			break
		}
		i = at
		e := hs[at]
		if one {
			d, changed := p.decision()
			t0 = r.traced(t0, BeforeModelRequest, e.index, e.policy, d, changed, "", err)
		}
		if err != nil {
			if err = r.failure(ctx, BeforeModelRequest, e.index, e.policy, err); err != nil {
				step.Request = req
				return step, err
			}
			continue
		}
		if p == nil {
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
	t0, one := r.traceStart()
	for i := 0; ; i++ {
		at, p, err := nextAfterModel(hs, c, resp, i, step.stop, one)
		if at == len(hs) {
			break
		}
		i = at
		e := hs[at]
		if one {
			d, changed := p.decision()
			t0 = r.traced(t0, AfterModelResponse, e.index, e.policy, d, changed, "", err)
		}
		if err != nil {
			if err = r.failure(ctx, AfterModelResponse, e.index, e.policy, err); err != nil {
				reply.Response = resp
				return reply, err
			}
			continue
		}
		if p == nil {
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
	if err := ctx.Err(); err != nil { // a hook that ignored the cancellation answered too late
		return reply, interrupted(AfterModelResponse, "", err)
	}
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
	err = r.beforeTool(ctx, call, &step) // small enough to inline: step is the caller's, not a copy
	return step, err
}

// beforeTool is BeforeToolExecute, writing the step in place.
func (r *Run) beforeTool(ctx context.Context, call ToolCall, step *ToolStep) error {
	if err := ctx.Err(); err != nil {
		step.Call = call
		return interrupted(BeforeToolExecute, "", err)
	}
	hs := r.chain.beforeTool
	if len(hs) == 0 {
		step.Call = call
		return nil
	}
	c := r.context(ctx)
	c.call, c.hasCall = call, true
	defer r.release(c)
	t0, one := r.traceStart()
	for i := 0; ; i++ {
		at, p, err := nextBeforeTool(hs, c, call, i, one)
		if at == len(hs) {
			break
		}
		i = at
		e := hs[at]
		if one {
			d, changed, reason := p.decision()
			t0 = r.traced(t0, BeforeToolExecute, e.index, e.policy, d, changed, reason, err)
		}
		if err != nil {
			msg, refusal := toolRefusal(err)
			switch {
			case refusal:
				r.refuse(step, e.index, msg)
			case ctx.Err() != nil || e.policy == FailRun:
				step.Call = call
				return r.failure(ctx, BeforeToolExecute, e.index, e.policy, err)
			default:
				r.chain.diagnose(Diagnostic{Hook: r.chain.names[e.index], Point: BeforeToolExecute, Err: err})
				if e.policy != Block {
					continue
				}
				r.refuse(step, e.index, "Tool call blocked: "+blockedText(err))
			}
			step.Call = call
			return nil
		}
		if p == nil {
			continue
		}
		if p.Arguments != nil {
			if !step.rewritten {
				step.rewritten, step.origArgs = true, call.Arguments
				c.rewritten = true
			}
			call.Arguments = p.Arguments
		}
		if p.Allow != nil && !*p.Allow {
			reason := ""
			if p.Reason != nil {
				reason = *p.Reason
			}
			r.refuse(step, e.index, reason)
			step.Call = call
			return nil
		}
		if p.Result != nil {
			res := *p.Result
			step.Result, step.stop = &res, e.index+1
			break
		}
	}
	step.Call = call
	if err := ctx.Err(); err != nil {
		return interrupted(BeforeToolExecute, "", err)
	}
	return nil
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
	c.call, c.hasCall, c.rewritten = step.original(), true, step.rewritten
	defer r.release(c)
	hs := r.chain.afterTool
	t0, one := r.traceStart()
	for i := 0; ; i++ {
		at, p, err := nextAfterTool(hs, c, step.Call, res, i, step.stop, one)
		if at == len(hs) {
			break
		}
		i = at
		e := hs[at]
		if one {
			d, changed := p.decision()
			t0 = r.traced(t0, AfterToolExecute, e.index, e.policy, d, changed, "", err)
		}
		if err != nil {
			if err = r.failure(ctx, AfterToolExecute, e.index, e.policy, err); err != nil {
				return res, err
			}
			continue
		}
		if p == nil {
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
	if err := ctx.Err(); err != nil { // a hook that ignored the cancellation answered too late
		return res, interrupted(AfterToolExecute, "", err)
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
		c.call, c.hasCall, c.rewritten = step.original(), true, step.rewritten
		res, err = tool(c, step.Call)
		r.release(c)
		if err != nil {
			return res, err
		}
	}
	return r.AfterToolExecute(ctx, step, res)
}

// The next* functions are the hot loops: they call the hooks of one point
// from index i on, and return at the first that has an opinion (a patch)
// or an error, with at its index (len(hs) when none had). They recover a
// panic as that hook's error: one deferred recover per call, not per hook,
// keeps a chain of hooks without opinion close to direct calls. Hooks with
// list index >= stop (when stop > 0) were not entered and are skipped.

func nextBeforeModel(hs []entry[BeforeModelRequestHook], c *Context, req ModelRequest, i int, one bool) (at int, p *ModelRequestPatch, err error) {
	defer recoverPanic(&err)
	for at = i; at < len(hs); at++ {
		c.hook = hs[at].index
		if p, err = hs[at].h.BeforeModelRequest(c, req); p != nil || err != nil || one {
			return at, p, err
		}
	}
	return at, nil, nil
}

func nextAfterModel(hs []entry[AfterModelResponseHook], c *Context, resp ModelResponse, i, stop int, one bool) (at int, p *ModelResponsePatch, err error) {
	defer recoverPanic(&err)
	for at = i; at < len(hs); at++ {
		if stop > 0 && hs[at].index >= stop {
			continue
		}
		c.hook = hs[at].index
		if p, err = hs[at].h.AfterModelResponse(c, resp); p != nil || err != nil || one {
			return at, p, err
		}
	}
	return at, nil, nil
}

func nextBeforeTool(hs []entry[BeforeToolExecuteHook], c *Context, call ToolCall, i int, one bool) (at int, p *ToolCallPatch, err error) {
	defer recoverPanic(&err)
	for at = i; at < len(hs); at++ {
		c.hook = hs[at].index
		if p, err = hs[at].h.BeforeToolExecute(c, call); p != nil || err != nil || one {
			return at, p, err
		}
	}
	return at, nil, nil
}

func nextAfterTool(hs []entry[AfterToolExecuteHook], c *Context, call ToolCall, res ToolResult, i, stop int, one bool) (at int, p *ToolResultPatch, err error) {
	defer recoverPanic(&err)
	for at = i; at < len(hs); at++ {
		if stop > 0 && hs[at].index >= stop {
			continue
		}
		c.hook = hs[at].index
		if p, err = hs[at].h.AfterToolExecute(c, call, res); p != nil || err != nil || one {
			return at, p, err
		}
	}
	return at, nil, nil
}
