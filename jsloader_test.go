package hooks_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func testLoader(rec *recorder) *hooks.Loader {
	return &hooks.Loader{Dir: "testdata/hooks", Diagnostics: rec.diagnose}
}

func TestDefaultDirIsUnderHome(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	dir, err := hooks.DefaultDir()
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(home, ".rienda", "hooks"), dir)
}

func TestZeroLoaderReadsTheHomeHooks(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	dir := filepath.Join(home, ".rienda", "hooks", "hello")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "index.js"), []byte("exports.afterRun = () => {}"), 0o644))
	var l hooks.Loader
	h, err := l.Load("hello")
	require.NoError(t, err)
	assert.Equal(t, "hello", h.Name())
}

func TestLoadRejectsNamesThatAreNotOneFolder(t *testing.T) {
	var rec recorder
	for _, name := range []string{"", ".", "..", "a/b", "../guard", `a\b`, "/etc", "x\x00y"} {
		_, err := testLoader(&rec).Load(name)
		require.Error(t, err, "%q", name)
		assert.Contains(t, err.Error(), "not a plain folder name", "%q", name)
		assert.NotErrorIs(t, err, hooks.ErrUnknownHook)
	}
}

func TestLoadUnknownHookNamesItAndThePath(t *testing.T) {
	var rec recorder
	_, err := testLoader(&rec).Load("nope")
	require.ErrorIs(t, err, hooks.ErrUnknownHook)
	assert.Contains(t, err.Error(), `"nope"`)
	assert.Contains(t, err.Error(), filepath.Join("testdata", "hooks", "nope", "index.js"))

	_, err = (&hooks.Loader{Dir: filepath.Join(t.TempDir(), "missing")}).Load("guard")
	assert.ErrorIs(t, err, hooks.ErrUnknownHook, "a missing hooks directory has no hooks")
}

func TestBrokenHookLoadsWithDiagnostics(t *testing.T) {
	var rec recorder
	h, err := testLoader(&rec).Load("broken")
	require.NoError(t, err, "a broken hook never fails the load")
	msgs := diagTexts(rec.diagnostics())
	assert.Contains(t, msgs, `export "beforeToolExecution" is not a point: ignored; the points are beforeRun, afterRun, beforeModelRequest, afterModelResponse, beforeToolExecute, afterToolExecute, beforeTrustDecision`)
	assert.Contains(t, msgs, `export "afterRun" is a string, not a function: ignored`)
	for _, d := range rec.diagnostics() {
		assert.Equal(t, "broken", d.Hook)
	}

	ph := h.(hooks.PointHandler)
	assert.True(t, ph.Handles(hooks.AfterToolExecute), "the valid export still works")
	assert.False(t, ph.Handles(hooks.AfterRun))
	assert.False(t, ph.Handles(hooks.BeforeToolExecute))

	run := start(t, &rec, h)
	res, err := run.CallTool(context.Background(), hooks.ToolCall{Name: "echo", Arguments: map[string]any{"text": "hi"}}, echoTool(&rec))
	require.NoError(t, err)
	assert.Equal(t, "hi (checked)", res.Text)
}

func TestSyntaxErrorIsALoadDiagnosticAndTheHookHandlesNothing(t *testing.T) {
	var rec recorder
	h, err := testLoader(&rec).Load("syntax")
	require.NoError(t, err)
	require.Len(t, rec.diagnostics(), 1)
	msg := rec.diagnostics()[0].Err.Error()
	assert.Contains(t, msg, filepath.Join("testdata", "hooks", "syntax", "index.js")+":3:")
	assert.Contains(t, msg, "SyntaxError")
	for _, p := range hooks.Points() {
		assert.False(t, h.(hooks.PointHandler).Handles(p), p)
	}
	_, err = hooks.NewChain([]hooks.Hook{h})
	assert.NoError(t, err, "a hook that handles nothing is still a valid chain member")
}

func TestModuleThatThrowsAtLoadHandlesNothing(t *testing.T) {
	var rec recorder
	h, err := hooks.CompileJS("top", "exports.afterRun = () => {};\nthrow new Error('bad config')", rec.diagnose)
	require.NoError(t, err)
	require.Len(t, rec.diagnostics(), 1)
	assert.Contains(t, rec.diagnostics()[0].Err.Error(), "bad config")
	assert.Contains(t, rec.diagnostics()[0].Err.Error(), "top:2")
	assert.False(t, h.(hooks.PointHandler).Handles(hooks.AfterRun))
}

func TestModuleExportsMustBeAnObject(t *testing.T) {
	var rec recorder
	_, err := hooks.CompileJS("fn", "module.exports = function () {}", rec.diagnose)
	require.NoError(t, err)
	require.Len(t, rec.diagnostics(), 1)
	assert.Contains(t, rec.diagnostics()[0].Err.Error(), "module.exports is a function")
}

func TestCompileJSSyntaxErrorIsAnError(t *testing.T) {
	_, err := hooks.CompileJS("bad", "exports.x = (", nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `hook "bad"`)
	assert.Contains(t, err.Error(), "bad:1:")
	assert.Contains(t, err.Error(), "SyntaxError")

	_, err = hooks.CompileJS("", "", nil)
	assert.Error(t, err)
}

func TestCompileJSCannotRequire(t *testing.T) {
	var rec recorder
	_, err := hooks.CompileJS("lonely", "require('./x')", rec.diagnose)
	require.NoError(t, err)
	require.Len(t, rec.diagnostics(), 1)
	assert.Contains(t, rec.diagnostics()[0].Err.Error(), "has no folder to require from")
}

func TestHookFolderOutsideTheHooksDirectoryIsRefused(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(outside, "index.js"), []byte("exports.afterRun = () => {}"), 0o644))
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "linked")))
	_, err := (&hooks.Loader{Dir: dir}).Load("linked")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "outside")
	assert.NotErrorIs(t, err, hooks.ErrUnknownHook)
}

func TestLoadAgentLoadsTheDeclaredHooksInOrder(t *testing.T) {
	data, err := os.ReadFile("testdata/agents/careful.md")
	require.NoError(t, err)
	a, err := hooks.ParseAgent(data)
	require.NoError(t, err)
	var rec recorder
	hs, err := testLoader(&rec).LoadAgent(a)
	require.NoError(t, err)
	require.Len(t, hs, 2)
	assert.Equal(t, "guard", hs[0].Name())
	assert.Equal(t, "audit", hs[1].Name())
	assert.Empty(t, rec.diagnostics())

	hs, err = testLoader(&rec).LoadAgent(&hooks.Agent{Name: "plain"})
	require.NoError(t, err)
	assert.Empty(t, hs, "an agent that declares no hooks has none")

	_, err = testLoader(&rec).LoadAgent(&hooks.Agent{Name: "typo", Hooks: []string{"guard", "gaurd"}})
	require.ErrorIs(t, err, hooks.ErrUnknownHook)
	assert.Contains(t, err.Error(), `"gaurd"`)
	assert.Contains(t, err.Error(), `agent "typo"`)
}

func diagTexts(ds []hooks.Diagnostic) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = strings.TrimSpace(d.Err.Error())
	}
	return out
}

func TestLoaderTimeoutInterruptsAHookThatRunsTooLong(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "slow"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "slow", "index.js"),
		[]byte("exports.beforeToolExecute = (ctx, call) => { if (call.name === 'spin') for (;;) {} }"), 0o644))
	var rec recorder
	h, err := (&hooks.Loader{Dir: dir, Timeout: 50 * time.Millisecond, Diagnostics: rec.diagnose}).Load("slow")
	require.NoError(t, err)
	run := start(t, &rec, h)
	res, err := run.CallTool(bg, hooks.ToolCall{Name: "spin", Arguments: map[string]any{"text": "ran"}}, echoTool(&rec))
	require.NoError(t, err, "a timed-out JS hook is a diagnostic; the run goes on")
	assert.Equal(t, "ran", res.Text)
	require.Len(t, rec.diagnostics(), 1)
	assert.Contains(t, rec.diagnostics()[0].Err.Error(), `hook "slow" ran out of its 50ms`)

	res, err = run.CallTool(bg, hooks.ToolCall{Name: "quick", Arguments: map[string]any{"text": "fine"}}, echoTool(&rec))
	require.NoError(t, err)
	assert.Equal(t, "fine", res.Text)
	assert.Len(t, rec.diagnostics(), 1, "a quick call is not touched")
}

// TestAFolderOfManyFilesStillLoadsItsIndex: the limit on a hook folder's
// files never leaves out index.js, however late it sorts; a require of a
// file the limit left out says why it is missing.
func TestAFolderOfManyFilesStillLoadsItsIndex(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "many")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	for i := range 600 {
		name := filepath.Join(dir, fmt.Sprintf("a%03d.js", i))
		require.NoError(t, os.WriteFile(name, []byte("module.exports = 1"), 0o644))
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "index.js"), []byte(`
		exports.beforeToolExecute = () => { require("./z_late.js") };`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "z_late.js"), nil, 0o644))
	var rec recorder
	h, err := (&hooks.Loader{Dir: filepath.Dir(dir), Diagnostics: rec.diagnose}).Load("many")
	require.NoError(t, err)
	assert.True(t, h.(hooks.PointHandler).Handles(hooks.BeforeToolExecute), "index.js loaded")
	require.Len(t, rec.diagnostics(), 1)
	assert.Contains(t, rec.diagnostics()[0].Err.Error(), "more than 512 files")

	run := start(t, &rec, h)
	_, err = run.BeforeToolExecute(bg, hooks.ToolCall{Name: "x"})
	require.NoError(t, err)
	texts := diagTexts(rec.diagnostics())
	require.Len(t, texts, 2)
	assert.Contains(t, texts[1], `require("./z_late.js") in `+filepath.Join(dir, "index.js")+`: not loaded: the hook's folder has more than 512 files`)
}

// TestABrokenRequiredFileIsReportedOnce: a syntax error in a file that
// index.js requires is one diagnostic, with the file's line, and no stack
// names the library's Go code.
func TestABrokenRequiredFileIsReportedOnce(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "req")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "lib"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "index.js"), []byte(`require("./lib/bad"); exports.afterRun = () => {}`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "lib", "bad.js"), []byte("function (\n}"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "lazy.js"), []byte(`module.exports = 1`), 0o644))
	var rec recorder
	h, err := (&hooks.Loader{Dir: filepath.Dir(dir), Diagnostics: rec.diagnose}).Load("req")
	require.NoError(t, err)
	texts := diagTexts(rec.diagnostics())
	require.Len(t, texts, 1, "%q", texts)
	assert.Contains(t, texts[0], filepath.Join(dir, "lib", "bad.js")+":1:")
	assert.False(t, h.(hooks.PointHandler).Handles(hooks.AfterRun))

	lazy, err := hooks.CompileJS("lazy", `exports.beforeToolExecute = (ctx) => { ctx.http.request({}) }`, nil)
	require.NoError(t, err)
	run := start(t, &rec, lazy)
	_, err = run.BeforeToolExecute(bg, hooks.ToolCall{Name: "x"})
	require.NoError(t, err)
	all := diagTexts(rec.diagnostics())
	require.Len(t, all, 2)
	assert.NotContains(t, all[1], "github.com/", "no Go symbol in a JavaScript stack")
}
