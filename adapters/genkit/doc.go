// Package genkit runs the model calls and tool calls of a
// [Firebase Genkit] (github.com/firebase/genkit/go, v1.9) Generate through
// hooks.
//
// genkit owns its tool loop and hands its middleware and tools only a
// context, so the run travels in the context: start a [hooks.Run], put it
// in the context with [hooks.ContextWithRun], give that context to
// genkit.Generate with the [Use] middleware (ai.WithUse), and end the run
// when the Generate returns. Use puts every model call (streamed chunk by
// chunk) and every tool call, of any tool, under the hooks:
//
//	run, err := chain.Start(ctx, host, hooks.RunStart{Input: prompt})
//	if err != nil {
//		return err
//	}
//	resp, err := genkit.Generate(hooks.ContextWithRun(ctx, run), g,
//		ai.WithModel(model), ai.WithPrompt(prompt), ai.WithTools(shell),
//		ai.WithUse(hooksgenkit.Use(g, model)))
//	var out string
//	if resp != nil {
//		out = resp.Text()
//	}
//	run.End(ctx, hooks.RunEnd{Output: out, Err: err})
//
// The entry points of v1.4 still work: [Middleware] (ai.WithMiddleware,
// deprecated by genkit) for the model calls, with the tools defined by
// [DefineTool] (or wrapped by [WrapTool]). A DefineTool tool under Use runs
// its hooks once, in Use.
//
// A tool or model call whose context carries no run fails with an error
// matching [ErrNoRun]: a forgotten ContextWithRun must not run tools unguarded.
//
// # How the hooks' decisions map
//
//   - A refusal (Allow false, a [hooks.ToolError], a Block policy) is not an
//     error in genkit: the tool does not run and the model reads the reason
//     as the tool's output (a JSON string), where the tool's own output
//     would have been. genkit's tool responses carry no error flag: write
//     reasons the model understands as a refusal ("deleting files is not
//     allowed"). A Result from a hook (a cached answer) is sent the same
//     way: its Value when it has one, else its Text.
//   - Arguments: genkit's plugins decode the model's arguments before any
//     middleware sees them (the OpenAI-compatible plugin with
//     encoding/json: of a repeated key, the last value), and genkit decodes
//     them again into the tool's input type. The hooks see that input,
//     encoded as JSON: what the tool runs with, not what the model wrote.
//     An input the hooks cannot read (not a JSON object, or keys that
//     differ only in case, which a map input keeps) never reaches the
//     tool: unless a hook replaced it, the model reads why as the tool's
//     output ([hooks.ParseArguments], the rule of every adapter).
//     Arguments a hook rewrote are decoded into a new input; unchanged,
//     the tool gets genkit's own value. A tool of a struct is also guarded
//     by genkit itself: its schema refuses a property the struct lacks.
//   - Tool results: a string output is the result's Text; any other output
//     is its JSON as Text and its JSON value as Value. What the hooks left
//     goes to the model: the tool's own output when they changed nothing,
//     a Value they changed, else a Text they changed (decoded when it is
//     JSON, so a structured output stays structured). A hook rewriting
//     Text alone cannot leave a secret in the value: one output is sent.
//     [DefineTool]'s tools answer any, so that a refusal fits.
//   - Model and Tools: genkit does not tell a middleware which model it
//     wraps: [Middleware] is given it, and the hooks see its name. A hook
//     naming another model has that model called (looked up in the
//     *genkit.Genkit given to Middleware, and called directly: model
//     middleware after this one in the list is skipped for it). The tools
//     offered are genkit's tool definitions (name, description, input
//     schema); a hook that narrows, reorders, describes or adds tools
//     changes what is sent (genkit offers its tools in no fixed order).
//   - Usage and StopReason come from genkit's reply: input, output and
//     cached tokens; stop is end_turn, or tool_use when the reply asks for
//     tools (genkit's OpenAI plugin says stop for both), length is
//     max_tokens, blocked is content_filter; another reason keeps genkit's
//     word.
//   - FailRun: a hook's error (or a tool's) fails the Generate; errors.Is
//     matches [hooks.ErrHookFailed] through genkit's wrapping. Pass it to
//     Run.End as RunEnd.Err.
//   - System: the hooks see the text of the first message when it is a
//     system message (ai.WithSystem) as System, and the other messages as
//     Messages. A System the hooks changed replaces that message's text; a
//     System set where there was none is sent as a new first system
//     message; an emptied System drops it.
//   - Respond answers without calling the model: its text and tool calls
//     become the model's message (tool calls without an ID get a unique
//     one), and genkit runs the tools it asks for.
//   - End: the model is not called (or its reply is dropped) and genkit
//     receives a model message whose text is End.Output, without tool
//     requests, so the Generate returns that output.
//   - Continue: genkit's loop stops at a reply without tool requests, so
//     the middleware sends the run on itself: it calls the model again
//     with the reply and a user message holding the Continue text
//     appended (at most 20 Continues in one call), and gives genkit the
//     last reply. The exchange is in that reply's Request (so that
//     ModelResponse.History shows it) and its Metadata under
//     [ContinuedKey], from where the middleware puts it back in every
//     later call of the Generate.
//
// # Streaming
//
// A streamed Generate (ai.WithStreaming), through Use or Middleware, calls
// the model streaming (hooks.Run.StreamModel): the model's text reaches the
// callback chunk by chunk as it comes, through the stream hooks
// (hooks.StreamHook: a redaction holds back what it must, so its secret is
// in no chunk). The reply's tool requests and reasoning parts reach the
// callback in one last chunk once the AfterModelResponse hooks have run
// (no stream hook reads them). An AfterModelResponse rewrite of the text
// changes the reply genkit returns, not the chunks already delivered:
// redact with a stream hook.
//
// # Tool choice, settings, reasoning
//
// The hooks see the request's ToolChoice (auto, required, none) and, from
// its Config when it is an ai.GenerationCommonConfig (or a map with its
// keys), Settings: temperature, topP, maxOutputTokens as MaxTokens,
// stopSequences as Stop. The reply's reasoning parts are Reasoning. What
// a hook changed is sent in a copy of the config; a named tool (genkit's
// choice names none) is a required call with only that tool offered. What
// genkit's config cannot say is the call's error, and the model is not
// called: a zero in an ai.GenerationCommonConfig (genkit reads 0 as unset;
// a map config takes it), provider options in one (a map config takes
// them as keys), a config of another type, an unknown mode, a tool not
// offered, a value out of range. A Reasoning a hook changed replaces the
// reasoning parts' text (in the first one, keeping its metadata).
//
// # What is lossy
//
//   - Messages the hooks did not change reach the model as genkit's own
//     *ai.Message values, untouched. A message a hook changed is a copy of
//     genkit's: its text parts become one text part holding the new text,
//     its tool requests are rebuilt from the hooks' tool calls, and its
//     media, reasoning and other parts stay.
//   - A genkit tool message holds the responses to every call of a reply:
//     the hooks see one tool message per response, and responses they left
//     are regrouped into genkit's message. A tool message a hook changed
//     holds its Text as the output (a string).
//   - genkit messages have no ID: hooks.Message.ID is empty.
//   - Use's tool hooks see the call's ID (genkit's ToolRequest.Ref), and
//     only a tool's Output: a multipart tool's extra Content goes to the
//     model only when the hooks left the result as it was (a redaction
//     that changed the output drops it), but a hook does not read it.
//   - Under Middleware alone, a tool's function is not told its call's ID: the middleware records
//     the tool requests of each reply, and the tool wrapper takes the one
//     of its tool whose input decodes to what the tool got, so that the
//     tool hooks see the ID the model hooks saw. A tool called without the
//     middleware, or two Generates sharing one run at once, may see an
//     empty ID; two identical calls of a reply may see each other's.
//   - A text the hooks see joins the message's text parts.
//
// [Firebase Genkit]: https://genkit.dev/
package genkit
