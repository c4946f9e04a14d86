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
// State is what the hook's BeforeRun returned; Memo(key, fn) runs fn once
// per run, hook and key (concurrent callers of a key wait for the first,
// and share its error; an error is not kept). Run.Snapshot saves the run's
// id, states, memo results and model-call count as versioned JSON, and
// Chain.Resume continues it in another process, calling BeforeRun again
// with Resumed true.
package hooks
