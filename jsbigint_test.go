package hooks

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// BigInt arithmetic runs in math/big inside one goja instruction, with no
// interrupt and no size limit, and goja's compiler computes constant BigInt
// expressions while it compiles: 1n << (2n ** 40n) killed the process,
// 2n ** (2n ** 40n) never ended, at compile time already. A hook may not
// use BigInt at all (internal/jsrt/bigint.go).

// TestJSBigIntIsASyntaxErrorAtCompile: a BigInt literal anywhere in a
// hook's source is a SyntaxError naming the file, line and column, before
// goja compiles (and folds) it. In a child process: a miss kills it.
func TestJSBigIntIsASyntaxErrorAtCompile(t *testing.T) {
	if !inChild(t) {
		return
	}
	for _, c := range []struct{ source, at string }{
		{"exports.beforeToolExecute = () => {\n\treturn { block: String(1n << (2n ** 40n)) };\n};", "big:2:25"},
		{"const x = 2n ** (2n ** 40n);", "big:1:11"},
		{"// 1n in a comment is fine\nexports.x = `${0x1fn}`;", "big:2:16"},
		{"exports.x = { [10n]: 1 };", "big:1:16"},
		{"class A { static x = 1_000n }", "big:1:22"},
		{"exports.x = 1" + strings.Repeat("0", 1e6) + "n;", "big:1:13"}, // the lexer alone would take seconds
		{"exports.x = 0x" + strings.Repeat("f", 300) + "n;", "big:1:13"},
		{"exports.x = [...1" + strings.Repeat("0", 1e6) + "n];", "big:1:17"},
	} {
		start := len(c.source)
		if start > 60 {
			start = 60
		}
		t.Run(c.source[:start], func(t *testing.T) {
			_, err := CompileJS("big", c.source, nil)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.at+": SyntaxError: BigInt is not available in a hook")
		})
	}
	// Source that only looks like one compiles.
	for _, source := range []string{
		`exports.x = "1n" + 'abc' + 10 + 0x1f + 1e3 + 1_000 + .5;`,
		"exports.x = /1n/.test(`2n`) && `${1}n`;",
		"exports.x = \"" + strings.Repeat("7", 300) + "\";",
	} {
		_, err := CompileJS("ok", source, nil)
		assert.NoError(t, err, source)
	}
}

// TestJSBigIntIsALoadDiagnostic: Loader.Load reports a file with a BigInt
// literal as a load diagnostic naming the file and line; in the main file
// the hook then handles nothing, in a required file requiring it throws.
func TestJSBigIntIsALoadDiagnostic(t *testing.T) {
	if !inChild(t) {
		return
	}
	dir := t.TempDir()
	write := func(name, source string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(source), 0o600))
	}
	write("main/index.js", "exports.beforeToolExecute = () => ({ block: 'x' });\nconst big = 1n << (2n ** 40n);\n")
	write("lib/index.js", `exports.beforeToolExecute = () => { try { require("./big") } catch (e) { return { block: e.message } } };`)
	write("lib/big.js", "\n\nmodule.exports = 2n ** (2n ** 40n);\n")
	var diags diagnostics
	l := Loader{Dir: dir, Diagnostics: diags.add}

	h, err := l.Load("main")
	require.NoError(t, err)
	for _, p := range Points() {
		assert.False(t, h.(*jsHook).Handles(p), "%s handled", p)
	}
	require.Len(t, diags.texts(), 1)
	assert.Contains(t, diags.texts()[0], filepath.Join(dir, "main", "index.js")+":2:")
	assert.Contains(t, diags.texts()[0], "SyntaxError: BigInt is not available in a hook")

	h, err = l.Load("lib")
	require.NoError(t, err)
	require.Len(t, diags.texts(), 2)
	assert.Contains(t, diags.texts()[1], filepath.Join(dir, "lib", "big.js")+":3:")
	run := chaosRun(t, Host{}, &diags, h)
	step, err := run.BeforeToolExecute(context.Background(), ToolCall{Name: "x"})
	require.NoError(t, err)
	assert.Contains(t, step.Reason, "big.js:3:")
	assert.Contains(t, step.Reason, "BigInt is not available in a hook")
}

// TestJSBigIntAtRunTimeIsRefused: every way to a BigInt at run time (the
// global under another spelling, source compiled at run time, typed
// arrays and DataView methods that hold BigInts) throws an error the hook
// catches, at once; the same attacks that kill or hold the process.
func TestJSBigIntAtRunTimeIsRefused(t *testing.T) {
	if !inChild(t) {
		return
	}
	chaos(t)
	for _, code := range []string{
		`globalThis["Big" + "Int"](1)`,
		`BigInt("1")`,
		`new BigInt(1)`,
		`BigInt.asUintN(64, 1)`,
		`BigInt.asIntN.call(null, 8, 1)`,
		`BigInt.prototype.constructor(1)`,
		`Object.getPrototypeOf(Object(Symbol())).constructor.constructor("return 1n << (2n ** 40n)")()`,
		`Function("return 1n << (2n ** 40n)")()`,
		`new Function("a", "return a ** (2n ** 40n)")(2)`,
		`(function () {}).constructor("return String((1n << 20000000n) - 1n)")()`,
		`Object.getPrototypeOf(function* () {}).constructor("yield 2n ** (2n ** 40n)")().next()`,
		`Object.getPrototypeOf(async function () {}).constructor("return 1n << (2n ** 40n)")()`,
		`class F extends Function {}; new F("return 1n << (2n ** 40n)")()`,
		`eval("1n << (2n ** 40n)")`,
		`(0, eval)("2n ** (2n ** 40n)")`,
		`eval("eval('1n << (2n ** 40n)')")`,
		`eval("1" + "0".repeat(2e5) + "n")`,
		`new BigInt64Array(1)[0]`,
		`new BigUint64Array(8)`,
		`Uint8Array.from.call(BigInt64Array, [1])`,
		`new DataView(new ArrayBuffer(8)).getBigInt64(0)`,
		`new DataView(new ArrayBuffer(8)).getBigUint64(0)`,
		`new DataView(new ArrayBuffer(8)).setBigInt64(0, 1)`,
	} {
		t.Run(code, func(t *testing.T) {
			got, took := attack(t, code)
			assert.Regexp(t, `^(TypeError|SyntaxError): .*BigInt is not available in a hook`, got)
			assert.Less(t, took, attackDeadline, "refused at once")
		})
	}
}

// TestJSCodeCompiledAtRunTimeStillWorks: eval and the Function
// constructors, now checked, work as before (eval as an indirect eval).
func TestJSCodeCompiledAtRunTimeStillWorks(t *testing.T) {
	var diags diagnostics
	h := chaosJS(t, `exports.beforeToolExecute = () => {
		class F extends Function {}
		const gen = Object.getPrototypeOf(function* () {}).constructor;
		const out = [Function("a", "b", "return a + b")(1, 2), new Function("return this")() === globalThis,
			eval("1 + 2"), (0, eval)("typeof exports"), new F("return 7")(), new F("") instanceof F, new F("") instanceof Function,
			[...gen("a", "yield a; yield a * 2")(3)].join(), Function.prototype.constructor === Function, Function.name, Function.length,
			typeof BigInt, typeof BigInt64Array, eval(new String("s")) instanceof String, eval(5), "1n".length,
			// Each argument is converted once: what is checked is what compiles.
			Function({ toString: (() => { let n = 0; return () => n++ ? "return 1n << (2n ** 40n)" : "return 1" })() })()];
		return { block: out.join(" ") };
	};`, &diags)
	run := chaosRun(t, Host{}, &diags, h)
	step, err := run.BeforeToolExecute(context.Background(), ToolCall{Name: "x"})
	require.NoError(t, err)
	assert.Empty(t, diags.texts())
	assert.Equal(t, "3 true 3 undefined 7 true true 3,6 true Function 1 function function true 5 2 1", step.Reason)
}
