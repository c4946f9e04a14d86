// Package genai runs a Gemini (Gemini API or Vertex AI) function-calling
// loop of the official Go SDK (google.golang.org/genai) through a
// hooks.Run, so that Gemini models and Gemini CLI hook scripts meet in one
// program.
//
// Import it under a name of its own, next to the SDK:
//
//	import (
//		"google.golang.org/genai"
//		hooksgenai "github.com/rienda/hooks/adapters/genai"
//	)
//
//	run, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{Input: question})
//	loop := hooksgenai.Loop{Models: client.Models, Tools: tools}
//	res, err := loop.Run(ctx, run, hooksgenai.Params{Model: model, Contents: contents, Config: config})
//	run.End(ctx, hooks.RunEnd{Output: res.Output, Err: err})
//
// Loop.RunStream streams every model call through the stream hooks;
// StreamModel streams one call for a host with a loop of its own, which
// uses the conversions: Request and Build (a call to the hooks' request
// and back), Response and AssistantMessage (a response to the hooks', and
// the reply to the content that records it), FunctionResponsePart (a
// result to a functionResponse part).
//
// # How the hooks map
//
//   - System is the text of Config.SystemInstruction. Messages are the
//     contents, a user content's functionResponse parts each shown as a
//     "tool" message; Model is Params.Model; Tools are Config.Tools'
//     function declarations (and each built-in tool by its JSON name). A
//     hook that narrows the tools or switches the model changes what is
//     sent; a content whose parts no hook changed is sent as the caller's
//     value. Hooks change what one model call sees; the loop's
//     conversation (Result.Contents) is not rewritten.
//   - A refusal (Allow false, a hooks.ToolError, policy Block) does not run
//     the function: the model reads {"error": reason} as its response. A
//     tool's error, or IsError set by a hook, is {"error": ...} too.
//   - A hook failing under policy FailRun stops Loop.Run with its
//     *hooks.HookError; the caller ends the run with it.
//   - End (before or after a model call) stops the loop: Result.Ended,
//     Result.Output is End's output, and no function of that reply runs.
//   - Continue on a final reply appends the reply and a user content with
//     Continue's text, and calls the model again.
//   - Gemini may send a function call without an ID: the loop gives it a
//     unique one (call_hooks_...), which the hooks, the tool, and the call
//     and response sent back all carry.
//   - Usage is the usage metadata (input: prompt and tool-use prompt
//     tokens, cached ones included; output: candidates and thoughts);
//     StopReason the finish reason in the hooks' words.
//   - ToolChoice is the function calling config (AUTO: auto, NONE: none,
//     ANY: required, with the one function it allows as Name; VALIDATED
//     reads as auto); Settings are temperature, topP, maxOutputTokens,
//     stopSequences and HTTPOptions.ExtraBody as Provider. Unchanged,
//     they are sent as the Config had them; a hook's change is sent (on a
//     copy of the Config); a choice or setting no API accepts fails the
//     call naming it.
//   - Thought parts (ThinkingConfig.IncludeThoughts) are the reply's
//     Reasoning and stream as Chunk.Reasoning. They go back in the
//     conversation when no hook changed the reasoning, and are left out
//     when one did; the signatures on other parts (a function call's)
//     stay.
//
// # What is lossy
//
//   - The SDK decodes a call's args into Go values before anything else
//     sees them: numbers are float64 (9007199254740993 arrives as
//     9007199254740992), and of a key sent twice the last one is kept.
//     Keys that differ only in case are refused as everywhere else.
//   - A part a hook changed is rebuilt from its parts: its text parts
//     become one (the first), other parts (images, files, thoughts and
//     their signatures) stay. A changed function call keeps its thought
//     signature. A "system" message a hook inserts is sent as a user
//     content (Gemini contents have no system role).
//   - The model reads a result's Text, or its Value when Text is empty.
//   - Thinking settings (ThinkingConfig) and the other generation
//     settings (topK, penalties, seed, ...) are not in the hooks' request:
//     they are sent as the Config has them. Several allowed functions
//     under ANY read as required; the names are sent as they were unless
//     a hook changes the choice (allowed names no longer offered are
//     dropped).
package genai
