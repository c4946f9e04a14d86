// Package openai runs a chat-completions tool-calling loop of the official
// Go SDK (github.com/openai/openai-go/v3) through a hooks.Run.
//
// Import it under a name of its own, next to the SDK:
//
//	import (
//		"github.com/openai/openai-go/v3"
//		hooksopenai "github.com/rienda/hooks/adapters/openai"
//	)
//
//	run, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{Input: question})
//	loop := hooksopenai.Loop{Completions: &client.Chat.Completions, Tools: tools}
//	res, err := loop.Run(ctx, run, openai.ChatCompletionNewParams{Model: model, Messages: msgs, Tools: defs})
//	run.End(ctx, hooks.RunEnd{Output: res.Output, Err: err})
//
// Hosts with a loop of their own use the conversions: Request and Params
// (the SDK's request to the hooks' and back), Response and
// AssistantMessage (the completion to the hooks' response, and the reply
// to the message that records it), ToolMessage (a result to the tool
// message).
//
// # How the hooks map
//
//   - System is the text of the leading system and developer messages.
//     Messages are the others; each keeps its SDK value, and a message no
//     hook changed is sent as that value, byte for byte (images, files,
//     names, prompt cache breakpoints). Hooks change what one model call
//     sees; the loop's conversation (Result.Messages) is not rewritten.
//   - A refusal (Allow false, a hooks.ToolError, policy Block) does not run
//     the tool: the model reads a tool message "Error: <reason>". Tool
//     messages have no error flag, so every error result (a refusal, a
//     tool's error, IsError set by a hook) is sent with ErrorPrefix.
//   - A hook failing under policy FailRun stops Loop.Run with its
//     *hooks.HookError; the caller ends the run with it (outcome Failed).
//   - End (before or after a model call) stops the loop: Result.Ended,
//     Result.Output is End's output, and no tool of that reply runs.
//   - Continue on a final reply appends the reply and a user message with
//     Continue's text, and calls the model again.
//   - A Respond (a hook's cached answer) is used as the model's reply; its
//     tool calls run as the model's would, with arguments encoded from the
//     hooks' map; a call without an ID gets a unique one, so that its
//     result answers it alone.
//   - Arguments reach a Tool as the model's JSON text unless a hook
//     rewrote them (hooks.ToolStep.Rewritten): 9007199254740993 stays
//     9007199254740993.
//   - Arguments hooks.ParseArguments refuses (a key twice, keys that
//     differ only in case, text that is not an object) never reach a
//     tool: unless a hook replaced them, the model reads an error result
//     naming the key. A tool reads the model's text only when it decodes
//     to exactly what the hooks saw and left.
//   - ToolChoice is tool_choice (auto, none, required, or a function or
//     custom tool by name; allowed_tools reads as its mode); Settings are
//     temperature, top_p, max_completion_tokens (or max_tokens when only
//     it is set, and a change is sent in the same spelling), stop, and
//     the params' extra fields (SetExtraFields) as Provider. Unchanged,
//     they are sent as params had them; a hook's change is sent; a choice
//     or setting no API accepts fails the call naming it. The Responses
//     API (ResponsesRequest/ResponsesParams) maps the same, with
//     max_output_tokens; it has no stop sequences, so a hook that sets
//     Settings.Stop fails the call.
//   - Reasoning: a chat reply's reasoning_content (or reasoning), which
//     OpenAI-compatible servers of reasoning models send, and a Responses
//     reply's reasoning summaries, are ModelResponse.Reasoning, and their
//     deltas stream as Chunk.Reasoning. The official chat API returns no
//     reasoning text. Reasoning is not sent back in the conversation.
//
// # Tools
//
// Loop.Tools get the arguments; Loop.Handlers (a Handler per name) also
// get the call's ID and its *hooks.Context (RunID, OriginalCall,
// Rewritten). Every tool params offers must have one or the other: Run
// fails naming the one missing before calling the model. Loop.Parallel
// runs up to that many tool calls of one reply at once; the results are
// sent in the reply's order.
//
// A hook that adds to System leaves the original system messages as they
// were and sends its text as a message of its own, so that prompt caching
// keyed on the original keeps hitting. Loop.OneSystemMessage sends one
// instead, for servers that take a single system message.
//
// # What is lossy
//
//   - A message a hook changed is rebuilt from its SDK value: its text
//     parts become one (the first, with its other fields), other parts
//     stay. A message a hook wrote is a plain text message; its tool calls
//     are function calls.
//   - A changed System that is not the original with text added before or
//     after it replaces all leading system messages with one.
//   - The model reads a result's Text, or the JSON of its Value when Text
//     is empty; Value is not sent beside a Text.
//   - Custom (free-form) tool calls show the hooks one argument,
//     CustomInputKey; only the first choice of a completion is used;
//     hooks do not see audio, annotations or logprobs. The recorded reply
//     is the SDK's own ToParam of the message (which keeps the audio id
//     and drops annotations), with the hooks' text.
package openai
