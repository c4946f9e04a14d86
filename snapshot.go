package hooks

import (
	"context"
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// snapshotKind and snapshotVersion mark a run snapshot, so that a foreign
// JSON document or a future format is refused with a clear error.
const (
	snapshotKind    = "rienda.hooks/run"
	snapshotVersion = 1
)

type snapshotDoc struct {
	Kind       string                                `json:"kind"`
	Version    int                                   `json:"version"`
	RunID      string                                `json:"runId"`
	Input      string                                `json:"input"`
	ModelCalls int64                                 `json:"modelCalls"`
	States     map[string]json.RawMessage            `json:"states,omitempty"`
	Memo       map[string]map[string]json.RawMessage `json:"memo,omitempty"`
	Ended      bool                                  `json:"ended,omitempty"` // AfterRun has run
	// The run's streak of continued model calls (Context.Continuations),
	// and whether the last reply was sent on, so that a bound on how often
	// hooks send a run on holds across a hop.
	Continuations int64 `json:"continuations,omitempty"`
	Continued     bool  `json:"continued,omitempty"`
	// The basic Go types of states and memo results that are numbers
	// other than float64 (see snapshot_values.go); readers that do not
	// know these fields read the numbers as JSON numbers.
	StateTypes map[string]string            `json:"stateTypes,omitempty"`
	MemoTypes  map[string]map[string]string `json:"memoTypes,omitempty"`
	// A child run (Run.Child): its parent's id, the hooks it ran beyond
	// its parent's, whether it had a host of its own; and a run's live
	// children, each a snapshot of its own (snapshot_children.go).
	ParentRunID string        `json:"parentRunId,omitempty"`
	ExtraHooks  []string      `json:"extraHooks,omitempty"`
	OwnHost     bool          `json:"ownHost,omitempty"`
	Outlived    bool          `json:"outlived,omitempty"` // its calls refuse: it outlived its context (Run.Child)
	Children    []snapshotDoc `json:"children,omitempty"`
}

// Snapshot returns the run's durable state as versioned JSON: its id and
// input, the model-call count, each hook's state (by hook name), the
// finished Memo results, and whether the run has ended. Chain.Resume
// continues from it, in this process or another; Chain.Rehydrate carries
// it on between the steps of a durable run. A state or memo value that
// does not marshal to JSON is an error naming the hook.
//
// Values come back exactly or not at all: a Go number at the top of a
// state or memo value keeps its basic type (an int64 stays an int64);
// numbers inside maps, slices and structs come back as float64 when a
// float64 holds them exactly, else as int64 or uint64; a number none of
// them holds is an error naming the hook, the key and where it is. The
// model-call count saturates at MaxInt64 (countModelCall), so a snapshot
// always reads back.
//
// A snapshot of a run carries its live children (Run.Child), each with
// its own states and memo, so that Resume and Rehydrate bring them back;
// a snapshot of a child alone does not restore (see Chain.Resume).
func (r *Run) Snapshot() ([]byte, error) {
	doc, err := r.snapshotDoc()
	if err != nil {
		return nil, err
	}
	return json.Marshal(doc)
}

// snapshotDoc is the snapshot of r, its children's included.
func (r *Run) snapshotDoc() (snapshotDoc, error) {
	doc := snapshotDoc{Kind: snapshotKind, Version: snapshotVersion, RunID: r.id, Input: r.input,
		ModelCalls: r.modelCalls.Load(), States: map[string]json.RawMessage{}, Ended: r.ended.Load(),
		Continuations: r.continuations.Load(), Continued: r.continued.Load()}
	r.stateMu.Lock()
	states := append([]any(nil), r.states...)
	r.stateMu.Unlock()
	for i, s := range states {
		if s == nil {
			continue
		}
		name := r.chain.names[i]
		raw, typ, err := encodeValue(s, fmt.Sprintf("hooks: snapshot of run %s: state of hook %q", r.id, name))
		if err != nil {
			return snapshotDoc{}, err
		}
		doc.States[name] = raw
		if typ != "" {
			if doc.StateTypes == nil {
				doc.StateTypes = map[string]string{}
			}
			doc.StateTypes[name] = typ
		}
	}
	memo := r.memo.snapshot()
	doc.Memo = make(map[string]map[string]json.RawMessage, len(memo))
	for h := range memo {
		doc.Memo[h] = make(map[string]json.RawMessage, len(memo[h]))
		for key, v := range memo[h] {
			if !utf8.ValidString(key) {
				return snapshotDoc{}, fmt.Errorf("hooks: snapshot of run %s: memo key %q of hook %q is not valid UTF-8 (JSON would change it)", r.id, key, h)
			}
			raw, typ, err := encodeValue(v, fmt.Sprintf("hooks: snapshot of run %s: memo %q of hook %q", r.id, key, h))
			if err != nil {
				return snapshotDoc{}, err
			}
			doc.Memo[h][key] = raw
			if typ != "" {
				if doc.MemoTypes == nil {
					doc.MemoTypes = map[string]map[string]string{}
				}
				if doc.MemoTypes[h] == nil {
					doc.MemoTypes[h] = map[string]string{}
				}
				doc.MemoTypes[h][key] = typ
			}
		}
	}
	return doc, r.snapshotFamily(&doc)
}

// Resume continues a run from a Snapshot after a pause (an approval, a
// restart): it restores the run id, input, model-call count, hook states
// and memo results, then runs the BeforeRun hooks with Resumed true (a nil
// State keeps the restored one). States of hooks no longer in the chain
// are dropped. A snapshot that is not JSON, not a run snapshot, of another
// version, or of a run that has ended is an error saying so. The live
// children the snapshot carries (Run.Child) come back too, and resume
// after it, each with its BeforeRun hooks (Resumed true, ParentRunID
// set). A snapshot of a child is refused here and by Rehydrate: a child
// comes back with its parent's snapshot, so that it cannot be restored as
// a root run that no longer counts with its parent.
func (c *Chain) Resume(ctx context.Context, host Host, snapshot []byte) (*Run, error) {
	r, err := c.restore(host, snapshot)
	if err != nil {
		return nil, err
	}
	if r.ended.Load() {
		return nil, fmt.Errorf("hooks: run %s has ended: it cannot resume", r.id)
	}
	if err := r.beforeRun(ctx, RunStart{RunID: r.id, Input: r.input, Resumed: true}); err != nil {
		return nil, err
	}
	r.resumeChildren(ctx)
	return r, nil
}

// Rehydrate continues a run from a Snapshot without running any hook: for
// a durable host (a workflow engine) that carries the snapshot from one
// step of the run to the next, each step perhaps in another process, and
// makes the run again at every step. The run is the same run, not a
// resumed one: BeforeRun ran once, when it started, and runs again only
// through Resume. AfterRun runs once across all the steps: Run.End on a
// run rehydrated from a snapshot taken after the end does nothing.
func (c *Chain) Rehydrate(host Host, snapshot []byte) (*Run, error) {
	return c.restore(host, snapshot)
}

// restore makes the run a snapshot describes, running no hook.
func (c *Chain) restore(host Host, snapshot []byte) (*Run, error) {
	if c == nil {
		c = emptyChain
	}
	var doc snapshotDoc
	if err := json.Unmarshal(snapshot, &doc); err != nil {
		return nil, fmt.Errorf("hooks: corrupt run snapshot: %w", err)
	}
	if doc.ParentRunID != "" {
		return nil, fmt.Errorf("hooks: run %s is a child of run %s: restore it with its parent's snapshot, which carries it (a child restored alone would shed what it counts with its parent)", doc.RunID, doc.ParentRunID)
	}
	return c.restoreDoc(host, &doc, nil)
}

// restoreDoc makes the run doc describes, a child of parent when it is
// not nil, and its children, running no hook.
func (c *Chain) restoreDoc(host Host, doc *snapshotDoc, parent *Run) (*Run, error) {
	if doc.Kind != snapshotKind {
		return nil, fmt.Errorf("hooks: not a run snapshot (kind %q, want %q)", doc.Kind, snapshotKind)
	}
	if doc.Version != snapshotVersion {
		return nil, fmt.Errorf("hooks: run snapshot version %d is not supported (this library reads version %d)", doc.Version, snapshotVersion)
	}
	if doc.RunID == "" {
		return nil, fmt.Errorf("hooks: corrupt run snapshot: no runId")
	}
	if doc.ModelCalls < 0 {
		return nil, fmt.Errorf("hooks: corrupt run snapshot: modelCalls is %d", doc.ModelCalls)
	}
	if doc.Continuations < 0 || doc.Continuations > doc.ModelCalls {
		return nil, fmt.Errorf("hooks: corrupt run snapshot: continuations is %d (of %d model calls)", doc.Continuations, doc.ModelCalls)
	}
	r := c.newRun(host, doc.RunID, doc.Input)
	if parent != nil {
		r.adopt(context.Background(), parent, nil, false)
		if doc.Outlived {
			r.family.Load().cancel(&runEnded{fmt.Sprintf("hooks: run %s outlived the context it was started with", r.id)})
		}
	}
	r.modelCalls.Store(doc.ModelCalls)
	r.ended.Store(doc.Ended)
	r.continuations.Store(doc.Continuations)
	r.continued.Store(doc.Continued)
	for i, name := range c.names {
		raw, ok := doc.States[name]
		if !ok {
			continue
		}
		v, err := decodeValue(raw, doc.StateTypes[name])
		if err != nil {
			return nil, fmt.Errorf("hooks: corrupt run snapshot: state of hook %q: %w", name, err)
		}
		r.states[i] = v
	}
	memo, err := decodeMemo(doc.Memo, doc.MemoTypes)
	if err != nil {
		return nil, err
	}
	r.memo.restore(memo)
	if err := r.restoreChildren(host, doc); err != nil {
		r.endLife()
		return nil, err
	}
	return r, nil
}

// decodeMemo reads a snapshot's memo results.
func decodeMemo(doc map[string]map[string]json.RawMessage, types map[string]map[string]string) (map[string]map[string]any, error) {
	memo := make(map[string]map[string]any, len(doc))
	for h, keys := range doc {
		memo[h] = make(map[string]any, len(keys))
		for key, raw := range keys {
			v, err := decodeValue(raw, types[h][key])
			if err != nil {
				return nil, fmt.Errorf("hooks: corrupt run snapshot: memo %q of hook %q: %w", key, h, err)
			}
			memo[h][key] = v
		}
	}
	return memo, nil
}
