package hooks

import (
	"errors"
	"fmt"
	"sync"
)

// memoKey names one memoized value: a hook ("" outside hooks) and its key.
type memoKey struct{ hook, key string }

// memoTable holds a run's Memo results. Concurrent callers of one key wait
// for the first; an error is shared with those waiting and then forgotten.
type memoTable struct {
	mu      sync.Mutex
	m       map[memoKey]*memoEntry
	waiting map[*Context]*memoEntry // calls waiting for an entry another call computes
}

type memoEntry struct {
	done  chan struct{} // closed when value and err are set
	owner *Context      // the call running fn
	value any
	err   error
}

// errMemoAbandoned is what waiters get when fn never returned: it called
// runtime.Goexit (a panic is an error of its own).
var errMemoAbandoned = errors.New("memo: fn did not return (runtime.Goexit)")

func (t *memoTable) do(c *Context, k memoKey, fn func() (any, error)) (any, error) {
	t.mu.Lock()
	if e, ok := t.m[k]; ok {
		return t.wait(c, k, e)
	}
	if t.m == nil {
		t.m = make(map[memoKey]*memoEntry)
	}
	e := &memoEntry{done: make(chan struct{}), owner: c}
	t.m[k] = e
	t.mu.Unlock()

	returned := false
	defer func() {
		if !returned { // the key must not stay taken: later callers would wait forever
			t.finish(k, e, nil, errMemoAbandoned)
		}
	}()
	v, err := runMemo(fn)
	returned = true
	return t.finish(k, e, v, err)
}

// finish settles e and wakes those waiting; an error is not kept.
func (t *memoTable) finish(k memoKey, e *memoEntry, v any, err error) (any, error) {
	t.mu.Lock()
	e.value, e.err = v, err
	if err != nil {
		e.value = nil
		delete(t.m, k)
	}
	t.mu.Unlock()
	close(e.done)
	return e.value, e.err
}

// wait waits for e, computed by another call, unless waiting would never
// end: e's fn waits, directly or through other calls, for c itself (fn
// asking for its own key). Called with t.mu held; it unlocks it.
func (t *memoTable) wait(c *Context, k memoKey, e *memoEntry) (any, error) {
	select {
	case <-e.done:
		t.mu.Unlock()
		return e.value, e.err
	default:
	}
	if t.waitsFor(e, c) {
		t.mu.Unlock()
		return nil, fmt.Errorf("memo %q: asked for while its own fn runs (a cycle: it would wait for itself)", k.key)
	}
	if t.waiting == nil {
		t.waiting = make(map[*Context]*memoEntry)
	}
	t.waiting[c] = e
	t.mu.Unlock()
	defer func() {
		t.mu.Lock()
		delete(t.waiting, c)
		t.mu.Unlock()
	}()
	select {
	case <-e.done:
		return e.value, e.err
	case <-c.Done():
		return nil, c.Err()
	}
}

// waitsFor reports whether the call computing e is c, or waits, through a
// chain of calls each waiting for the next, for an entry c computes.
func (t *memoTable) waitsFor(e *memoEntry, c *Context) bool {
	for range len(t.waiting) + 1 {
		if e.owner == c {
			return true
		}
		next, ok := t.waiting[e.owner]
		if !ok {
			return false
		}
		e = next
	}
	return false
}

// runMemo runs fn, turning a panic into an error so that waiters never hang.
func runMemo(fn func() (any, error)) (v any, err error) {
	defer recoverPanic(&err)
	return fn()
}

// snapshot returns the finished entries, by hook then key.
func (t *memoTable) snapshot() map[string]map[string]any {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make(map[string]map[string]any)
	for k, e := range t.m {
		select {
		case <-e.done:
		default:
			continue // still running: not a result yet
		}
		if out[k.hook] == nil {
			out[k.hook] = make(map[string]any)
		}
		out[k.hook][k.key] = e.value
	}
	return out
}

func (t *memoTable) restore(m map[string]map[string]any) {
	t.m = make(map[memoKey]*memoEntry)
	for hook, keys := range m {
		for key, v := range keys {
			e := &memoEntry{done: make(chan struct{}), value: v}
			close(e.done)
			t.m[memoKey{hook, key}] = e
		}
	}
}
