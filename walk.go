package hooks

import (
	"context"
	"time"
)

// The four points whose hooks return patches (before and after each model
// and tool call) walk their hooks the same way: ask each hook in turn, act
// on its answer, report the answer to the trace, stop when a hook ended the
// walk. This file is that walk; what differs between those points (how a
// hook is asked, what its patch does) is a small type per point in
// modelpoints.go and toolpoints.go. BeforeRun and AfterRun (run.go), trust
// (trust.go) and wraps (wrap.go) have loops of their own: their hooks do
// not return these patches.

// walkRules are the rules of one point's walk over its hooks (H) and their
// patches (P): how to ask, what a patch does, how a refusal is recorded.
// Its functions are the methods of a small type per point that holds the
// payload as the hooks have left it so far. They are func values, not an
// interface the walk is generic over: the compiler can then see that
// nothing escapes.
type walkRules[H, P any] struct {
	// ask is the hot loop: it asks the hooks from index i on and returns
	// at the first that has an opinion (a patch) or an error, with its
	// index (len(hs) when none had); when tracing, every hook returns, to
	// be traced. Each point writes its own, a few lines long, because a
	// generic loop would have to ask each hook through a func value: one
	// more indirect call per hook, which made a chain of ten hooks 1.5
	// times slower (BenchmarkChain). It recovers a panic as that hook's
	// error: one deferred recover per batch, not per hook, keeps a chain of
	// hooks without opinion close to direct calls.
	ask func(i int, tracing bool) opinion[P]
	// apply acts on a hook's non-nil patch, and returns what the hook
	// decided: each decision rule lives in one apply, and the trace only
	// reports what it returns.
	apply func(p *P, index int) verdict
	// refused records a refusal (decided by refusal) of the hook at index
	// on the call; nil at the points whose calls cannot be refused.
	refused func(v verdict, index int) verdict
}

// verdict is what one hook's answer did, as the trace reports it.
type verdict struct {
	decision Decision
	changed  []string // the patch fields the hook set
	reason   string   // for DecisionRefused
	err      error    // for DecisionErrored
	stop     bool     // the walk ends here: the hook answered, refused or ended the run
	review   uint8    // the verdict of the person the hook asked (reviewNone…)
}

// noOpinion is the verdict of a nil patch.
var noOpinion = verdict{decision: DecisionNoOpinion}

// opinion is what the hot loop found: the index of the first hook, from
// where it started, that had an opinion or an error (len(hs) when none
// had), with its patch and error.
type opinion[P any] struct {
	at  int
	p   *P
	err error
}

// walk acts on the answers of the hooks hs of the point call l (whose
// context is ctx), in their order, on s, from first: the answer of the point's first call of s.ask, which
// the point makes itself, so that a call whose hooks have no opinion
// returns without entering the walk (the common case, kept as cheap as
// calling the hooks). It returns the error the Run method must return (a
// cancellation, or a *HookError under FailRun).
func walk[H, P any](r *Run, l *callLife, ctx context.Context, hs []entry[H], s walkRules[H, P], first opinion[P], t0 time.Time, tracing bool) error {
	at := l.point
	for a := first; a.at < len(hs); a = s.ask(a.at+1, tracing) {
		e := hs[a.at]
		if (a.p != nil || a.err != nil) && ctx.Err() != nil {
			// The call was cancelled while this hook ran (a host that
			// suspends the step to wait for a person cancels it from its
			// Confirm): the hook's answer is not the call's, so it is
			// neither applied nor traced, and the method returns the
			// cancellation, which runs no tool and no model.
			return interrupted(at, r.chain.names[e.index], ctx.Err())
		}
		v := noOpinion
		switch {
		case a.err != nil:
			v = judge(r.chain.names, at, e.index, e.policy, a.err)
			if v.decision == DecisionRefused {
				v = s.refused(v, e.index)
			}
		case a.p != nil:
			v = s.apply(a.p, e.index)
		}
		if tracing {
			v.review = l.hookSlots()[a.at].reviewed()
			t0 = r.tracedCall(t0, l, at, e.index, e.policy, v)
		}
		if v.err != nil {
			if err := r.failure(ctx, at, e.index, v.failurePolicy(e.policy), v.err); err != nil {
				return err
			}
		}
		if v.stop {
			break
		}
	}
	return nil
}

// failurePolicy is the policy that handles v's error: a failure that
// refused the call is reported, never the run's failure, whatever the
// hook's own policy (FailClosed under FailRun).
func (v verdict) failurePolicy(hook Policy) Policy {
	if v.decision == DecisionRefused {
		return Block
	}
	return hook
}

// judge turns a hook's error into its verdict: a refusal when refusal
// says so (a tool call's *ToolError, or a failure under Block), else the
// hook's failure, which its policy handles.
func judge(names []string, at Point, index int, policy Policy, err error) verdict {
	if v, ok := refusal(names, at, index, policy, nil, err); ok {
		return v
	}
	return verdict{decision: DecisionErrored, err: err}
}

// stopMark records which hook stopped a before-point's walk (answered,
// refused, ended the run, or failed it in BeforeRun), so that the
// after-point unwinds only the hooks entered: those before it in the list,
// and itself. Its zero value means none stopped the walk: every hook was
// entered, which is also what a zero step says (a host with only an
// after-callback).
type stopMark struct {
	after int // list index + 1 of the hook that stopped the walk; 0: none did
}

// stoppedBy marks the hook at list index as the one that stopped the walk.
func stoppedBy(index int) stopMark { return stopMark{after: index + 1} }

// none reports whether no hook stopped the walk.
func (m stopMark) none() bool { return m.after == 0 }

// entered reports whether the hook at list index was entered.
func (m stopMark) entered(index int) bool { return m.after == 0 || index < m.after }
