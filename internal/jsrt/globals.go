package jsrt

import (
	"sync"

	"github.com/dop251/goja"
)

// A hook may write globals, as code written for a fresh runtime does
// (globalThis.seen = 1, a polyfill of a missing global, x = 1 without a
// declaration in sloppy code), and what it writes must not outlive its
// call in a runtime that serves many. The global object stays frozen
// (Lockdown): its prototype is a Proxy, set before Lockdown, whose traps
// keep the names the global object does not have in the call's own table
// (Globals). A write to such a name lands in the table, a read finds it
// there, and the table is dropped when the call ends: nothing is left on
// any object of the runtime. Names the global object has (the built-ins)
// are its own frozen properties, found before the Proxy is consulted: a
// write to one fails as a write to a frozen property does, and reading
// them costs what it did.
//
// What differs from a fresh runtime: a name written so is not an own
// property of globalThis (hasOwnProperty, Object.keys and delete do not
// see it; "name" in globalThis, typeof and reads do), a built-in global
// cannot be replaced, and a symbol or an index cannot be a global's name.

// Globals is the table of the globals a call wrote. Its zero value is
// empty. One call uses it at a time, from the runtime's goroutine; the
// mutex only keeps a misuse from racing.
type Globals struct {
	mu sync.Mutex
	m  map[string]goja.Value // nil until the call writes one
}

// Reset drops what the call wrote: the next call finds no global it did
// not write itself.
func (g *Globals) Reset() {
	g.mu.Lock()
	g.m = nil
	g.mu.Unlock()
}

func (g *Globals) get(name string) (goja.Value, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	v, ok := g.m[name]
	return v, ok
}

func (g *Globals) set(name string, v goja.Value) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.m == nil {
		g.m = make(map[string]goja.Value, 4)
	}
	g.m[name] = v
}

// InstallGlobals makes the global object of rt read and write the names it
// does not have in g. It must run before Lockdown, which freezes the
// global object and the Proxy behind it.
func InstallGlobals(rt *goja.Runtime, g *Globals) error {
	global := rt.GlobalObject()
	// The Proxy's target stands in for Object.prototype, which it
	// inherits: what the global object inherits reads as before.
	target := rt.NewObject()
	proto := rt.NewProxy(target, &goja.ProxyTrapConfig{
		Has: func(target *goja.Object, name string) bool {
			if _, ok := g.get(name); ok {
				return true
			}
			return target.Get(name) != nil
		},
		Get: func(target *goja.Object, name string, receiver goja.Value) goja.Value {
			if v, ok := g.get(name); ok {
				return v
			}
			return target.Get(name)
		},
		Set: func(target *goja.Object, name string, v goja.Value, receiver goja.Value) bool {
			if receiver != global {
				// An object that inherits the global object: the write is
				// its own, as an ordinary write is.
				o, ok := receiver.(*goja.Object)
				return ok && o.DefineDataProperty(name, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE) == nil
			}
			if _, ok := g.get(name); !ok && target.Get(name) != nil {
				return false // a frozen inherited property (toString): as before
			}
			g.set(name, v)
			return true
		},
	})
	return global.SetPrototype(rt.ToValue(proto).(*goja.Object))
}
