package hooks

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// callLife is the life of one point call, shared by the Contexts the call
// hands to hooks, tools and models. A Context is never recycled: user code
// may keep it (a goroutine, a client that finishes in the background), and
// once the call has returned the kept Context reports that end, as a
// context.Context whose call is over should: Err is context.Canceled (or
// the call's own error) and Done is closed. It never answers for another
// call, and never panics.
type callLife struct {
	ended  atomic.Bool
	mu     sync.Mutex      // guards done and cancel
	done   context.Context // made on the first Done: the call's context, cancelled at its end
	cancel context.CancelFunc
	slots  []Context // the Contexts of the hooks the call may enter (Context.forHook)

	run     *Run
	point   Point
	call    ToolCall // in tool points: the call as the model asked for it
	hasCall bool
}

// run returns the run c belongs to, or nil for a Context made outside one.
func (c *Context) run() *Run {
	if c.life == nil {
		return nil
	}
	return c.life.run
}

// end marks the call over and closes Done for whoever asked for it.
func (l *callLife) end() {
	l.ended.Store(true)
	l.mu.Lock()
	if l.cancel != nil {
		l.cancel()
	}
	l.mu.Unlock()
}

// Err returns the call's context's error, or context.Canceled once the
// call has returned.
func (c *Context) Err() error {
	if err := c.base().Err(); err != nil {
		return err
	}
	if c.life != nil && c.life.ended.Load() {
		return context.Canceled
	}
	return nil
}

// Done returns a channel closed when the call's context is done or the
// call has returned, whichever comes first.
func (c *Context) Done() <-chan struct{} {
	l := c.life
	if l == nil {
		return c.base().Done()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.done == nil {
		// Made on demand: most calls never ask, and a cancelable context
		// per call would cost every call an allocation and a registration.
		l.done, l.cancel = context.WithCancel(c.base())
		if l.ended.Load() {
			l.cancel()
		}
	}
	return l.done.Done()
}

// Deadline returns the call's context's deadline.
func (c *Context) Deadline() (time.Time, bool) { return c.base().Deadline() }

// Value returns the call's context's value for key.
func (c *Context) Value(key any) any { return c.base().Value(key) }
