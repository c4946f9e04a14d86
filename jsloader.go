package hooks

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rienda/hooks/internal/jsrt"
)

// DefaultDir returns the hooks directory of the user: ~/.rienda/hooks.
func DefaultDir() (string, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("hooks: no home folder for the hooks directory: %w", err)
	}
	return filepath.Join(home, ".rienda", "hooks"), nil
}

// Loader loads JavaScript hooks from the hooks directory: the hook <name>
// is the file <Dir>/<name>/index.js. Hooks are global: a Loader reads only
// its Dir, never a workspace. The zero Loader reads DefaultDir and writes
// its diagnostics to slog. A Loader is safe for concurrent use.
//
// Everything a hook reads lies inside Dir: a hook folder that resolves
// outside it (a symbolic link) is an error, and a file of the folder that a
// symbolic link takes outside the folder is left out, with a diagnostic.
// Every .js and .json file of the folder (node_modules and dot-folders
// aside) is compiled once, at load; require reads nothing later.
//
// # The module
//
// index.js is a CommonJS module that exports one function per point it
// handles, named after the Point: beforeRun, afterRun, beforeModelRequest,
// afterModelResponse, beforeToolExecute, afterToolExecute, and
// beforeTrustDecision (see Chain.DecideTrust). A broken hook (a syntax
// error, a module that throws, an export that is not a function or not
// named after a point) loads with diagnostics and handles only its valid
// exports; it never fails a run. An agent file (ParseAgent) declares the
// hooks to load, in order; LoadAgent fails with ErrUnknownHook for one
// that does not exist.
//
// No JavaScript state survives a call: each call evaluates the module
// anew, in a goja runtime whose built-ins and globalThis were frozen when
// it was made; to remember something, use ctx.state, ctx.memo or a file.
// A hook may write globals within its call (globalThis.x = 1, x = 1
// without a declaration in sloppy code, a polyfill of a missing global):
// they live in the call's own table and are gone when it ends. It may not
// replace or change a built-in: strict code throws a TypeError, sloppy
// code's write is dropped. Nothing of a call runs after it: a Promise job
// queued while the library reads what the hook returned runs in the call
// (or the runtime is dropped), and a ctx kept past its call throws.
// Loading (the module's evaluation, reading module.exports) is bounded by
// LoadTimeout. Assigning a property an
// object inherits from a built-in (this.name in an Error subclass,
// o.toString) defines it on the object, as usual. A hook keeps at most 4
// idle runtimes (about 0.5 MB each) for later calls; nothing is prepared
// in the background. See docs/javascript.md.
//
// # What an export gets and returns
//
// An export gets (ctx, payload), afterToolExecute (ctx, call, result), as
// copies: call {id, name, arguments}, request {system, messages, model,
// tools, toolChoice, settings}, response {text, toolCalls, usage, stopReason, reasoning}, result {text, isError, value}, start {runId, input,
// resumed}, event {runId, outcome, reason, output}, trust {path, decision,
// isNew}. A message is {role, text} and, when set, id, toolCalls and
// toolCallId; a tool is {name, description, schema} (the schema parsed
// from its JSON); usage is {inputTokens, outputTokens, cachedInputTokens}.
// request.messages, request.tools, response.toolCalls and response.usage
// are read-only:
// changing them has no effect (an assignment is ignored, or throws in
// strict mode; push throws), and a returned messages is ignored with a
// diagnostic. They are made when the hook first reads them, element by
// element, so a hook pays only for what it reads, however long the
// conversation. Unlike a plain frozen array, Object.getOwnPropertyDescriptor
// reports an index as writable, Reflect.isExtensible says true, and a tool
// call whose arguments cannot be converted throws where the hook reads it.
// Object.isFrozen(request.messages) is true, as Object.isSealed; and
// Object.isExtensible false.
//
// It returns nothing (no opinion) or an object with the fields of the
// point's patch: {allow, reason, arguments, result} (or {block: reason}),
// {system, model, tools, respond, end: {output}} (model and tools replace
// the ones sent), {text, end, continue} (end: true
// beside output works too), {text, isError, value}, {approve}, and from
// any export {state}, the hook's new run state; undefined and null keep.
// Field names match exactly; a field the point does not have is a
// diagnostic naming it and the valid ones. Returned values are read as
// JSON.stringify would write them (toJSON is honoured): numbers come back
// as float64, objects as map[string]any; a cycle, a value deeper than 1000
// levels or larger than 2^20 values is the hook's error. Date.now() and new
// Date() read Host.System.Clock. An async export is awaited; there are no
// timers or I/O in the runtime, so a Promise still pending once nothing is
// left to run is an error that says so.
//
// # ctx
//
// ctx has workdir, session {id}, agent {name, description, model, tools,
// hooks}, config, env, state, system {os, arch, hostname, now()}, file
// {read, write, append, exists} (text, relative to workdir), http
// {request({method, url, headers, body, timeoutMs}), get(url, options),
// post(url, body, options)} (synchronous; a body that is not a string is
// sent as JSON; the reply is {status, headers, body}), log(...) (reaches
// Host.Log while the hook runs), confirm({title, body}) (blocks until
// answered), notify({title, body}) and memo(key, fn) (fn is synchronous
// and returns JSON): the capabilities of the Go Context.
//
// # Errors
//
// JavaScript hooks default to policy Report: a throw is a diagnostic with
// the JavaScript stack (file:line:column), and a notice, and the hook
// counts as having no opinion. Cancelling the call's context interrupts
// the running hook, even in an endless loop or a built-in looping over a
// long array; a recursion deeper than 4096 calls, or 2000 levels of a
// built-in that recurses in Go (nested arrays, JSON, yield*), is an error,
// not a crash, and so is a built-in asked for more than MaxAlloc. There is
// no timeout but the context's, unless Timeout sets one.
type Loader struct {
	Dir         string           // "": DefaultDir()
	Diagnostics func(Diagnostic) // load-time diagnostics; nil: slog

	// Timeout bounds each invocation of the hooks this Loader loads (the
	// module's evaluation too, when a call finds no runtime prepared): a
	// hook still running then is interrupted, as by a cancellation, and its
	// error is a diagnostic (policy Report) that says it ran out of time.
	// Zero (the default): no timeout but the context's.
	Timeout time.Duration

	// LoadTimeout bounds loading one hook: making its first runtime,
	// evaluating its module, and reading module.exports, which runs the
	// hook's code (a top-level statement, a getter, a Proxy trap) before
	// any call. A hook whose load runs out of it is a load diagnostic and
	// handles nothing. Zero: DefaultLoadTimeout (5 s), which CompileJS
	// always uses.
	LoadTimeout time.Duration

	// MaxAlloc bounds, in bytes, what one built-in call of a hook may
	// allocate from a number the hook gives: new ArrayBuffer(n), a typed
	// array, "x".repeat(n), padStart, padEnd, join's separators. A built-in
	// that loops over an array-like, or builds an array from one
	// (indexOf, fill, sort, Array.from, …), refuses a length past
	// MaxAlloc/16 elements, and apply more than 131,072 arguments. Past
	// them the built-in throws a RangeError the hook can catch, instead of
	// a fatal out-of-memory error (no recover catches one) or a loop no
	// deadline stops. Zero: 64 MiB (4 Mi elements).
	MaxAlloc int64

	// Prebuilt builds an agent file's ready-made hooks, the hooks entries
	// {prebuilt: name, with: settings} (Agent.Specs): set it to
	// prebuilt.FromSpec. (This package cannot call package prebuilt
	// itself: prebuilt is built on it.) Nil: an agent file that names a
	// ready-made hook fails to load, saying so.
	Prebuilt func(name string, settings map[string]any) (Hook, error)
}

// Load loads the hook name. It returns an error wrapping ErrUnknownHook,
// naming the hook and the file looked for, when there is no index.js, and
// an error for a name that is not one plain folder name. A broken hook
// still loads, with diagnostics, and handles only its valid exports: none
// for a syntax error or a module that throws; a non-function export, or an
// export whose name is not a point, is left out.
func (l *Loader) Load(name string) (Hook, error) {
	if err := checkHookName(name); err != nil {
		return nil, err
	}
	dir := l.Dir
	if dir == "" {
		var err error
		if dir, err = DefaultDir(); err != nil {
			return nil, err
		}
	}
	folder := filepath.Join(dir, name)
	report := func(err error) { l.diagnose(Diagnostic{Hook: name, Err: err}) }
	prog, err := jsrt.CompileDir(dir, folder, report)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w %q: there is no %s", ErrUnknownHook, name, filepath.Join(folder, jsrt.Main))
	}
	if err != nil {
		return nil, fmt.Errorf("hooks: hook %q: %w", name, err)
	}
	if prog.MainError() != nil { // reported by CompileDir
		return &jsHook{name: name}, nil
	}
	return newJSHook(name, prog, l.Timeout, l.LoadTimeout, jsrt.Limits{MaxAlloc: l.MaxAlloc}, report), nil
}

// LoadAgent loads the hooks a declares, in order. A declared hook that
// does not exist fails it, like an unknown tool (ErrUnknownHook, naming the
// hook); an agent that declares none has none. First it reports each of
// a.Warnings as a load-time Diagnostic whose Err is the AgentWarning and
// whose Hook and Point are empty (it is about the agent file, no hook), so
// that a misspelt key is not silent: "hook:" for "hooks:" declares none.
// An entry that names a ready-made hook is built by Loader.Prebuilt.
func (l *Loader) LoadAgent(a *Agent) ([]Hook, error) {
	if a == nil {
		return nil, nil
	}
	for _, w := range a.Warnings {
		l.diagnose(Diagnostic{Err: w})
	}
	if len(a.Hooks) == 0 {
		return nil, nil
	}
	hooks := make([]Hook, 0, len(a.Hooks))
	for i, name := range a.Hooks {
		var h Hook
		var err error
		if spec, ok := a.Specs[i]; ok {
			h, err = l.prebuilt(spec)
		} else {
			h, err = l.Load(name)
		}
		if err != nil {
			if a.Name != "" {
				return nil, fmt.Errorf("agent %q: %w", a.Name, err)
			}
			return nil, err
		}
		hooks = append(hooks, h)
	}
	return hooks, nil
}

// prebuilt builds the ready-made hook an agent file's entry names.
func (l *Loader) prebuilt(spec HookSpec) (Hook, error) {
	if l.Prebuilt == nil {
		return nil, fmt.Errorf("agent: line %d: hooks entry \"prebuilt: %s\" needs Loader.Prebuilt (set it to prebuilt.FromSpec)", spec.Line, spec.Prebuilt)
	}
	h, err := l.Prebuilt(spec.Prebuilt, spec.With)
	if err != nil && strings.HasPrefix(err.Error(), "prebuilt "+spec.Prebuilt+": ") { // FromSpec names it already
		return nil, fmt.Errorf("agent: line %d: %w", spec.Line, err)
	}
	if err != nil {
		return nil, fmt.Errorf("agent: line %d: prebuilt %s: %w", spec.Line, spec.Prebuilt, err)
	}
	return h, nil
}

func (l *Loader) diagnose(d Diagnostic) {
	if l.Diagnostics != nil {
		l.Diagnostics(d)
		return
	}
	slog.Warn("hook diagnostic", "hook", d.Hook, "err", d.Err)
}

// CompileJS compiles a JavaScript hook from source, for tests and
// embedding: the same as a loaded index.js, except that a syntax error is
// an error here (a programmatic call), and require finds no file. diag
// gets the load-time diagnostics; nil: slog. Evaluating the module and
// reading its exports are bounded by DefaultLoadTimeout: past it, the hook
// loads with a diagnostic and handles nothing.
func CompileJS(name, source string, diag func(Diagnostic)) (Hook, error) {
	if name == "" {
		return nil, errors.New("hooks: CompileJS: the hook's name is empty")
	}
	prog, err := jsrt.CompileSource(name, source)
	if err != nil {
		return nil, fmt.Errorf("hooks: hook %q: %w", name, err)
	}
	l := Loader{Diagnostics: diag}
	return newJSHook(name, prog, 0, 0, jsrt.Limits{}, func(err error) { l.diagnose(Diagnostic{Hook: name, Err: err}) }), nil
}

// checkHookName accepts one plain path element: a hook name can never make
// a Loader read outside its Dir.
func checkHookName(name string) error {
	switch {
	case name == "", name == ".", name == "..",
		strings.ContainsAny(name, `/\`+"\x00"), filepath.IsAbs(name), filepath.VolumeName(name) != "":
		return fmt.Errorf("hooks: hook name %q is not a plain folder name (no separators, not . or ..)", name)
	}
	return nil
}
