package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/rienda/hooks"
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
const DefaultMaxTurns = 32

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
}

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
// Run neither starts nor ends run: the caller does, and passes the
// outcome to run.End (RunEnd{Output: res.Output, Err: err}), so that the
// AfterRun hooks run exactly once. Tool calls of one reply run one after
// another, in the reply's order.
func (l *Loop) Run(ctx context.Context, run *hooks.Run, params sdk.MessageNewParams) (Result, error) {
	if l.Messages == nil {
		return Result{}, errors.New("anthropic: Loop.Messages is nil")
	}
	if run == nil {
		return Result{}, errors.New("anthropic: Loop.Run needs a run (hooks.Chain.Start)")
	}
	ctx = hooks.NewContext(ctx, run)
	limit := l.MaxTurns
	if limit <= 0 {
		limit = DefaultMaxTurns
	}
	res := Result{Messages: slices.Clone(params.Messages)}
	for res.Turns < limit {
		params.Messages = res.Messages
		reply, answer, err := l.callModel(ctx, run, params)
		res.Turns++
		if err != nil {
			return res, err
		}
		if reply.End != nil {
			res.Output, res.Ended = reply.End.Output, true
			return res, nil
		}
		msg, err := AssistantMessage(answer, reply.Response)
		if err != nil {
			return res, err
		}
		res.Messages = append(res.Messages, msg)
		res.Output = reply.Response.Text
		if len(reply.Response.ToolCalls) == 0 {
			if reply.Continue == "" {
				return res, nil
			}
			res.Messages = append(res.Messages, sdk.NewUserMessage(sdk.NewTextBlock(reply.Continue)))
			continue
		}
		if res.Messages, err = l.callTools(ctx, run, answer, reply.Response.ToolCalls, res.Messages); err != nil {
			return res, err
		}
	}
	return res, ErrMaxTurns
}

// callModel makes one model call through the hooks. msg is nil when a hook
// answered or ended the run.
func (l *Loop) callModel(ctx context.Context, run *hooks.Run, params sdk.MessageNewParams) (hooks.ModelReply, *sdk.Message, error) {
	var msg *sdk.Message
	reply, err := run.CallModel(ctx, Request(params), func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
		sent, err := Params(params, req)
		if err != nil {
			return hooks.ModelResponse{}, err
		}
		// c.Context, never c: the SDK may keep its context past this call.
		if msg, err = l.Messages.New(c.Context, sent, l.Options...); err != nil {
			return hooks.ModelResponse{}, err
		}
		return Response(msg)
	})
	return reply, msg, err
}

// callTools runs a reply's tool calls through the hooks and appends one
// user message with their tool_result blocks to msgs.
func (l *Loop) callTools(ctx context.Context, run *hooks.Run, msg *sdk.Message,
	calls []hooks.ToolCall, msgs []sdk.MessageParam) ([]sdk.MessageParam, error) {
	results := make([]sdk.ContentBlockParamUnion, 0, len(calls))
	for _, call := range calls {
		raw, haveRaw := modelInput(msg, call.ID)
		res, err := run.CallTool(ctx, call, l.toolFunc(raw, haveRaw))
		if err != nil {
			return msgs, err
		}
		block, err := ToolResultBlock(call.ID, res)
		if err != nil {
			return msgs, err
		}
		results = append(results, block)
	}
	return append(msgs, sdk.NewUserMessage(results...)), nil
}

// modelInput is the input JSON the model sent for the tool_use id, if the
// model (not a hook) made it.
func modelInput(msg *sdk.Message, id string) (json.RawMessage, bool) {
	if msg == nil {
		return nil, false
	}
	for _, b := range msg.Content {
		if b.Type == "tool_use" && b.ID == id {
			return b.Input, true
		}
	}
	return nil, false
}

// toolFunc runs the named tool with the model's input JSON, or with the
// hooks' arguments when a hook rewrote them (or there is no model input).
func (l *Loop) toolFunc(raw json.RawMessage, haveRaw bool) hooks.ToolFunc {
	return func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		tool, ok := l.Tools[call.Name]
		if !ok {
			return hooks.ToolResult{Text: fmt.Sprintf("unknown tool %q", call.Name), IsError: true}, nil
		}
		args := raw
		if c.Rewritten() || !haveRaw {
			var err error
			if args, err = EncodeArguments(call.Arguments); err != nil {
				return hooks.ToolResult{Text: fmt.Sprintf("arguments of %q: %v", call.Name, err), IsError: true}, nil
			}
		}
		res, err := tool(c.Context, args) // c.Context, never c: the tool may keep it
		if err != nil {
			if c.Context.Err() != nil {
				return res, err
			}
			return hooks.ToolResult{Text: err.Error(), IsError: true}, nil
		}
		return res, nil
	}
}
