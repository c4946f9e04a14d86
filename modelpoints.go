package hooks

import (
	"context"
	"fmt"
	"math"
)

// BeforeModelRequest runs the BeforeModelRequest hooks in list order on
// req. The first End or Respond stops the remaining hooks; the step then
// says not to call the model. A step let through counts in ModelCalls.
func (r *Run) BeforeModelRequest(ctx context.Context, req ModelRequest) (ModelStep, error) {
	step := ModelStep{Request: req}
	if err := r.gone(ctx); err != nil { // a child run's calls also refuse once it or its parent ended (child.go)
		return step, interrupted(BeforeModelRequest, "", err)
	}
	r.countContinuation()
	if len(r.chain.beforeModel) > 0 {
		if err := r.beforeModel(ctx, &step); err != nil {
			return step, err
		}
	}
	if step.stop.none() {
		r.countModelCall()
	}
	return step, nil
}

// beforeModel runs the BeforeModelRequest hooks on step: a point call
// with hooks (one without makes none, and allocates nothing).
func (r *Run) beforeModel(ctx context.Context, step *ModelStep) error {
	l, slots := r.newCall(BeforeModelRequest, r.shapes.beforeModel)
	defer l.end()
	site := callSite{ctx, l, slots}
	s := beforeModel{hs: r.chain.beforeModel, site: &site, step: step}
	t0, tracing := r.traceStart()
	if a := s.ask(0, tracing); a.at < len(s.hs) {
		p := walkRules[BeforeModelRequestHook, ModelRequestPatch]{s.ask, s.apply, nil}
		if err := walk(r, l, ctx, s.hs, p, a, t0, tracing); err != nil {
			return err
		}
	}
	if err := ctx.Err(); err != nil { // a hook that ignored the cancellation answered too late
		return interrupted(BeforeModelRequest, "", err)
	}
	return s.offered(r.chain.names)
}

// beforeModel is the walk of BeforeModelRequest; step.Request is the
// request as the hooks have left it so far.
type beforeModel struct {
	hs   []entry[BeforeModelRequestHook]
	site *callSite // the point call's
	step *ModelStep

	toolsBy int // list index + 1 of the last hook that replaced the tools; 0: none did
}

func (s *beforeModel) ask(i int, tracing bool) (a opinion[ModelRequestPatch]) {
	defer recoverPanic(&a.err)
	hs, req, l, slots, ctx := s.hs, s.step.Request, s.site.life, s.site.slots, s.site.ctx // local copies: no patch applies within a batch
	for a.at = i; a.at < len(hs) && a.at < len(slots); a.at++ {
		c := l.enter(&slots[a.at], ctx, hs[a.at].index, false)
		if a.p, a.err = hs[a.at].h.BeforeModelRequest(c, req); a.p != nil || a.err != nil || tracing {
			return a
		}
	}
	return a
}

// apply: System, Messages, Model, Tools, ToolChoice and Settings replace
// the request's, so a later hook sees them; End beats Respond, and either
// stops the walk. A ToolChoice or Settings that cannot be understood (see
// checkRequestPatch) is the hook's error and nothing of its patch
// applies, except an End or a Respond: a hook that meant the model not to
// be called is never turned into one that lets the call through.
func (s *beforeModel) apply(p *ModelRequestPatch, index int) verdict {
	step := s.step
	tc, st, bad := checkRequestPatch(p, &step.Request)
	if bad != nil {
		switch {
		case p.End != nil:
			step.End, step.stop = p.End, stoppedBy(index)
			return verdict{decision: DecisionEnded, err: bad, stop: true}
		case p.Respond != nil:
			resp := *p.Respond
			step.Response, step.stop = &resp, stoppedBy(index)
			return verdict{decision: DecisionAnswered, err: bad, stop: true}
		}
		return verdict{decision: DecisionErrored, err: bad}
	}
	if p.System != nil {
		step.Request.System = *p.System
	}
	if p.Messages != nil {
		step.Request.Messages = p.Messages
	}
	if p.Model != nil {
		step.Request.Model = *p.Model
	}
	if p.Tools != nil {
		step.Request.Tools = p.Tools
		s.toolsBy = index + 1
	}
	if tc != nil {
		step.Request.ToolChoice = tc
	}
	if st != nil {
		step.Request.Settings = st
	}
	changed := fields(requestFields, p.System != nil, p.Messages != nil, p.Model != nil, p.Tools != nil, tc != nil, st != nil)
	switch {
	case p.End != nil:
		step.End, step.stop = p.End, stoppedBy(index)
		return verdict{decision: DecisionEnded, changed: changed, stop: true}
	case p.Respond != nil:
		resp := *p.Respond
		step.Response, step.stop = &resp, stoppedBy(index)
		return verdict{decision: DecisionAnswered, changed: changed, stop: true}
	}
	return changedOr(changed)
}

// offered checks, once the hooks have answered, that the request's tool
// choice still names a tool it offers: a hook that narrowed the tools
// after an earlier one (or the host) chose one of them leaves a request
// no provider can honour. Neither hook's answer can be dropped (one may
// be a guard's narrowing), so the call fails, naming the hook that
// narrowed, whatever its policy.
func (s *beforeModel) offered(names []string) error {
	req := &s.step.Request
	if s.toolsBy == 0 || req.ToolChoice == nil || !s.step.stop.none() {
		return nil
	}
	if _, err := checkToolChoice(*req.ToolChoice, req.Tools); err != nil {
		return &HookError{Hook: names[s.toolsBy-1], Point: BeforeModelRequest,
			Err: fmt.Errorf("its tools leave the request's tool choice impossible: %w", err)}
	}
	return nil
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
	if len(r.chain.wrapModel) > 0 && step.Response == nil {
		r.wraps[1].after(r, WrapModelCall, r.chain.wrapModelNames)
	}
	if err := ctx.Err(); err != nil {
		return ModelReply{Response: resp}, interrupted(AfterModelResponse, "", err)
	}
	if len(r.chain.afterModel) == 0 {
		return r.settle(afterModel{reply: ModelReply{Response: resp}, continuedBy: -1}), nil
	}
	return r.afterModel(ctx, step, resp)
}

// afterModel runs the AfterModelResponse hooks: a point call with hooks
// (one without makes none, and allocates nothing).
func (r *Run) afterModel(ctx context.Context, step ModelStep, resp ModelResponse) (ModelReply, error) {
	l, slots := r.newCall(AfterModelResponse, r.shapes.afterModel)
	defer l.end()
	site := callSite{ctx, l, slots}
	s := afterModel{hs: r.chain.afterModel, site: site, stop: step.stop, reply: ModelReply{Response: resp}, continuedBy: -1}
	t0, tracing := r.traceStart()
	if a := s.ask(0, tracing); a.at < len(s.hs) {
		p := walkRules[AfterModelResponseHook, ModelResponsePatch]{s.ask, s.apply, nil}
		if err := walk(r, l, ctx, s.hs, p, a, t0, tracing); err != nil {
			return s.reply, err
		}
	}
	if err := ctx.Err(); err != nil { // a hook that ignored the cancellation answered too late
		return s.reply, interrupted(AfterModelResponse, "", err)
	}
	return r.settle(s), nil
}

// settle decides between End and Continue once every hook has answered:
// End wins, and a reply with tool calls cannot be continued.
func (r *Run) settle(s afterModel) ModelReply {
	reply := s.reply
	switch {
	case reply.End != nil:
		reply.Continue = ""
	case reply.Continue != "" && len(reply.Response.ToolCalls) > 0:
		r.chain.diagnose(Diagnostic{Hook: r.chain.names[s.continuedBy], Point: AfterModelResponse,
			Err: fmt.Errorf("continue %q ignored: the reply has %d tool call(s)", reply.Continue, len(reply.Response.ToolCalls))})
		reply.Continue = ""
	}
	r.continued.Store(reply.Continue != "")
	return reply
}

// countModelCall counts a request let through to the model, saturating
// at MaxInt64 so that the count never reads negative and a snapshot of it
// always reads back.
func (r *Run) countModelCall() {
	for {
		n := r.modelCalls.Load()
		if n == math.MaxInt64 || r.modelCalls.CompareAndSwap(n, n+1) {
			return
		}
	}
}

// countContinuation counts, as a model call starts, whether hooks sent the
// run on to it (Continue on the reply before): the streak grows, or a
// user's turn (or the run's first call) resets it.
func (r *Run) countContinuation() {
	if r.continued.Swap(false) {
		r.continuations.Add(1)
		return
	}
	r.continuations.Store(0)
}

// afterModel is the walk of AfterModelResponse; reply is the reply as the
// hooks have left it so far, continuedBy the hook that set Continue last.
type afterModel struct {
	hs          []entry[AfterModelResponseHook]
	site        callSite // the point call's (a copy: the walk keeps no pointer to a stack)
	stop        stopMark // the step's: which hooks the before-point entered
	reply       ModelReply
	continuedBy int
}

func (s *afterModel) ask(i int, tracing bool) (a opinion[ModelResponsePatch]) {
	defer recoverPanic(&a.err)
	// Local copies: no patch applies within a batch.
	hs, stop, resp, l, slots, ctx := s.hs, s.stop, s.reply.Response, s.site.life, s.site.slots, s.site.ctx
	for a.at = i; a.at < len(hs) && a.at < len(slots); a.at++ {
		if !stop.entered(hs[a.at].index) {
			continue
		}
		c := l.enter(&slots[a.at], ctx, hs[a.at].index, false)
		if a.p, a.err = hs[a.at].h.AfterModelResponse(c, resp); a.p != nil || a.err != nil || tracing {
			return a
		}
	}
	return a
}

// apply: every hook runs; Text, ToolCalls and Reasoning replace the
// reply's, and the last End and Continue are kept for settle.
func (s *afterModel) apply(p *ModelResponsePatch, index int) verdict {
	if p.Text != nil {
		s.reply.Response.Text = *p.Text
	}
	if p.ToolCalls != nil { // a copy: the hook may reuse its slice
		s.reply.Response.ToolCalls = append(make([]ToolCall, 0, len(p.ToolCalls)), p.ToolCalls...)
	}
	if p.Reasoning != nil {
		s.reply.Response.Reasoning = *p.Reasoning
	}
	changed := fields(responseFields, p.Text != nil, p.ToolCalls != nil, p.Reasoning != nil)
	switch {
	case p.End != nil:
		s.reply.End = p.End
		if p.Continue != nil {
			s.reply.Continue, s.continuedBy = *p.Continue, index
		}
		return verdict{decision: DecisionEnded, changed: changed}
	case p.Continue != nil:
		s.reply.Continue, s.continuedBy = *p.Continue, index
		return verdict{decision: DecisionContinued, changed: changed}
	}
	return changedOr(changed)
}
