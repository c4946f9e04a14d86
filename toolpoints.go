package hooks

import (
	"context"
	"runtime/debug"
)

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
	step.Call = call
	if err := r.gone(ctx); err != nil { // a child run's calls also refuse once it or its parent ended (child.go)
		return interrupted(BeforeToolExecute, "", err)
	}
	hs := r.chain.beforeTool
	if len(hs) == 0 {
		return nil
	}
	l, slots := r.newCall(BeforeToolExecute, r.shapes.beforeTool)
	l.call, l.hasCall = call, true
	defer l.end()
	site := callSite{ctx, l, slots}
	s := beforeTool{r: r, site: &site, step: step, end: len(hs)}
	t0, tracing := r.traceStart()
	if a := s.ask(0, tracing); a.at < len(hs) {
		p := walkRules[BeforeToolExecuteHook, ToolCallPatch]{s.ask, s.apply, s.refused}
		for {
			if err := walk(r, l, ctx, hs, p, a, t0, tracing); err != nil {
				return err
			}
			if s.edited == 0 { // the walk ended; else it stopped at a person's edit
				break
			}
			at := s.edited - 1
			s.edited, s.rewritten = 0, true
			if err := recheck(r, ctx, call, step, at, 0); err != nil || step.Refused || step.Result != nil {
				return err
			}
			t0, _ = r.traceStart()
			if a = s.ask(at+1, tracing); a.at >= len(hs) {
				break
			}
		}
	}
	if err := ctx.Err(); err != nil && !step.Refused { // a refusal stands; an answer past the deadline does not
		return interrupted(BeforeToolExecute, "", err)
	}
	return nil
}

// beforeTool is the walk of BeforeToolExecute; step.Call is the call as
// the hooks have left it so far, rewritten whether they changed its
// arguments (what Context.Rewritten tells the next hook).
type beforeTool struct {
	r         *Run
	site      *callSite // the point call's
	step      *ToolStep
	rewritten bool
	end       int // the hooks asked are those before end: all, or those before a person's edit (recheck)
	depth     int // how many rechecks this walk is inside
	edited    int // list place + 1 of the hook whose person edited the call, where the walk stopped; 0: none
}

func (s *beforeTool) ask(i int, tracing bool) (a opinion[ToolCallPatch]) {
	defer s.recovered(&a)
	// Local copies: no patch applies within a batch.
	hs, call, l, slots, ctx, rewritten := s.r.chain.beforeTool[:s.end], s.step.Call, s.site.life, s.site.slots, s.site.ctx, s.rewritten
	for a.at = i; a.at < len(hs) && a.at < len(slots); a.at++ {
		c := l.enter(&slots[a.at], ctx, hs[a.at].index, rewritten)
		l.openReviews(a.at)
		a.p, a.err = hs[a.at].h.BeforeToolExecute(c, call)
		l.closeReviews()               // a goroutine the hook left behind decides nothing from now on
		if c.review&reviewNoBit != 0 { // a person said no to this call
			a.p, a.err = c.personsNo(a.p, a.err)
		}
		if a.p != nil || a.err != nil || tracing {
			return a
		}
	}
	return a
}

// recovered is recoverPanic for ask's batch, which also makes a person's
// no stand over a hook that panicked after hearing it (a panic under
// policy Report would be no opinion). recover works only in the deferred
// function itself, so it is not a call of recoverPanic.
func (s *beforeTool) recovered(a *opinion[ToolCallPatch]) {
	if v := recover(); v != nil {
		a.err = &PanicError{Value: v, Stack: debug.Stack()}
		s.site.life.closeReviews()
		if a.at < len(s.site.slots) && s.site.slots[a.at].review&reviewNoBit != 0 {
			a.p, a.err = s.site.slots[a.at].personsNo(nil, a.err)
		}
	} else if a.err != nil {
		a.err = sanitize(a.err)
	}
}

// apply: Arguments replace the call's for the next hook and the tool;
// Allow false refuses (even with a Result); a Result answers.
func (s *beforeTool) apply(p *ToolCallPatch, index int) verdict {
	changed := fields(callFields, p.Arguments != nil)
	if p.Arguments != nil {
		step := s.step
		if !step.rewritten {
			step.rewritten, step.origArgs = true, step.Call.Arguments
		}
		step.Call.Arguments = p.Arguments
		s.rewritten = step.Rewritten()
	}
	if v, ok := refusal(s.r.chain.names, BeforeToolExecute, index, 0, p, nil); ok {
		v.changed = changed
		return s.refused(v, index)
	}
	if p.Result != nil {
		res := *p.Result
		s.step.Result, s.step.stop = &res, stoppedBy(index)
		return verdict{decision: DecisionAnswered, changed: changed, stop: true}
	}
	if p.Arguments != nil {
		if pos := s.position(index); pos > 0 && s.site.slots[pos].personEdited() {
			s.edited = pos + 1 // the walk stops, for a second look (recheck)
			return verdict{decision: DecisionChanged, changed: changed, stop: true}
		}
	}
	return changedOr(changed)
}

// refused records the refusal v (decided by refusal) of the hook at index
// on the step: the tool does not run, and the model reads the reason.
func (s *beforeTool) refused(v verdict, index int) verdict {
	step := s.step
	step.Refused, step.Reason, step.stop = true, v.reason, stoppedBy(index)
	step.Result = &ToolResult{Text: v.reason, IsError: true}
	return v
}

// AfterToolExecute runs the AfterToolExecute hooks of the hooks step
// entered, in reverse list order, on res, and returns the result the model
// reads. A zero step counts as every hook entered (set step.Call for hosts
// that have only an after-callback). A refused step runs no hook and
// returns the refusal.
func (r *Run) AfterToolExecute(ctx context.Context, step ToolStep, res ToolResult) (ToolResult, error) {
	if step.Refused {
		res, _ := step.answer()
		return res, nil
	}
	if len(r.chain.wrapTool) > 0 && step.Result == nil {
		r.wraps[0].after(r, WrapToolCall, r.chain.wrapToolNames)
	}
	if err := ctx.Err(); err != nil {
		return res, interrupted(AfterToolExecute, "", err)
	}
	if len(r.chain.afterTool) == 0 {
		return res, nil
	}
	l, slots := r.newCall(AfterToolExecute, r.shapes.afterTool)
	l.call, l.hasCall = step.original(), true
	defer l.end()
	site := callSite{ctx, l, slots}
	s := afterTool{hs: r.chain.afterTool, site: site, rewritten: step.Rewritten(),
		stop: step.stop, call: step.Call, res: res}
	t0, tracing := r.traceStart()
	if a := s.ask(0, tracing); a.at < len(s.hs) {
		p := walkRules[AfterToolExecuteHook, ToolResultPatch]{s.ask, s.apply, nil}
		if err := walk(r, l, ctx, s.hs, p, a, t0, tracing); err != nil {
			return s.res, err
		}
	}
	if err := ctx.Err(); err != nil { // a hook that ignored the cancellation answered too late
		return s.res, interrupted(AfterToolExecute, "", err)
	}
	return s.res, nil
}

// afterTool is the walk of AfterToolExecute; res is the result as the
// hooks have left it so far.
type afterTool struct {
	hs        []entry[AfterToolExecuteHook]
	site      callSite // the point call's (a copy: the walk keeps no pointer to a stack)
	rewritten bool     // the step's: hooks changed the call's arguments
	stop      stopMark // the step's: which hooks the before-point entered
	call      ToolCall
	res       ToolResult
}

func (s *afterTool) ask(i int, tracing bool) (a opinion[ToolResultPatch]) {
	defer recoverPanic(&a.err)
	// Local copies: no patch applies within a batch.
	hs, stop, call, res, l, slots, ctx, rewritten := s.hs, s.stop, s.call, s.res, s.site.life, s.site.slots, s.site.ctx, s.rewritten
	for a.at = i; a.at < len(hs) && a.at < len(slots); a.at++ {
		if !stop.entered(hs[a.at].index) {
			continue
		}
		c := l.enter(&slots[a.at], ctx, hs[a.at].index, rewritten)
		if a.p, a.err = hs[a.at].h.AfterToolExecute(c, call, res); a.p != nil || a.err != nil || tracing {
			return a
		}
	}
	return a
}

// apply: every hook runs; each set field replaces the result's.
func (s *afterTool) apply(p *ToolResultPatch, _ int) verdict {
	if p.Text != nil {
		s.res.Text = *p.Text
	}
	if p.IsError != nil {
		s.res.IsError = *p.IsError
	}
	if p.Value != nil {
		s.res.Value = p.Value
	}
	return changedOr(fields(resultFields, p.Text != nil, p.IsError != nil, p.Value != nil))
}
