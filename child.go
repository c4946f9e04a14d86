package hooks

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sync"
)

// ErrRunEnded is what a call on a child run returns (wrapped, with the
// point) once the child, or an ancestor of it, has ended, and what
// Run.Child returns for a parent that has ended. It also matches
// context.Canceled, so a host that stops on a cancellation stops here.
var ErrRunEnded = errors.New("hooks: the run has ended")

// ChildConfig is what a child run may have other than its parent's:
// see Run.ChildWith.
type ChildConfig struct {
	// Chain holds hooks the child runs after its parent's hooks (nil: the
	// parent's alone). The parent's hooks are always first: a subagent
	// passes the parent's guards and limits before its own hooks, and its
	// own after-hooks run before the parent's (a redactor of the parent
	// sees last). A hook of Chain with the name of a parent hook must be
	// that hook (it is then run once, where the parent has it); another
	// hook of the same name is an error. Chain's options are not used: the
	// child reports diagnostics and trace events where its parent does.
	Chain *Chain
	// Host is the child's whole host (nil: the parent's, as the parent was
	// given it). Its zero fields get the defaults, not the parent's: start
	// from Run.Host to change one field. An empty Workdir under a parent
	// that has one is an error (guards rooted at the work directory would
	// check no path in the child).
	Host *Host
}

// family is what a run knows of its place among runs: its parent, the
// life it has as a child, and its live children. A root run that starts
// no child has none (Run.family is nil), and its calls pay nothing for it.
type family struct {
	parent *Run
	// stop is the child's life: done when the context given to Child is,
	// when the parent ends, and when the child ends. Its cause says which.
	stop   context.Context
	cancel context.CancelCauseFunc
	within context.Context // the context given to Child, checked at once: stop learns of a custom one's end late
	unhook func() bool     // stops the parent's stop from cancelling this one
	extra  []string        // names of the hooks the child runs beyond its parent's
	own    bool            // the child has its own Host

	mu     sync.Mutex
	kids   []*Run // live children, in the order they started
	closed bool   // the run has ended: no child may start
}

// runEnded is the cause of a child's stop: which run ended, or the
// context given to Child that did.
type runEnded struct{ msg string }

func (e *runEnded) Error() string { return e.msg }

// Is makes it match ErrRunEnded and context.Canceled.
func (e *runEnded) Is(target error) bool { return target == ErrRunEnded || target == context.Canceled }

// Child starts a child run (a subagent) of r: a run of r's chain, with r's
// host, whose tool and model calls pass the same hooks as r's do. Its
// BeforeRun hooks run now, with start.ParentRunID set to r's id (a hook
// also reads it from Context.ParentRunID); its AfterRun hooks run at its
// End. An empty start.RunID gets a random id.
//
// The child ends on its own End (a hook that ends the child never ends
// r); r's End ends every live child first (outcome Interrupted), and
// after that, or once ctx is done, the child's calls return an error that
// matches ErrRunEnded (or ctx's error), and the Contexts it handed out
// report Done. A child never outlives ctx: start it with the context of
// the tool call that runs the subagent (a ToolFunc's Context), or r's.
//
// Whether a child's calls count against r's limits is each hook's
// choice: the prebuilt limits and Budget count them with the root run's
// unless their config says PerChild; LoopGuard watches each run on its
// own unless it says AcrossChildren. A snapshot of r
// carries its live children. Child fails, running no hook, when r has
// ended, when start.Resumed is set (a child resumes with its parent's
// snapshot), when start.ParentRunID names another run, or when
// start.RunID is that of a live child of r or of r or an ancestor.
func (r *Run) Child(ctx context.Context, start RunStart) (*Run, error) {
	return r.ChildWith(ctx, start, ChildConfig{})
}

// ChildWith is Child with more hooks, or another host: see ChildConfig.
func (r *Run) ChildWith(ctx context.Context, start RunStart, cfg ChildConfig) (*Run, error) {
	if r == nil {
		return nil, errors.New("hooks: Child of a nil run")
	}
	if err := r.childStart(ctx, &start); err != nil {
		return nil, err
	}
	chain, extra, err := r.chain.withChild(cfg.Chain)
	if err != nil {
		return nil, err
	}
	host := r.given
	if cfg.Host != nil {
		host = *cfg.Host
		// A Workdir left out would not be the parent's but none, and a
		// guard rooted there (Sandbox's default roots) would then check no
		// path in the subagent: a host meant to change one field is no way
		// out of the work directory.
		if host.Workdir == "" && r.given.Workdir != "" {
			return nil, fmt.Errorf("hooks: child of run %s: ChildConfig.Host has no Workdir, and the parent's is %q: set it (start from Run.Host to change other fields)", r.id, r.given.Workdir)
		}
	}
	k := chain.newRun(host, start.RunID, start.Input)
	k.adopt(ctx, r, extra, cfg.Host != nil)
	if err := k.beforeRun(ctx, start); err != nil {
		k.endLife()
		return nil, err
	}
	if err := r.enroll(k); err != nil { // r ended, or a sibling of that id started meanwhile: it ends
		k.End(ctx, RunEnd{Outcome: Interrupted, Reason: err.Error()})
		return nil, fmt.Errorf("hooks: child of run %s: %w", r.id, err)
	}
	return k, nil
}

// childStart checks and completes the RunStart of a child of r.
func (r *Run) childStart(ctx context.Context, start *RunStart) error {
	if err := r.gone(ctx); err != nil {
		return fmt.Errorf("hooks: child of run %s: %w", r.id, err)
	}
	if r.ended.Load() {
		return fmt.Errorf("hooks: child of run %s: %w", r.id, &runEnded{fmt.Sprintf("hooks: run %s has ended: no child of it starts", r.id)})
	}
	if start.Resumed {
		return fmt.Errorf("hooks: child of run %s: RunStart.Resumed is set: a child resumes with its parent's snapshot (Chain.Resume of the parent)", r.id)
	}
	if start.ParentRunID != "" && start.ParentRunID != r.id {
		return fmt.Errorf("hooks: child of run %s: RunStart.ParentRunID is %q: Child sets it, to the parent's id", r.id, start.ParentRunID)
	}
	start.ParentRunID = r.id
	if start.RunID == "" {
		start.RunID = newRunID()
	}
	for a := r; a != nil; a = a.parent() {
		if a.id == start.RunID {
			return fmt.Errorf("hooks: child of run %s: run id %q is an ancestor's", r.id, start.RunID)
		}
	}
	if f := r.family.Load(); f != nil {
		f.mu.Lock()
		defer f.mu.Unlock()
		if slices.ContainsFunc(f.kids, func(k *Run) bool { return k.id == start.RunID }) {
			return fmt.Errorf("hooks: child of run %s: run id %q is a live child's", r.id, start.RunID)
		}
	}
	return nil
}

// adopt makes r a child of p, living no longer than ctx and p.
func (r *Run) adopt(ctx context.Context, p *Run, extra []string, ownHost bool) {
	stop, cancel := context.WithCancelCause(ctx)
	f := &family{parent: p, stop: stop, cancel: cancel, within: ctx, extra: extra, own: ownHost}
	if pf := p.family.Load(); pf != nil && pf.stop != nil {
		f.unhook = context.AfterFunc(pf.stop, func() {
			cancel(&runEnded{fmt.Sprintf("hooks: run %s ended: its parent run %s ended", r.id, p.id)})
		})
	}
	r.family.Store(f)
}

// endLife lets go of what adopt took: the child's life and its link to
// the parent's.
func (r *Run) endLife() {
	f := r.family.Load()
	if f == nil || f.cancel == nil {
		return
	}
	if f.unhook != nil {
		f.unhook()
	}
	f.cancel(&runEnded{fmt.Sprintf("hooks: run %s has ended", r.id)})
}

// enroll adds k to r's live children, unless r has ended or has a live
// child of k's id (started at the same time).
func (r *Run) enroll(k *Run) error {
	f := r.familyOf()
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed || r.ended.Load() {
		return &runEnded{fmt.Sprintf("hooks: run %s ended while its child %s started", r.id, k.id)}
	}
	if slices.ContainsFunc(f.kids, func(x *Run) bool { return x.id == k.id }) {
		return fmt.Errorf("run id %q is a live child's", k.id)
	}
	f.kids = append(f.kids, k)
	return nil
}

// familyOf returns r's family, made if it has none (a root run's first
// child).
func (r *Run) familyOf() *family {
	if f := r.family.Load(); f != nil {
		return f
	}
	r.family.CompareAndSwap(nil, &family{})
	return r.family.Load()
}

// forget drops k from r's live children.
func (r *Run) forget(k *Run) {
	if f := r.family.Load(); f != nil {
		f.mu.Lock()
		f.kids = slices.DeleteFunc(f.kids, func(x *Run) bool { return x == k })
		f.mu.Unlock()
	}
}

// endChildren ends r's live children (and theirs, first) as r ends, and
// closes r to new ones.
func (r *Run) endChildren(ctx context.Context) {
	f := r.familyOf()
	f.mu.Lock()
	f.closed = true
	kids := slices.Clone(f.kids)
	f.mu.Unlock()
	for _, k := range kids {
		k.End(ctx, RunEnd{Outcome: Interrupted, Reason: fmt.Sprintf("parent run %s ended", r.id)})
	}
}

// parent returns r's parent run, or nil for a root run.
func (r *Run) parent() *Run {
	if f := r.family.Load(); f != nil {
		return f.parent
	}
	return nil
}

// Parent returns the run r is a child of, or nil for a root run.
func (r *Run) Parent() *Run { return r.parent() }

// Children returns r's live children (started by Child and not ended), in
// the order they started: after Rehydrate or Resume, the children the
// snapshot carried.
func (r *Run) Children() []*Run {
	f := r.family.Load()
	if f == nil {
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.kids)
}

// Host returns the host r was given (as Start, Resume, Rehydrate or
// ChildWith got it, before defaults), to start a child with a changed
// copy.
func (r *Run) Host() Host { return r.given }

// gone returns the error of a call on r made with ctx that must not run:
// ctx's, or, for a child, that it (or an ancestor) has ended or outlived
// the context it was started with. A root run's calls pay a nil check: its
// host decides what its calls after End do, as before children.
func (r *Run) gone(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if f := r.family.Load(); f != nil && f.stop != nil {
		return r.childGone(f)
	}
	return nil
}

// childGone is gone's answer for a child run: it, or an ancestor, has
// ended or outlived the context it was started with. It looks up the tree
// itself rather than wait for the news to reach f.stop, which a custom
// context (a Context) sends from a goroutine.
func (r *Run) childGone(f *family) error {
	for a := r; f != nil && f.stop != nil; a, f = f.parent, f.parent.family.Load() {
		switch {
		case a.ended.Load():
			if a == r {
				return &runEnded{fmt.Sprintf("hooks: run %s has ended", r.id)}
			}
			return &runEnded{fmt.Sprintf("hooks: run %s ended: its ancestor run %s ended", r.id, a.id)}
		case f.stop.Err() != nil:
			return stopCause(f.stop)
		case f.within.Err() != nil:
			return f.within.Err()
		}
	}
	if root := r.root(); root.ended.Load() {
		return &runEnded{fmt.Sprintf("hooks: run %s ended: its root run %s ended", r.id, root.id)}
	}
	return nil
}

// root returns the root of r's run tree.
func (r *Run) root() *Run {
	for r.parent() != nil {
		r = r.parent()
	}
	return r
}

// stopCause is why a child's life ended: its parent or itself ended
// (runEnded), or the context given to Child ended (its error).
func stopCause(stop context.Context) error {
	return context.Cause(stop)
}

// withChild returns the chain of a child of a run of c that also runs
// extra's hooks, and the names of those beyond c's.
func (c *Chain) withChild(extra *Chain) (*Chain, []string, error) {
	if extra == nil || len(extra.hooks) == 0 || extra == c {
		return c, nil, nil
	}
	list := slices.Clone(c.hooks)
	var names []string
	for i, h := range extra.hooks {
		name := extra.names[i]
		if j := slices.Index(c.names, name); j >= 0 {
			if !sameHook(c.hooks[j], h) {
				return nil, nil, fmt.Errorf("hooks: child chain: hook %q (#%d) is not the parent's hook of that name: rename one", name, i)
			}
			continue
		}
		list = append(list, h)
		names = append(names, name)
	}
	parentOpts := c.opts
	k, err := NewChain(list, optionFunc(func(o *options) { *o = parentOpts }))
	if err != nil {
		return nil, nil, fmt.Errorf("hooks: child chain: %w", err)
	}
	return k, names, nil
}

// sameHook reports whether a and b are the same hook value, without
// panicking on a type that cannot be compared.
func sameHook(a, b Hook) bool {
	ta, tb := reflect.TypeOf(a), reflect.TypeOf(b)
	if ta != tb || !ta.Comparable() {
		return false
	}
	return a == b
}

// leave takes an ended child out of its parent's live children, and ends
// its life (its calls now refuse, its Contexts report Done).
func (r *Run) leave() {
	if p := r.parent(); p != nil {
		p.forget(r)
	}
	r.endLife()
}
