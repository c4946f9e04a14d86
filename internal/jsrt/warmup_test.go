package jsrt

import (
	"testing"

	"github.com/dop251/goja"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// builtinFor returns the built-in that word calls for, as a set.
func builtinFor(t *testing.T, word string) builtinSet {
	t.Helper()
	set, ok := wordBuiltins[word]
	require.True(t, ok, "no built-in for %q", word)
	return set
}

func TestWarmUpSetsUpWhatTheSourceNames(t *testing.T) {
	always := builtinsOf("")
	regexp, str, date, promise := builtinFor(t, "RegExp"), builtinFor(t, "String"), builtinFor(t, "Date"), builtinFor(t, "Promise")

	guard := builtinsOf(`exports.beforeToolExecute = (ctx, call) => { if (/\brm\s+-rf\b/.test(call.arguments.command)) return { allow: false } }`)
	assert.Equal(t, always|regexp, guard, "a regular expression tested: RegExp, and nothing else it does not name")

	assert.Equal(t, always|regexp, builtinsOf("const re = /x+/g;\nexports.afterRun = () => {}"), "a literal calls for RegExp unnamed")
	assert.Equal(t, always, builtinsOf("exports.afterRun = (ctx, e) => { const half = e.n / 2; return { state: half / 3 } } // a comment"),
		"a division or a comment is no regular expression")
	assert.Equal(t, always|promise, builtinsOf("exports.beforeModelCall = async (ctx, req) => { await ctx.x }"))
	assert.Equal(t, always|str|date, builtinsOf("exports.afterRun = () => ({ state: new Date().toISOString().toUpperCase() })"))
}

func TestCompileDirWarmsUpForEveryFileOfTheHook(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"hook/index.js":    `const when = require("./lib/when.js"); exports.afterRun = () => ({ state: when() })`,
		"hook/lib/when.js": `module.exports = () => Date.now()`,
	})
	p, err := CompileDir(dir, dir+"/hook", func(err error) { t.Error(err) })
	require.NoError(t, err)
	assert.Equal(t, builtinsOf("")|builtinFor(t, "Date"), p.builtins)
}

func TestWarmUpLeavesNothingBehind(t *testing.T) {
	globals := goja.MustCompile("globals", "Object.getOwnPropertyNames(globalThis).sort().join()", false)
	rt := New(Limits{})
	before, err := rt.RunProgram(globals)
	require.NoError(t, err)
	p := &Program{builtins: ^builtinSet(0)} // every built-in
	require.NoError(t, p.WarmUp(rt))
	after, err := rt.RunProgram(globals)
	require.NoError(t, err)
	assert.Equal(t, before.String(), after.String(), "no global added")
}
