package hooks

import (
	"context"
	"errors"
)

// ParentRunID returns the id of the run this Context's run is a child of
// (Run.Child): a hook tells from it that it runs in a subagent. "" in a
// root run, and in a Context made outside a run.
func (c *Context) ParentRunID() string {
	if p := c.parentRun(); p != nil {
		return p.id
	}
	return ""
}

// Depth returns how deep in a tree of runs this Context's run is: 0 for a
// root run (and outside a run), 1 for a child, 2 for a child's child.
func (c *Context) Depth() int {
	n := 0
	for r := c.run(); r != nil && r.parent() != nil; r = r.parent() {
		n++
	}
	return n
}

// parentRun is the parent of c's run, or nil.
func (c *Context) parentRun() *Run {
	if r := c.run(); r != nil {
		return r.parent()
	}
	return nil
}

// Parent returns, in a hook of a child run, the Context the same hook has
// in the parent run, for a hook whose state spans the run and its
// children: its State, SetState, Memo, RunID and ModelCalls are the
// parent run's. It is nil in a root run, outside a hook, and outside a
// run. Walk it up to the root run for a count every subagent adds to
// (the prebuilt limits do). It reports the end of this call as its own.
func (c *Context) Parent() *Context {
	p := c.parentRun()
	if p == nil || c.hook < 0 {
		return nil
	}
	// A child's chain lists its parent's hooks first, at the same places
	// (Chain.withChild), so the hook's index is the same in the parent's.
	i := int(c.hook)
	if i >= len(p.chain.names) || p.chain.names[i] != c.run().chain.names[i] {
		return nil
	}
	l := &callLife{run: p, point: c.life.point, call: c.life.call, hasCall: c.life.hasCall}
	d := p.template
	d.Context, d.life, d.hook, d.rewritten = c, l, c.hook, c.rewritten // c: this call's end is the parent Context's
	return &d
}

// Subagent runs fn as a child run of the run c belongs to (c is a
// ToolFunc's or a hook's Context), and ends the child with fn's outcome:
// fn's output, or its error (a panic in fn, or a goroutine exit such as
// t.FailNow, ends it Failed; a nil fn is an error). The child lives within c's call (it is
// started with c as its context): a tool that runs a subagent returns
// with the subagent ended. It is Run.Child for a tool that has only its
// Context; outside a run it is an error.
func (c *Context) Subagent(start RunStart, fn func(ctx context.Context, child *Run) (string, error)) (string, error) {
	r := c.run()
	if r == nil {
		return "", errors.New("hooks: Subagent: the Context belongs to no run")
	}
	if fn == nil { // said before a child starts: a nil fn would panic with the child half run
		return "", errors.New("hooks: Subagent: fn is nil: give the function that runs the subagent")
	}
	child, err := r.Child(c, start)
	if err != nil {
		return "", err
	}
	var out string
	returned := false
	defer func() { // also when fn panics or exits: the child ends, and the panic goes on
		if v := recover(); v != nil {
			child.End(context.WithoutCancel(c), RunEnd{Outcome: Failed, Reason: "the subagent panicked"})
			panic(v)
		}
		if !returned { // runtime.Goexit (t.FailNow): fn never gave an answer, which is no completed run
			child.End(context.WithoutCancel(c), RunEnd{Outcome: Failed, Reason: "the subagent did not return (its goroutine exited)"})
			return
		}
		child.End(context.WithoutCancel(c), RunEnd{Output: out, Err: err})
	}()
	out, err = fn(c, child)
	returned = true
	return out, err
}
