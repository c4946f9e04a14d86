package hooks

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The attacks below are one line of JavaScript each that used to kill the
// process (a fatal out-of-memory error: goja asked Go for the whole size at
// once) or hold a call for seconds to forever (a built-in looping in Go
// over a length the hook set, which no interrupt reaches). Each runs in a
// child process of the test binary, under a short deadline: the call must
// come back within attackSlack of it, and the process must live.

const (
	attackDeadline = 300 * time.Millisecond
	// attackSlack is what a call may take past its deadline: the interrupt
	// is checked every 1024 elements, far more often than that (under the
	// race detector, raceSlowdown times it).
	attackSlack = 400 * time.Millisecond * raceSlowdown
)

// attack runs code as the body of a hook under attackDeadline and returns
// what the hook returned ("" when interrupted) and how long the call took.
// The hook catches what code throws and returns its name.
func attack(t *testing.T, code string) (string, time.Duration) {
	t.Helper()
	var diags diagnostics
	h := chaosJS(t, `exports.beforeToolExecute = () => {
		try { `+code+`; return { block: "returned" }; } catch (e) { return { block: e.name + ": " + e.message }; }
	};`, &diags)
	run := chaosRun(t, Host{}, &diags, h)
	ctx, cancel := context.WithTimeout(context.Background(), attackDeadline)
	defer cancel()
	start := time.Now()
	step, err := run.BeforeToolExecute(ctx, ToolCall{Name: "x"})
	took := time.Since(start)
	if err != nil {
		return "", took
	}
	return step.Reason, took
}

// TestJSOneStepAllocationsAreRefused: a built-in asked for more than
// MaxAlloc at once throws a RangeError the hook catches.
func TestJSOneStepAllocationsAreRefused(t *testing.T) {
	if !inChild(t) {
		return
	}
	chaos(t)
	for _, code := range []string{
		"new ArrayBuffer(2**40)",
		"new Float64Array(2**37)",
		"new Uint8Array({length: 2**40})",
		"new Float64Array(new Uint8Array(2**24))",
		"Uint8Array.from({length: 2**40})",
		"class Big extends Int32Array {}; new Big(2**40)",
		"new (new Uint8Array(1).constructor)(2**40)",
		"'ab'.repeat(2**29)",
		"'a'.padStart(2**30)",
		"'a'.padEnd(2**30, 'xy')",
		"new Array(2**22).join('x'.repeat(100))",
		"Array.from({length: 2**32 - 1})",
		"String.fromCharCode.apply(null, {length: 2**31})",
		"Reflect.apply(Math.max, null, {length: 2**31})",
		"Reflect.construct(Array, {length: 2**31})",
		"[].concat(new Array(2**32 - 1))",
		"new Array(2e7).fill(0)",
	} {
		t.Run(code, func(t *testing.T) {
			got, took := attack(t, code)
			assert.Contains(t, got, "RangeError: ")
			assert.Contains(t, got, "Loader.MaxAlloc")
			assert.Less(t, took, attackDeadline, "refused at once")
		})
	}
}

// TestJSNativeLoopsStopAtTheDeadline: a built-in that loops in Go over a
// length the hook set refuses a length past MaxAlloc/16 elements, and
// over a shorter one stops at the call's deadline.
func TestJSNativeLoopsStopAtTheDeadline(t *testing.T) {
	if !inChild(t) {
		return
	}
	chaos(t)
	huge := "{length: 2**53 - 1}"
	long := "{length: 2**22}" // within the bound: seconds of work in goja
	for _, code := range []string{
		"Array.prototype.indexOf.call(" + huge + ", 'x')",
		"Array.prototype.includes.call(" + huge + ", 'x')",
		"Array.prototype.lastIndexOf.call(" + huge + ", 'x')",
		"Array.prototype.reverse.call(" + huge + ")",
		"Array.prototype.fill.call(" + huge + ", 0)",
		"Array.prototype.copyWithin.call(" + huge + ", 0, 1)",
		"Array.prototype.splice.call(" + huge + ", 0, 1)",
		"Array.prototype.join.call(" + huge + ")",
		"Array.prototype.sort.call(" + huge + ")",
		"Array.prototype.forEach.call(" + huge + ", (x) => x)",
		"Array.prototype.indexOf.call(" + long + ", 'x')",
		"Array.prototype.fill.call(" + long + ", 0)",
		"Array.prototype.reverse.call(" + long + ")",
		"Array.prototype.sort.call(" + long + ")",
		"Array.prototype.join.call(" + long + ")",
		"Array.prototype.forEach.call(" + long + ", (x) => x)",
		"new Array(2**22).fill(0)",
		"[...Array.prototype.values.call({length: 2**40})]",
		"Array.from({[Symbol.iterator]() { return Array.prototype.values.call({length: 2**40}); }})",
	} {
		t.Run(code, func(t *testing.T) {
			got, took := attack(t, code)
			assert.Less(t, took, attackDeadline+attackSlack, "the call came back (%q)", got)
			if strings.Contains(code, huge) {
				assert.Contains(t, got, "RangeError: ", "a length past the bound is refused at once")
			} else if got != "" && got != "returned" {
				assert.Contains(t, got, "RangeError: ")
			}
		})
	}
}

// TestJSLongStringsAndTypedArraysAreBounded: a string or a typed array
// within MaxAlloc is one call away, and goja walks one in Go, making an
// object or a string per character or element, with no interrupt check:
// String.raw over a length the hook sets never returned, a typed array's
// join ran past 6 s, Array.from, spread, Object.keys and its kin, split,
// replace and match over a long string held the call a second or more.
// Each is now refused past MaxAlloc/16 (a RangeError), or stops at the
// deadline.
func TestJSLongStringsAndTypedArraysAreBounded(t *testing.T) {
	if !inChild(t) {
		return
	}
	chaos(t)
	long := "const s = 'x'.repeat(2**22 + 1); "  // past MaxAlloc/16 characters
	under := "const s = 'x'.repeat(2**22 - 1); " // within it
	getter := "{get length() { return this.n = (this.n || 0) + 1, this.n > 1 ? 2**53 - 1 : 1 }}"
	refused := []string{
		"String.raw({raw: {length: 2**53 - 1}})",
		long + "Array.from(s)",
		long + "Object.assign({}, s)",
		long + "Object.entries(s)",
		long + "Object.keys(s)",
		long + "Object.values(new String(s))",
		long + "Object.getOwnPropertyNames(s)",
		long + "Object.getOwnPropertyDescriptors(s)",
		long + "Object.freeze(new String(s))",
		long + "Reflect.ownKeys(new String(s))",
		long + "s.split('')",
		long + "s.split('x')",
		long + "s.split({toString: () => ''})",
		long + "Array.prototype.map.call(s, (c) => c)",
		"new Uint8Array(2**22 + 1).join('x'.repeat(9))",
		"new Uint8Array(2**22 + 1).indexOf(1)",
		"new Uint8Array(2**22 + 1).includes(1)",
		"new Uint8Array(2**22 + 1).lastIndexOf(1)",
		"new Uint8Array(2**22 + 1).sort()",
		"new Uint8Array(2**22 + 1).slice()",
		"new Uint8Array(2**22 + 1).reverse()",
		"new Uint8Array(2**22 + 1).fill(1)",
		"new Uint8Array(2**22 + 1).toSorted()",
		"new Uint8Array(2**22 + 1).set([1])",
	}
	stopped := []string{
		"String.raw({raw: {length: 2**22}})",
		"String.raw({raw: " + getter + "}, 1)",
		"Array.prototype.indexOf.call(" + getter + ", 'x')",
		"Array.from(" + getter + ")",
		"Math.max.apply(null, " + getter + ")",
		"[].concat(Object.assign(" + getter + ", {[Symbol.isConcatSpreadable]: true}))",
		under + "[...s]",
		under + "for (const c of s) {}",
		under + "Array.from(s)",
		under + "s.split('')",
		under + "s.replace(/x/g, 'y')",
		under + "s.replaceAll(/x/g, 'yy')",
		under + "s.split(/(?:)/)",
		under + "s.match(/./g)",
		under + "[...s.matchAll(/./g)]",
		under + "s.replace(/x/g, () => 'y')",
		under + "s.search(/y/)",
		"new Uint8Array(2**22).join()",
		"new Uint8Array(2**22).toString()",
		"new Uint8Array(2**22).toLocaleString()",
		"new Uint8Array(2**23).toLocaleString().length",
		"new Float64Array(2**21).fill(0.123456789).join()",
		under + "s.split('x')",
		"[...new Uint8Array(2**26)]",
	}
	for _, code := range append(refused, stopped...) {
		t.Run(code, func(t *testing.T) {
			got, took := attack(t, code)
			assert.Less(t, took, attackDeadline+attackSlack, "the call came back (%q)", got)
			if slices.Contains(refused, code) {
				// Refused at once, or, on a machine so loaded that making
				// the long string itself took the whole call, stopped at
				// the deadline (an interrupt reads as ""): bounded either
				// way, and the unbounded code ran for seconds.
				if got != "" || took < attackDeadline {
					assert.Contains(t, got, "RangeError: ")
				}
			} else if got != "" && got != "returned" {
				assert.Contains(t, got, "RangeError: ")
			}
		})
	}
}

// TestJSBoundsLeaveRealCodeAlone: what hooks really do with arrays,
// strings and buffers works as in any engine, under the bounds.
func TestJSBoundsLeaveRealCodeAlone(t *testing.T) {
	var diags diagnostics
	h := chaosJS(t, `exports.beforeToolExecute = () => {
		const a = Array.from({length: 100000}, (_, i) => i);
		const out = [a.indexOf(99999), a.includes(5), a.slice().reverse()[0], a.join("").length,
			[3, 1, 2].sort().join(), new Array(5).fill(7).join(""), "ab".repeat(3), "7".padStart(3, "0"),
			new Uint8Array([1, 2, 3]).map((x) => x * 2).join(), new Float64Array(new ArrayBuffer(16)).length,
			Math.max.apply(null, [1, 9, 3]), Reflect.construct(Date, [0]).getTime(), [..."héllo"].length,
			new Uint8Array(4) instanceof Uint8Array, new DataView(new ArrayBuffer(4)).getUint8(1), Array.prototype.indexOf.call("abc", "c")];
		return { block: out.join(" ") };
	};`, &diags)
	run := chaosRun(t, Host{}, &diags, h)
	step, err := run.BeforeToolExecute(context.Background(), ToolCall{Name: "x"})
	require.NoError(t, err)
	assert.Empty(t, diags.texts())
	assert.Equal(t, "99999 true 99999 488890 1,2,3 77777 ababab 007 2,4,6 2 9 0 5 true 0 2", step.Reason)

	// Strings, regular expressions and typed arrays, through the paths the
	// bounds changed: a typed array of 100,000 elements is joined in views.
	h = chaosJS(t, `exports.beforeToolExecute = () => {
		const text = "line one\nline two\nline three";
		const big = new Uint16Array(100000).map((_, i) => i % 1000);
		const manual = []; for (let i = 0; i < big.length; i++) manual.push(String(big[i]));
		function* gen() { yield 1; yield 2; }
		function args() { return Math.max.apply(null, arguments); }
		const out = [text.split("\n").length, text.split("\n", 2).join("|"), text.split(/\s+/).length, "a,b,,c".split(",").length,
			"abc".split("").join("-"), "abc".split().length, text.replace(/line/g, "L").length, text.replaceAll("line", "L").length,
			(text.match(/line/g) || []).length, [...text.matchAll(/l(i)ne/g)].map((m) => m[1]).join(""), text.search(/two/),
			"x-y".replace(/(\w)-(\w)/, "$2-$1"), Array.from("héllo").length, Array.from(new Set([1, 2, 2])).length,
			Array.from(gen()).join(), Array.from({length: 3}, (_, i) => i * 2).join(), Object.keys("abc").join(),
			Object.entries({a: 1}).join(), Object.assign({}, "ab", {c: 1})[1], Reflect.ownKeys(new String("ab")).length,
			String.raw`+"`a\\${1}b`"+`, String.raw({raw: ["x", "y"]}, 0), big.join() === manual.join(), big.join("") === manual.join(""),
			big.toString() === manual.join(), big.toLocaleString() === big.join(), new Uint8Array([3, 1, 2]).sort().join(),
			new Float32Array([1.5, 2.5]).indexOf(2.5), new Uint8Array(10).fill(1).includes(1), args(4, 8, 2),
			Object.freeze(new String("ab")).length, Object.isFrozen("ab")];
		return { block: out.join(" ") };
	};`, &diags)
	run = chaosRun(t, Host{}, &diags, h)
	step, err = run.BeforeToolExecute(context.Background(), ToolCall{Name: "x"})
	require.NoError(t, err)
	assert.Empty(t, diags.texts())
	assert.Equal(t, `3 line one|line two 6 4 a-b-c 1 19 19 3 iii 14 y-x 5 2 1,2 0,2,4 0,1,2 a,1 b 3 a\${1}b x0y true true true true 1,2,3 1 true 8 2 true`, step.Reason)
}
