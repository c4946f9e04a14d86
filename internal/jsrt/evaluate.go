package jsrt

import (
	"context"
	"path"
	"strings"

	"github.com/dop251/goja"
)

// Evaluate runs the main module in rt and returns its module.exports. A
// module that throws is an error; a syntax error of the main file too. It
// must run inside Guard, under the same ctx.
func (p *Program) Evaluate(ctx context.Context, rt *goja.Runtime) (goja.Value, error) {
	return NewEvaluator(rt, p, nil).Evaluate(ctx)
}

// Evaluator evaluates one Program in one runtime, once per call. What no
// evaluation changes is made once: each file's module function (the
// compiled wrapper, evaluated to a function object) and its require. Both
// are frozen, with the module function's prototype, so that a module
// reaching them (require.x = 1, arguments.callee in sloppy code) can leave
// nothing on them for a later evaluation. Everything else is new in each
// evaluation: module, exports, the module's scope and what it makes.
type Evaluator struct {
	prog   *Program
	rt     *goja.Runtime
	freeze goja.Callable        // Object.freeze as it was before any hook code ran; nil: rt's
	units  map[string]*evalUnit // by file key, made on first use
	cur    *modules             // the evaluation running now
}

// evalUnit is what an Evaluator keeps of one file.
type evalUnit struct {
	fn                goja.Callable // the module function
	require, filename goja.Value
	dirname           goja.Value
}

// NewEvaluator returns an Evaluator of p in rt. freeze is Object.freeze
// taken before any hook code ran (nil: rt's own, for a runtime whose
// built-ins are frozen).
func NewEvaluator(rt *goja.Runtime, p *Program, freeze goja.Callable) *Evaluator {
	if freeze == nil {
		freeze, _ = goja.AssertFunction(rt.Get("Object").(*goja.Object).Get("freeze"))
	}
	return &Evaluator{prog: p, rt: rt, freeze: freeze}
}

// Evaluate runs the main module anew and returns its module.exports. A
// module that throws is an error; a syntax error of the main file too. It
// must run inside Guard, under ctx.
func (e *Evaluator) Evaluate(ctx context.Context) (goja.Value, error) {
	m := &modules{ctx: ctx, ev: e}
	e.cur = m // until End, or the next evaluation: the call may require later
	// Under Try, which turns the require's throws into an error (an
	// interrupt goes on as a panic, for Guard).
	var exports goja.Value
	if ex := e.rt.Try(func() { exports = m.require(Main) }); ex != nil {
		return nil, Error(ex) // described now, inside Guard: describing runs JavaScript
	}
	return exports, nil
}

// End ends the evaluation: a require called after it (by nothing of a
// later call, which cannot reach it) throws instead of loading into it.
func (e *Evaluator) End() { e.cur = nil }

// Program returns the program e evaluates.
func (e *Evaluator) Program() *Program { return e.prog }

// unit returns what e keeps of the JavaScript file key, making it once.
func (e *Evaluator) unit(key string, u *unit) *evalUnit {
	if eu := e.units[key]; eu != nil {
		return eu
	}
	fn, err := e.rt.RunProgram(u.prog)
	if err != nil {
		panic(err)
	}
	call, _ := goja.AssertFunction(fn)
	dir := path.Dir(key)
	req := e.rt.ToValue(func(c goja.FunctionCall) goja.Value {
		m := e.cur
		if m == nil {
			panic(e.rt.NewTypeError("require: the module's evaluation has ended"))
		}
		return m.require(m.resolve(dir, u.path, c.Argument(0)))
	})
	eu := &evalUnit{fn: call, require: req, filename: e.rt.ToValue(u.path), dirname: e.rt.ToValue(u.dir)}
	// Frozen before any module code sees them: a module function's
	// prototype is made when first read, so it is read (and frozen) now.
	fo := fn.(*goja.Object)
	for _, v := range []goja.Value{fo, fo.Get("prototype"), req} {
		if o, ok := v.(*goja.Object); ok {
			if _, err := e.freeze(goja.Undefined(), o); err != nil {
				panic(err)
			}
		}
	}
	if e.units == nil {
		e.units = map[string]*evalUnit{}
	}
	e.units[key] = eu
	return eu
}

// modules is the module table of one evaluation.
type modules struct {
	ctx    context.Context // bounds the conversion of required JSON files
	ev     *Evaluator
	main   *goja.Object            // the main module, also while it runs (cycles)
	loaded map[string]*goja.Object // the others by file key; nil until one is required
}

// module returns the module object of the file key, if loaded.
func (m *modules) module(key string) *goja.Object {
	if key == Main {
		return m.main
	}
	return m.loaded[key]
}

// keep notes the module object of the file key.
func (m *modules) keep(key string, mod *goja.Object) {
	if key == Main {
		m.main = mod
		return
	}
	if m.loaded == nil {
		m.loaded = map[string]*goja.Object{}
	}
	m.loaded[key] = mod
}

// require loads the file key (a slash path relative to the hook's folder),
// once per evaluation, and returns its module.exports. It panics with a JS
// exception, as a native function does.
func (m *modules) require(key string) goja.Value {
	if mod := m.module(key); mod != nil {
		return mod.Get("exports")
	}
	rt := m.ev.rt
	u := m.ev.prog.files[key]
	if u.err != nil {
		panic(rt.NewGoError(&BrokenFileError{err: u.err}))
	}
	if u.prog == nil { // JSON
		v, err := ToJS(m.ctx, rt, u.data, nil)
		if err != nil {
			panic(rt.NewGoError(err))
		}
		mod := rt.NewObject()
		_ = mod.Set("exports", v)
		m.keep(key, mod)
		return v
	}
	eu := m.ev.unit(key, u)
	exports := rt.NewObject()
	mod := rt.NewObject()
	_ = mod.Set("exports", exports)
	_ = mod.Set("id", eu.filename)
	m.keep(key, mod)
	if _, err := eu.fn(exports, exports, eu.require, mod, eu.filename, eu.dirname); err != nil {
		panic(err)
	}
	return mod.Get("exports")
}

// resolve turns the argument of a require in the file from (in folder dir)
// into a file key, or throws a clear error: only relative .js and .json
// files inside the hook's own folder can be required.
func (m *modules) resolve(dir, from string, arg goja.Value) string {
	rt, prog := m.ev.rt, m.ev.prog
	spec := arg.String()
	if !strings.HasPrefix(spec, "./") && !strings.HasPrefix(spec, "../") {
		panic(rt.NewTypeError("require(%q) in %s: a hook can require only relative .js and .json files of its own folder (no packages, no built-in modules)", spec, from))
	}
	if prog.dir == "" {
		panic(rt.NewTypeError("require(%q) in %s: a hook compiled from a string has no folder to require from", spec, from))
	}
	key := path.Join(dir, spec)
	if key == ".." || strings.HasPrefix(key, "../") {
		panic(rt.NewTypeError("require(%q) in %s: the file is outside the hook's folder", spec, from))
	}
	for _, k := range []string{key, key + ".js", key + ".json", key + "/index.js"} {
		if _, ok := prog.files[k]; ok {
			return k
		}
	}
	if prog.truncated {
		panic(rt.NewTypeError("require(%q) in %s: not loaded: the hook's folder has more than %d files, and the rest were left out", spec, from, maxFiles))
	}
	panic(rt.NewTypeError("require(%q) in %s: no such .js or .json file in the hook's folder", spec, from))
}
