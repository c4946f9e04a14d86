package openai

import (
	"context"
	"encoding/json"
	"errors"

	oai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/rienda/hooks"
	"github.com/rienda/hooks/internal/adapt"
)

// Completions is what the loop calls the model with:
// *openai.ChatCompletionService (&client.Chat.Completions) is one.
type Completions interface {
	New(ctx context.Context, body oai.ChatCompletionNewParams, opts ...option.RequestOption) (*oai.ChatCompletion, error)
}

// Tool runs one function tool. arguments is the JSON text the model sent,
// untouched (numbers past float64's precision included), unless a hook
// rewrote the arguments: then it is the hooks' arguments, encoded. ctx is
// the context given to Loop.Run, carrying the run (hooks.RunFromContext).
//
// An error is the result the model reads (IsError, the error's message),
// after the AfterToolExecute hooks, so that they may redact it; only an
// error while ctx is done stops the loop.
type Tool func(ctx context.Context, arguments json.RawMessage) (hooks.ToolResult, error)

// DefaultMaxTurns bounds a Loop whose MaxTurns is zero.
const DefaultMaxTurns = adapt.DefaultMaxTurns

// ErrMaxTurns is the error of a loop that made MaxTurns model calls
// without a final reply.
var ErrMaxTurns = errors.New("openai: the loop reached its MaxTurns without a final reply")

// Loop runs a tool-calling conversation through a run's hooks: each model
// call goes through Run.CallModel, each tool call through Run.CallTool. It
// is a value to configure once and use for any number of runs.
type Loop struct {
	Completions Completions            // required: &client.Chat.Completions
	Tools       map[string]Tool        // by function name
	MaxTurns    int                    // model calls per Run; 0: DefaultMaxTurns
	Options     []option.RequestOption // passed to every Completions.New call

	// Handlers are tools, by function name, that get their call: its ID
	// and the hooks' context (a name may be in Tools or Handlers, not
	// both).
	Handlers map[string]Handler
	// Parallel is how many tool calls of one reply run at once; 0 or 1:
	// one after another. Their results are sent in the reply's order
	// whatever order they finish in.
	Parallel int
	// OneSystemMessage sends the system prompt as one message even when a
	// hook added text to it. By default the original system messages are
	// kept byte for byte and the hook's text goes in a message of its own
	// (a prompt cache keyed on the original keeps hitting); servers that
	// accept a single system message (many OpenAI-compatible ones) need
	// OneSystemMessage.
	OneSystemMessage bool
}

// Call is one tool call as a Handler gets it.
type Call struct {
	// ID is the model's ID of the call (or the one the loop made for a
	// call a hook's canned answer made without one): the tool message
	// answering it carries it.
	ID   string
	Name string
	// Arguments are as Tool's arguments are: the model's text unless a
	// hook rewrote them. Text hooks.ParseArguments refuses never arrives:
	// the model reads the refusal instead.
	Arguments json.RawMessage
}

// Handler runs one tool call. c is the call's hooks context (a
// context.Context carrying the run: c.RunID, c.OriginalCall, c.Rewritten,
// c.Log); an error is read as Tool's is.
type Handler func(c *hooks.Context, call Call) (hooks.ToolResult, error)

// Result is where a loop stopped.
type Result struct {
	// Output is the final reply's text after the hooks, or the output of
	// the End a hook returned.
	Output string
	// Ended reports that a hook ended the run (End) rather than the model
	// giving a final reply.
	Ended bool
	// Messages are params' messages followed by the turns the loop
	// completed: each reply as the hooks left it, tool results and
	// Continue messages. A request a hook changed is not in it: hooks
	// change what one model call sees, not the conversation.
	Messages []oai.ChatCompletionMessageParamUnion
	// Turns counts the model calls, those a hook answered included.
	Turns int
}

// Run sends params (its Messages are the conversation so far) round the
// loop until the model gives a final reply that no hook continues, a hook
// ends the run, or an error: a hook's (a *hooks.HookError under policy
// FailRun), the model's, the context's, or ErrMaxTurns. The Result is
// filled as far as the loop went, also on an error.
//
// Every function tool params offers must be in Tools or Handlers: Run
// fails naming the one that is not, before any model call. A tool call
// of a hook's canned answer (Respond) without an ID gets a unique one.
//
// Run neither starts nor ends run: the caller does, and passes the
// outcome to run.End (RunEnd{Output: res.Output, Err: err}), so that the
// AfterRun hooks run exactly once. Tool calls of one reply run one after
// another, in the reply's order, unless Parallel allows more at once.
func (l *Loop) Run(ctx context.Context, run *hooks.Run, params oai.ChatCompletionNewParams) (Result, error) {
	r, err := adapt.Drive(ctx, l.setup("Run", params, nil), provider{l}, run, params)
	return Result(r), err
}

// setup is what adapt.Drive checks and runs.
func (l *Loop) setup(method string, params oai.ChatCompletionNewParams, deliver func(hooks.Chunk) error) adapt.Setup {
	_, streams := l.Completions.(StreamingCompletions)
	return adapt.Setup{Adapter: "openai", Method: method, Client: "Completions", HasClient: l.Completions != nil,
		Streams: "NewStreaming", CanStream: streams, Deliver: deliver, Tools: adapt.Lookup(l.Tools, l.Handlers),
		Check: l.check(params), MaxTurns: l.MaxTurns, Parallel: l.Parallel, IDPrefix: "call_hooks_", ErrMaxTurns: ErrMaxTurns}
}

// check says which tool params offers that the loop has no function for,
// or which name is both a Tool and a Handler.
func (l *Loop) check(params oai.ChatCompletionNewParams) error {
	offered := make([]string, 0, len(params.Tools))
	for _, t := range params.Tools {
		if name := toolSpec(t).Name; name != "" {
			offered = append(offered, name)
		}
	}
	return adapt.CheckTools("openai", l.Tools, l.Handlers, offered)
}

// provider is the Chat Completions API as adapt.Run drives it.
type provider struct{ l *Loop }

func (provider) Messages(p oai.ChatCompletionNewParams) []oai.ChatCompletionMessageParamUnion {
	return p.Messages
}

func (provider) WithMessages(p oai.ChatCompletionNewParams, msgs []oai.ChatCompletionMessageParamUnion) oai.ChatCompletionNewParams {
	p.Messages = msgs
	return p
}

func (provider) Request(p oai.ChatCompletionNewParams) hooks.ModelRequest { return Request(p) }

func (pr provider) Call(ctx context.Context, params oai.ChatCompletionNewParams, req hooks.ModelRequest) (*oai.ChatCompletion, hooks.ModelResponse, error) {
	sent, err := pr.sent(params, req)
	if err != nil {
		return nil, hooks.ModelResponse{}, err
	}
	completion, err := pr.l.Completions.New(ctx, sent, pr.l.Options...)
	if err != nil {
		return nil, hooks.ModelResponse{}, err
	}
	resp, err := Response(completion)
	return completion, resp, err
}

// sent is params carrying req, as the loop sends it.
func (pr provider) sent(params oai.ChatCompletionNewParams, req hooks.ModelRequest) (oai.ChatCompletionNewParams, error) {
	sent, err := Params(params, req)
	if err == nil && pr.l.OneSystemMessage {
		sent.Messages = oneSystemMessage(sent.Messages)
	}
	return sent, err
}

func (provider) Assistant(c *oai.ChatCompletion, resp hooks.ModelResponse) (oai.ChatCompletionMessageParamUnion, error) {
	return AssistantMessage(c, resp)
}

func (provider) User(text string) oai.ChatCompletionMessageParamUnion { return oai.UserMessage(text) }

func (provider) RawArguments(c *oai.ChatCompletion, id string) ([]byte, bool) {
	raw, ok := modelArguments(c, id)
	return []byte(raw), ok
}

func (provider) Paused(*oai.ChatCompletion) bool { return false }

func (provider) ToolResults(calls []hooks.ToolCall, results []hooks.ToolResult) ([]oai.ChatCompletionMessageParamUnion, error) {
	return adapt.Each(calls, results, func(call hooks.ToolCall, res hooks.ToolResult) (oai.ChatCompletionMessageParamUnion, error) {
		return ToolMessage(call.ID, res)
	})
}

// modelArguments is the argument text the model sent for the function
// call id, if the model (not a hook) made it.
func modelArguments(c *oai.ChatCompletion, id string) (string, bool) {
	if c == nil || len(c.Choices) == 0 {
		return "", false
	}
	for _, tc := range c.Choices[0].Message.ToolCalls {
		if tc.ID == id && tc.Type != "custom" {
			return tc.Function.Arguments, true
		}
	}
	return "", false
}

// oneSystemMessage merges the system and developer messages that open
// msgs into one, of the first one's role, saying their texts joined.
func oneSystemMessage(msgs []oai.ChatCompletionMessageParamUnion) []oai.ChatCompletionMessageParamUnion {
	lead := leadingSystem(msgs)
	if lead < 2 {
		return msgs
	}
	one := oai.SystemMessage(systemText(msgs[:lead]))
	if msgs[0].OfDeveloper != nil {
		one = oai.DeveloperMessage(systemText(msgs[:lead]))
	}
	return append([]oai.ChatCompletionMessageParamUnion{one}, msgs[lead:]...)
}
