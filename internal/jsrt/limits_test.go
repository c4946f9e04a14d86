package jsrt

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
	"weak"

	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// attackEnv names the attack a child process of the test binary runs.
const attackEnv = "JSRT_LIMITS_ATTACK"

// attack is a program that, in a runtime without the bounds, recurses in
// Go until the Go stack overflows, a fatal error that kills the process:
// some without end, the others once nested deep enough (a million levels
// are a few lines); here they nest three times past the bounds. In a
// runtime of New each must throw a RangeError the program can catch.
type attack struct {
	name string
	code string // a function body, run inside a try
	want string // the caught error's message contains this
}

// deep builds a nested value 6,000 levels deep (three times MaxNesting),
// with inner, the innermost, and wrap, which nests one value in another.
const deep = `function deep(inner, wrap, n = 6000) { let v = inner; for (let i = 0; i < n; i++) v = wrap(v); return v }
const deepArray = () => deep([], (v) => [v]);
const deepObject = () => deep({}, (v) => ({a: v}));`

var attacks = []attack{
	// Conversions to a primitive (limits_primitive.go).
	{"String of nested arrays", "String(deepArray())", "in a conversion to a primitive"},
	{"join of nested arrays", "deepArray().join()", "in a conversion to a primitive"},
	{"template of nested arrays", "`${deepArray()}`", "in a conversion to a primitive"},
	{"concatenation of nested arrays", `deepArray() + ""`, "in a conversion to a primitive"},
	{"comparison of nested arrays", `deepArray() == "x"`, "in a conversion to a primitive"},
	{"error whose message is an error", `String(deep(new Error("x"), (m) => { const e = new Error(); e.message = m; return e }))`,
		"in a conversion to a primitive"},
	{"error that is its own message", `const e = new Error(); e.message = e; String(e)`, "in a conversion to a primitive"},
	{"RegExp-like whose source is one", `String(deep(/x/, (s) => Object.defineProperty(Object.create(RegExp.prototype), "source", {value: s})))`,
		"in a conversion to a primitive"},
	{"built-in method as its own toString", `String({toString: String.prototype.trim})`, "in a conversion to a primitive"},
	{"built-in method as its own valueOf", `({valueOf: "".trim, toString: "".trim}) * 2`, "in a conversion to a primitive"},
	// Arrays (limits_array.go).
	{"toLocaleString of nested arrays", "deepArray().toLocaleString()", "in Array.prototype.toLocaleString"},
	{"flat(Infinity) of nested arrays", "deepArray().flat(Infinity)", "in Array.prototype.flat"},
	{"flat(1e9) of nested arrays", "deepArray().flat(1e9)", "in Array.prototype.flat"},
	// JSON (limits_json.go).
	{"JSON.stringify of nested arrays", "JSON.stringify(deepArray())", "in JSON.stringify"},
	{"JSON.stringify of nested objects", "JSON.stringify(deepObject())", "in JSON.stringify"},
	{"JSON.stringify with a replacer function", "JSON.stringify(deepObject(), (k, v) => v)", "in JSON.stringify"},
	{"JSON.stringify with a replacer array", `JSON.stringify(deepObject(), ["a"])`, "in JSON.stringify"},
	{"JSON.stringify with indentation", "JSON.stringify(deepArray(), null, 1)", "in JSON.stringify"},
	{"JSON.stringify of endless toJSON", "const o = {toJSON: () => ({o})}; JSON.stringify(o)", "in JSON.stringify"},
	{"JSON.stringify of endless getters", "const mk = () => ({get a() { return mk() }}); JSON.stringify(mk())", "in JSON.stringify"},
	{"JSON.parse of nested text", `JSON.parse("[".repeat(6000) + "]".repeat(6000))`, "in JSON.parse"},
	{"JSON.parse of a million levels", `JSON.parse("[".repeat(1e6) + "]".repeat(1e6))`, "in JSON.parse"},
	{"JSON.parse of nested text in objects", `JSON.parse('{"a":'.repeat(6000) + "1" + "}".repeat(6000))`, "in JSON.parse"},
	{"JSON.parse with a reviver that attaches a deep value", `const d = deepArray();
		JSON.parse("[0, 0]", function (k, v) { if (k === "0") this[1] = d; return v })`, "in JSON.parse"},
	// Generators (limits_generator.go).
	{"generator delegating to itself", "function* g() { yield* g() } g().next()", "in Generator.prototype.next"},
	{"deep recursive generator", "function* walk(n) { if (n) yield* walk(n - 1); else yield n } [...walk(6000)]",
		"in Generator.prototype.next"},
	{"generator delegating, started by next", "function* g() { yield* g() } const it = g(); it.next(); it.next()",
		"in Generator.prototype.next"},
	// Chains (limits_chain.go).
	{"bound function chain", "let f = function () {}; for (let i = 0; i < 1e5; i++) { f = f.bind(null); delete f.name } f()",
		"Maximum chain length exceeded (16) in Function.prototype.bind"},
	{"Proxy chain through targets", "let p = {}; for (let i = 0; i < 1e5; i++) p = new Proxy(p, {}); p.x",
		"Maximum chain length exceeded (16) in Proxy"},
	{"Proxy chain through handlers", "let h = {}; for (let i = 0; i < 1e5; i++) h = new Proxy({}, h); new Proxy({}, h).x",
		"Maximum chain length exceeded (16) in Proxy"},
	{"revocable Proxy chain", "let p = {}; for (let i = 0; i < 1e5; i++) p = Proxy.revocable(p, {}).proxy; p.x",
		"Maximum chain length exceeded (16) in Proxy"},
	{"chain of Proxies and bound functions", "let f = function () {}; for (let i = 0; i < 1e5; i++) f = new Proxy(f, {}).bind(null); f()",
		"Maximum chain length exceeded (16) in"},
	// The count goes back down when a RangeError unwinds it.
	{"count restored after a throw", `for (let i = 0; i < 3; i++) { try { String(deepArray()) } catch (e) {} }
		throw new RangeError("still works: " + JSON.stringify(deep([], (v) => [v], 1500)).length)`, "still works: 3002"},
}

// TestRecursionIsBounded runs each attack in a child process of the test
// binary (re-run with attackEnv naming the attack), so that an attack the
// bounds miss kills the child, not the tests: the child must exit normally,
// having caught the RangeError.
func TestRecursionIsBounded(t *testing.T) {
	if name := os.Getenv(attackEnv); name != "" {
		runAttack(t, name)
		return
	}
	for _, a := range attacks {
		t.Run(a.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestRecursionIsBounded$", "-test.count=1")
			cmd.Env = append(os.Environ(), attackEnv+"="+a.name)
			out, err := cmd.CombinedOutput()
			require.NoError(t, ctx.Err(), "the child ran out of time")
			assert.NoError(t, err, "the child died: %s", tail(string(out), 2000))
			assert.Contains(t, string(out), "caught RangeError: ")
			assert.Contains(t, string(out), a.want)
		})
	}
}

// runAttack is the child's part: it runs the attack name in a runtime of
// New and prints the error it caught. It lowers the Go stack's limit, so
// that an attack the bounds miss dies in a second rather than after
// growing a 1 GB stack.
func runAttack(t *testing.T, name string) {
	debug.SetMaxStack(256 << 20)
	for _, a := range attacks {
		if a.name != name {
			continue
		}
		v, err := New(Limits{}).RunString(deep + "\n(function () { try {\n" + a.code + "\n} catch (e) {\n" +
			`return (e instanceof RangeError ? "caught RangeError: " : "caught another error: ") + e.message` +
			"\n} return 'no error' })()")
		require.NoError(t, err)
		fmt.Println(v.String())
		return
	}
	t.Fatalf("no attack %q", name)
}

// tail is the end of s, at most n bytes.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

// run runs code in a new runtime and returns its value, exported.
func run(t *testing.T, code string) any {
	t.Helper()
	return runIn(t, New(Limits{}), code)
}

func runIn(t *testing.T, rt *goja.Runtime, code string) any {
	t.Helper()
	v, err := rt.RunString(code)
	require.NoError(t, err)
	return v.Export()
}

// sameAsGoja runs code in a runtime of New and in one without the bounds,
// and checks that both give the same value; it returns that value.
func sameAsGoja(t *testing.T, code string) any {
	t.Helper()
	got := run(t, code)
	assert.Equal(t, runIn(t, unbounded(), code), got, "the same as goja's own built-ins")
	return got
}

func TestDeepButSaneValuesStillWork(t *testing.T) {
	sane := `function deep(inner, wrap, n) { let v = inner; for (let i = 0; i < n; i++) v = wrap(v); return v }`
	for _, c := range []struct {
		name, code string
		want       any
	}{
		{"JSON of depth 1000, both ways", `const o = deep(1, (v) => ({a: [v]}), 500);
			const s = JSON.stringify(o); JSON.stringify(JSON.parse(s)) === s && s.length`, int64(4001)},
		{"JSON.stringify of depth 1000 with a replacer", `JSON.stringify(deep(1, (v) => [v], 1000), (k, v) => v).length`, int64(2001)},
		{"JSON.stringify of depth 1000 with indentation", `JSON.stringify(deep(1, (v) => [v], 1000), null, 1).length > 1000`, true},
		{"JSON.parse of depth 1000 with a reviver", `JSON.stringify(JSON.parse(JSON.stringify(deep(1, (v) => [v], 1000)),
			(k, v) => typeof v === "number" ? v + 1 : v)).length`, int64(2001)},
		{"String of an array nested 1000 deep", `String(deep(7, (v) => [v], 1000))`, "7"},
		{"toLocaleString of an array nested 1000 deep", `deep(7, (v) => [v], 1000).toLocaleString()`, "7"},
		{"flat(Infinity) of an array nested 1000 deep", `deep(7, (v) => [v, 1], 1000).flat(Infinity).length`, int64(1001)},
		{"join of 10,000 elements", `Array.from({length: 10000}, (_, i) => i).join().length`, int64(48889)},
		{"String of 10,000 elements", `String(Array.from({length: 10000}, (_, i) => [i])).length`, int64(48889)},
		{"error chain 1000 deep", `String(deep(new Error("x"), (m) => { const e = new Error(); e.message = m; return e }, 1000)).length`,
			int64(7*1000 + 8)},
		{"generator delegating 1000 deep", `function* walk(n) { if (n) yield* walk(n - 1); else yield n } [...walk(1000)][0]`, int64(0)},
		{"bound function of a bound function", `function f(a, b, c) { return [this.x, a, b, c].join() }
			f.bind({x: 1}, 2).bind(null, 3).bind(null, 4)()`, "1,2,3,4"},
		{"Proxy of a Proxy", `let p = {x: 1}; for (let i = 0; i < 10; i++) p = new Proxy(p, {}); p.x`, int64(1)},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, run(t, sane+"\n"+c.code))
		})
	}
}

func TestWrappedBuiltinsKeepTheirShape(t *testing.T) {
	got := sameAsGoja(t, `const d = (o, k) => { const p = Object.getOwnPropertyDescriptor(o, k);
			return [typeof p.value, p.value.name, p.value.length, p.writable, p.enumerable, p.configurable, String(p.value)].join() }
		const gen = Object.getPrototypeOf(function* () {}).prototype;
		[d(Array.prototype, "toLocaleString"), d(Array.prototype, "flat"), d(JSON, "stringify"), d(JSON, "parse"),
		 d(Function.prototype, "bind"), d(Proxy, "revocable"), d(gen, "next"), d(gen, "return"), d(gen, "throw"),
		 d(globalThis, "Proxy").split(",").slice(0, 6).join(), Object.getOwnPropertyNames(globalThis).join()]`)
	assert.Contains(t, got, "function,flat,0,true,false,true,function flat() { [native code] }")

	got = sameAsGoja(t, `[typeof Proxy, Proxy.name, Proxy.length, Proxy.prototype, "prototype" in Proxy,
		(() => { try { Proxy({}, {}) } catch (e) { return String(e) } })(),
		new Proxy({a: 1}, {}).a, new Proxy({}, {get: () => 2}).a, Proxy.revocable({b: 3}, {}).proxy.b,
		(() => { const r = Proxy.revocable({}, {}); r.revoke(); try { r.proxy.x } catch (e) { return e.name } })(),
		Reflect.construct(Proxy, [{c: 4}, {}]).c, (() => { try { class P extends Proxy {} } catch (e) { return e.name } })()]`)
	assert.Equal(t, []any{"function", "Proxy", int64(2), nil, false, "TypeError: Constructor Proxy requires 'new'",
		int64(1), int64(2), int64(3), "TypeError", int64(4), "TypeError"}, got)

	// The one addition: Object.prototype has a Symbol.toPrimitive (limits_primitive.go).
	assert.Equal(t, "function,[Symbol.toPrimitive],1,true,false,true,function [Symbol.toPrimitive]() { [native code] }",
		run(t, `const p = Object.getOwnPropertyDescriptor(Object.prototype, Symbol.toPrimitive);
			[typeof p.value, p.value.name, p.value.length, p.writable, p.enumerable, p.configurable, String(p.value)].join()`))
}

func TestConversionsKeepTheirMeaning(t *testing.T) {
	got := sameAsGoja(t, `const log = [];
		const o = {valueOf() { log.push("valueOf"); return 1 }, toString() { log.push("toString"); return "s" }};
		const r = [o + 1, String(o), o * 2, `+"`${o}`"+`, o == 1, {[o]: 1}.s, o < 2, [o].join()];
		const noValue = {valueOf() { return {} }, toString() { return "t" }};
		const none = {valueOf: () => ({}), toString: () => ({})};
		const own = {[Symbol.toPrimitive]: (hint) => hint};
		const err = new TypeError("m"); err.name = {toString: () => "N"};
		[...r, log.join(), noValue + "", (() => { try { return none + "" } catch (e) { return e.name } })(),
		 own + "", String(own), String(+own), +new Date(5), String(new Date(0)) === new Date(0).toString(), String([1, [2, [3, null]]]),
		 [] + {}, String(err), String(/a/g), Object.create(null) instanceof Object, Symbol.toPrimitive in Object.create(null),
		 (() => { try { return Object.create(null) + "" } catch (e) { return e.name } })(),
		 (() => { try { return {toString() { throw new Error("mine") }} + "" } catch (e) { return e.message } })(),
		 (() => { try { return {toString: class {}} + "" } catch (e) { return e.name } })(),
		 {toString: Object.prototype.toString.bind([])} + "", {valueOf: new Proxy(() => 3, {})} * 2]`)
	assert.Equal(t, []any{int64(2), "s", int64(2), "s", true, int64(1), true, "s",
		"valueOf,toString,valueOf,toString,valueOf,toString,valueOf,toString", "t", "TypeError", "default", "string", "NaN",
		int64(5), true, "1,2,3,", "[object Object]", "N: m", "/a/g", false, false, "TypeError", "mine", "TypeError", "[object Array]", int64(6)}, got)
}

func TestJSONKeepsItsMeaning(t *testing.T) {
	got := sameAsGoja(t, `const o = {b: 1, a: [1, {c: 2, d: 3}], "1": "one", u: undefined, f() {}, n: null, s: new String("x"), num: new Number(2)};
		const seen = [];
		[JSON.stringify(o), JSON.stringify(o, ["a", "c", 1, "b", "a", new String("n"), {}, true]), JSON.stringify(o, null, "--"),
		 JSON.stringify(o, function (k, v) { seen.push(k + ":" + (this === o || k === "")); return typeof v === "number" ? v * 10 : v }),
		 seen.join(), JSON.stringify(undefined), JSON.stringify(() => 1), JSON.stringify("a\u2028"),
		 JSON.stringify({toJSON: (k) => "key:" + k}), JSON.stringify({x: {toJSON: (k) => "key:" + k}}),
		 JSON.stringify([new Date(0)]), JSON.stringify({d: new Date(0)}, ["d"]), JSON.stringify(Object.create({i: 1}, {o: {value: 2, enumerable: true}}), ["i", "o"]),
		 JSON.stringify([[1, {a: 2, b: [3]}]], ["a"], 1), JSON.stringify(new Proxy([1, {a: 2}], {}), ["a"]),
		 JSON.stringify({get g() { return {h: 1} }}, ["g", "h"]),
		 (() => { const c = {}; c.c = c; try { JSON.stringify(c) } catch (e) { return e.name + ": " + e.message } })(),
		 (() => { const c = {a: {}}; c.a.c = c; try { JSON.stringify(c, ["a", "c"]) } catch (e) { return e.name + ": " + e.message } })(),
		 (() => { try { JSON.stringify({x: 1n}) } catch (e) { return e.name } })(),
		 JSON.stringify(JSON.parse('{"a": [1, {"b": 2}], "c": 3}', (k, v) => k === "b" ? undefined : typeof v === "number" ? v + 1 : v)),
		 JSON.parse("[1, 2]", function (k, v) { return Array.isArray(v) ? v.length : v }),
		 JSON.stringify(JSON.parse('{"a": 1, "b": 2}', function (k, v) { if (k === "a") Object.freeze(this); return k === "b" ? undefined : v })),
		 (() => { try { JSON.parse("[1,") } catch (e) { return e.name } })(), JSON.parse("1", 5),
		 (() => { try { JSON.parse("1", null) } catch (e) { return e.name } })(),
		 JSON.parse({toString: () => '"t"'}), JSON.parse(' {"x": "[{\\"["} ').x, JSON.parse('"\\u005b"')]`)
	assert.Equal(t, []any{
		`{"1":"one","b":1,"a":[1,{"c":2,"d":3}],"n":null,"s":"x","num":2}`,
		`{"a":[1,{"c":2}],"1":"one","b":1,"n":null}`,
	}, got.([]any)[:2])
	assert.Len(t, got, 28)
}

func TestFlatKeepsItsMeaning(t *testing.T) {
	got := sameAsGoja(t, `const a = [1, [2, [3, [4]]], , 5];
		[a.flat(), a.flat(0), a.flat(2), a.flat(Infinity), a.flat(-1), a.flat(undefined), a.flat("2"),
		 a.flat({valueOf: () => 1}), [].flat.call({length: 2, 0: [1], 1: 2}, 1), new Proxy([[1], [[2]]], {}).flat(Infinity)].map(JSON.stringify)`)
	assert.Equal(t, []any{"[1,2,[3,[4]],5]", "[1,[2,[3,[4]]],5]", "[1,2,3,[4],5]", "[1,2,3,4,5]",
		"[1,[2,[3,[4]]],5]", "[1,[2,[3,[4]]],5]", "[1,2,3,[4],5]", "[1,2,[3,[4]],5]", "[1,2]", "[1,2]"}, got)
}

func TestChainsKeepTheirMeaning(t *testing.T) {
	got := sameAsGoja(t, `function F(a, b) { this.s = a + b } F.prototype.k = 1;
		const B = F.bind(null, "x").bind(null, "y");
		const b = new B(); let deep = F; for (let i = 0; i < 15; i++) deep = deep.bind(null);
		const P = new Proxy(F, {}); const p = new P("p", "q");
		[B.name, B.length, b.s, b instanceof F, b instanceof B, b.k, typeof deep, new Proxy(new Proxy({v: 1}, {}), {}).v, p.s]`)
	assert.Equal(t, []any{"bound bound F", int64(0), "xy", true, true, int64(1), "function", int64(1), "pq"}, got)
	assert.Equal(t, "RangeError: Maximum chain length exceeded (16) in Function.prototype.bind",
		run(t, `let f = function () {}; for (let i = 0; i < 15; i++) f = f.bind(null); f.bind(null); try { f.bind(null).bind(null) } catch (e) { String(e) }`))
}

func TestABoundRuntimeIsCollected(t *testing.T) {
	rt := New(Limits{})
	runIn(t, rt, `globalThis.kept = [function () {}.bind(null).bind(null), new Proxy(new Proxy({}, {}), {})]; 1`)
	gone := weak.Make(rt)
	rt = nil
	for i := 0; i < 10 && gone.Value() != nil; i++ {
		runtime.GC()
	}
	assert.Nil(t, gone.Value(), "nothing keeps a runtime alive once dropped (the chains' cleanups do not)")
}

func TestGeneratorsKeepTheirMeaning(t *testing.T) {
	got := sameAsGoja(t, `function* inner() { try { const x = yield 1; yield x * 2 } finally { log.push("inner done") } }
		function* outer() { const r = yield* inner(); yield 3 }
		const log = [];
		const it = outer(); const a = [it.next().value, it.next(5).value, it.return(9).value, it.next().done];
		const t = outer(); t.next();
		const thrown = (() => { try { t.throw(new Error("boom")) } catch (e) { return e.message } })();
		[...a, thrown, log.join(), [...outer()].join(), Object.prototype.toString.call(outer())]`)
	assert.Equal(t, []any{int64(1), int64(10), int64(9), true, "boom", "inner done,inner done", "1,NaN,3",
		"[object Generator]"}, got)
}

// benchHook is a small guard hook, as a hook runtime evaluates it.
const benchHook = `exports.beforeToolExecute = (ctx, call) => {
	if (call.name === "shell" && String(call.arguments.command).includes("rm -rf")) return { allow: false, reason: "no" }
}`

// unbounded is New without boundRecursion: what a runtime cost before.
func unbounded() *goja.Runtime {
	rt := goja.New()
	rt.SetMaxCallStackSize(MaxCallStack)
	return rt
}

func bounded() *goja.Runtime { return New(Limits{}) }

// BenchmarkNewRuntime is the cost of making a hook runtime and evaluating
// a small module in it, without and with the bounds, side by side;
// "locked" adds Lockdown, paid once per runtime a hook keeps.
func BenchmarkNewRuntime(b *testing.B) {
	p, err := CompileSource("bench.js", benchHook)
	require.NoError(b, err)
	for _, c := range []struct {
		name string
		make func() *goja.Runtime
		lock bool
	}{
		{"unbounded", unbounded, false},
		{"bounded", bounded, false},
		{"bounded-locked", bounded, true},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				rt := c.make()
				if c.lock {
					if err := Lockdown(rt); err != nil {
						b.Fatal(err)
					}
				}
				if _, err := p.Evaluate(context.Background(), rt); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestParseJSFindsEveryBigIntLiteral: a BigInt literal in any syntactic
// position is found (the AST is walked by reflection), at its own line and
// column; numbers, strings and names that only look like one are not.
func TestParseJSFindsEveryBigIntLiteral(t *testing.T) {
	for _, code := range []string{
		"x = 1n", "f(1n)", "x = [1n]", "x = {a: 1n}", "x = {[1n]: 1}", "x = `${1n}`", "t`${1n}`",
		"function f(a = 1n) {}", "const {a = 1n} = {}", "const [b = 1n] = []", "class A { x = 1n }",
		"class A { static { 1n } }", "class A { [1n]() {} }", "x = () => 1n", "async function f() { await 1n }",
		"function* g() { yield 1n }", "for (const i of [1n]) {}", "switch (x) { case 1n: }", "label: { 1n }",
		"try {} catch { 1n } finally {}", "x = a ? 1n : 2", "x = -1n", "x = typeof 1n", "x = (1, 1n)",
		"x = a?.[1n]", "new A(1n)", "x = 0x1fn", "x = 0b1n", "x = 0o7n", "x = 1_000n", "if (a) 1n; else 2",
		"with (a) { 1n }", "do { 1n } while (0)", "x = {get a() { return 1n }}", "x ??= 1n", "throw 1n",
	} {
		_, err := ParseJS("f.js", "var a, x, t, A;\n"+code)
		var list parser.ErrorList
		if assert.ErrorAs(t, err, &list, code) {
			assert.Contains(t, list[0].Message, "BigInt is not available in a hook", code)
			assert.Equal(t, 2, list[0].Position.Line, code)
			if col := list[0].Position.Column; assert.LessOrEqual(t, col, len(code), code) {
				assert.Contains(t, "0123456789", code[col-1:col], "the column is the literal's: %s", code)
			}
		}
	}
	for _, code := range []string{`x = "1n"`, "x = /1n/", "x = 1 + n", "x = 1e5", "x = .5", "var n1n", "x = `1n`", "// 1n\n/* 2n */"} {
		_, err := ParseJS("f.js", code)
		assert.NoError(t, err, code)
	}
}
