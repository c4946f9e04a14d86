// Package otel turns the runs of a hooks chain into OpenTelemetry traces
// and metrics, in the GenAI semantic conventions: a span per run, per
// model call and per tool call, every hook decision an event on the span
// of the call it was about, and metrics of every hook invocation.
//
// Import it under a name of its own, next to the OpenTelemetry API:
//
//	tel, err := hooksotel.New(hooksotel.WithTracerProvider(tp), hooksotel.WithMeterProvider(mp))
//	if err != nil {
//		return err
//	}
//	chain, err := hooks.NewChain(append([]hooks.Hook{tel.Hook()}, myHooks...), tel.Option())
//	run, err := chain.Start(ctx, host, hooks.RunStart{Input: prompt}) // ctx's span is the run's parent
//	reply, err := run.CallModel(ctx, req, callModel)                  // a chat span
//	res, err := run.CallTool(ctx, call, runTool)                      // an execute_tool span
//	run.End(ctx, hooks.RunEnd{Output: answer})                        // ends the run's span
//
// # How it works
//
// It is built on the chain's own reports, not on a copy of its rules.
// [Telemetry.Hook] is a hook with no opinion that must come first in the
// list: its BeforeRun opens the run's span, its BeforeModelRequest and
// BeforeToolExecute open the call's span, and its after-methods, which run
// last, end them. Its wrap methods run the model or the tool with the
// call's span in the context, so that the spans a tool or a model client
// makes are children of the call's span, and end the span of a call that
// fails. [Telemetry.Option] is hooks.WithTrace([Telemetry.Record]): every
// hook invocation's hooks.TraceEvent is counted and becomes an event of
// the span of its call (tool calls are found by their ID), and a decision
// that ends a call (a refusal, a failure under FailRun) ends its span.
//
// # Spans
//
//   - "invoke_agent {agent}" (kind Internal; "invoke_agent" when the Host
//     has no Agent), a child of the span in the context given to
//     Chain.Start: gen_ai.operation.name "invoke_agent", gen_ai.agent.name,
//     gen_ai.conversation.id (Host.Session.ID), hooks.run.id,
//     hooks.run.resumed, and hooks.run.outcome at the end. Status Error
//     when the run failed or was interrupted, with the run's reason.
//   - "chat {model}" (kind Client; "chat" when the Agent names no model), a
//     child of the run's span: gen_ai.operation.name "chat",
//     gen_ai.request.model (Agent.Model), gen_ai.provider.name (see
//     [WithGenAIProvider]), hooks.response.tool_calls.
//   - "execute_tool {tool}" (kind Internal), a child of the run's span:
//     gen_ai.operation.name "execute_tool", gen_ai.tool.name,
//     gen_ai.tool.call.id, gen_ai.tool.type "function", and
//     hooks.tool.rewritten when hooks changed the arguments.
//
// A call's span covers its hooks and the call itself. Status Error, with
// error.type: "refused" (a hook refused the tool call, or blocked it under
// policy Block; the description is the reason the model reads),
// "hook_failed" (a hook failed under FailRun), "call_failed" (the tool or
// the model returned an error; an "exception" event records it),
// "tool_error" (the result the model reads is an error result),
// "unfinished" (the run ended, or was evicted, first). A model call a hook
// ended the run in ends without error, with its "ended" event.
//
// # Events
//
// Each hook decision is an event named after the decision ("changed",
// "refused", "answered", "ended", "continued", "error"; "no opinion" only
// with [WithNoOpinionEvents]) with hooks.hook, hooks.point, hooks.decision,
// hooks.duration_ms, and when they apply hooks.changed (the patch fields
// set: "arguments", "system", ...), hooks.reason, hooks.error and
// hooks.policy ("FailRun", "Report", "Block"). Decisions of BeforeRun and
// AfterRun go on the run's span; those of a call whose span is not open
// (see below) go there too, with gen_ai.tool.call.id.
//
// # Metrics
//
// hooks.invocations (a counter, {invocation}) and hooks.duration (a
// histogram, seconds), both with hooks.hook, hooks.point and
// hooks.decision, count every invocation of every hook but the adapter's
// own, with or without an opinion.
//
// # Limits
//
// A run's state is released at AfterRun; at most [DefaultMaxOpenRuns]
// runs are followed at once ([WithMaxOpenRuns]), and at most 1024 calls
// of one run are open at once (past that, a call gets no span). Model
// calls carry no ID in the trace, so the decisions of a model point go to
// the run's latest open model call: a run that calls models concurrently
// gets its model events mixed. Tool calls are told apart by their ID:
// parallel calls with the same ID may swap spans. With [hooks.InListOrder]
// the after-hooks listed after the adapter run after its span ended, and
// their decisions land on the run's span; so do those of command hooks
// that only observe an after-point (they run last whatever the order). A host that runs calls itself
// between the split methods, without Run.ExecuteTool or Run.ExecuteModel,
// should use [WithoutWraps] (see there for the price).
package otel
