// Package mcpgo runs the tool calls of an MCP server built with
// github.com/mark3labs/mcp-go through a hooks.Chain: guards, argument
// rewrites, cached answers and result redaction apply to every tools/call
// a client makes.
//
//	a := mcpgo.New(chain, mcpgo.Options{})
//	defer a.Close(context.Background()) // after the server stopped
//	srv := server.NewMCPServer("files", "1.0.0", a.ServerOptions()...)
//
// ServerOptions installs both halves: the tool middleware, and the session
// hooks that end a session's run (added to the server's own hooks; put
// them after any server.WithHooks of yours). Installed by hand, the two
// halves are Middleware and AddHooks; a tools/call on a server that runs
// the middleware without the adapter's session hooks fails with
// ErrNotInstalled, since its run would never end.
//
// # Runs and sessions
//
// Each MCP session has one run: its first tools/call starts it (BeforeRun,
// with Host.Session.ID the MCP session ID), its later calls share it, also
// in parallel, and the session's unregistration ends it (AfterRun, outcome
// completed). A start that failed is tried again by the next call. Close
// ends the runs of the sessions still registered, with outcome interrupted:
// mcp-go does not unregister every session when a server stops, so call it
// once the server has; tool calls after it fail. A call that arrives for a
// session already unregistered fails with ErrSessionEnded instead of
// starting a run that nothing would end. A call made without a session (a
// request handled outside any transport) gets a run of its own, started and
// ended with the call.
//
// # How the hooks' answers read in MCP
//
//   - A refusal (Allow false, a ToolError, a Block policy) is a tool result
//     with isError true and the reason as its only text content; the
//     handler does not run.
//   - A hook's Result answers the call without running the handler: its
//     Text is the text content (the JSON of its Value when Text is empty)
//     and its Value the structuredContent.
//   - A hook error under FailRun fails the call like a handler's error: the
//     client gets a JSON-RPC error with the hook's message, and when the
//     session ends its run ends with outcome failed (the first such error).
//   - End and Continue (and Respond, System, Messages) belong to the model
//     points: an MCP server calls no model, so they never occur here.
//   - An interrupted call (its context cancelled) fails with the context's
//     error.
//
// # What the hooks see, and what reaches the handler and the client
//
// The hooks see the arguments as the client sent them, decoded with
// hooks.ParseArguments. Arguments it refuses (not a JSON object, a key
// twice, keys that differ only in case, at any depth) are seen under
// hooks.InvalidArgumentsKey and never reach the handler: unless a hook
// replaced them, the client gets an error result naming the key, since a
// handler decoding the raw text could read a value no guard saw. The
// handler gets the request unchanged when its arguments decode to exactly
// what the hooks saw and left, so numbers past float64's precision
// (9007199254740993) reach it exactly; otherwise (a hook rewrote them)
// Params.Arguments and Params.RawArguments hold the hooks' arguments, so
// GetArguments and BindArguments agree. The handler's context is the
// call's own, carrying the run (hooks.RunFromContext).
//
// A result's text content is the hooks' ToolResult.Text (several text
// items joined by newlines) and its structuredContent their Value, decoded
// as encoding/json does. What the after-hooks leave unchanged reaches the
// client exactly as the handler gave it. A changed Text replaces the text
// items by one, where the first was; a changed Value replaces
// structuredContent, and also the text when the text was the structured
// content's JSON (as mcp.NewToolResultStructuredOnly writes it), so that a
// redaction of the Value alone leaves no copy of the secret in the text.
//
// A changed Text with an unchanged Value (a hook that redacted the text
// alone) cannot leave in structuredContent what it removed from the text:
// when the text was the structured content's JSON and the new text is a
// JSON object, structuredContent becomes the new text (mirrored);
// otherwise structuredContent is dropped and Options.Diagnostics says so
// (a tool with an output schema then fails the client's validation:
// closed, not leaking). A redaction hook rewrites both, with
// hooks.RewriteStrings.
//
// # What is lossy
//
//   - Images, audio, resource links and embedded resources pass through
//     untouched and unseen: a hook cannot redact them.
//   - Several text items become one when a hook rewrites the text.
//   - A rewritten structuredContent, and rewritten arguments, are
//     re-encoded: numbers past float64's precision lose it.
//   - mcp-go validates the arguments against the tool's input schema
//     (server.WithInputSchemaValidation) before the middleware: a hook's
//     rewrite is not validated again. Output schema validation runs after
//     the middleware, on what the hooks returned.
//   - MCP gives the server no ID for a tool call: hooks.ToolCall.ID is
//     empty.
//   - A handler's Go error is a JSON-RPC error, not a result: the
//     after-hooks do not see it (mcp.NewToolResultError results they do
//     see). A result asking the client for more input (multi round-trip)
//     reaches the client as the handler gave it; the client's retry is a
//     new call for the hooks.
//   - A system-prompt injection (BeforeModelRequest) has no place on an MCP
//     server; it belongs to the client's model loop.
package mcpgo
