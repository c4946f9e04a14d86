package jsrt

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/dop251/goja"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeTree writes files (slash paths to contents) under a new folder.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
	}
	return root
}

func evaluate(t *testing.T, p *Program) (*goja.Runtime, *goja.Object) {
	t.Helper()
	rt := New(Limits{})
	exports, err := p.Evaluate(context.Background(), rt)
	require.NoError(t, err)
	return rt, exports.ToObject(rt)
}

func call(t *testing.T, rt *goja.Runtime, exports *goja.Object, name string, args ...goja.Value) (goja.Value, error) {
	t.Helper()
	fn, ok := goja.AssertFunction(exports.Get(name))
	require.True(t, ok, "%s is a function", name)
	return guarded(context.Background(), rt, fn, exports, args...)
}

// guarded calls fn under ctx, as the library does.
func guarded(ctx context.Context, rt *goja.Runtime, fn goja.Callable, this goja.Value, args ...goja.Value) (v goja.Value, err error) {
	err = Guard(ctx, rt, func() error {
		v, err = Call(rt, fn, this, args...)
		return err
	})
	return v, err
}

func TestCommonJS(t *testing.T) {
	root := writeTree(t, map[string]string{
		"h/index.js":     "exports.same = this === exports; const u = require('./lib/util'); exports.twice = u.twice; exports.cfg = require('./cfg.json').level; exports.viaDir = require('./lib').name",
		"h/lib/util.js":  "module.exports = { twice: (x) => 2 * x }",
		"h/lib/index.js": "exports.name = 'lib'",
		"h/cfg.json":     `{"level": 3}`,
	})
	p, err := CompileDir(root, filepath.Join(root, "h"), func(err error) { t.Error(err) })
	require.NoError(t, err)
	rt, exports := evaluate(t, p)
	assert.True(t, exports.Get("same").ToBoolean(), "this === exports at the top of a module")
	assert.Equal(t, int64(3), exports.Get("cfg").ToInteger())
	assert.Equal(t, "lib", exports.Get("viaDir").String())
	v, err := call(t, rt, exports, "twice", rt.ToValue(21))
	require.NoError(t, err)
	assert.Equal(t, int64(42), v.ToInteger())
}

func TestRequireRefusesWhatIsNotTheHooksOwn(t *testing.T) {
	root := writeTree(t, map[string]string{
		"h/index.js": "exports.load = (s) => require(s)",
		"secret.js":  "module.exports = 'secret'",
	})
	p, err := CompileDir(root, filepath.Join(root, "h"), func(err error) { t.Error(err) })
	require.NoError(t, err)
	rt, exports := evaluate(t, p)
	for spec, want := range map[string]string{
		"fs":          "only relative .js and .json files",
		"/etc/passwd": "only relative .js and .json files",
		"../secret":   "outside the hook's folder",
		"./missing":   "no such .js or .json file",
	} {
		_, err := call(t, rt, exports, "load", rt.ToValue(spec))
		require.Error(t, err, spec)
		assert.Contains(t, err.Error(), want, spec)
		assert.Contains(t, err.Error(), "TypeError", spec)
	}
}

func TestSymlinksLeavingTheFolderAreLeftOut(t *testing.T) {
	root := writeTree(t, map[string]string{
		"h/index.js": "exports.load = (s) => require(s)",
		"outside.js": "module.exports = 'outside'",
	})
	require.NoError(t, os.Symlink(filepath.Join(root, "outside.js"), filepath.Join(root, "h", "link.js")))
	var reports []error
	p, err := CompileDir(root, filepath.Join(root, "h"), func(err error) { reports = append(reports, err) })
	require.NoError(t, err)
	require.Len(t, reports, 1)
	assert.Contains(t, reports[0].Error(), "outside the hook's folder")
	rt, exports := evaluate(t, p)
	_, err = call(t, rt, exports, "load", rt.ToValue("./link"))
	assert.ErrorContains(t, err, "no such .js or .json file")

	other := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(other, "index.js"), nil, 0o644))
	require.NoError(t, os.Symlink(other, filepath.Join(root, "escape")))
	_, err = CompileDir(root, filepath.Join(root, "escape"), func(error) {})
	assert.ErrorContains(t, err, "outside "+root)
}

func TestSyntaxErrorsAreKeptForRequire(t *testing.T) {
	root := writeTree(t, map[string]string{
		"h/index.js":  "exports.load = () => require('./broken')",
		"h/broken.js": "let x = ;",
	})
	var reports []error
	p, err := CompileDir(root, filepath.Join(root, "h"), func(err error) { reports = append(reports, err) })
	require.NoError(t, err)
	require.Len(t, reports, 1)
	assert.Contains(t, reports[0].Error(), "broken.js:1")
	rt, exports := evaluate(t, p)
	_, err = call(t, rt, exports, "load")
	assert.ErrorContains(t, err, "broken.js:1")
}

func TestMissingIndex(t *testing.T) {
	root := writeTree(t, map[string]string{"h/other.js": ""})
	_, err := CompileDir(root, filepath.Join(root, "h"), func(error) {})
	assert.ErrorIs(t, err, os.ErrNotExist)
}

func TestCallAwaitsPromises(t *testing.T) {
	p, err := CompileSource("p.js", `
		exports.ok = async (x) => { await null; return x + 1 }
		exports.bad = async () => { throw new Error("nope") }
		exports.never = () => new Promise(() => {})`)
	require.NoError(t, err)
	rt, exports := evaluate(t, p)
	v, err := call(t, rt, exports, "ok", rt.ToValue(1))
	require.NoError(t, err)
	assert.Equal(t, int64(2), v.ToInteger())

	_, err = call(t, rt, exports, "bad")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "rejected: Error: nope")
	assert.Contains(t, err.Error(), "p.js:3")

	_, err = call(t, rt, exports, "never")
	assert.ErrorIs(t, err, ErrPending)
}

func TestCallIsInterruptedByItsContext(t *testing.T) {
	p, err := CompileSource("loop.js", "exports.spin = () => { for (;;) {} }")
	require.NoError(t, err)
	rt, exports := evaluate(t, p)
	fn, _ := goja.AssertFunction(exports.Get("spin"))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		_, err := guarded(ctx, rt, fn, exports)
		done <- err
	}()
	cancel()
	err = <-done
	assert.ErrorIs(t, err, context.Canceled)
}

func TestStackOverflowIsAnError(t *testing.T) {
	p, err := CompileSource("deep.js", "exports.deep = function f() { return f() }")
	require.NoError(t, err)
	rt, exports := evaluate(t, p)
	_, err = call(t, rt, exports, "deep")
	assert.ErrorContains(t, err, "stack overflow")
}

func TestThrowsCarryFileAndLine(t *testing.T) {
	p, err := CompileSource("t.js", "\nexports.boom = () => {\n  null.x\n}")
	require.NoError(t, err)
	rt, exports := evaluate(t, p)
	_, err = call(t, rt, exports, "boom")
	var se *ScriptError
	require.True(t, errors.As(err, &se))
	assert.Contains(t, se.Message, "TypeError")
	assert.Contains(t, se.Stack, "t.js:3")
}

func TestConversionCopiesAndFreezes(t *testing.T) {
	rt := New(Limits{})
	args := map[string]any{"list": []any{1.0, "two"}, "n": 3.5}
	ctx := context.Background()
	v, err := ToJS(ctx, rt, args, nil)
	require.NoError(t, err)
	require.NoError(t, rt.Set("args", v))
	_, err = rt.RunString("args.n = 9; args.list.push(3)")
	require.NoError(t, err)
	assert.Equal(t, 3.5, args["n"], "the Go map is not written through")

	freeze, _ := goja.AssertFunction(rt.Get("Object").ToObject(rt).Get("freeze"))
	frozen, err := ToJS(ctx, rt, []any{map[string]any{"role": "user"}}, freeze)
	require.NoError(t, err)
	require.NoError(t, rt.Set("msgs", frozen))
	_, err = rt.RunString("msgs[0].role = 'x'; msgs.push(1)")
	require.Error(t, err, "push on a frozen array throws")
	back, err := Export(ctx, rt, frozen)
	require.NoError(t, err)
	assert.Equal(t, []any{map[string]any{"role": "user"}}, back)

	n, err := Export(ctx, rt, rt.ToValue(7))
	require.NoError(t, err)
	assert.Equal(t, 7.0, n, "numbers come back as JSON gives them")

	cyclic, err := rt.RunString("const o = {}; o.o = o; o")
	require.NoError(t, err)
	_, err = Export(ctx, rt, cyclic)
	assert.ErrorContains(t, err, "contains itself")
}

func TestObjectsKeepOneKeyOrder(t *testing.T) {
	rt := New(Limits{})
	args := map[string]any{}
	for _, k := range []string{"zeta", "alpha", "mid", "beta", "omega", "kappa"} {
		args[k] = map[string]any{"y": 1.0, "x": 2.0}
	}
	for range 20 {
		v, err := ToJS(context.Background(), rt, args, nil)
		require.NoError(t, err)
		require.NoError(t, rt.Set("v", v))
		s, err := rt.RunString("JSON.stringify(v)")
		require.NoError(t, err)
		data := s.String()
		assert.Equal(t, `{"alpha":{"x":2,"y":1},"beta":{"x":2,"y":1},"kappa":{"x":2,"y":1},"mid":{"x":2,"y":1},"omega":{"x":2,"y":1},"zeta":{"x":2,"y":1}}`, string(data))
	}
}

// TestDrainRunsWhatReadsQueued: goja's job queue is visible (Pending), a
// getter read from Go queues a job and runs none, and Drain runs it.
func TestDrainRunsWhatReadsQueued(t *testing.T) {
	require.GreaterOrEqual(t, jobQueueField(), 0, "this goja's job queue is found")
	rt := New(Limits{})
	v, err := rt.RunString(`var ran = false; ({ get x() { Promise.resolve().then(() => { ran = true; }); return 1; } })`)
	require.NoError(t, err)
	assert.False(t, Pending(rt))
	assert.Equal(t, int64(1), v.(*goja.Object).Get("x").ToInteger())
	assert.True(t, Pending(rt), "the getter's job is queued")
	require.NoError(t, Guard(context.Background(), rt, func() error { return Drain(rt) }))
	assert.False(t, Pending(rt))
	assert.True(t, rt.Get("ran").ToBoolean())
}
