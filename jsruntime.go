package hooks

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"time"

	"github.com/dop251/goja"

	"github.com/rienda/hooks/internal/jsrt"
)

// DefaultLoadTimeout bounds a load when Loader.LoadTimeout is zero, and
// every CompileJS: making the hook's first runtime, evaluating its module
// and reading its exports (getters, Proxy traps) run hook code outside any
// call, under no context of the caller's.
const DefaultLoadTimeout = 5 * time.Second

// evalTimeout is DefaultLoadTimeout; a variable: tests shorten it.
var evalTimeout = DefaultLoadTimeout

// jsInstance is one runtime of a hook. Its built-ins are frozen once
// (jsrt.Lockdown), and each call evaluates the module again, with a new
// module scope and a new ctx: a call finds nothing an earlier call left.
// It serves one call at a time.
type jsInstance struct {
	rt       *goja.Runtime
	retained *jsrt.Retained  // a call left memory only the runtime's end gives back
	globals  jsrt.Globals    // the globals the running call wrote
	freeze   goja.Callable   // Object.freeze, taken before any hook code ran
	ev       *jsrt.Evaluator // evaluates the hook's module, once per call
	calls    int             // calls it served: it is replaced after maxCalls

	// Of the call running now; nil between calls.
	exports     *goja.Object // module.exports; nil when the module left no object
	exportsKind string       // what module.exports is, for a message: "an object", "null"
	ctx         *goja.Object // the hook's ctx, reading cur
	cur         *Context     // the call's Context
}

// newJSInstance makes a runtime with the bounds of l, and the wrappers
// model points need, and freezes its built-ins. It runs under ctx.
func newJSInstance(ctx context.Context, l jsrt.Limits) (*jsInstance, error) {
	in := &jsInstance{}
	in.rt, in.retained = jsrt.NewRuntime(l)
	// Date.now() and new Date() read the host's clock (Host.System.Clock),
	// so that a test can pin the date a hook sees.
	in.rt.SetTimeSource(func() time.Time {
		if in.cur == nil { // evaluating the module at load, outside any call
			return time.Now()
		}
		return in.cur.System.Now()
	})
	err := jsrt.Guard(ctx, in.rt, func() error {
		in.freeze, _ = goja.AssertFunction(in.rt.Get("Object").ToObject(in.rt).Get("freeze"))
		in.wrapFrozenBuiltins()
		if err := jsrt.InstallGlobals(in.rt, &in.globals); err != nil {
			return err
		}
		return jsrt.Lockdown(in.rt)
	})
	if err != nil {
		return nil, fmt.Errorf("making a runtime: %w", err)
	}
	return in, nil
}

// begin evaluates the module for one call and builds its ctx. It runs
// inside Guard.
func (in *jsInstance) begin(ctx context.Context, prog *jsrt.Program) error {
	if in.ev == nil || in.ev.Program() != prog {
		in.ev = jsrt.NewEvaluator(in.rt, prog, in.freeze)
	}
	exports, err := in.ev.Evaluate(ctx)
	if err != nil {
		return fmt.Errorf("evaluating the module: %w", err)
	}
	in.exports, _ = exports.(*goja.Object)
	in.exportsKind = jsrt.Kind(exports)
	in.ctx = in.newCtx()
	return nil
}

// end lets go of what the call made.
func (in *jsInstance) end() {
	in.exports, in.ctx, in.cur = nil, nil, nil
	in.globals.Reset()
	if in.ev != nil {
		in.ev.End()
	}
}

// jsArgs builds the arguments of an export after ctx, in the runtime.
type jsArgs func(in *jsInstance) ([]goja.Value, error)

// call evaluates the module and runs the export for p with ctx and the
// arguments args builds, and exports what it returned. Everything it does
// in the runtime (the module, reading the export, building the arguments,
// the call, reading the returned value) runs under the call's context, and
// ends before call returns.
func (in *jsInstance) call(c *Context, prog *jsrt.Program, p Point, args jsArgs) (ret any, err error) {
	var returned goja.Value // what the export returned, once it did
	in.cur = c
	in.calls++
	defer in.end()
	ctx := c.base()
	in.rt.ClearInterrupt() // an interrupt that landed as the last call returned
	err = jsrt.Guard(ctx, in.rt, func() error {
		if err := in.begin(ctx, prog); err != nil {
			return err
		}
		if in.exports == nil {
			return fmt.Errorf("module.exports is %s in this call", in.exportsKind)
		}
		fn, ok := goja.AssertFunction(in.exports.Get(string(p)))
		if !ok {
			return fmt.Errorf("export %q is not a function in this call", p)
		}
		vals, err := args(in)
		if err != nil {
			return err
		}
		v, err := jsrt.Call(in.rt, fn, in.exports, append([]goja.Value{in.ctx}, vals...)...)
		if err != nil {
			return err
		}
		returned = v
		if ret, err = jsrt.Export(ctx, in.rt, v); err != nil {
			return fmt.Errorf("returned a value that cannot be read: %w", err)
		}
		if p == BeforeToolExecute {
			ret, err = in.hiddenRefusal(c, v, ret)
		}
		return err
	})
	if err != nil && returned != nil && p == BeforeToolExecute {
		// A refusal refuses even when the rest of it cannot be read (a
		// cycle, a BigInt, a getter that throws beside allow: false).
		if refusal := in.refusalOf(ctx, returned, err); refusal != nil {
			c.diagnose(p, fmt.Errorf("%w; read as a refusal", err))
			ret, err = refusal, nil
		}
	}
	// What the call's reads ran (a getter, toJSON, a thrown value's
	// toString) may have queued Promise jobs: they run now, still as this
	// call, or the runtime is not used again (jsPool.put).
	if derr := in.drain(ctx); err == nil {
		err = derr
	}
	var pe *jsrt.PanicError
	if errors.As(err, &pe) {
		err = &PanicError{Value: pe.Value, Stack: pe.Stack}
	}
	return ret, err
}

// refusal reads, from a returned value that cannot be read whole, its
// allow, block and reason, when they say it refuses: the fields as
// returned.refusal reads them, or nil. Reading them runs only their own
// getters, whose throws make the value no evident refusal.
func (in *jsInstance) refusal(v goja.Value) (map[string]any, error) {
	o, ok := v.(*goja.Object)
	if !ok {
		return nil, nil
	}
	m := map[string]any{}
	for _, k := range [...]string{"allow", "block", "reason"} {
		var f goja.Value
		if ex := in.rt.Try(func() { f = o.Get(k) }); ex != nil {
			var thrown *jsrt.ScriptError
			if err := jsrt.Error(ex); !errors.As(err, &thrown) {
				return nil, err // an interrupt, a stack overflow: no second try
			}
			if k == "reason" {
				continue
			}
			return nil, nil
		}
		if f == nil || goja.IsUndefined(f) || goja.IsNull(f) {
			continue
		}
		if _, isObject := f.(*goja.Object); isObject && k != "reason" {
			m[k] = map[string]any{} // not a boolean, not a string: read as a refusal
			continue
		}
		switch x, keep, err := jsrt.Primitive(f); {
		case (err != nil || x == nil || !keep) && k != "reason":
			// A BigInt, NaN, ±Infinity or a symbol: JSON would say null
			// or nothing, but the hook said something that is no allow.
			m[k] = map[string]any{}
		case err == nil && x != nil:
			m[k] = x
		}
	}
	if refused, _ := (&returned{m: m}).refusal(); !refused {
		return nil, nil
	}
	return m, nil
}

// hiddenRefusal returns what to read of v, a beforeToolExecute's return
// exported as ret: ret, unless v refuses where its JSON does not (an
// allow: false or a block that is inherited, not enumerable, hidden by
// toJSON or a Proxy, a getter that answers differently when read again,
// an allow of NaN or a symbol, which JSON turns to null or leaves out):
// then the refusal, with a diagnostic. A refusal is read wherever the
// hook put it; an allow only from what JSON reads. It runs inside Guard.
func (in *jsInstance) hiddenRefusal(c *Context, v goja.Value, ret any) (any, error) {
	probe, err := in.refusal(v)
	if err != nil {
		return nil, fmt.Errorf("reading allow and block of the returned value: %w", err)
	}
	if probe == nil {
		return ret, nil
	}
	if m, ok := ret.(map[string]any); ok {
		if refused, _ := (&returned{m: maps.Clone(m)}).refusal(); refused {
			return ret, nil
		}
	}
	c.diagnose(BeforeToolExecute, fmt.Errorf("returned allow %s, block %s as JavaScript reads them, not as JSON does (%s): read as a refusal",
		clipJSON(probe["allow"]), clipJSON(probe["block"]), clipJSON(ret)))
	return probe, nil
}

// refusalOf is in.refusal(v), read under ctx, for a value whose reading
// failed with err: only when err is the value's (it cannot be held as
// JSON, or a getter threw), not an interrupt or a stack overflow, whose
// second reading would cost as much again, past the call's deadline.
func (in *jsInstance) refusalOf(ctx context.Context, v goja.Value, err error) (refusal map[string]any) {
	var unreadable *jsrt.ValueError
	var thrown *jsrt.ScriptError
	if ctx.Err() != nil || !errors.As(err, &unreadable) && !errors.As(err, &thrown) {
		return nil
	}
	_ = jsrt.Guard(ctx, in.rt, func() error {
		refusal, _ = in.refusal(v)
		return nil
	})
	if ctx.Err() != nil {
		return nil
	}
	return refusal
}

// drain runs the Promise jobs left in the runtime under ctx (see
// jsrt.Drain); afterwards none is left, or the runtime is not reused.
func (in *jsInstance) drain(ctx context.Context) error {
	if !jsrt.Pending(in.rt) {
		return nil
	}
	return jsrt.Guard(ctx, in.rt, func() error { return jsrt.Drain(in.rt) })
}

// values copies Go values into the runtime, as arguments.
func (in *jsInstance) values(vs ...any) ([]goja.Value, error) {
	out := make([]goja.Value, len(vs))
	for i, v := range vs {
		jv, err := jsrt.ToJS(in.cur.base(), in.rt, v, nil)
		if err != nil {
			return nil, fmt.Errorf("the %s argument: %w", ordinal(i), err)
		}
		out[i] = jv
	}
	return out, nil
}

// ordinal names an argument after ctx: "first" is the payload.
func ordinal(i int) string {
	return [...]string{"first", "second", "third"}[min(i, 2)]
}
