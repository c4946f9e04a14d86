package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A key of a returned object literal that is no field of the point's
// return shape is a problem, with the field meant: at run time it is
// ignored and {Allow: false} allows the call.
func TestLintJSReturnedKeyThatIsNoField(t *testing.T) {
	r := hookcheck(t, "", "lint", "testdata/jshooks/typo")
	assert.Equal(t, 1, r.code, r.stdout+r.stderr)
	file := "testdata/jshooks/typo/index.js"
	for _, want := range []string{
		file + `:2:47: export beforeToolExecute returns "Allow", which is not a field: it is ignored (did you mean "allow"? names match exactly); the fields are allow, reason, block, arguments, result, state`,
		file + `:6:14: export afterToolExecute returns "txt", which is not a field: it is ignored (did you mean "text"? names match exactly)`,
		file + `:9:68: export afterToolExecute returns "iserror", which is not a field: it is ignored (did you mean "isError"? names match exactly)`,
		file + `:13:19: export beforeModelRequest returns "end.outptu", which is not a field: it is ignored (did you mean "output"? names match exactly); the fields are output`,
		file + `:21:68: export afterModelResponse returns "continu", which is not a field: it is ignored (did you mean "continue"? names match exactly)`,
		file + `:24:17: export beforeRun returns "State", which is not a field: it is ignored (did you mean "state"? names match exactly); the fields are state`,
	} {
		assert.Equal(t, 1, strings.Count(r.stdout, want), "once: %s\n%s", want, r.stdout)
	}
	assert.NotContains(t, r.stdout, "whatever", "a nested function's return is its own")
	assert.NotContains(t, r.stdout, "Respond", "a function no export names is not checked")
	assert.True(t, strings.HasSuffix(r.stdout, "\n6 problem(s)\n"), r.stdout)
}

// State a fresh runtime resets is a hint: printed, failing nothing.
func TestLintJSHintsAtStateAFreshRuntimeResets(t *testing.T) {
	r := hookcheck(t, "", "lint", "testdata/jshooks/state", "testdata/jshooks/clean")
	assert.Equal(t, 0, r.code, r.stdout+r.stderr)
	file := "testdata/jshooks/state/index.js"
	for _, want := range []string{
		file + `:7:3: hint: a handler changes module-level "count": every call runs in a fresh runtime`,
		file + `:8:3: hint: a handler changes module-level "seen" (.add)`,
		file + `:9:3: hint: a handler changes module-level "limits"`,
		file + `:10:3: hint: a handler writes a property of globalThis`,
		file + `:11:3: hint: a handler assigns "leaked", declared nowhere: in sloppy mode that makes a global`,
	} {
		assert.Contains(t, r.stdout, want)
	}
	assert.Equal(t, 5, strings.Count(r.stdout, "hint:"), "local variables are not module state:\n%s", r.stdout)
	assert.NotContains(t, r.stdout, "clean/index.js")
	assert.True(t, strings.HasSuffix(r.stdout, "ok: 2 hook(s), 0 agent file(s)\n"), r.stdout)
}
