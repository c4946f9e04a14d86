// Package mcpsdk runs the tool calls of an MCP server built with the
// official SDK (github.com/modelcontextprotocol/go-sdk) through a
// hooks.Chain: guards, argument rewrites, cached answers and result
// redaction apply to every tools/call a client makes.
//
//	a := mcpsdk.New(chain, mcpsdk.Options{})
//	defer a.Close(context.Background()) // after the server stopped
//	srv := mcp.NewServer(&mcp.Implementation{Name: "files", Version: "1.0.0"}, nil)
//	srv.AddReceivingMiddleware(a.Middleware())
//	mcp.AddTool(srv, &mcp.Tool{Name: "read"}, read)
//	err := srv.Run(ctx, &mcp.StdioTransport{})
//
// # Runs and sessions
//
// Each server session (*mcp.ServerSession) has one run: its first
// tools/call starts it (BeforeRun, with Host.Session.ID the session's ID,
// which is empty on stdio and in-memory transports), its later calls share
// it, also in parallel, and the session's end ends it (AfterRun, outcome
// completed). A start that failed is tried again by the next call. The
// adapter learns of a session's end from ServerSession.Wait, in one
// goroutine per session that has a run; the SDK handles no request of a
// session after Wait returns, so no call can start a run that nothing
// would end. Close ends the runs of the sessions still open, with outcome
// interrupted, for a server stopped without closing them; tool calls after
// it fail, and each waiting goroutine still returns only when its session
// ends (Server.Run closes its session when its context is cancelled).
// Close the sessions (ServerSession.Close) to end their runs as completed.
//
// # How the hooks' answers read in MCP
//
//   - A refusal (Allow false, a ToolError, a Block policy) is a tool result
//     with isError true and the reason as its only text content; the tool
//     does not run.
//   - A hook's Result answers the call without running the tool: its Text
//     is the text content (the JSON of its Value when Text is empty) and
//     its Value the structuredContent.
//   - A hook error under FailRun fails the call like a tool handler's Go
//     error from Server.AddTool: the client gets a JSON-RPC error with the
//     hook's message, and when the session ends its run ends with outcome
//     failed (the first such error).
//   - End and Continue (and Respond, System, Messages) belong to the model
//     points: an MCP server calls no model, so they never occur here.
//   - An interrupted call (its context cancelled) fails with the context's
//     error.
//
// # What the hooks see, and what reaches the tool and the client
//
// The middleware runs on tools/call only; every other method passes
// through. It runs before the server looks the tool up, so the hooks also
// see calls to tools the server does not have: a guard may refuse them and
// a hook's Result answers them (without hooks the client would get the
// SDK's "unknown tool" error).
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
// Params.Arguments holds the hooks' arguments. Typed tools (mcp.AddTool)
// validate the arguments, rewritten or not, against their input schema
// after the middleware. The handler's context is the call's own, carrying
// the run (hooks.RunFromContext).
//
// A result's text content is the hooks' ToolResult.Text (several text
// items joined by newlines) and its structuredContent their Value, decoded
// as encoding/json does. What the after-hooks leave unchanged reaches the
// client exactly as the tool gave it. A changed Text replaces the text
// items by one, where the first was; a changed Value replaces
// structuredContent, and also the text when the text was the structured
// content's JSON (as typed tools write it when they set no Content), so
// that a redaction of the Value alone leaves no copy of the secret in the
// text. A typed tool's error is an isError result, which the after-hooks
// see (and may redact).
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
//     re-encoded: numbers past float64's precision lose it. (Typed tools
//     lose it anyway: the SDK decodes their arguments to validate them.)
//   - A typed tool validates its output against its output schema before
//     the middleware sees it: a hook's rewrite of the Value is not
//     validated.
//   - MCP gives the server no ID for a tool call: hooks.ToolCall.ID is
//     empty.
//   - A raw handler's Go error, or a *jsonrpc.Error, is a JSON-RPC error,
//     not a result: the after-hooks do not see it. A result asking the
//     client for more input (multi round-trip) reaches the client as the
//     tool gave it; the client's retry is a new call for the hooks.
//   - A system-prompt injection (BeforeModelRequest) has no place on an MCP
//     server; it belongs to the client's model loop.
package mcpsdk
