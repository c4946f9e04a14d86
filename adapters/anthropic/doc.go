// Package anthropic runs a Messages API tool-calling loop of the official
// Go SDK (github.com/anthropics/anthropic-sdk-go/v2) through a hooks.Run.
//
// Import it under a name of its own, next to the SDK:
//
//	import (
//		"github.com/anthropics/anthropic-sdk-go/v2"
//		hooksanthropic "github.com/rienda/hooks/adapters/anthropic"
//	)
//
//	run, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{Input: question})
//	loop := hooksanthropic.Loop{Messages: &client.Messages, Tools: tools}
//	res, err := loop.Run(ctx, run, anthropic.MessageNewParams{Model: model, MaxTokens: 1024, Messages: msgs, Tools: defs})
//	run.End(ctx, hooks.RunEnd{Output: res.Output, Err: err})
//
// Hosts with a loop of their own use the conversions: Request and Params
// (the SDK's request to the hooks' and back), Response and
// AssistantMessage (the model's message to the hooks' response, and the
// reply to the message that records it), ToolResultBlock (a result to a
// tool_result block).
//
// # How the hooks map
//
//   - System is the text of params.System's blocks. Messages are the
//     request's messages, a user message's tool_result blocks each shown
//     as a "tool" message. A message whose parts no hook changed is sent
//     as its SDK value, byte for byte (images, documents, cache_control);
//     a message a hook inserted is sent as a message of its own, in place.
//     Hooks change what one model call sees; the loop's conversation
//     (Result.Messages) is not rewritten.
//   - A refusal (Allow false, a hooks.ToolError, policy Block) does not run
//     the tool: the model reads a tool_result with is_error and the reason
//     as its text. Every error result (a tool's error, IsError set by a
//     hook) sets is_error.
//   - A hook failing under policy FailRun stops Loop.Run with its
//     *hooks.HookError; the caller ends the run with it (outcome Failed).
//   - End (before or after a model call) stops the loop: Result.Ended,
//     Result.Output is End's output, and no tool of that reply runs.
//   - Continue on a final reply appends the reply and a user message with
//     Continue's text, and calls the model again.
//   - A Respond (a hook's cached answer) is used as the model's reply; its
//     tool calls run as the model's would, with input encoded from the
//     hooks' map; a call without an ID gets a unique one, so that its
//     result answers it alone.
//   - Input reaches a Tool as the model's JSON unless a hook rewrote the
//     arguments (hooks.ToolStep.Rewritten): 9007199254740993 stays
//     9007199254740993.
//   - Arguments hooks.ParseArguments refuses (a key twice, keys that
//     differ only in case, text that is not an object) never reach a
//     tool: unless a hook replaced them, the model reads an error result
//     naming the key. A tool reads the model's text only when it decodes
//     to exactly what the hooks saw and left.
//   - ToolChoice is tool_choice (auto, any as required, none, or a tool
//     by name); Settings are max_tokens, stop_sequences, temperature and
//     top_p (the SDK has no field for these two: set them with
//     params.SetExtraFields, where the hooks read and write them) and the
//     other extra fields as Provider. Unchanged, they are sent as params
//     had them; a hook's change is sent (disable_parallel_tool_use kept;
//     max_tokens, which the API requires, kept when a hook clears it); a
//     choice or setting no API accepts fails the call naming it.
//   - Thinking blocks are the reply's Reasoning (thinking deltas stream as
//     Chunk.Reasoning). They go back in the conversation intact, signature
//     and all, when no hook changed the reasoning; when a hook changed or
//     dropped it they are left out, since an altered block fails its
//     signature and the model must not read what a hook took away (with
//     extended thinking on, the API then refuses the next call of a
//     tool-use turn: redact reasoning of final replies, or in the stream).
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
// A hook that adds to System leaves the original system blocks as they
// were and sends its text as a block of its own, so that prompt caching
// keyed on the original keeps hitting. Loop.OneSystemBlock sends one
// instead, for servers that take a single system block.
//
// # What is lossy
//
//   - A part a hook changed is rebuilt from its blocks: its text blocks
//     become one (the first, keeping cache_control, losing citations),
//     other blocks stay. A message a hook wrote is plain text; consecutive
//     rebuilt parts of one role become one message.
//   - A changed System that is not the original with text added before or
//     after it becomes one block, with the last original block's
//     cache_control.
//   - The model reads a result's Text, or the JSON of its Value when Text
//     is empty; Value is not sent beside a Text.
//   - Hooks do not see redacted thinking, server tool blocks (web search,
//     code execution), images or documents; they stay in the messages.
//     Thinking in the request's history is not shown either. A
//     pause_turn reply (a long server tool turn) is sent back as it is
//     and the model called again, as the API asks: the hooks see each
//     part as a reply of its own.
package anthropic
