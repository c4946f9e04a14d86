package hooks_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rienda/hooks"
)

// leakHook is a hook that, given a secret, writes it through write (in
// which S is the secret); given none, it refuses with what read (an
// expression) finds.
func leakHook(module, write, read string) string {
	return module + `
exports.beforeToolExecute = function (ctx, call) {
	const S = call.arguments.secret;
	if (S) { try { ` + write + ` } catch (e) {} return; }
	let r; try { r = String(` + read + `); } catch (e) { r = "threw " + e.name; }
	return { block: "read:" + r };
};`
}

// leakRoutes are the ways one call could leave a value a later call of
// the same runtime, another run's, reads.
var leakRoutes = map[string]struct{ module, write, read string }{
	"Reflect.set on globalThis": {"", `Reflect.set(globalThis, "k", S);`, `globalThis.k`},
	"with globalThis":           {"", `with (globalThis) { k = S; }`, `typeof k === "undefined" ? "none" : k`},
	"Function body global":      {"", `Function("s", "k = s")(S);`, `Function("return typeof k === 'undefined' ? 'none' : k")()`},
	"direct eval var":           {"", `eval("var k = S; globalThis.k2 = S;");`, `typeof k2 === "undefined" ? "none" : k2`},
	"this at the module's top":  {"const top = this;", `top.k = S;`, `top.k`},
	"symbol-keyed global":       {"", `globalThis[Symbol.for("k")] = S;`, `globalThis[Symbol.for("k")]`},
	"index-keyed global":        {"", `globalThis[0] = S;`, `globalThis[0]`},
	"the Proxy prototype's target by Reflect.set": {"",
		`const p = Object.getPrototypeOf(globalThis); Reflect.set(p, "k", S, p); Reflect.set(p, "k3", S, Object.prototype);`,
		`Object.getPrototypeOf(globalThis).k + ({}).k3`},
	"__proto__ of globalThis":   {"", `globalThis.__proto__ = { k: S };`, `globalThis.k`},
	"setPrototypeOf globalThis": {"", `Object.setPrototypeOf(globalThis, { k: S });`, `globalThis.k`},
	"a Date prototype's time":   {"", `Date.prototype.setTime.call(Date.prototype, S.length);`, `Date.prototype.getTime.call(Date.prototype)`},
	"a Map prototype's entries": {"", `Map.prototype.set.call(Map.prototype, "k", S);`, `Map.prototype.get.call(Map.prototype, "k")`},
	"a Set prototype's entries": {"", `Set.prototype.add.call(Set.prototype, S);`, `[...Set.prototype.values.call(Set.prototype)]`},
	"a WeakMap prototype's entries": {"", `WeakMap.prototype.set.call(WeakMap.prototype, Object.prototype, S);`,
		`WeakMap.prototype.get.call(WeakMap.prototype, Object.prototype)`},
	"RegExp prototype lastIndex":               {"", `RegExp.prototype.compile.call(RegExp.prototype, S);`, `RegExp.prototype.source`},
	"RegExp legacy statics":                    {"", `/(.+)/.exec(S);`, `RegExp.$1 + RegExp.lastMatch + RegExp.input`},
	"Error.prepareStackTrace":                  {"", `Error.prepareStackTrace = () => S; Error.stackTraceLimit = S;`, `String(Error.prepareStackTrace) + Error.stackTraceLimit`},
	"an array prototype's length":              {"", `Array.prototype.push.call(Array.prototype, S);`, `Array.prototype[0]`},
	"a typed array's buffer":                   {"", `const b = Object.getPrototypeOf(Int8Array.prototype); b.constructor.prototype.set && 1;`, `"ok"`},
	"a frozen arguments object":                {"", `(function () { "use strict"; return arguments; })()[0] = S;`, `"ok"`},
	"String.prototype value":                   {"", `String.prototype.k = S;`, `"".k`},
	"a generator kept in a global":             {"", `globalThis.g = (function* () { yield S; })();`, `typeof g === "undefined" ? "none" : g.next().value`},
	"a Promise job from the write":             {"", `Promise.resolve().then(() => { globalThis.late = S; });`, `typeof late === "undefined" ? "none" : late`},
	"a getter on globalThis's prototype chain": {"", `Object.defineProperty(Object.prototype, "k", { get: () => S });`, `({}).k`},
	"require's cache":                          {"", `require.cache = { k: S };`, `require.cache && require.cache.k`},
	"ctx.memo":                                 {"", `ctx.memo("k", () => S);`, `ctx.memo("k", () => "fresh")`},
	"a member set on ctx":                      {"", `ctx.k = S; Object.getPrototypeOf(ctx).k = S;`, `ctx.k`},
	"the call argument's prototype":            {"", `Object.getPrototypeOf(call).k = S; Object.getPrototypeOf(call.arguments).k = S;`, `call.k + call.arguments.k`},
	"exports mutated at call time":             {"", `exports.k = S; module.exports.k2 = S; exports.beforeToolExecute.k3 = S;`, `exports.k + exports.k2 + exports.beforeToolExecute.k3`},
	"WeakRef":                                  {"", `globalThis.w = new WeakRef({ S });`, `typeof w === "undefined" ? "none" : w.deref().S`},
	"FinalizationRegistry":                     {"", `new FinalizationRegistry(() => { globalThis.late = S; }).register({}, 1);`, `typeof late === "undefined" ? "none" : late`},
	"an async function paused":                 {"", `(async () => { await null; await null; globalThis.late = S; })();`, `typeof late === "undefined" ? "none" : late`},
}

// TestJSAttackStateNeverCrossesRuns: one hook serves two runs (different
// RunIDs, different secrets); nothing the first run's call writes, by any
// route, reaches the second run's call in the reused runtime.
func TestJSAttackStateNeverCrossesRuns(t *testing.T) {
	for name, r := range leakRoutes {
		t.Run(name, func(t *testing.T) {
			var rec recorder
			h, err := hooks.CompileJS("state", leakHook(r.module, r.write, r.read), rec.diagnose)
			require.NoError(t, err)
			chain, err := hooks.NewChain([]hooks.Hook{h}, hooks.WithDiagnostics(rec.diagnose))
			require.NoError(t, err)
			read := func(runID, secret string) string {
				run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{RunID: runID})
				require.NoError(t, err)
				args := map[string]any{}
				if secret != "" {
					args["secret"] = secret
				}
				step, err := run.BeforeToolExecute(bg, hooks.ToolCall{Name: "x", Arguments: args})
				require.NoError(t, err)
				return step.Reason
			}
			before := read("r0", "")
			for i := range 3 {
				read("r1", "secret-one")
				after := read("r2", "")
				assert.NotContains(t, after, "secret-one", "call %d", i)
				assert.Equal(t, before, after, "the second run reads what a fresh runtime reads")
			}
		})
	}
}

// refusalShapes are returns of beforeToolExecute that say refuse in a way
// the host must not read as an allow.
var refusalShapes = map[string]string{
	"inherited allow":                    `return Object.create({ allow: false, reason: "inherited" });`,
	"class getter allow":                 `class Deny { get allow() { return false; } } return new Deny();`,
	"non-enumerable allow":               `return Object.defineProperty({}, "allow", { value: false });`,
	"non-enumerable block":               `return Object.defineProperty({}, "block", { value: "no" });`,
	"Proxy get only":                     `return new Proxy({}, { get: (t, k) => k === "allow" ? false : undefined });`,
	"toJSON hiding allow":                `return { allow: false, toJSON() { return {}; } };`,
	"toJSON turning allow":               `return { allow: false, toJSON() { return { allow: true }; } };`,
	"getter false then true":             `let n = 0; return { get allow() { return n++ === 0 ? false : true; } };`,
	"getter true then false":             `let n = 0; return { get allow() { return n++ === 0 ? true : false; } };`,
	"boxed false":                        `return { allow: new Boolean(false) };`,
	"zero":                               `return { allow: 0 };`,
	"empty block":                        `return { block: "" };`,
	"block beside allow true":            `return { allow: true, block: "no" };`,
	"symbol key beside allow false":      `return { [Symbol("s")]: 1, allow: false };`,
	"frozen refusal":                     `return Object.freeze({ allow: false });`,
	"reason of 300 KB":                   `return { allow: false, reason: "x".repeat(300 << 10) };`,
	"arguments 100 MB beside refusal":    `const s = "x".repeat(25 << 20); return { allow: false, arguments: { a: s, b: s, c: s, d: s } };`,
	"deep arguments beside refusal":      `let a = {}; for (let i = 0; i < 5000; i++) a = { a }; return { allow: false, arguments: a };`,
	"allow NaN":                          `return { allow: NaN };`,
	"allow a string":                     `return { allow: "no" };`,
	"a thenable resolving to a refusal":  `return { then(resolve) { resolve({ allow: false, reason: "thenable" }); } };`,
	"a thenable resolving to a thenable": `return { then(resolve) { resolve({ then(r) { r({ block: "inner" }); } }); } };`,
	"an async thenable":                  `return (async () => ({ then(resolve) { resolve({ allow: false }); } }))();`,
	"allow Infinity":                     `return { allow: Infinity };`,
	"allow a symbol":                     `return { allow: Symbol("no") };`,
	"block a symbol":                     `return { block: Symbol("no") };`,
	"a function with allow false":        `return Object.assign(() => {}, { allow: false });`,
	"an array with allow false":          `return Object.assign([], { allow: false });`,
	"a Proxy whose ownKeys throws":       `return new Proxy({ allow: false }, { ownKeys() { throw new Error("x"); } });`,
}

// TestJSAttackRefusalsStayRefusals: each shape refuses, or at worst is the
// hook's error; none is read as an allow.
func TestJSAttackRefusalsStayRefusals(t *testing.T) {
	for name, body := range refusalShapes {
		t.Run(name, func(t *testing.T) {
			var rec recorder
			h, err := hooks.CompileJS("deny", "exports.beforeToolExecute = (ctx, call) => { "+body+" };", rec.diagnose)
			require.NoError(t, err)
			run := start(t, &rec, h)
			step, err := run.BeforeToolExecute(bg, hooks.ToolCall{Name: "x"})
			require.NoError(t, err)
			assert.True(t, step.Refused, "read as an allow; diagnostics: %v", rec.diagnostics())
		})
	}
}

// TestJSAttackLoadedModulesStartOverEachCall: a hook loaded from a folder
// requires a JavaScript and a JSON file; what one run's call writes on
// their exports, or on require, is not what the next run's call finds,
// with parallel calls taking runtimes from the pool.
func TestJSAttackLoadedModulesStartOverEachCall(t *testing.T) {
	dir := t.TempDir()
	hook := filepath.Join(dir, "mods")
	require.NoError(t, os.MkdirAll(hook, 0o755))
	write := func(name, text string) {
		require.NoError(t, os.WriteFile(filepath.Join(hook, name), []byte(text), 0o644))
	}
	write("lib.js", `let n = 0; module.exports = { seen: [], bump() { return ++n; } };`)
	write("data.json", `{"list": [1], "k": "fresh"}`)
	write("index.js", `const lib = require("./lib"), data = require("./data.json");
exports.beforeToolExecute = (ctx, call) => {
	const S = call.arguments.secret;
	const got = lib.seen.join() + "|" + lib.bump() + "|" + data.k + "|" + data.list.length + "|" + (require("./lib") === lib);
	if (S) { lib.seen.push(S); data.k = S; data.list.push(S); try { require.k = S; } catch (e) {} }
	return { block: got };
};`)
	var rec recorder
	l := hooks.Loader{Dir: dir, Diagnostics: rec.diagnose}
	h, err := l.Load("mods")
	require.NoError(t, err)
	chain, err := hooks.NewChain([]hooks.Hook{h}, hooks.WithDiagnostics(rec.diagnose))
	require.NoError(t, err)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{RunID: fmt.Sprint("r", i)})
			if !assert.NoError(t, err) {
				return
			}
			for j := range 4 {
				step, err := run.BeforeToolExecute(bg, hooks.ToolCall{Name: "x", Arguments: map[string]any{"secret": fmt.Sprint("s", i, j)}})
				if assert.NoError(t, err) {
					assert.Equal(t, "|1|fresh|1|true", step.Reason)
				}
			}
		}()
	}
	wg.Wait()
	assert.Empty(t, rec.diagnostics())
}
