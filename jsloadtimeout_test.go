package hooks

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// loopingModules are modules whose load runs forever: a top-level
// statement, or reading module.exports (a getter, Proxy traps).
var loopingModules = map[string]string{
	"top-level loop":           `for (;;) {}`,
	"top-level async loop":     `Promise.resolve().then(() => { for (;;) {} }); exports.beforeRun = () => {};`,
	"looping getter":           `Object.defineProperty(exports, "beforeRun", { enumerable: true, get() { for (;;) {} } })`,
	"getter queueing a loop":   `Object.defineProperty(exports, "beforeRun", { enumerable: true, get() { Promise.resolve().then(() => { for (;;) {} }); return () => {}; } })`,
	"module.exports getter":    `Object.defineProperty(module, "exports", { get() { for (;;) {} } })`,
	"Proxy ownKeys":            `module.exports = new Proxy({}, { ownKeys() { for (;;) {} } })`,
	"Proxy get":                `module.exports = new Proxy({ beforeRun() {} }, { get() { for (;;) {} } })`,
	"Proxy gOPD":               `module.exports = new Proxy({ beforeRun() {} }, { getOwnPropertyDescriptor() { for (;;) {} } })`,
	"Proxy ownKeys array-like": `module.exports = new Proxy({}, { ownKeys() { return { length: 2 ** 32 - 1 }; } })`,
	"Proxy ownKeys of a Proxy": `module.exports = new Proxy({}, { ownKeys() { return new Proxy([], { get(t, k) { return k === "length" ? 2 ** 32 - 1 : "k"; } }); } })`,
	"required file loops":      `require("./loop")`,
	"deep exports chain":       `let o = {}; for (let i = 0; i < 1e6; i++) o = Object.create(o); module.exports = new Proxy(o, { ownKeys() { for (;;) {} } })`,
}

// loadBound is how long past its load timeout a load may take.
const loadBound = 2 * time.Second

// TestJSLoadIsBoundedByTheLoadTimeout: a hook whose load never ends loads
// within its load timeout (Loader.LoadTimeout, DefaultLoadTimeout for
// CompileJS) as a hook that handles nothing, with a diagnostic that says
// why; the process lives.
func TestJSLoadIsBoundedByTheLoadTimeout(t *testing.T) {
	if !inChild(t) {
		return
	}
	chaos(t)
	const timeout = 200 * time.Millisecond
	defer func(d time.Duration) { evalTimeout = d }(evalTimeout)
	evalTimeout = timeout
	for name, source := range loopingModules {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, os.MkdirAll(filepath.Join(dir, "h"), 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(dir, "h", "index.js"), []byte(source), 0o644))
			require.NoError(t, os.WriteFile(filepath.Join(dir, "h", "loop.js"), []byte("for (;;) {}"), 0o644))
			var diags diagnostics
			began := time.Now()
			h, err := (&Loader{Dir: dir, LoadTimeout: timeout, Diagnostics: diags.add}).Load("h")
			require.NoError(t, err)
			assert.Less(t, time.Since(began), timeout+loadBound, "Load returned")
			assertHandlesNothing(t, h, &diags, source)

			if strings.Contains(source, "require") {
				return // CompileJS has no folder to require from
			}
			diags = diagnostics{}
			began = time.Now()
			h, err = CompileJS("h", source, diags.add)
			require.NoError(t, err)
			assert.Less(t, time.Since(began), timeout+loadBound, "CompileJS returned")
			assertHandlesNothing(t, h, &diags, source)
		})
	}
}

// assertHandlesNothing: h, loaded from source, handles nothing, and a
// diagnostic says why: the load timeout when source loops.
func assertHandlesNothing(t *testing.T, h Hook, diags *diagnostics, source string) {
	t.Helper()
	for _, p := range append(Points(), BeforeTrustDecision) {
		assert.False(t, h.(*jsHook).Handles(p), "%s handled", p)
	}
	require.NotEmpty(t, diags.texts(), "a diagnostic says why")
	if strings.Contains(source, "for (;;)") || strings.Contains(source, "require") {
		assert.Contains(t, strings.Join(diags.texts(), "\n"), "load timeout", "a diagnostic says why")
	}
	assert.Zero(t, h.(*jsHook).idleCount(), "no runtime of the load is kept")
}

// TestJSLoadTimeoutDefault: the documented default.
func TestJSLoadTimeoutDefault(t *testing.T) {
	assert.Equal(t, 5*time.Second, DefaultLoadTimeout)
}
