// Package eino runs the tool calls and chat-model calls of a
// [github.com/cloudwego/eino] agent through hooks.
//
// eino owns its loop and hands its components only a context, so the run
// travels in the context: start a [hooks.Run], put it in the context with
// [hooks.ContextWithRun], give that context to the runner, and end the run when
// the agent's events are drained. [Middleware] is one eino
// ChatModelAgentMiddleware (eino v0.9) that puts the agent's model calls and
// all its tool calls (string, streaming and enhanced tools) under the hooks:
//
//	run, err := chain.Start(ctx, host, hooks.RunStart{Input: query})
//	if err != nil {
//		return err
//	}
//	agent, err := adk.NewChatModelAgent(ctx, &adk.ChatModelAgentConfig{
//		Name: "helper", Description: "helps", Instruction: "You are helpful.",
//		Model:       chatModel,
//		ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{Tools: tools}},
//		Handlers:    []adk.ChatModelAgentMiddleware{eino.Middleware()},
//	})
//	// …
//	iter := adk.NewRunner(ctx, adk.RunnerConfig{Agent: agent}).
//		Query(hooks.ContextWithRun(ctx, run), query)
//	var runErr error
//	for ev, ok := iter.Next(); ok; ev, ok = iter.Next() {
//		if ev.Err != nil {
//			runErr = ev.Err
//		}
//	}
//	run.End(ctx, hooks.RunEnd{Err: runErr})
//
// The middleware does not start or end the run itself: eino calls
// AfterAgent only when the agent succeeds, so a run it started would never
// end on an error; the host, which reads the last event, ends it. The
// entry points of eino v0.7, [WrapModel] (Model: eino.WrapModel(chatModel))
// and [ToolMiddleware] (in ToolsNodeConfig.ToolCallMiddlewares), still work
// and do the same for a graph that is not a ChatModelAgent; use one way or
// the other, not both, or the hooks run twice.
//
// A tool or model call whose context carries no run fails with an error
// matching [ErrNoRun]: a forgotten ContextWithRun must not run tools unguarded.
//
// # How the hooks' decisions map
//
//   - A refusal (Allow false, a [hooks.ToolError], a Block policy) is not an
//     error in eino: the tool does not run and the model reads the reason as
//     the tool's result text, exactly as a tool's own answer would read.
//     eino's tool messages carry no error flag, so IsError is not sent:
//     write reasons the model understands as a refusal ("deleting files is
//     not allowed"). A Result from a hook (a cached answer) is sent the same
//     way, and the tool does not run.
//   - Arguments a hook rewrote are encoded again as JSON; arguments no hook
//     rewrote reach the tool as the model wrote them, byte for byte (a number
//     like 9007199254740993 keeps its digits). Arguments the hooks cannot
//     read ([hooks.ParseArguments] fails: broken JSON, not an object, keys
//     that repeat or differ only in case) reach the hooks as the text under
//     [hooks.InvalidArgumentsKey], and never reach the tool as they are:
//     unless a hook rewrote them (or answered), the tool does not run and
//     the model reads the parse error as its result, so that no tool runs
//     a call its guards could not see.
//   - Model and Tools: the hooks see the model a call names
//     (model.WithModel; "" when no option names it: the model's own
//     configuration decides) and the tools offered (bound with WithTools,
//     or given by model.WithTools), each with its JSON schema. A hook that
//     changes them adds model.WithModel / model.WithTools to that call's
//     options, after the caller's: a model that honours eino's common
//     options (eino-ext's do) is called with the hook's choice. Unchanged,
//     no option is added. Usage and StopReason come from the reply's
//     ResponseMeta (OpenAI's finish reasons mapped: stop is end_turn,
//     tool_calls tool_use, length max_tokens).
//   - ToolChoice, Settings, Reasoning: the hooks see eino's common options
//     model.WithToolChoice (forbidden is none, allowed auto, forced
//     required; forced with one allowed tool name is that tool's Name),
//     WithTemperature, WithTopP, WithMaxTokens and WithStop (nil when no
//     option says; float32 options read as written, 0.7 not 0.699999…), and
//     the reply's ReasoningContent as Reasoning. What a hook changed is
//     added as those options after the caller's; a named tool is a forced
//     call allowed only that tool, which must be offered. What eino's
//     options cannot say is the call's error, and the model is not called:
//     unsetting a setting, Settings.Provider (eino's provider options are
//     typed per model), an unknown mode, a value out of range. A
//     Reasoning a hook changed (a redaction) replaces ReasoningContent.
//   - FailRun: a hook's error (or a tool's) is returned to eino, which stops
//     the graph; the agent's last event carries it (errors.Is matches
//     [hooks.ErrHookFailed]). Pass it to Run.End as RunEnd.Err.
//   - System: the hooks see the text of the first message when it is a
//     system message (a ChatModelAgent's Instruction) as System, and the
//     other messages as Messages. A System the hooks changed replaces that
//     message (a copy: eino's is not modified); a System set where there was
//     none is sent as a new first system message; an emptied System drops it.
//   - Respond answers without calling the model: its text and tool calls
//     become the assistant message eino receives (tool calls without an ID
//     get one, since eino matches tool results by ID).
//   - End: the model is not called (or its reply is dropped) and eino
//     receives an assistant message whose text is End.Output, without tool
//     calls, so the agent stops with that output.
//   - Continue: eino's loop stops at a reply without tool calls, so the
//     model wrapper sends the run on itself: it calls the model again, with
//     the reply and a user message holding the Continue text appended, and
//     gives eino the last reply (at most 20 Continues in one call; more is
//     an error). eino's history holds only that last reply: the exchange
//     travels in its Extra under [ContinuedKey], and the wrapper puts it
//     back in front of the reply in every later call, so that the model and
//     the hooks see the conversation a host loop would have sent.
//
// # What is lossy
//
//   - Messages the hooks did not change reach the model as eino's own
//     *schema.Message values, untouched. A message a hook changed is a copy
//     of eino's with the changed fields set: its text goes to Content, or to
//     the first text part when the message has text parts (the other text
//     parts are dropped; images, files, Extra and ResponseMeta stay).
//     Tool calls keep their Type, Index and Extra when the hooks kept their
//     ID; their arguments are re-encoded only when a hook changed them.
//   - hooks.Message.ID is the ID an eino agent gives each message of its
//     history (adk.GetMessageID); "" for messages outside an agent. A hook
//     cannot change it.
//   - A text hooks see joins Content and every text part with newlines.
//   - A streamed model call is not collected: Stream forwards the model's
//     text chunk by chunk as it comes, through the stream hooks
//     (hooks.StreamHook: a redaction holds back what it must), and sends
//     the reply's tool calls and reasoning (ReasoningContent) in one last
//     chunk once the AfterModelResponse hooks have run (no tool call when
//     a hook ended the run).
//     An AfterModelResponse rewrite of the text changes the reply, not the
//     text eino already received: redact with a stream hook.
//   - Streamable tools (a tool's own stream, not the model's) are
//     collected, then replayed: their result goes
//     through the hooks once complete, and eino receives it as one chunk,
//     so that an AfterToolExecute hook (a redaction) sees and changes all
//     of it.
//   - Structured tool results (tools implementing eino's
//     EnhancedInvokableTool or EnhancedStreamableTool) reach the hooks as
//     Text (their text parts) and Value (the *schema.ToolResult as JSON
//     types: {"parts": [{"type": "text", "text": …}, …]}). A Value a hook
//     changed is decoded back into a schema.ToolResult (numbers in a part's
//     Extra come back as float64); a Text a hook changed replaces the text
//     parts, so a redaction of either reaches the model. A string tool's
//     result is only text: a Value set on it is dropped.
//   - A hook's IsError is not sent (see refusals above).
//   - eino's callbacks: a model call is reported once, with the messages
//     eino gave and the reply the hooks left (an agent's events come from
//     there, so they show a redacted reply). A wrapped model that reports
//     itself keeps only eino's global handlers (tracing), which see what
//     the model was really sent and said. eino's per-tool callbacks run
//     inside the middleware: they see the arguments the tool runs with and
//     its result before the AfterToolExecute hooks, and nothing for a call
//     a hook refused or answered. The agent's tool events come from
//     outside it, and show what the model reads.
//   - A Continue exchange is not in eino's history or events as messages
//     of their own: only in the Extra of the reply that follows it (see
//     [ContinuedKey]); code reading eino's history directly misses it.
package eino
