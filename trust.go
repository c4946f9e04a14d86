package hooks

import (
	"context"
)

// TrustDecision is whether a project (a workspace folder) is trusted.
type TrustDecision string

// The trust decisions.
const (
	Trusted   TrustDecision = "trusted"
	Untrusted TrustDecision = "untrusted"
	Ask       TrustDecision = "ask" // ask the person
)

// TrustRequest is a tentative trust decision for the project at Path.
type TrustRequest struct {
	Path     string
	Decision TrustDecision // the tentative decision
	IsNew    bool          // the project has no stored decision yet
}

// TrustPatch is what a BeforeTrustDecision hook may return: Approve
// recommends trusting the project.
type TrustPatch struct{ Approve bool }

// BeforeTrustDecisionHook joins trust decisions (Chain.DecideTrust). An
// in-process hook may only recommend approval: it upgrades Ask to Trusted
// and never weakens Untrusted.
type BeforeTrustDecisionHook interface {
	Hook
	BeforeTrustDecision(c *Context, req TrustRequest) (*TrustPatch, error)
}

// DecideTrust returns the final decision for req. Hooks that can deny
// (command hooks) decide first, whatever their place in the list: a denial
// makes the project Untrusted and ends the decision. Then the in-process
// hooks' recommendations run in list order: an Approve upgrades Ask to
// Trusted; Trusted and Untrusted stay as they are. A hook error is a
// diagnostic (policy Block: it denies); under FailRun it is returned with
// the decision so far.
func (c *Chain) DecideTrust(ctx context.Context, host Host, req TrustRequest) (TrustDecision, error) {
	if c == nil {
		c = emptyChain
	}
	if err := ctx.Err(); err != nil {
		return req.Decision, interrupted(BeforeTrustDecision, "", err)
	}
	r := c.newRun(host, "", "")
	cx := r.pointContext(ctx, BeforeTrustDecision, len(c.trustDeciders)+len(c.trustRecommenders))
	defer r.release(cx)
	decision := req.Decision
	for slot, e := range c.trustDeciders {
		deny, err := callDecideTrust(e.h, cx.forHook(slot, e.index), req)
		if err != nil {
			deny, err = r.trustFailure(ctx, e.index, e.policy, err)
		}
		if err != nil || deny {
			return untrustedUnless(err, decision), err
		}
	}
	for i, e := range c.trustRecommenders {
		p, err := callTrust(e.h, cx.forHook(len(c.trustDeciders)+i, e.index), req)
		if err != nil {
			deny, err := r.trustFailure(ctx, e.index, e.policy, err)
			if err != nil || deny {
				return untrustedUnless(err, decision), err
			}
			continue
		}
		if p != nil && p.Approve && decision == Ask {
			decision = Trusted
		}
	}
	return decision, nil
}

// trustFailure decides what a trust hook's error does: under Block it
// denies (after a diagnostic); under FailRun, or on a cancellation, it is
// the error DecideTrust returns; otherwise it is a diagnostic and the
// decision goes on.
func (r *Run) trustFailure(ctx context.Context, index int, policy Policy, err error) (deny bool, fatal error) {
	if policy == Block && ctx.Err() == nil {
		r.chain.diagnose(Diagnostic{Hook: r.chain.names[index], Point: BeforeTrustDecision, Err: err})
		return true, nil
	}
	return false, r.failure(ctx, BeforeTrustDecision, index, policy, err)
}

// untrustedUnless is the decision when a hook stopped it: Untrusted for a
// denial, the decision so far for an error.
func untrustedUnless(err error, sofar TrustDecision) TrustDecision {
	if err != nil {
		return sofar
	}
	return Untrusted
}

// TrustDeciderHook is a hook that decides trust (command hooks, a
// dialect's trust events): it may deny, where a BeforeTrustDecisionHook
// only recommends approval. Deciders run first, in list order, and the
// first deny ends the decision (Chain.DecideTrust). NewChain files a hook
// that is both as a decider.
type TrustDeciderHook interface {
	Hook
	DecideTrust(c *Context, req TrustRequest) (deny bool, err error)
}

func callTrust(h BeforeTrustDecisionHook, c *Context, req TrustRequest) (p *TrustPatch, err error) {
	defer recoverPanic(&err)
	return h.BeforeTrustDecision(c, req)
}

func callDecideTrust(h TrustDeciderHook, c *Context, req TrustRequest) (deny bool, err error) {
	defer recoverPanic(&err)
	return h.DecideTrust(c, req)
}
