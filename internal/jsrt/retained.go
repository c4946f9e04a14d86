package jsrt

import "github.com/dop251/goja"

// Retained notes that a call left in its runtime memory that only the
// runtime's end gives back, though no later call can read it: a key of
// Symbol.for (goja's registry keeps every key for the runtime's life), and
// an entry of a WeakMap or WeakSet keyed by a frozen object, which may be a
// built-in (goja keeps a weak collection's entries on the key, so they
// live as long as the key). A runtime used for many calls is dropped after
// a call that did either, so that such memory never piles up.
type Retained struct{ n int }

// Any reports whether a call since the last Reset retained memory.
func (r *Retained) Any() bool { return r.n > 0 }

// Reset forgets what was noted.
func (r *Retained) Reset() { r.n = 0 }

// noteRetention wraps Symbol.for, WeakMap.prototype.set and
// WeakSet.prototype.add to note, in r, the calls that retain memory.
func (a *allocGuard) noteRetention(r *Retained) {
	rt := a.rt
	isFrozen, _ := original(rt.Get("Object").(*goja.Object), "isFrozen")
	a.replaceMethod(rt.Get("Symbol").(*goja.Object), "for", func(f native) native {
		return func(call goja.FunctionCall) goja.Value {
			r.n++
			return f(call)
		}
	})
	keyed := func(f native) native {
		return func(call goja.FunctionCall) goja.Value {
			if k, ok := call.Argument(0).(*goja.Object); ok && isFrozen(goja.FunctionCall{Arguments: []goja.Value{k}}).ToBoolean() {
				r.n++
			}
			return f(call)
		}
	}
	for _, name := range []string{"WeakMap", "WeakSet"} {
		proto := rt.Get(name).(*goja.Object).Get("prototype").(*goja.Object)
		method := "set"
		if name == "WeakSet" {
			method = "add"
		}
		a.replaceMethod(proto, method, keyed)
	}
}
