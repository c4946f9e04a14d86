package hooks

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
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

// jsPool is a hook's runtimes prepared ahead, and when to prepare more. A
// call takes a runtime (nil when none is ready: the call makes its own)
// and says when it is done; the pool refills itself in one goroutine at a
// time, off the calls' path. Its methods may be called concurrently.
type jsPool struct {
	prepare func(context.Context) (*jsInstance, error) // one runtime, warm; nil: a hook that never refills
	timeout time.Duration                              // bounds a refill

	ready   jsStack
	filling atomic.Bool    // a refill runs
	dry     atomic.Bool    // calls came back to back and found no runtime ready
	lastEnd atomic.Int64   // when the last call ended, as time.Since(epoch)
	refills sync.WaitGroup // running refills (tests and benchmarks wait on it)
}

// take returns a runtime for one call: a prepared one, or else the one
// cold makes (an error of cold is the call's, and leaves the pool as it
// was); and whether the call is to start a refill when it is done.
func (p *jsPool) take(cold func() (*jsInstance, error)) (in *jsInstance, refill bool, err error) {
	in = p.ready.get()
	fromPool := in != nil
	if !fromPool {
		if in, err = cold(); err != nil {
			return nil, false, err
		}
	}
	spaced := time.Since(epoch)-time.Duration(p.lastEnd.Load()) > backToBack
	wasDry := p.dry.Load()
	dry, refill := refillPolicy(fromPool, spaced, wasDry, p.ready.len())
	if dry != wasDry {
		p.dry.Store(dry)
	}
	return in, refill, nil
}

// refillPolicy decides, for a call that found a runtime ready or not
// (fromPool), after a pause or back to back (spaced), whether the pool is
// now dry and whether the call starts a refill when done. Refill after the
// call, so that the next runtimes are made between calls; but not once
// calls come back to back and run the pool dry: there, a refill only
// competes with the calls for the CPU. A call after a pause ends that.
func refillPolicy(fromPool, spaced, dry bool, ready int) (nowDry, refill bool) {
	if spaced {
		dry = false
	}
	switch {
	case !fromPool && !spaced:
		return true, false
	case !fromPool:
		return dry, true
	}
	return dry, !dry && ready <= lowWater
}

// done notes that a call ended, and starts the refill take asked for.
func (p *jsPool) done(refill bool) {
	p.lastEnd.Store(int64(time.Since(epoch)))
	if refill {
		p.refill()
	}
}

// refill prepares runtimes until the pool has its share ready, in one
// goroutine that ends then.
func (p *jsPool) refill() {
	if p.prepare == nil || !p.filling.CompareAndSwap(false, true) {
		return
	}
	p.refills.Add(1)
	go func() {
		defer p.refills.Done()
		defer p.filling.Store(false)
		ctx, cancel := context.WithTimeout(context.Background(), p.timeout)
		defer cancel()
		// At most the pool's share, and not once calls run it dry: a refill
		// that chased back-to-back calls would only compete with them.
		for need := prepared - p.ready.len(); need > 0 && !p.dry.Load(); need-- {
			in, err := p.prepare(ctx)
			if err != nil || !p.ready.put(in) {
				return // on an error, the call that needs a runtime makes it and reports
			}
		}
	}()
}

// jsStack holds prepared runtimes, newest first: the newest is the
// likeliest to be still in a CPU cache.
type jsStack struct {
	mu    sync.Mutex
	items []*jsInstance
}

func (s *jsStack) get() *jsInstance {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(s.items)
	if n == 0 {
		return nil
	}
	in := s.items[n-1]
	s.items[n-1] = nil
	s.items = s.items[:n-1]
	return in
}

// put adds in, unless the stack holds its share (prepared) already.
func (s *jsStack) put(in *jsInstance) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.items) >= prepared {
		return false
	}
	s.items = append(s.items, in)
	return true
}

func (s *jsStack) len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.items)
}
