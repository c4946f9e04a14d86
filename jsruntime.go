package hooks

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"

	"github.com/rienda/hooks/internal/jsrt"
)

// Single-use runtimes are prepared ahead of need, a few per hook (25 KB
// each for the seed's guard, about 75 KB for a hook that names every
// built-in Program.WarmUp sets up): enough that an agent loop,
// whose calls come milliseconds apart, always finds one ready, and few
// enough that memory stays bounded. The pool is refilled when it is down
// to lowWater, so that starting the refill is paid by one call in every
// prepared-lowWater, not by each: after an idle millisecond, the goroutine
// it starts wakes a sleeping thread, which took about 7 µs on the 2-core
// CI machine, twice a warm call.
const (
	prepared = 8
	lowWater = 2
)

// backToBack is the gap between calls under which a hook whose pool ran
// dry stops refilling it: agent loops space calls by milliseconds.
const backToBack = time.Millisecond

// epoch makes call times monotonic durations that fit an atomic.
var epoch = time.Now()

// evalTimeout bounds the evaluation of a module outside any call: at load
// and when preparing runtimes ahead. A call that evaluates the module
// itself has the bounds of the call: its context and the hook's Timeout.
var evalTimeout = 10 * time.Second // a variable: tests shorten it

// jsInstance is one single-use runtime of a hook.
type jsInstance struct {
	rt          *goja.Runtime
	exports     *goja.Object  // module.exports; nil when the module left no object
	exportsKind string        // what module.exports is, for a message: "an object", "null"
	freeze      goja.Callable // Object.freeze, taken before the hook's code ran
	ctx         *goja.Object  // the hook's ctx, reading cur
	cur         *Context      // the call's Context
}

// prepareJS makes a runtime with the module evaluated and ctx built, and,
// when warm, the built-ins its source names set up (Program.WarmUp). All of
// it runs under ctx (jsrt.Guard): a module that loops is interrupted.
func prepareJS(ctx context.Context, prog *jsrt.Program, warm bool) (*jsInstance, error) {
	in := &jsInstance{rt: jsrt.New()}
	// Date.now() and new Date() read the host's clock (Host.System.Clock),
	// so that a test can pin the date a hook sees.
	in.rt.SetTimeSource(func() time.Time {
		if in.cur == nil { // evaluating the module, outside any call
			return time.Now()
		}
		return in.cur.System.Now()
	})
	var exports goja.Value
	err := jsrt.Guard(ctx, in.rt, func() (err error) {
		// Before the hook's code runs, which may replace it.
		in.freeze, _ = goja.AssertFunction(in.rt.Get("Object").ToObject(in.rt).Get("freeze"))
		if warm {
			if err := prog.WarmUp(in.rt); err != nil {
				return err
			}
		}
		exports, err = prog.Evaluate(ctx, in.rt)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("evaluating the module: %w", err)
	}
	in.exports, _ = exports.(*goja.Object)
	in.exportsKind = jsrt.Kind(exports)
	in.ctx = in.newCtx()
	return in, nil
}

// instance returns a fresh runtime for one call: a prepared one, or else
// one made now, without the warm-up (which would only slow this call).
func (h *jsHook) instance(ctx context.Context) (in *jsInstance, fromPool bool, err error) {
	if in := h.ready.get(); in != nil {
		return in, true, nil
	}
	in, err = prepareJS(ctx, h.prog, false)
	return in, false, err
}

// refill prepares runtimes until the hook has its share ready, in one
// goroutine that ends then.
func (h *jsHook) refill() {
	if !h.filling.CompareAndSwap(false, true) {
		return
	}
	h.refills.Add(1)
	go func() {
		defer h.refills.Done()
		defer h.filling.Store(false)
		ctx, cancel := context.WithTimeout(context.Background(), h.evalTimeout)
		defer cancel()
		// At most the pool's share, and not once calls run it dry: a refill
		// that chased back-to-back calls would only compete with them.
		for need := prepared - h.ready.len(); need > 0 && !h.dry.Load(); need-- {
			in, err := prepareJS(ctx, h.prog, true)
			if err != nil || !h.ready.put(in) {
				return // on an error, the call that needs a runtime makes it and reports
			}
		}
	}()
}

// jsPool holds a hook's prepared runtimes, newest first: the newest is the
// likeliest to be still in a CPU cache.
type jsPool struct {
	mu    sync.Mutex
	items []*jsInstance
}

func (p *jsPool) get() *jsInstance {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := len(p.items)
	if n == 0 {
		return nil
	}
	in := p.items[n-1]
	p.items[n-1] = nil
	p.items = p.items[:n-1]
	return in
}

// put adds in, unless the pool is full.
func (p *jsPool) put(in *jsInstance) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.items) >= prepared {
		return false
	}
	p.items = append(p.items, in)
	return true
}

func (p *jsPool) len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.items)
}

// call runs the export for p with the arguments args builds, and returns
// what it returned, exported to Go (nil for no opinion).
func (h *jsHook) call(c *Context, p Point, args jsArgs) (any, error) {
	if h.prog == nil {
		return nil, fmt.Errorf("hook %q did not load: it handles no point", h.name)
	}
	// The timeout bounds the whole invocation, the module's evaluation too
	// when no runtime was ready.
	if h.timeout > 0 {
		ctx, cancel := context.WithTimeoutCause(c.base(), h.timeout, fmt.Errorf("hook %q ran out of its %s", h.name, h.timeout))
		defer cancel()
		bounded := *c // the hook's ctx.http and ctx.confirm get the deadline too
		bounded.Context = ctx
		c = &bounded
	}
	v, err := h.invoke(c, p, args)
	var thrown *jsrt.ScriptError
	if errors.As(err, &thrown) {
		// Seed 000: a hook that throws is reported as a notice (a person
		// sees it), besides the diagnostic, while the run goes on.
		message, _, _ := strings.Cut(thrown.Message, "\n")
		c.Notify(Notice{Title: fmt.Sprintf("hook %s failed at %s", h.name, p), Body: message})
	}
	return v, err
}

// invoke runs the export for p in a fresh runtime, and has the hook's
// runtimes refilled when that is due.
func (h *jsHook) invoke(c *Context, p Point, args jsArgs) (any, error) {
	in, fromPool, err := h.instance(c.base())
	if err != nil {
		return nil, err
	}
	// Refill after the call, so that the next runtimes are made between
	// calls; but not once calls come back to back and run the pool dry:
	// there, a refill only competes with the calls for the CPU. A call
	// after a pause ends that.
	spaced := time.Since(epoch)-time.Duration(h.lastEnd.Load()) > backToBack
	if spaced {
		h.dry.Store(false)
	}
	switch {
	case !fromPool && !spaced:
		h.dry.Store(true)
	case !fromPool, !h.dry.Load() && h.ready.len() <= lowWater:
		defer h.refill()
	}
	defer func() { h.lastEnd.Store(int64(time.Since(epoch))) }()
	return in.call(c, p, args)
}
