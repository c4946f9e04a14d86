package hooks_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rienda/hooks"
)

// freshCalls runs body as a beforeToolExecute hook three times in one run
// and returns what each call returned as its result text.
func freshCalls(t *testing.T, module, body string) []string {
	t.Helper()
	var rec recorder
	run := start(t, &rec, js(t, "fresh", module+"\nexports.beforeToolExecute = () => { "+body+" };"))
	var out []string
	for range 3 {
		res, err := run.CallTool(bg, hooks.ToolCall{Name: "x"}, echoTool(&rec))
		require.NoError(t, err)
		out = append(out, res.Text)
	}
	require.Empty(t, rec.diagnostics())
	return out
}

// result is the body's return of text as the tool's result.
func result(expr string) string { return "return { result: { text: String(" + expr + ") } };" }

// TestJSNothingPersistsBetweenCalls: a hook's runtime serves many calls,
// and each leak channel a hook could write to in one call is empty in the
// next: each call sees what the first saw.
func TestJSNothingPersistsBetweenCalls(t *testing.T) {
	for name, c := range map[string]struct{ module, body, want string }{
		"module variable": {"let n = 0;", "n++; " + result("n"), "1"},
		"module Map":      {"const m = new Map();", "m.set(m.size, 1); " + result("m.size"), "1"},
		"module regex lastIndex": {"const re = /a/g;",
			"re.test('aaa'); " + result("re.lastIndex"), "1"},
		"module-level cache": {"const cache = {};", "cache.k = (cache.k || 0) + 1; " + result("cache.k"), "1"},
		"Object.prototype write, sloppy": {"",
			"Object.prototype.leak = (({}).leak || 0) + 1; " + result("({}).leak"), "undefined"},
		"Object.prototype write, strict": {"'use strict';",
			"let r; try { Object.prototype.leak = 1; r = 'written'; } catch (e) { r = e.name; } " + result("r + ({}).leak"), "TypeErrorundefined"},
		"Array.prototype method replaced": {"",
			"const was = [].push === Array.prototype.push; Array.prototype.push = function () { return -1; }; " + result("was && [].push(1)"), "1"},
		"globalThis write": {"", "globalThis.seen = (globalThis.seen || 0) + 1; " + result("globalThis.seen"), "1"},
		"globalThis write, strict": {"'use strict';",
			"globalThis.seen = (globalThis.seen || 0) + 1; " + result("seen + typeof seen"), "1number"},
		"implicit global, sloppy":                   {"", "seen = (typeof seen === 'undefined' ? 0 : seen) + 1; " + result("seen"), "1"},
		"implicit global at the module's top level": {"seen = (typeof seen === 'undefined' ? 0 : seen) + 1;", result("seen"), "1"},
		"global written at the top level, strict":   {"'use strict'; globalThis.top = (globalThis.top || 0) + 1;", result("top"), "1"},
		"global through this of a sloppy function": {"",
			"(function () { this.viaThis = (this.viaThis || 0) + 1; })(); " + result("viaThis + Function('return this')().viaThis"), "2"},
		"undeclared write, strict": {"'use strict';",
			"let r; try { undeclared = 1; r = 'written'; } catch (e) { r = e.name; } " + result("r + typeof undeclared"), "ReferenceErrorundefined"},
		"polyfill of a missing global": {"",
			"const had = typeof structuredClone2; globalThis.structuredClone2 = (v) => JSON.parse(JSON.stringify(v)); " + result("had + structuredClone2({a: 1}).a"), "undefined1"},
		"polyfill replacing a built-in global": {"",
			"const was = typeof Array.from; try { globalThis.Array = function () {}; Array = 1; } catch (e) {} " + result("was + typeof Array + typeof Array.from"), "functionfunctionfunction"},
		"polyfill of a built-in method, strict": {"'use strict';",
			"let r = typeof Array.prototype.last; try { Array.prototype.last = function () { return 9; }; } catch (e) { r += e.name; } " + result("r + typeof [].last"), "undefinedTypeErrorundefined"},
		"global defined with defineProperty": {"",
			"let r = typeof fixed; try { Object.defineProperty(globalThis, 'fixed', {value: 1}); } catch (e) { r += e.name; } " + result("r + typeof fixed"), "undefinedTypeErrorundefined"},
		"the global object's prototype": {"",
			"const p = Object.getPrototypeOf(globalThis); let r = typeof p.leak; try { p.leak = 1; Object.defineProperty(p, 'leak2', {value: 1}); } catch (e) { r += e.name; } try { Object.setPrototypeOf(p, {leak3: 1}); } catch (e) { r += e.name; } " + result("r + typeof leak2 + typeof leak3"), "undefinedTypeErrorTypeErrorundefinedundefined"},
		"require written to": {"",
			"require.leak = (require.leak || 0) + 1; " + result("require.leak"), "undefined"},
		"the module function, by arguments.callee": {"const f = arguments.callee; f.leak = (f.leak || 0) + 1; f.prototype.leak = 1;",
			result("typeof f.leak + typeof f.prototype.leak + Object.isFrozen(f)"), "undefinedundefinedtrue"},
		"module and exports objects": {"module.leak = (module.leak || 0) + 1;",
			result("module.leak + ':' + module.id"), "1:fresh"},
		"a global holding a closure": {"",
			"const before = typeof keep === 'function' ? keep() : 'none'; let n = 0; globalThis.keep = () => ++n; " + result("before + keep()"), "none1"},
		"global var by indirect eval": {"",
			"let r; try { (0, eval)('var leaked = 1'); r = typeof leaked; } catch (e) { r = e.name; } " + result("r"), "TypeError"},
		"closure stashed on a built-in": {"",
			"const had = typeof JSON.stash; JSON.stash = () => 1; Math.stash = 2; " + result("had + typeof JSON.stash + Math.stash"), "undefinedundefinedundefined"},
		"iterator prototype": {"",
			"const p = Object.getPrototypeOf([][Symbol.iterator]()); p.leak = (p.leak || 0) + 1; " + result("p.leak"), "undefined"},
		"generator prototype": {"",
			"const p = Object.getPrototypeOf(function* () {}); p.leak = 1; " + result("p.leak"), "undefined"},
		"a tamed accessor": {"",
			"const g = Object.getOwnPropertyDescriptor(Error.prototype, 'name').get; g.leak = (g.leak || 0) + 1; " + result("g.leak"), "undefined"},
		"Error.prototype.name": {"",
			"let r; try { Error.prototype.name = 'X'; r = 'written'; } catch (e) { r = e.name; } " + result("r + new Error('m')"), "TypeErrorError: m"},
		"WeakMap keyed by a built-in": {"",
			"const w = new WeakMap(); const had = w.has(Object.prototype); w.set(Object.prototype, 1); " + result("had"), "false"},
		"Symbol.for":    {"", "const s = Symbol.for('k'); " + result("s.description + Symbol.keyFor(s)"), "kk"},
		"Date and Math": {"", "Date.prototype.leak = 1; Math.random = () => 4; " + result("new Date(0).leak + ':' + (Math.random() < 1)"), "undefined:true"},
	} {
		t.Run(name, func(t *testing.T) {
			got := freshCalls(t, c.module, c.body)
			assert.Equal(t, []string{c.want, c.want, c.want}, got)
		})
	}
}

// TestJSCodeThatAssignsInheritedPropertiesWorks: the built-ins are frozen,
// and assigning a property an object inherits from one still defines it
// on the object, as code written for unfrozen built-ins expects.
func TestJSCodeThatAssignsInheritedPropertiesWorks(t *testing.T) {
	for name, c := range map[string]struct{ body, want string }{
		"Error subclass sets this.name": {
			"class MyErr extends Error { constructor(m) { super(m); this.name = 'MyErr'; } } " + result("new MyErr('x') + (new MyErr('y') instanceof Error)"),
			"MyErr: xtrue"},
		"toString override": {"const o = {}; o.toString = () => 'O'; " + result("String(o) + o"), "OO"},
		"valueOf override":  {"const o = {}; o.valueOf = () => 41; " + result("o + 1"), "42"},
		"constructor of a prototype made by hand": {
			"function F() {} F.prototype = Object.create(Error.prototype); F.prototype.constructor = F; " + result("new F().constructor === F"),
			"true"},
		"e.message assigned": {"const e = new Error(); e.message = 'changed'; e.name = 'Mine'; " + result("e"), "Mine: changed"},
		"function toString":  {"function f() {} f.toString = () => 'f!'; " + result("'' + f"), "f!"},
		"strict assignment":  {"'use strict'; const o = Object.create(Array.prototype); o.constructor = 1; " + result("o.constructor"), "1"},
	} {
		t.Run(name, func(t *testing.T) {
			got := freshCalls(t, "", c.body)
			assert.Equal(t, []string{c.want, c.want, c.want}, got)
		})
	}
}

// TestJSAFileCannotCloseTheModuleEarly: a file that closes the module's
// function to declare at the top level (where a declaration would outlive
// the call) is a syntax error.
func TestJSAFileCannotCloseTheModuleEarly(t *testing.T) {
	_, err := hooks.CompileJS("escape", "}); let leaked = 1; (function () {", nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "closes the module's function early")
}
