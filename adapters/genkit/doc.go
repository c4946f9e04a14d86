// Package genkit runs the model calls and tool calls of a
// [Firebase Genkit] (github.com/firebase/genkit/go, v1.4.0) Generate
// through hooks.
//
// genkit owns its tool loop and hands its middleware and tools only a
// context, so the run travels in the context: start a [hooks.Run], put it
// in the context with [hooks.ContextWithRun], give that context to
// genkit.Generate with the model middleware, define the tools with
// [DefineTool] (or wrap their functions with [WrapTool]), and end the run
// when the Generate returns:
//
//	run, err := chain.Start(ctx, host, hooks.RunStart{Input: prompt})
//	if err != nil {
//		return err
//	}
//	shell := hooksgenkit.DefineTool(g, "shell", "runs a command", runShell)
//	resp, err := genkit.Generate(hooks.ContextWithRun(ctx, run), g,
//		ai.WithModel(model), ai.WithPrompt(prompt), ai.WithTools(shell),
//		ai.WithMiddleware(hooksgenkit.Middleware(g, model)))
//	var out string
//	if resp != nil {
//		out = resp.Text()
//	}
//	run.End(ctx, hooks.RunEnd{Output: out, Err: err})
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
// A streamed Generate (ai.WithStreaming) calls the model streaming, and
// holds its chunks back: the hooks run on the assembled reply, and the
// caller's callback receives the reply the hooks left as one chunk, so
// that no chunk carries what an AfterModelResponse hook (a redaction)
// removed. Tokens are not forwarded as they arrive.
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
//   - A tool's function is not told its call's ID: the middleware records
//     the tool requests of each reply, and the tool wrapper takes the one
//     of its tool whose input decodes to what the tool got, so that the
//     tool hooks see the ID the model hooks saw. A tool called without the
//     middleware, or two Generates sharing one run at once, may see an
//     empty ID; two identical calls of a reply may see each other's.
//   - A text the hooks see joins the message's text parts.
//
// [Firebase Genkit]: https://genkit.dev/
package genkit
