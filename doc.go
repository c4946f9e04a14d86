// Package hooks runs hooks at the fixed points of an AI agent loop: at the
// start and end of a run, before and after each model call, and before and
// after each tool call.
//
// # The model
//
// A hook is any value with a Name that implements one or more of the
// per-point interfaces (BeforeRunHook, AfterRunHook, BeforeModelRequestHook,
// AfterModelResponseHook, BeforeToolExecuteHook, AfterToolExecuteHook), the
// way an http.Handler is any value with ServeHTTP. Funcs adapts plain
// functions, like http.HandlerFunc; a PointHandler says which points it
// handles (Funcs does, and so do JavaScript hooks). NewChain sorts the hooks
// by point once, so a point that no hook handles costs nothing.
//
// A host starts a Run per agent run (Chain.Start) and calls its methods at
// each point of its loop, or wraps its model and tool calls with
// Run.CallModel and Run.CallTool. Run.End ends it. The before-methods return
// a step (ModelStep, ToolStep); pass it to the matching after-method, so
// that only the hooks the call entered unwind. A Chain is immutable and safe
// for any number of concurrent runs; a Run is safe for the parallel tool
// calls of one turn.
//
// # Ordering and merging
//
// Before-points run in list order; after-points (AfterModelResponse,
// AfterToolExecute, AfterRun) run in reverse list order, like layers around
// the call; InListOrder runs them in list order too. A hook answers with a
// patch: every field is optional, a nil patch or a nil field keeps the
// current value, and each field replaces only itself. The next hook sees the
// merged value; the last writer wins.
//
// Short-circuits. In BeforeToolExecute the first refusal (Allow false, a
// *ToolError, or an error under policy Block) stops everything: no later
// before-hook, no tool and no after-hook runs, and the model reads an error
// result carrying the reason. A refusal without a reason reads "refused by
// hook <name>"; a Reason counts only with Allow false in the same patch. A
// Result answers the call: the remaining before-hooks and the tool do not
// run, and the after-hooks of the hooks already entered (those up to and
// including the one that answered, in list order) run on it in reverse, so a
// redaction hook listed first still redacts a cached answer. In
// BeforeModelRequest, End and Respond stop the remaining before-hooks the
// same way.
//
// In AfterModelResponse every entered hook runs. Text rewrites the reply,
// End ends the run (End wins over Continue), and Continue declares the reply
// final and sends the run on with a new user message. Continue is only
// meaningful for a reply without tool calls: when the reply has tool calls,
// the loop goes on with their results anyway, so Continue is dropped with a
// diagnostic naming the hook.
//
// # Errors
//
// Every hook has a Policy; WithPolicy overrides it. Go hooks default to
// FailRun: the Run method returns a *HookError (errors.Is ErrHookFailed)
// naming the hook, the point and the cause. Report turns the error into a
// Diagnostic and the hook into "no opinion"; Block does the same, and in
// BeforeToolExecute also refuses the call with "Tool call blocked: <cause>".
// A *ToolError from BeforeToolExecute refuses the call whatever the policy.
// A panic is recovered and treated as an error; its *PanicError keeps the
// stack. AfterRun errors are only diagnostics, and AfterRun runs exactly
// once per run: from Run.End, detached from the context's cancellation so an
// interrupted run is still audited, or from Chain.Start, with outcome Failed,
// for the hooks entered before a BeforeRun failed the run. Cancelling a
// call's context interrupts it: the method returns an error that errors.Is
// the context's error, and no tool runs after it. Diagnostics go to slog, or
// to WithDiagnostics.
//
// # Context, Host and state
//
// Every hook gets a *Context: the call's context.Context plus what the host
// gave the run (Host) and per-hook views of the run (Hook, RunID, State,
// Memo, ModelCalls). A *Context is valid only during the call: the chain
// reuses it, so do not keep it. Hooks must not change a payload in place
// (for example a ToolCall's Arguments map): return a patch with a new value.
// The zero Host works: the process environment, DirFiles relative to
// Workdir, an HTTP client with a timeout, slog for logs and notices, and a
// Confirm answered by AutoApprove. Files is an interface so that a host can
// sandbox or fake the file system; System describes the machine and carries
// the clock, so that tests can fix the time.
//
// In tool points, Context.OriginalCall gives the call as the model asked
// for it, before any hook rewrote its arguments, so that an after-hook
// can log or judge both what was asked and what ran.
//
// State is what the hook's BeforeRun returned, or SetState set last (any
// point may change it; the last writer wins); Memo(key, fn) runs fn once
// per run, hook and key (concurrent callers of a key wait for the first,
// and share its error; an error is not kept). Run.Snapshot saves the run's
// id, states, memo results and model-call count as versioned JSON, and
// Chain.Resume continues it in another process, calling BeforeRun again
// with Resumed true.
//
// # Tracing and testing
//
// WithTrace reports one TraceEvent per hook invocation: run, hook, point,
// duration, and the Decision (no opinion, changed which fields, refused
// with which reason, answered, ended, continued, or an error and the
// policy applied to it). A chain without it measures nothing. Package
// hooktest runs hooks of any kind through a real chain with a recording
// Host, and runs JSON fixtures; examples/hookcheck lints a hooks directory
// and runs one hook on a payload.
//
// # JavaScript hooks
//
// A Loader loads <Dir>/<name>/index.js (Dir defaults to ~/.rienda/hooks;
// hooks are global, never read from a workspace), a CommonJS module that
// exports one function per point it handles: beforeRun, afterRun,
// beforeModelRequest, afterModelResponse, beforeToolExecute,
// afterToolExecute, and beforeTrustDecision (see Chain.DecideTrust). It may require the relative .js and .json files of its
// own folder, all compiled once at load. Nothing outside Dir is read: a
// hook folder that is a symbolic link out of Dir is an error, and a file
// linked from outside the hook's folder is left out with a diagnostic. A
// broken hook (a syntax error, a module that throws, an export that is not
// a function or not named after a point) loads with diagnostics and handles
// only its valid exports; it never fails a run. An agent file (ParseAgent)
// declares the hooks to load, in order; Loader.LoadAgent fails with
// ErrUnknownHook for one that does not exist.
//
// Every call runs in a fresh goja runtime, so no JavaScript state survives
// a call (module variables and globalThis start over); to remember
// something, use ctx.state, ctx.memo or a file. Runtimes are prepared ahead
// of need, module evaluated and the built-ins its source names set up
// (a RegExp, String or Array prototype costs more than a small hook's
// call), eight per hook at most (25 to 75 KB each), and each is used once.
//
// An export gets (ctx, payload) — afterToolExecute gets (ctx, call,
// result) — as copies: call {id, name, arguments}, request {system,
// messages}, response {text, toolCalls}, result {text, isError, value},
// start {runId, input, resumed}, event {runId, outcome, reason, output},
// trust {path, decision, isNew}.
// request.messages and response.toolCalls are frozen: changing them has no
// effect (an assignment is ignored, or throws in strict mode; push throws),
// and a returned messages is ignored with a diagnostic. It returns nothing
// (no opinion) or an object with the fields of the point's patch: {allow,
// reason, arguments, result} (or seed 003's {block: reason}), {system,
// respond, end: {output}}, {text, end, continue} (end: true beside output
// is seed 002's shape), {text, isError, value}, {approve}, and from any
// export {state}, the hook's new run state; undefined and null keep. Field
// names match exactly, as in JavaScript; a field the point does not have
// is a diagnostic naming it and the valid ones. Returned values are read
// as JSON.stringify would write them (toJSON is honoured; functions and
// symbols are left out): numbers come back as float64 (an integer 3 is
// float64(3)), objects as map[string]any; a cycle, a value deeper than 1000
// levels or larger than 2^20 values is the hook's error. Date.now() and
// new Date() read Host.System.Clock. An async export, or one that
// returns a Promise, is awaited; there are no timers or I/O in the runtime,
// so a Promise still pending once nothing is left to run is an error that
// says so.
//
// ctx has workdir, session {id}, agent {name, description, model, tools,
// hooks}, config, env, state, system {os, arch, hostname, now()}, file
// {read, write, append, exists} (text, relative to workdir), http {request({
// method, url, headers, body, timeoutMs}), get(url, options), post(url,
// body, options)} (synchronous; a body that is not a string is sent as JSON;
// the reply is {status, headers, body}), log(...) (reaches Host.Log while
// the hook runs), confirm({title, body}) (blocks until answered), notify({
// title, body}) and memo(key, fn) (fn is synchronous and returns JSON). They
// are the capabilities of the Go Context.
//
// JavaScript hooks default to policy Report: a throw is a diagnostic with
// the JavaScript stack (file:line:column), and a notice (seed 000), and the
// hook counts as having no opinion. Cancelling the call's context
// interrupts the running hook, even in an endless loop; a recursion deeper
// than 4096 calls, or 2000 levels of a built-in that recurses in Go
// (nested arrays, JSON, yield*), is an error, not a crash (the README lists
// the goja paths not bounded yet). There is no timeout but the context's,
// unless Loader.Timeout sets one.
//
// # Command hooks and trust
//
// CommandHooks turns the "hooks" list of a settings file into hooks that
// run external programs (seed 004): each entry an event (session_start,
// session_end, turn_start, turn_end, pre_tool_call, post_tool_call,
// pre_trust_decision), an optional matcher, an argv run without a shell,
// a timeout. A command reads a JSON envelope on stdin; for pre_tool_call
// and pre_trust_decision it may answer {"decision":"block","reason":…} on
// stdout, and every other event is advisory (its output is logged). A
// failing command fails open, as a diagnostic, unless its entry sets
// failClosed. The process group is killed at the timeout and on
// cancellation, so nothing is left running.
//
// Chain.DecideTrust decides whether a project is trusted: command hooks
// first (a block makes it untrusted and ends the decision), then the
// recommendations of Go and JavaScript hooks (BeforeTrustDecision), which
// can only upgrade ask to trusted and never weaken a denial.
package hooks
