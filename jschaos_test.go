package hooks

import (
	"context"
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
	// is checked every 1024 elements, far more often than that.
	attackSlack = 400 * time.Millisecond
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
}
