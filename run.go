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
	chain   *Chain
	id      string
	input   string
	host    Host                   // resolved: no nil defaults left
	given   Host                   // as the host gave it (Run.Host, a child's default)
	family  atomic.Pointer[family] // nil: a root run that started no child (child.go)
	states  []any                  // per hook, by list index
	stateMu sync.Mutex             // guards states: any point may set its hook's state (Context.SetState)

	modelCalls atomic.Int64
	// continued: the last reply was sent on with Continue; continuations:
	// how many model calls in a row, up to the current one, hooks sent on.
	continued     atomic.Bool
	continuations atomic.Int64
	memo          memoTable
	ended         atomic.Bool
	// reviewNos holds the reason of each person's no that stands (a hook
	// Context's reviewNoBit), by Context, until the walk reads it: a no is
	// rare, and a field for it would take every Context out of its size
	// class. It is the run's, so nothing of it outlives the run.
	reviewNos sync.Map // *Context → string

	wraps [2]wrapCount // tool calls, model calls: did the host run them through the wraps?

	template Context // what every Context of the run starts as
	shapes   shapes  // of the point calls that run on every model and tool call
}

// shapes are the allocations of the points that run on every model and
// tool call, sized by their number of hooks (nil: none, no allocation).
type shapes struct {
	beforeTool, afterTool, beforeModel, afterModel *callShape
}

// shapeFor is the shape of a point call with n hooks; nil for none.
func shapeFor(n int) *callShape {
	if n == 0 {
		return nil
	}
	return shapeOf(n)
}

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
	if start.ParentRunID != "" {
		return nil, fmt.Errorf("hooks: Start: RunStart.ParentRunID is %q: only Run.Child starts a child run", start.ParentRunID)
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
	r := &Run{chain: c, id: id, input: input, host: host.resolved(), given: host, states: make([]any, len(c.hooks))}
	h := &r.host
	r.template = Context{Workdir: h.Workdir, Session: h.Session, Agent: h.Agent, Config: h.Config,
		Env: h.Env, HTTP: h.HTTP, Files: h.Files, System: h.System, hook: -1}
	r.shapes = shapes{beforeTool: shapeFor(len(c.beforeTool)), afterTool: shapeFor(len(c.afterTool)),
		beforeModel: shapeFor(len(c.beforeModel)), afterModel: shapeFor(len(c.afterModel))}
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
	c := r.pointContext(ctx, BeforeRun, len(r.chain.beforeRun))
	defer r.release(c)
	t0, _ := r.traceStart()
	for slot, e := range r.chain.beforeRun {
		p, err := callBeforeRun(e.h, c.forHook(slot, e.index), start)
		t0 = r.traced(t0, c, BeforeRun, e.index, e.policy, runVerdict(p, err))
		if err != nil {
			if err = r.failure(ctx, BeforeRun, e.index, e.policy, err); err != nil {
				outcome := Failed
				if ctx.Err() != nil {
					outcome = Interrupted
				}
				r.ended.Store(true)
				r.afterRun(ctx, RunEnd{RunID: r.id, Outcome: outcome, Reason: err.Error(), Err: err}, stoppedBy(e.index))
				return err
			}
			continue
		}
		if p != nil && p.State != nil {
			r.setState(e.index, p.State)
		}
	}
	return nil
}

// runVerdict is what a BeforeRun or AfterRun hook decided: its error, a
// new state, or nothing.
func runVerdict(p *RunPatch, err error) verdict {
	switch {
	case err != nil:
		return verdict{decision: DecisionErrored, err: err}
	case p != nil && p.State != nil:
		return verdict{decision: DecisionChanged, changed: runFields}
	}
	return noOpinion
}

// state returns the state of the hook at list index i.
func (r *Run) state(i int) any {
	r.stateMu.Lock()
	defer r.stateMu.Unlock()
	return r.states[i]
}

// setState replaces the state of the hook at list index i.
func (r *Run) setState(i int, v any) {
	r.stateMu.Lock()
	defer r.stateMu.Unlock()
	r.states[i] = v
}

// ID returns the run's id.
func (r *Run) ID() string { return r.id }

// End ends the run: it ends the run's live children first (Run.Child),
// then runs the AfterRun hooks once (later calls do nothing) in reverse
// list order. It fills end.RunID and, when they are
// empty, Outcome (Failed when end.Err is set, Interrupted when ctx or
// end.Err is a cancellation, else Completed) and Reason (end.Err's message,
// else the outcome). It keeps ctx's values but not its cancellation, so an
// interrupted run is still audited. AfterRun errors are diagnostics.
func (r *Run) End(ctx context.Context, end RunEnd) {
	if r == nil || !r.ended.CompareAndSwap(false, true) {
		return
	}
	if r.family.Load() != nil {
		r.endChildren(ctx)
		defer r.leave()
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
			end.Reason = sanitize(end.Err).Error()
		} else {
			end.Reason = string(end.Outcome)
		}
	}
	r.afterRun(ctx, end, stopMark{})
}

// afterRun runs the AfterRun hooks of the hooks entered (see stopMark),
// detached from ctx's cancellation.
func (r *Run) afterRun(ctx context.Context, end RunEnd, stop stopMark) {
	ctx = context.WithoutCancel(ctx)
	c := r.pointContext(ctx, AfterRun, len(r.chain.afterRun))
	defer r.release(c)
	t0, _ := r.traceStart()
	for slot, e := range r.chain.afterRun {
		if !stop.entered(e.index) {
			continue
		}
		err := callAfterRun(e.h, c.forHook(slot, e.index), end)
		t0 = r.traced(t0, c, AfterRun, e.index, Report, runVerdict(nil, err))
		if err != nil {
			r.chain.diagnose(Diagnostic{Hook: r.chain.names[e.index], Point: AfterRun, Err: err})
		}
	}
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

// context is pointContext for a call that enters no hook.
func (r *Run) context(ctx context.Context, p Point) *Context { return r.pointContext(ctx, p, 0) }

// pointContext makes the Context of one point call at p, from the run's
// template, so that a hook writing a field of its Context changes nothing
// beyond its own call, with room for the Contexts of the point's hooks
// (forHook): the call's life, the hooks' Contexts and the call's own
// Context, last, in one allocation (newCall). It is never recycled (see
// Context): nothing handed to user code may change under it. The points
// that run on every model and tool call (toolpoints.go, modelpoints.go)
// skip the call's own Context: their hooks' Contexts are made from the
// template (callLife.enter).
func (r *Run) pointContext(ctx context.Context, p Point, hooks int) *Context {
	l, slots := r.newCall(p, shapeOf(hooks+1))
	l.slots = int32(hooks) // the last one is the call's own, not a hook's
	c := &slots[hooks]
	*c = r.template
	c.Context, c.life = ctx, l
	return c
}

// forHook returns the Context the hook in the point's slot (its place in
// the point's list) gets: its own, made from c as it is now, so that a
// hook that keeps it never sees another hook's name or state, nor a
// change made after it returned.
func (c *Context) forHook(slot, index int) *Context {
	d := &c.life.hookSlots()[slot]
	*d = *c
	d.hook = int32(index)
	return d
}

// release ends the call c was made for: every Context it handed out now
// reports that end.
func (r *Run) release(c *Context) {
	c.life.end()
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
