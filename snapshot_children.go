package hooks

import (
	"context"
	"fmt"
	"slices"
)

// snapshotFamily records in doc what r's snapshot says of its family: its
// parent, if r is a child, and the snapshots of its live children.
func (r *Run) snapshotFamily(doc *snapshotDoc) error {
	f := r.family.Load()
	if f == nil {
		return nil
	}
	if f.parent != nil {
		doc.ParentRunID, doc.ExtraHooks, doc.OwnHost = f.parent.id, f.extra, f.own
		// A child whose context ended comes back as it is: refusing its
		// calls, waiting for its parent's End to end it.
		doc.Outlived = r.childGone(f) != nil
	}
	for _, k := range r.Children() {
		if k.ended.Load() { // ending now: AfterRun has run or is running, nothing to carry on
			continue
		}
		kd, err := k.snapshotDoc()
		if err != nil {
			return err
		}
		doc.Children = append(doc.Children, kd)
	}
	return nil
}

// restoreChildren makes r's children from doc's, running no hook. A child
// that ran hooks beyond its parent's, or had a host of its own, cannot be
// made again from the parent's chain and host: that is an error naming it,
// never a child silently restored without its hooks or with a wider host.
func (r *Run) restoreChildren(host Host, doc *snapshotDoc) error {
	for i := range doc.Children {
		cd := &doc.Children[i]
		what := fmt.Sprintf("hooks: corrupt run snapshot: child #%d (%q) of run %s", i, cd.RunID, r.id)
		switch {
		case cd.ParentRunID != r.id:
			return fmt.Errorf("%s: its parentRunId is %q", what, cd.ParentRunID)
		case cd.Ended:
			return fmt.Errorf("%s: it has ended: a snapshot carries live children only", what)
		case cd.RunID == "":
			return fmt.Errorf("%s: no runId", what)
		case slices.ContainsFunc(r.Children(), func(k *Run) bool { return k.id == cd.RunID }):
			return fmt.Errorf("%s: a child of that id came before it", what)
		case len(cd.ExtraHooks) > 0:
			return fmt.Errorf("hooks: run snapshot: child %q of run %s ran hooks %q beyond its parent's (ChildConfig.Chain): it cannot be restored from the parent's chain", cd.RunID, r.id, cd.ExtraHooks)
		case cd.OwnHost:
			return fmt.Errorf("hooks: run snapshot: child %q of run %s had a host of its own (ChildConfig.Host): it cannot be restored with the parent's", cd.RunID, r.id)
		}
		for a := r; a != nil; a = a.parent() {
			if a.id == cd.RunID {
				return fmt.Errorf("%s: its id is an ancestor's", what)
			}
		}
		k, err := r.chain.restoreDoc(host, cd, r)
		if err != nil {
			return err
		}
		f := r.familyOf()
		f.mu.Lock()
		f.kids = append(f.kids, k)
		f.mu.Unlock()
	}
	return nil
}

// resumeChildren runs the BeforeRun hooks of r's restored children (and
// theirs), with Resumed true, after r's. A child whose BeforeRun fails the
// run has ended (its entered hooks got AfterRun): it is a diagnostic, and
// r goes on without it.
func (r *Run) resumeChildren(ctx context.Context) {
	for _, k := range r.Children() {
		err := k.beforeRun(ctx, RunStart{RunID: k.id, Input: k.input, Resumed: true, ParentRunID: r.id})
		if err != nil {
			k.leave()
			r.chain.diagnose(Diagnostic{Point: BeforeRun, Err: fmt.Errorf("hooks: child run %s of run %s did not resume: %w", k.id, r.id, err)})
			continue
		}
		k.resumeChildren(ctx)
	}
}
