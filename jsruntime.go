package hooks

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/dop251/goja"

	"github.com/rienda/hooks/internal/jsrt"
)

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
	asksFrozen  bool          // the source names Object.isFrozen or another of frozenBuiltins
}

// prepareJS makes a runtime with the module evaluated and ctx built, and,
// when warm, the built-ins its source names set up (Program.WarmUp). All of
// it runs under ctx (jsrt.Guard): a module that loops is interrupted.
func prepareJS(ctx context.Context, prog *jsrt.Program, warm bool) (*jsInstance, error) {
	in := &jsInstance{rt: jsrt.New(jsrt.Limits{}), asksFrozen: prog.AsksFrozen()}
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

// jsArgs builds the arguments of an export after ctx, in the runtime.
type jsArgs func(in *jsInstance) ([]goja.Value, error)

// call runs the export for p with ctx and the arguments args builds, and
// exports what it returned. Everything it does in the runtime (reading the
// export, building the arguments, the call, reading the returned value)
// runs under the call's context, and ends before call returns.
func (in *jsInstance) call(c *Context, p Point, args jsArgs) (ret any, err error) {
	in.cur = c
	ctx := c.base()
	err = jsrt.Guard(ctx, in.rt, func() error {
		fn, ok := goja.AssertFunction(in.exports.Get(string(p)))
		if !ok {
			return fmt.Errorf("export %q is no longer a function", p)
		}
		vals, err := args(in)
		if err != nil {
			return err
		}
		v, err := jsrt.Call(in.rt, fn, in.exports, append([]goja.Value{in.ctx}, vals...)...)
		if err != nil {
			return err
		}
		if ret, err = jsrt.Export(ctx, in.rt, v); err != nil {
			return fmt.Errorf("returned a value that cannot be read: %w", err)
		}
		return nil
	})
	var pe *jsrt.PanicError
	if errors.As(err, &pe) {
		err = &PanicError{Value: pe.Value, Stack: pe.Stack}
	}
	return ret, err
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
