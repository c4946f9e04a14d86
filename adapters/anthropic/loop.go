package anthropic

import (
	"context"
	"encoding/json"
	"errors"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/rienda/hooks"
	"github.com/rienda/hooks/internal/adapt"
)

// Messages is what the loop calls the model with: *anthropic.MessageService
// (&client.Messages) is one.
type Messages interface {
	New(ctx context.Context, params sdk.MessageNewParams, opts ...option.RequestOption) (*sdk.Message, error)
}

// Tool runs one client tool. arguments is the input JSON the model sent,
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
var ErrMaxTurns = errors.New("anthropic: the loop reached its MaxTurns without a final reply")

// Loop runs a tool-calling conversation through a run's hooks: each model
// call goes through Run.CallModel, each tool call through Run.CallTool. It
// is a value to configure once and use for any number of runs.
type Loop struct {
	Messages Messages               // required: &client.Messages
	Tools    map[string]Tool        // by tool name
	MaxTurns int                    // model calls per Run; 0: DefaultMaxTurns
	Options  []option.RequestOption // passed to every Messages.New call

	// Handlers are tools, by name, that get their call: its ID and the
	// hooks' context (a name may be in Tools or Handlers, not both).
	Handlers map[string]Handler
	// Parallel is how many tool calls of one reply run at once; 0 or 1:
	// one after another. Their tool_result blocks are sent in the reply's
	// order whatever order they finish in.
	Parallel int
	// OneSystemBlock sends the system prompt as one text block even when
	// a hook added text to it. By default the original blocks are kept
	// byte for byte (their cache_control breakpoints keep hitting) and
	// the hook's text goes in a block of its own.
	OneSystemBlock bool
}

// Call is one tool call as a Handler gets it.
type Call struct {
	// ID is the model's tool_use ID (or the one the loop made for a call
	// a hook's canned answer made without one): the tool_result block
	// answering it carries it.
	ID   string
	Name string
	// Arguments are as Tool's arguments are: the model's input unless a
	// hook rewrote it. Input hooks.ParseArguments refuses never arrives:
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
	Messages []sdk.MessageParam
	// Turns counts the model calls, those a hook answered included.
	Turns int
}

// Run sends params (its Messages are the conversation so far) round the
// loop until the model gives a final reply that no hook continues, a hook
// ends the run, or an error: a hook's (a *hooks.HookError under policy
// FailRun), the model's, the context's, or ErrMaxTurns. The Result is
// filled as far as the loop went, also on an error.
//
// A reply that stopped with pause_turn (a long server tool turn) is sent
// back as it is and the model called again, as the API asks; it counts as
// a turn. Every custom tool params offers must be in Tools or Handlers:
// Run fails naming the one that is not, before any model call. A tool
// call of a hook's canned answer (Respond) without an ID gets a unique
// one.
//
// Run neither starts nor ends run: the caller does, and passes the
// outcome to run.End (RunEnd{Output: res.Output, Err: err}), so that the
// AfterRun hooks run exactly once. Tool calls of one reply run one after
// another, in the reply's order, unless Parallel allows more at once.
func (l *Loop) Run(ctx context.Context, run *hooks.Run, params sdk.MessageNewParams) (Result, error) {
	r, err := adapt.Drive(ctx, l.setup("Run", params, nil), provider{l}, run, params)
	return Result(r), err
}

// setup is what adapt.Drive checks and runs.
func (l *Loop) setup(method string, params sdk.MessageNewParams, deliver func(hooks.Chunk) error) adapt.Setup {
	_, streams := l.Messages.(StreamingMessages)
	return adapt.Setup{Adapter: "anthropic", Method: method, Client: "Messages", HasClient: l.Messages != nil,
		Streams: "NewStreaming", CanStream: streams, Deliver: deliver, Tools: adapt.Lookup(l.Tools, l.Handlers),
		Check: l.check(params), MaxTurns: l.MaxTurns, Parallel: l.Parallel, IDPrefix: "toolu_hooks_", ErrMaxTurns: ErrMaxTurns}
}

// check says which custom tool params offers that the loop has no
// function for (server tools run at the API), or which name is both a
// Tool and a Handler.
func (l *Loop) check(params sdk.MessageNewParams) error {
	offered := make([]string, 0, len(params.Tools))
	for _, t := range params.Tools {
		if t.OfTool != nil {
			offered = append(offered, t.OfTool.Name)
		}
	}
	return adapt.CheckTools("anthropic", l.Tools, l.Handlers, offered)
}

// provider is the Messages API as adapt.Run drives it.
type provider struct{ l *Loop }

func (provider) Messages(p sdk.MessageNewParams) []sdk.MessageParam { return p.Messages }

func (provider) WithMessages(p sdk.MessageNewParams, msgs []sdk.MessageParam) sdk.MessageNewParams {
	p.Messages = msgs
	return p
}

func (provider) Request(p sdk.MessageNewParams) hooks.ModelRequest { return Request(p) }

func (pr provider) Call(ctx context.Context, params sdk.MessageNewParams, req hooks.ModelRequest) (*sdk.Message, hooks.ModelResponse, error) {
	sent, err := pr.sent(params, req)
	if err != nil {
		return nil, hooks.ModelResponse{}, err
	}
	msg, err := pr.l.Messages.New(ctx, sent, pr.l.Options...)
	if err != nil {
		return nil, hooks.ModelResponse{}, err
	}
	resp, err := Response(msg)
	return msg, resp, err
}

// sent is params carrying req, as the loop sends it.
func (pr provider) sent(params sdk.MessageNewParams, req hooks.ModelRequest) (sdk.MessageNewParams, error) {
	sent, err := Params(params, req)
	if err == nil && pr.l.OneSystemBlock {
		sent.System = oneSystemBlock(sent.System)
	}
	return sent, err
}

func (provider) Assistant(msg *sdk.Message, resp hooks.ModelResponse) (sdk.MessageParam, error) {
	return AssistantMessage(msg, resp)
}

func (provider) User(text string) sdk.MessageParam { return sdk.NewUserMessage(sdk.NewTextBlock(text)) }

func (provider) RawArguments(msg *sdk.Message, id string) ([]byte, bool) {
	for _, b := range msg.Content {
		if b.Type == "tool_use" && b.ID == id {
			return b.Input, true
		}
	}
	return nil, false
}

func (provider) Paused(msg *sdk.Message) bool { return msg.StopReason == sdk.StopReasonPauseTurn }

// ToolResults is one user message with the calls' tool_result blocks.
func (provider) ToolResults(calls []hooks.ToolCall, results []hooks.ToolResult) ([]sdk.MessageParam, error) {
	blocks, err := adapt.Each(calls, results, func(call hooks.ToolCall, res hooks.ToolResult) (sdk.ContentBlockParamUnion, error) {
		return ToolResultBlock(call.ID, res)
	})
	return []sdk.MessageParam{sdk.NewUserMessage(blocks...)}, err
}

// oneSystemBlock merges blocks into one text block saying their texts
// joined, with the last block's cache_control (a breakpoint there caches
// the whole prompt).
func oneSystemBlock(blocks []sdk.TextBlockParam) []sdk.TextBlockParam {
	if len(blocks) < 2 {
		return blocks
	}
	one := sdk.TextBlockParam{Text: systemText(blocks), CacheControl: blocks[len(blocks)-1].CacheControl}
	return []sdk.TextBlockParam{one}
}
