package hooks

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// ErrRunsClosed is what Runs.Get returns after Runs.Close.
var ErrRunsClosed = errors.New("hooks: runs are closed")

// Runs keeps one run per key, for hosts that serve many conversations at
// once: an MCP server keeps one run per session, started by the session's
// first call and ended when the session goes. It is safe for concurrent
// use. Make one with NewRuns.
type Runs[K comparable] struct {
	start func(ctx context.Context, key K) (*Run, error)

	mu     sync.Mutex
	runs   map[K]*pendingRun
	closed bool
}

// pendingRun is a run being started or started; done closes when start
// returned.
type pendingRun struct {
	done chan struct{}
	run  *Run
	err  error

	starterGaveUp bool // the start failed because its caller's context ended
}

// NewRuns returns Runs that start a key's run with start (typically
// chain.Start with the host and RunStart of that key) the first time the
// key is asked for.
func NewRuns[K comparable](start func(ctx context.Context, key K) (*Run, error)) *Runs[K] {
	return &Runs[K]{start: start, runs: map[K]*pendingRun{}}
}

// Get returns key's run, starting it on the first call. Callers asking for
// a key while its run starts wait for that start and share its result. A
// start that failed is not kept: the next Get starts the run again.
func (rs *Runs[K]) Get(ctx context.Context, key K) (*Run, error) {
	rs.mu.Lock()
	if rs.closed {
		rs.mu.Unlock()
		return nil, ErrRunsClosed
	}
	p, ok := rs.runs[key]
	if !ok {
		p = &pendingRun{done: make(chan struct{})}
		rs.runs[key] = p
	}
	rs.mu.Unlock()
	if !ok {
		rs.startRun(ctx, key, p)
		return p.run, p.err
	}
	select {
	case <-p.done:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if p.run == nil && p.starterGaveUp && ctx.Err() == nil {
		return rs.Get(ctx, key) // the first caller's context ended, not ours: start it ourselves
	}
	return p.run, p.err
}

// startRun starts p's run, forgets p if it failed, and wakes its waiters.
func (rs *Runs[K]) startRun(ctx context.Context, key K, p *pendingRun) {
	defer func() { // also when start panics, so that waiters go on
		v := recover()
		if v != nil {
			p.run, p.err = nil, fmt.Errorf("hooks: the run's start panicked: %v", v)
		}
		if p.err != nil || p.run == nil {
			p.run = nil
			if p.err == nil {
				p.err = errors.New("hooks: the run's start returned no run")
			}
			p.starterGaveUp = ctx.Err() != nil
			rs.forget(key, p) // before waking waiters, so that a retry starts anew
		}
		close(p.done)
		if v != nil {
			panic(v) // to the caller that started it, as start's own panic
		}
	}()
	p.run, p.err = rs.start(ctx, key)
}

// forget drops key's entry if it is still p.
func (rs *Runs[K]) forget(key K, p *pendingRun) {
	rs.mu.Lock()
	if rs.runs[key] == p {
		delete(rs.runs, key)
	}
	rs.mu.Unlock()
}

// End ends key's run with end and forgets it; it reports whether there was
// one. A run still starting is waited for first, whatever ctx says: its
// start is bounded by its own caller's context, and a run that starts must
// end.
func (rs *Runs[K]) End(ctx context.Context, key K, end RunEnd) bool {
	rs.mu.Lock()
	p, ok := rs.runs[key]
	delete(rs.runs, key)
	rs.mu.Unlock()
	return ok && endPending(ctx, p, end)
}

// Close ends every run with end (waiting, as End does, for those still
// starting), and makes later Gets fail with ErrRunsClosed.
func (rs *Runs[K]) Close(ctx context.Context, end RunEnd) {
	rs.mu.Lock()
	runs := rs.runs
	rs.runs, rs.closed = map[K]*pendingRun{}, true
	rs.mu.Unlock()
	for _, p := range runs {
		endPending(ctx, p, end)
	}
}

// Len returns how many runs are kept (or starting).
func (rs *Runs[K]) Len() int {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return len(rs.runs)
}

// endPending waits for p's start and ends its run, if it started.
func endPending(ctx context.Context, p *pendingRun, end RunEnd) bool {
	<-p.done
	if p.run == nil {
		return false
	}
	p.run.End(ctx, end)
	return true
}
