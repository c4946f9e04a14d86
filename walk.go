package hooks

import "time"

// Every point call walks its hooks the same way: ask each hook in turn,
// act on its answer, report the answer to the trace, stop when a hook ended
// the walk. This file is that walk; what differs between points (how a
// hook is asked, what its patch does) is a small type per point in
// steps_model.go and steps_tool.go.

// A point is one point call's walk over its hooks (H) and their patches
// (P). Its functions are the methods of a small type per point that holds
// the payload as the hooks have left it so far. They are func values, not
// an interface the walk is generic over: the compiler can then see that
// nothing escapes, and a call allocates nothing.
type point[H, P any] struct {
	// next is the hot loop: it asks the hooks from index i on and returns
	// at the first that has an opinion (a patch) or an error, with its
	// index (len(hs) when none had); when tracing, every hook returns, to
	// be traced. Each point writes its own, a few lines long, because a
	// generic loop would have to ask each hook through a func value: one
	// more indirect call per hook, which made a chain of ten hooks 1.5
	// times slower (BenchmarkChain). It recovers a panic as that hook's
	// error: one deferred recover per batch, not per hook, keeps a chain of
	// hooks without opinion close to direct calls.
	next func(c *Context, i int, tracing bool) opinion[P]
	// apply acts on a hook's non-nil patch, and returns what the hook
	// decided: each decision rule lives in one apply, and the trace only
	// reports what it returns.
	apply func(p *P, index int) verdict
	// refuse refuses the call for the hook at index (only a tool call can
	// be refused: other points ignore it).
	refuse func(index int, reason string) verdict
}

// verdict is what one hook's answer did, as the trace reports it.
type verdict struct {
	decision Decision
	changed  []string // the patch fields the hook set
	reason   string   // for DecisionRefused
	err      error    // for DecisionErrored
	stop     bool     // the walk ends here: the hook answered, refused or ended the run
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

// walk acts on the answers of the hooks hs of point at, in their order,
// on s, from first: the answer of the point's first call of s.next, which
// the point makes itself, so that a call whose hooks have no opinion
// returns without entering the walk (the common case, kept as cheap as
// calling the hooks). It returns the error the Run method must return (a
// cancellation, or a *HookError under FailRun).
func walk[H, P any](r *Run, c *Context, at Point, hs []entry[H], s point[H, P], first opinion[P], t0 time.Time, tracing bool) error {
	for a := first; a.at < len(hs); a = s.next(c, a.at+1, tracing) {
		e := hs[a.at]
		v := noOpinion
		switch {
		case a.err != nil:
			v = judge(s.refuse, at, e.index, e.policy, a.err)
		case a.p != nil:
			v = s.apply(a.p, e.index)
		}
		if tracing {
			t0 = r.traced(t0, c, at, e.index, e.policy, v)
		}
		if v.err != nil {
			policy := e.policy
			if v.decision == DecisionRefused {
				policy = Block // a failure that refused: reported, never the run's failure
			}
			if err := r.failure(c.Context, at, e.index, policy, v.err); err != nil {
				return err
			}
		}
		if v.stop {
			break
		}
	}
	return nil
}

// judge turns a hook's error into its verdict. In BeforeToolExecute (and
// a tool's wrap, for a panic), a
// *ToolError refuses the call with its message, and a failure under policy
// Block (or marked FailClosed) refuses it with "Tool call blocked: …",
// keeping the error for the trace and the diagnostic. Any other error is
// the hook's failure, which its policy handles.
func judge(refuse func(int, string) verdict, at Point, index int, policy Policy, err error) verdict {
	if at == BeforeToolExecute || at == WrapToolCall {
		if msg, ok := toolRefusal(err); ok {
			return refuse(index, msg)
		}
		if policy == Block || failsClosed(err) {
			v := refuse(index, blockedReason(err))
			v.err = err
			return v
		}
	}
	return verdict{decision: DecisionErrored, err: err}
}

// wasEntered says whether the hook at list index was entered by the
// matching before-point; entered is the list index + 1 of the hook that
// answered, ended or refused there, or 0 when every hook was entered.
func wasEntered(index, entered int) bool { return entered == 0 || index < entered }
