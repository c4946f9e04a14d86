// Package hooks runs hooks at the fixed points of an AI agent loop: at the
// start and end of a run, before and after each model call, and before and
// after each tool call.
//
//	chain, err := hooks.NewChain([]hooks.Hook{
//		hooks.Funcs{HookName: "no-rm", BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
//			if cmd, _ := call.Arguments["command"].(string); strings.Contains(cmd, "rm -rf") {
//				return hooks.Refuse("rm -rf is turned off here"), nil
//			}
//			return nil, nil // no opinion
//		}},
//	})
//	run, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{Input: prompt})
//	res, err := run.CallTool(ctx, call, runTool) // refused: res is the error the model reads
//	run.End(ctx, hooks.RunEnd{Output: answer})
//
// A hook is any value with a Name that implements one or more per-point
// interfaces (one per point: [BeforeToolExecuteHook], [WrapToolHook], …), the way an
// http.Handler is any value with ServeHTTP; [Funcs] adapts plain functions,
// like http.HandlerFunc. [Hook] says what an implementation may and may not
// do. Hooks may also be JavaScript files ([Loader]) or external commands
// ([CommandHooks]); all of them go in one [Chain].
//
// A host starts a [Run] per agent run ([Chain.Start]) and wraps its model
// and tool calls with [Run.CallModel] and [Run.CallTool], or calls the
// split methods ([Run.BeforeToolExecute], then [Run.AfterToolExecute] with
// the step it returned) when its framework gives it only callbacks.
// [Run.End] ends it. A Chain is immutable and safe for any number of
// concurrent runs; a Run is safe for the parallel tool calls of one turn.
//
// # Ordering and merging
//
// Before-points run in list order; after-points (AfterModelResponse,
// AfterToolExecute, AfterRun) run in reverse list order, like layers around
// the call; [InListOrder] runs them in list order too. A hook answers with a
// patch: every field is optional, a nil patch or a nil field keeps the
// current value, and each field replaces only itself. The next hook sees the
// merged value; the last writer wins.
//
// In BeforeToolExecute the first refusal (Allow false, a [*ToolError], or
// an error under policy [Block]) stops everything: no later before-hook, no
// tool and no after-hook runs, and the model reads an error result carrying
// the reason. A refusal without a reason reads "refused by hook <name>"; a
// Reason counts only with Allow false in the same patch. A Result answers
// the call: the remaining before-hooks and the tool do not run, and the
// after-hooks of the hooks already entered (those up to and including the
// one that answered) run on it, so a redaction hook listed first still
// redacts a cached answer. In BeforeModelRequest, End and Respond stop the
// remaining before-hooks the same way; End wins over Respond.
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
// Every hook has a [Policy]; [WithPolicy] overrides it. Go hooks default to
// [FailRun]: the Run method returns a [*HookError] (errors.Is
// [ErrHookFailed]) naming the hook, the point and the cause. [Report] turns
// the error into a [Diagnostic] and the hook into "no opinion"; [Block] does
// the same, and in BeforeToolExecute also refuses the call with "Tool call
// blocked: <cause>". A panic is recovered and treated as an error; its
// [*PanicError] keeps the stack. AfterRun errors are only diagnostics, and
// AfterRun runs exactly once per run: from Run.End, detached from the
// context's cancellation so an interrupted run is still audited, or from
// Chain.Start, with outcome Failed, for the hooks entered before a BeforeRun
// failed the run. Cancelling a call's context interrupts it: the method
// returns an error that errors.Is the context's error, and no tool runs
// after it. Diagnostics go to slog, or to [WithDiagnostics].
//
// # Context, Host and state
//
// Every hook gets a [*Context]: the call's context.Context plus what the
// host gave the run ([Host]) and per-hook views of the run ([Context.State],
// [Context.Memo], [Context.OriginalCall], [Context.ModelCalls]). The zero
// Host works: the process environment, [DirFiles] relative to Workdir, an
// HTTP client with a timeout, slog for logs and notices, and a Confirm
// answered by [AutoApprove].
//
// State is what the hook's BeforeRun returned, or [Context.SetState] set
// last. [Context.Memo] runs its function once per run, hook and key.
// [Run.Snapshot] saves the run's id, states, memo results and model-call
// count as versioned JSON, and [Chain.Resume] continues it in another
// process, calling BeforeRun again with Resumed true.
//
// # Frameworks
//
// [Message] keeps a framework's own message value ([Message.WithRaw]) so
// that [RebuildMessages] hands untouched messages back as they were.
// [ContextWithRun] carries a run through a framework that passes only a
// context; [Runs] keeps one run per session; [ParseArguments] decodes a
// model's raw arguments; [ToolStep.Rewritten] says when to re-encode them;
// [ToolSteps] keeps steps between split callbacks. The adapters/ folder
// holds ready adapters, each its own module.
//
// # Tracing and testing
//
// [WithTrace] reports one [TraceEvent] per hook invocation: run, hook,
// point, duration, and the [Decision] the chain acted on. A chain without
// it measures nothing. Package hooktest runs hooks of any kind through a
// real chain with a recording Host, and runs JSON fixtures;
// examples/hookcheck lints a hooks directory and runs one hook on a payload.
//
// # JavaScript hooks and command hooks
//
// A [Loader] loads <Dir>/<name>/index.js (Dir defaults to ~/.rienda/hooks),
// a CommonJS module that exports one function per point it handles, named
// after the [Point]. Each call evaluates the module anew in a runtime whose
// built-ins and globalThis are frozen, so no JavaScript state survives a
// call; a global a hook writes lasts until its call ends, and built-ins cannot be changed. The Loader's documentation gives what
// an export receives and may return, and the ctx object's capabilities.
//
// [CommandHooks] turns a settings file's "hooks" list into hooks that run
// external programs, one JSON envelope on stdin and an optional decision on
// stdout. Package claudecode runs hooks written for Claude Code's
// settings, and package geminicli those of Gemini CLI.
// [Chain.DecideTrust] decides whether a project is trusted: command hooks
// may deny, the others only recommend.
package hooks
