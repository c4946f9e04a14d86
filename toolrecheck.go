package hooks

import (
	"context"
	"fmt"
)

// A person's edit is a new call: arguments a person typed (or accepted
// from a model's suggestion) must pass the same guards as the model's, or
// an Approval listed after a Sandbox would let the person's typo, or a
// suggestion they approved unread, run where the model's own call could
// not. So when a BeforeToolExecute hook returns arguments after a review
// in which the person edited the call, the hooks listed before it, which
// passed on the arguments it replaced, are asked again about the edited
// call (a second walk, traced as theirs) before the walk goes on to the
// hooks after it. Rewrites by hooks alone are not checked again: a hook
// listed after a guard is trusted with what it does, as it always was.

// maxRechecks bounds edits of edits: a hook asked again that asks a
// person who edits again starts another second look, at most this deep.
const maxRechecks = 3

// position is the place in the point's list of the hook at chain index.
func (s *beforeTool) position(index int) int {
	for i, e := range s.r.chain.beforeTool[:s.end] {
		if e.index == index {
			return i
		}
	}
	return -1
}

// recheck asks the hooks listed before place pos, whose hook's person
// edited the call, about the edited call (caller.Call), in a call of their
// own (fresh Contexts; OriginalCall is still orig, the model's). It
// returns the error that ends the call (a cancellation, a failure under
// FailRun); a refusal or an answer is on caller. An edit during the second
// look gets a second look of its own, maxRechecks deep at most: past that
// the call is refused, by the hook at pos.
//
// It is a function of values, not a method of the walk, and works on a
// copy of the step written back at the end: it is recursive, and escape
// analysis would otherwise move the caller's walk and step to the heap on
// every call, edited or not.
func recheck(r *Run, ctx context.Context, orig ToolCall, caller *ToolStep, pos, depth int) error {
	step := new(ToolStep)
	*step = *caller
	defer func() { *caller = *step }()
	l, slots := r.newCall(BeforeToolExecute, r.shapes.beforeTool)
	l.call, l.hasCall = orig, true
	defer l.end()
	editor := r.chain.beforeTool[pos]
	site := callSite{ctx, l, slots}
	n := beforeTool{r: r, site: &site, step: step, rewritten: true, end: pos, depth: depth + 1}
	if depth >= maxRechecks {
		reason := fmt.Sprintf("The call was edited again while an edit was being checked, %d times; it is refused. Ask the user again.", maxRechecks)
		v := n.refused(verdict{decision: DecisionRefused, reason: reason}, editor.index)
		if t0, tracing := r.traceStart(); tracing {
			r.tracedCall(t0, l, BeforeToolExecute, editor.index, editor.policy, v)
		}
		return nil
	}
	hs := r.chain.beforeTool[:pos]
	t0, tracing := r.traceStart()
	a := n.ask(0, tracing)
	p := walkRules[BeforeToolExecuteHook, ToolCallPatch]{n.ask, n.apply, n.refused}
	for a.at < pos {
		if err := walk(r, l, ctx, hs, p, a, t0, tracing); err != nil {
			return err
		}
		if n.edited == 0 {
			break
		}
		at := n.edited - 1
		n.edited = 0
		if err := recheck(r, ctx, orig, step, at, depth+1); err != nil {
			return err
		}
		if step.Refused || step.Result != nil {
			break
		}
		t0, _ = r.traceStart()
		a = n.ask(at+1, tracing)
	}
	if step.Result != nil && !step.Refused { // answered by a hook listed before: every hook up to the editor was entered
		step.stop = stoppedBy(editor.index)
	}
	return nil
}
