package hooks

// The chaos suite: bad and hostile hooks, and bad input, against what a
// hook may never do to its host (DESIGN.md): crash it, hold a call past its
// deadline, leave a goroutine or a process running, or make a guard see a
// different call than the one that runs. Each test also checks, with
// goleak, that nothing it started is left running. Cases that could kill
// the process run in a child process of the test binary (inChild).

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

// chaos starts a chaos test: when it ends (after the cleanups registered
// later, which run first), no goroutine it started may be left.
func chaos(t *testing.T) {
	t.Helper()
	ignore := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, ignore) })
}

// chaosJS compiles a JS hook, collecting its load diagnostics.
func chaosJS(t *testing.T, source string, diags *diagnostics) *jsHook {
	t.Helper()
	h, err := CompileJS("chaos", source, diags.add)
	require.NoError(t, err)
	return h.(*jsHook)
}

// diagnostics collects diagnostics from many goroutines.
type diagnostics struct {
	mu   sync.Mutex
	list []Diagnostic
}

func (d *diagnostics) add(x Diagnostic) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.list = append(d.list, x)
}

func (d *diagnostics) texts() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]string, len(d.list))
	for i, x := range d.list {
		out[i] = x.String()
	}
	return out
}

// chaosRun starts a run of hs that sends its diagnostics to diags.
func chaosRun(t *testing.T, host Host, diags *diagnostics, hs ...Hook) *Run {
	t.Helper()
	chain, err := NewChain(hs, WithDiagnostics(diags.add))
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), host, RunStart{})
	require.NoError(t, err)
	t.Cleanup(func() { run.End(context.Background(), RunEnd{}) })
	return run
}

var shell = ToolCall{Name: "shell", Arguments: map[string]any{"command": "rm -rf /"}}

// TestDeadlinesLandingAsAJSHookReturns: a deadline that lands at any moment
// of a JS call — in ctx.confirm, in ctx.http, in plain code, as it returns
// — ends the call with the context's error and never touches the call's
// state afterwards (the interrupt used to read a pooled Context that the
// call had released: a nil dereference that killed the process).
func TestDeadlinesLandingAsAJSHookReturns(t *testing.T) {
	if !inChild(t) {
		return
	}
	chaos(t)
	hang := make(chan struct{})
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-hang:
		}
	}))
	t.Cleanup(server.Close)
	t.Cleanup(func() { close(hang) })
	waits := Host{Confirm: func(ctx context.Context, p Prompt) (bool, error) {
		<-ctx.Done()
		return false, ctx.Err()
	}}
	cases := map[string]string{
		"confirm": `exports.beforeToolExecute = (ctx) => { ctx.confirm({title: "ok?"}) }`,
		"http":    `exports.beforeToolExecute = (ctx) => { ctx.http.get(ctx.config.url) }`,
		"loop":    `exports.beforeToolExecute = (ctx, call) => { let n = 0; for (let i = 0; i < 300; i++) n += i; return { reason: "x" + n } }`,
		"returns": `exports.beforeToolExecute = (ctx, call) => ({ allow: true, arguments: call.arguments })`,
	}
	for name, source := range cases {
		t.Run(name, func(t *testing.T) {
			var diags diagnostics
			host := waits
			host.Config = map[string]any{"url": server.URL}
			run := chaosRun(t, host, &diags, chaosJS(t, source, &diags))
			for i := range 300 {
				ctx, cancel := context.WithTimeout(context.Background(), time.Duration(50+i%20*20)*time.Microsecond)
				_, err := run.BeforeToolExecute(ctx, shell)
				cancel()
				if err != nil {
					require.ErrorIs(t, err, context.DeadlineExceeded)
				}
			}
		})
	}
}

// TestCyclicAndDeepGoValuesAreErrorsNamingHookAndPoint: a cycle or an
// absurd depth in what the host hands a JS hook is the hook's error, never
// an endless recursion.
func TestCyclicAndDeepGoValuesAreErrorsNamingHookAndPoint(t *testing.T) {
	if !inChild(t) {
		return
	}
	chaos(t)
	self := map[string]any{}
	self["self"] = self
	list := []any{nil}
	list[0] = list
	deep := any("bottom")
	for range 5000 {
		deep = map[string]any{"d": deep}
	}
	for name, args := range map[string]map[string]any{
		"map cycle": self, "slice cycle": {"list": list}, "too deep": {"deep": deep},
	} {
		t.Run(name, func(t *testing.T) {
			var diags diagnostics
			run := chaosRun(t, Host{}, &diags, chaosJS(t, `exports.beforeToolExecute = (ctx, call) => ({ reason: "saw " + Object.keys(call.arguments) })`, &diags))
			step, err := run.BeforeToolExecute(context.Background(), ToolCall{Name: "x", Arguments: args})
			require.NoError(t, err, "a JS hook's error is a diagnostic")
			assert.False(t, step.Refused)
			texts := diags.texts()
			require.Len(t, texts, 1)
			assert.Contains(t, texts[0], `hook "chaos" at beforeToolExecute`)
			assert.Regexp(t, `contains itself|nested deeper than 1000`, texts[0])
		})
	}
	t.Run("config and state", func(t *testing.T) {
		var diags diagnostics
		h := chaosJS(t, `exports.beforeRun = () => ({ state: 1 });
			exports.beforeToolExecute = (ctx) => { ctx.config; }
			exports.afterToolExecute = (ctx) => { ctx.state; }`, &diags)
		run := chaosRun(t, Host{Config: self}, &diags, h)
		run.states[0] = self // a Go hook's state could be anything
		_, err := run.CallTool(context.Background(), shell, func(*Context, ToolCall) (ToolResult, error) { return ToolResult{}, nil })
		require.NoError(t, err)
		texts := diags.texts()
		require.Len(t, texts, 2)
		assert.Contains(t, texts[0], "at beforeToolExecute")
		assert.Contains(t, texts[1], "at afterToolExecute")
		for _, s := range texts {
			assert.Contains(t, s, "contains itself")
		}
	})
}

// TestPanicsNeverEscapeARunMethod: what a hook returns cannot make a Run
// method panic.
func TestPanicsNeverEscapeARunMethod(t *testing.T) {
	chaos(t)
	nilToolError := Funcs{HookName: "nil-tool-error", BeforeToolExecute: func(*Context, ToolCall) (*ToolCallPatch, error) {
		return nil, (*ToolError)(nil)
	}}
	for _, traced := range []bool{false, true} {
		var diags diagnostics
		opts := []Option{WithDiagnostics(diags.add)}
		if traced {
			opts = append(opts, WithTrace(func(TraceEvent) {}))
		}
		chain, err := NewChain([]Hook{nilToolError}, opts...)
		require.NoError(t, err)
		run, err := chain.Start(context.Background(), Host{}, RunStart{})
		require.NoError(t, err)
		step, err := run.BeforeToolExecute(context.Background(), shell)
		require.NoError(t, err)
		assert.True(t, step.Refused, "a *ToolError refuses, even a nil one (traced: %v)", traced)
		assert.Equal(t, "refused by hook nil-tool-error", step.Reason)
	}

	var diags diagnostics
	run := chaosRun(t, Host{}, &diags, WithPolicy(Funcs{HookName: "bad-error", BeforeToolExecute: func(*Context, ToolCall) (*ToolCallPatch, error) {
		return nil, panickyError{}
	}}, Block))
	step, err := run.BeforeToolExecute(context.Background(), shell)
	require.NoError(t, err)
	assert.True(t, step.Refused, "Block refuses on any error")
	assert.Contains(t, step.Reason, "panicked in its Error method")
	require.Len(t, diags.texts(), 1)
}

type panickyError struct{}

func (panickyError) Error() string { panic("Error() of a hostile error") }

type panickyName struct{}

func (panickyName) Name() string { panic("Name() of a hostile hook") }

func (panickyName) BeforeRun(*Context, RunStart) (*RunPatch, error) { return nil, nil }

// TestNewChainNamesAHookItCannotUse: a nil hook of any shape, or one whose
// Name panics, is an error naming its place in the list.
func TestNewChainNamesAHookItCannotUse(t *testing.T) {
	chaos(t)
	ok := Funcs{HookName: "ok", BeforeRun: func(*Context, RunStart) (*RunPatch, error) { return nil, nil }}
	for name, bad := range map[string]Hook{
		"nil *Funcs":             (*Funcs)(nil),
		"WithPolicy(nil)":        WithPolicy(nil, Block),
		"WithPolicy(nil *Funcs)": WithPolicy((*Funcs)(nil), Report),
		"Name panics":            panickyName{},
		"nil":                    nil,
	} {
		_, err := NewChain([]Hook{ok, bad})
		require.Error(t, err, name)
		assert.Contains(t, err.Error(), "hook #1", name)
	}
}

// TestBrokenModuleExportsAreLoadErrors: module.exports that is not an
// object, or whose reading throws or loops, is a load diagnostic (Load) and
// a hook that handles nothing; never a panic or a hang.
func TestBrokenModuleExportsAreLoadErrors(t *testing.T) {
	chaos(t)
	defer func(d time.Duration) { evalTimeout = d }(evalTimeout)
	evalTimeout = 200 * time.Millisecond
	for name, source := range map[string]string{
		"null":            `module.exports = null`,
		"number":          `module.exports = 42`,
		"string":          `module.exports = "beforeRun"`,
		"Symbol":          `module.exports = Symbol("x")`,
		"undefined":       `module.exports = undefined`,
		"throwing getter": `Object.defineProperty(exports, "beforeRun", { enumerable: true, get() { throw new Error("no") } })`,
		"looping getter":  `Object.defineProperty(exports, "beforeRun", { enumerable: true, get() { for (;;) {} } })`,
		"throwing Proxy":  `module.exports = new Proxy({}, { ownKeys() { throw new Error("no keys") } })`,
		"looping Proxy":   `module.exports = new Proxy({}, { ownKeys() { for (;;) {} } })`,
	} {
		t.Run(name, func(t *testing.T) {
			var diags diagnostics
			h := chaosJS(t, source, &diags)
			require.NotEmpty(t, diags.texts(), "a diagnostic says what is wrong")
			for _, p := range append(Points(), BeforeTrustDecision) {
				assert.False(t, h.Handles(p), "%s handled", p)
			}
		})
	}
}

// TestJSTheLibraryRunsIsBoundedByTheDeadline: after the hook's function
// returned, reading what it returned or threw runs JavaScript too (getters,
// toJSON, Proxy traps, toString); so does a hijacked built-in. All of it
// ends at the deadline.
func TestJSTheLibraryRunsIsBoundedByTheDeadline(t *testing.T) {
	if !inChild(t) {
		return
	}
	chaos(t)
	for name, source := range map[string]string{
		"getter":        `exports.beforeToolExecute = () => ({ get allow() { for (;;) {} } })`,
		"toJSON":        `exports.beforeToolExecute = () => ({ toJSON() { for (;;) {} } })`,
		"Proxy ownKeys": `exports.beforeToolExecute = () => new Proxy({}, { ownKeys() { for (;;) {} } })`,
		"thrown":        `exports.beforeToolExecute = () => { throw { toString() { for (;;) {} } } }`,
		"rejected":      `exports.beforeToolExecute = async () => { throw { toString() { for (;;) {} } } }`,
		"stringify":     `JSON.stringify = () => { for (;;) {} }; exports.beforeToolExecute = () => ({ allow: false })`,
		"deep return":   `exports.beforeToolExecute = () => { let a = []; for (let i = 0; i < 100000; i++) a = [a]; return { result: { value: a } } }`,
		"deep log":      `exports.beforeToolExecute = (ctx) => { let a = {}; for (let i = 0; i < 100000; i++) a = { a }; ctx.log(a) }`,
		"flood":         `exports.beforeToolExecute = () => { const a = []; a.length = 4e9; return { result: { value: a } } }`,
	} {
		t.Run(name, func(t *testing.T) {
			var diags diagnostics
			run := chaosRun(t, Host{Log: func(string, string) {}}, &diags, chaosJS(t, source, &diags))
			ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
			defer cancel()
			step, err := run.BeforeToolExecute(ctx, shell)
			if err != nil {
				assert.ErrorIs(t, err, context.DeadlineExceeded)
				return
			}
			switch name {
			case "stringify":
				assert.True(t, step.Refused, "the hook's answer is read without its JSON.stringify")
				return
			case "deep log": // logged as String() gives it, once the walk stopped at its depth limit
				return
			}
			require.Len(t, diags.texts(), 1, "the hook failed fast, with a diagnostic")
		})
	}
}

// TestFrozenPayloadsSurviveAHijackedFreeze: the model points' read-only
// payloads are frozen with the Object.freeze of before the hook's code.
func TestFrozenPayloadsSurviveAHijackedFreeze(t *testing.T) {
	chaos(t)
	var diags diagnostics
	run := chaosRun(t, Host{}, &diags, chaosJS(t, `
		Object.freeze = (o) => o;
		exports.beforeModelRequest = (ctx, req) => ({ system: String(Object.isFrozen(req.messages)) })`, &diags))
	step, err := run.BeforeModelRequest(context.Background(), ModelRequest{Messages: []Message{{Role: "user", Text: "hi"}}})
	require.NoError(t, err)
	assert.Equal(t, "true", step.Request.System)
}

// TestFileReadsAreBounded: ctx.file.read refuses what could block forever
// or never end.
func TestFileReadsAreBounded(t *testing.T) {
	chaos(t)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "note"), []byte("ok"), 0o600))
	var diags diagnostics
	run := chaosRun(t, Host{Workdir: dir}, &diags, chaosJS(t, `
		exports.beforeToolExecute = (ctx, call) => {
			try { return { allow: false, reason: ctx.file.read(call.arguments.path) } } catch (e) { return { allow: false, reason: "error: " + e.message } }
		}`, &diags))
	for path, want := range map[string]string{
		"note": "ok", fifo: "a FIFO", "/dev/zero": "a device", dir: "a folder",
	} {
		step, err := run.BeforeToolExecute(context.Background(), ToolCall{Name: "read", Arguments: map[string]any{"path": path}})
		require.NoError(t, err)
		assert.Contains(t, step.Reason, want, path)
	}
	_, err := DirFiles(dir).Read("missing")
	assert.ErrorIs(t, err, os.ErrNotExist)
	err = DirFiles(dir).Write(fifo, []byte("x"))
	assert.Error(t, err, "writing to a FIFO nobody reads does not block")
}

// TestMemoCannotWedgeARun: a fn that never returns (runtime.Goexit), or
// that asks for its own key, leaves the key usable.
func TestMemoCannotWedgeARun(t *testing.T) {
	chaos(t)
	run := chaosRun(t, Host{}, &diagnostics{})
	c := run.context(context.Background(), BeforeToolExecute)
	defer run.release(c)

	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = c.Memo("k", func() (any, error) { runtime.Goexit(); return nil, nil })
	}()
	<-done
	v, err := c.Memo("k", func() (any, error) { return "second", nil })
	require.NoError(t, err)
	assert.Equal(t, "second", v, "the key is free again")

	_, err = c.Memo("self", func() (any, error) { return c.Memo("self", func() (any, error) { return 1, nil }) })
	assert.ErrorContains(t, err, "wait for itself")
	_, err = c.Memo("a", func() (any, error) {
		return c.Memo("b", func() (any, error) { return c.Memo("a", func() (any, error) { return 1, nil }) })
	})
	assert.ErrorContains(t, err, "wait for itself")
	v, err = c.Memo("self", func() (any, error) { return 3, nil })
	require.NoError(t, err)
	assert.Equal(t, 3, v)
}

// TestAPanickingHookIsAnError: panics of every hook kind are recovered,
// with the stack.
func TestAPanickingHookIsAnError(t *testing.T) {
	chaos(t)
	var diags diagnostics
	run := chaosRun(t, Host{}, &diags, WithPolicy(Funcs{HookName: "p", BeforeToolExecute: func(*Context, ToolCall) (*ToolCallPatch, error) {
		panic(errors.New("boom"))
	}}, Report))
	_, err := run.BeforeToolExecute(context.Background(), shell)
	require.NoError(t, err)
	texts := diags.texts()
	require.Len(t, texts, 1)
	assert.Contains(t, texts[0], "panic: boom")
	assert.True(t, strings.Contains(fmt.Sprint(diags.list[0].Err), "boom"))
}

// TestAnAnswerPastTheDeadlineIsNotUsed: a Go hook that ignores its
// context holds the method (it is the host's own code), but what it
// answers once the context has ended is not used: the method returns the
// context's error.
func TestAnAnswerPastTheDeadlineIsNotUsed(t *testing.T) {
	chaos(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	late := Funcs{HookName: "late",
		AfterToolExecute: func(c *Context, _ ToolCall, _ ToolResult) (*ToolResultPatch, error) {
			cancel() // the deadline passes while the hook works on, ignoring it
			text := "too late"
			return &ToolResultPatch{Text: &text}, nil
		},
		AfterModelResponse: func(c *Context, _ ModelResponse) (*ModelResponsePatch, error) {
			text := "too late"
			return &ModelResponsePatch{Text: &text}, nil
		},
	}
	run := chaosRun(t, Host{}, &diagnostics{}, late)
	_, err := run.AfterToolExecute(ctx, ToolStep{Call: shell}, ToolResult{Text: "ok"})
	assert.ErrorIs(t, err, context.Canceled)
	_, err = run.AfterModelResponse(ctx, ModelStep{}, ModelResponse{Text: "ok"})
	assert.ErrorIs(t, err, context.Canceled, "a cancelled context runs no hook")
}
