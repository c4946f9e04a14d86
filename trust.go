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
// (command hooks, seed 004) decide first, whatever their place in the
// list: a denial makes the project Untrusted and ends the decision. Then
// the in-process hooks' recommendations run in list order: an Approve
// upgrades Ask to Trusted; Trusted and Untrusted stay as they are. A hook
// error is a diagnostic (policy Block: it denies); under FailRun it is
// returned with the decision so far.
func (c *Chain) DecideTrust(ctx context.Context, host Host, req TrustRequest) (TrustDecision, error) {
	if c == nil {
		c = emptyChain
	}
	if err := ctx.Err(); err != nil {
		return req.Decision, interrupted(BeforeTrustDecision, "", err)
	}
	r := c.newRun(host, "", "")
	cx := r.context(ctx)
	defer r.release(cx)
	decision := req.Decision
	for _, e := range c.trust {
		d, ok := e.h.(trustDenier)
		if !ok {
			continue
		}
		cx.hook = e.index
		deny, err := callDenyTrust(d, cx, req)
		if err == nil && deny {
			return Untrusted, nil
		}
		if err != nil {
			if e.policy == Block && ctx.Err() == nil {
				c.diagnose(Diagnostic{Hook: c.names[e.index], Point: BeforeTrustDecision, Err: err})
				return Untrusted, nil
			}
			if err = r.failure(ctx, BeforeTrustDecision, e.index, e.policy, err); err != nil {
				return decision, err
			}
		}
	}
	for _, e := range c.trust {
		if _, ok := e.h.(trustDenier); ok {
			continue
		}
		cx.hook = e.index
		p, err := callTrust(e.h, cx, req)
		if err != nil {
			if e.policy == Block && ctx.Err() == nil {
				c.diagnose(Diagnostic{Hook: c.names[e.index], Point: BeforeTrustDecision, Err: err})
				return Untrusted, nil
			}
			if err = r.failure(ctx, BeforeTrustDecision, e.index, e.policy, err); err != nil {
				return decision, err
			}
			continue
		}
		if p != nil && p.Approve && decision == Ask {
			decision = Trusted
		}
	}
	return decision, nil
}

// trustDenier is a hook that may deny trust (command hooks) rather than
// only recommend approval.
type trustDenier interface {
	denyTrust(c *Context, req TrustRequest) (deny bool, err error)
}

func callTrust(h BeforeTrustDecisionHook, c *Context, req TrustRequest) (p *TrustPatch, err error) {
	defer recoverPanic(&err)
	return h.BeforeTrustDecision(c, req)
}

func callDenyTrust(h trustDenier, c *Context, req TrustRequest) (deny bool, err error) {
	defer recoverPanic(&err)
	return h.denyTrust(c, req)
}
