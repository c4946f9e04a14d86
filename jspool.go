package hooks

import (
	"context"
	"errors"
	"sync"

	"github.com/rienda/hooks/internal/jsrt"
)

// A hook keeps the runtimes its calls used, locked down (jsInstance), for
// later calls: making one costs about a millisecond (its built-ins are
// all set up, bounded and frozen), a call in one only what evaluating the
// module and calling the export cost. Nothing is prepared in the
// background: a call takes an idle runtime or makes one, and gives it back.
const (
	// maxIdle bounds the runtimes a hook keeps between calls: enough for
	// the parallel tool calls of a turn; beyond it, a runtime a call made
	// is dropped after the call.
	maxIdle = 4
	// maxCalls is how many calls a runtime serves before it is dropped, in
	// case goja keeps something of a call that jsrt.Retained does not note
	// (that one is dropped after the call).
	maxCalls = 10000
)

// jsPool holds a hook's idle runtimes. Its methods may be called
// concurrently.
type jsPool struct {
	limits jsrt.Limits
	mu     sync.Mutex
	idle   []*jsInstance
}

// get returns an idle runtime, or makes one under ctx.
func (p *jsPool) get(ctx context.Context) (*jsInstance, error) {
	p.mu.Lock()
	if n := len(p.idle); n > 0 {
		in := p.idle[n-1]
		p.idle[n-1] = nil
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return in, nil
	}
	p.mu.Unlock()
	return newJSInstance(ctx, p.limits)
}

// put gives in back after a call that ended with err, unless it served
// its share of calls, or the call left memory in it (jsrt.Retained) or a
// Promise job not run (jsrt.Pending: it would run in the next call), or
// did not end as JavaScript ends (an interrupt, a Go panic, a stack
// overflow may leave a runtime's own state half-way), or the pool holds
// maxIdle already.
func (p *jsPool) put(in *jsInstance, ctx context.Context, err error) {
	if in.calls >= maxCalls || in.retained.Any() || ctx.Err() != nil || jsrt.Pending(in.rt) {
		return
	}
	var thrown *jsrt.ScriptError
	if err != nil && !errors.As(err, &thrown) {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.idle) < maxIdle {
		p.idle = append(p.idle, in)
	}
}

// idleCount is the number of idle runtimes.
func (p *jsPool) idleCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.idle)
}
