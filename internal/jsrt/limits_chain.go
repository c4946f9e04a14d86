package jsrt

import (
	"reflect"
	"runtime"
	"strconv"
	"sync"
	"weak"

	"github.com/dop251/goja"
)

// boundChains bounds the chains goja follows by recursing in Go, at the
// only places they are made: Function.prototype.bind (a bound function
// calls, constructs and instanceof-tests its target from Go,
// builtin_function.go boundCallable, boundConstruct, func.go hasInstance)
// and the Proxy constructor (a Proxy without a trap forwards to its target
// from Go, and looks its traps up on its handler, proxy.go).
func (g *depthGuard) boundChains() {
	fnProto := g.rt.Get("Function").(*goja.Object).Get("prototype").(*goja.Object)
	g.replaceMethod(fnProto, "bind", g.bind)
	g.replaceProxy()
}

// bind wraps Function.prototype.bind: the bound function is one link
// longer than its target's chain.
func (g *depthGuard) bind(f native) native {
	return func(call goja.FunctionCall) goja.Value {
		links := g.chains.of(call.This) + 1
		g.checkChain(links, "Function.prototype.bind")
		bound := f(call)
		g.chains.set(bound.(*goja.Object), links)
		return bound
	}
}

// checkChain throws a RangeError for a chain of more than MaxChain links.
func (g *depthGuard) checkChain(links int, what string) {
	if links > MaxChain {
		g.throwRange("Maximum chain length exceeded (" + strconv.Itoa(MaxChain) + ") in " + what)
	}
}

// replaceProxy replaces the global Proxy with a Proxy of it (made from Go,
// with a construct trap) that measures the chain a new Proxy makes: one
// link longer than its target's or its handler's, whichever is longer.
// Being a Proxy, it is the original in all else: its name, length, missing
// prototype, and the TypeError of a call without new. Proxy.revocable,
// which it reads through, is replaced likewise on the original.
func (g *depthGuard) replaceProxy() {
	global := g.rt.GlobalObject()
	orig := global.Get("Proxy").(*goja.Object)
	construct, _ := goja.AssertConstructor(orig)
	g.replaceMethod(orig, "revocable", func(revocable native) native {
		return func(call goja.FunctionCall) goja.Value {
			links := g.proxyLinks(call.Arguments)
			res := revocable(call)
			g.chains.set(res.(*goja.Object).Get("proxy").(*goja.Object), links)
			return res
		}
	})
	proxy := g.rt.NewProxy(orig, &goja.ProxyTrapConfig{
		Construct: func(_ *goja.Object, args []goja.Value, newTarget *goja.Object) *goja.Object {
			links := g.proxyLinks(args)
			p, err := construct(newTarget, args...)
			if err != nil {
				panic(err)
			}
			g.chains.set(p, links)
			return p
		},
	})
	_ = global.DefineDataProperty("Proxy", g.rt.ToValue(proxy), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// proxyLinks returns the length of the chain a Proxy of args (target,
// handler) makes, or throws past MaxChain.
func (g *depthGuard) proxyLinks(args []goja.Value) int {
	var links int
	for _, a := range args[:min(len(args), 2)] {
		links = max(links, g.chains.of(a))
	}
	g.checkChain(links+1, "Proxy")
	return links + 1
}

// proxyType is what goja exports a Proxy as.
var proxyType = reflect.TypeOf(goja.Proxy{})

// chainDepths remembers the chain behind each bound function and Proxy a
// runtime made, weakly: an entry goes with its object, so that a hook that
// binds in a loop does not keep every bound function alive. It refers to
// nothing of the runtime: an object's cleanup refers to it, and an object
// its own cleanup reaches is never collected (nor, then, its runtime).
type chainDepths struct {
	mu    sync.Mutex // cleanups run on another goroutine
	links map[weak.Pointer[goja.Object]]int
}

// of returns the links of the chain v starts: 0 for a value that is not a
// bound function or a Proxy, 1 for a Proxy made outside the hook's code.
func (c *chainDepths) of(v goja.Value) int {
	o, ok := v.(*goja.Object)
	if !ok {
		return 0
	}
	c.mu.Lock()
	n, ok := 0, false
	if c.links != nil { // no weak handle for o until there is a chain to find
		n, ok = c.links[weak.Make(o)]
	}
	c.mu.Unlock()
	if !ok && o.ExportType() == proxyType {
		return 1
	}
	return n
}

// set records that o starts a chain of links.
func (c *chainDepths) set(o *goja.Object, links int) {
	key := weak.Make(o)
	c.mu.Lock()
	if c.links == nil {
		c.links = map[weak.Pointer[goja.Object]]int{}
	}
	c.links[key] = links
	c.mu.Unlock()
	runtime.AddCleanup(o, c.forget, key)
}

// forget drops the entry of an object that is gone.
func (c *chainDepths) forget(key weak.Pointer[goja.Object]) {
	c.mu.Lock()
	delete(c.links, key)
	c.mu.Unlock()
}
