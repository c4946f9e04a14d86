package adapt

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/rienda/hooks"
)

// Provider is what the tool-calling loop needs of one model SDK. P is the
// SDK's request parameters, M a message of its conversation, R its reply
// (a pointer; nil when a hook answered instead of the model).
type Provider[P, M any, R comparable] interface {
	// Messages and WithMessages read and replace params' conversation.
	Messages(params P) []M
	WithMessages(params P, msgs []M) P
	// Request converts params into the request the hooks see.
	Request(params P) hooks.ModelRequest
	// Call sends params, carrying the request the hooks left, to the model.
	Call(ctx context.Context, params P, req hooks.ModelRequest) (R, hooks.ModelResponse, error)
	// Assistant records a reply in the conversation.
	Assistant(reply R, resp hooks.ModelResponse) (M, error)
	// User is a user message saying text (a hook's Continue).
	User(text string) M
	// RawArguments is the argument text the model sent for the call id.
	RawArguments(reply R, id string) ([]byte, bool)
	// Paused reports a reply the provider paused mid-turn (Anthropic's
	// pause_turn): it is sent back as it is to go on.
	Paused(reply R) bool
	// ToolResults are the messages answering calls with results, in order.
	ToolResults(calls []hooks.ToolCall, results []hooks.ToolResult) ([]M, error)
}

// Streamer is a Provider that can stream a call: Stream is Call, with the
// reply's chunks passed to yield as they come.
type Streamer[P any, R comparable] interface {
	Stream(c *hooks.Context, params P, req hooks.ModelRequest, yield func(hooks.Chunk) error) (R, hooks.ModelResponse, error)
}

// ToolRunner runs one tool call: id is the call's ID, args the JSON
// ForTool chose. c is the tool's hooks context.
type ToolRunner func(c *hooks.Context, id string, args json.RawMessage) (hooks.ToolResult, error)

// Loop is the configuration of one tool-calling loop.
type Loop struct {
	Tools    func(name string) (ToolRunner, bool) // the tool of a name
	MaxTurns int                                  // model calls per Run (> 0)
	Parallel int                                  // tool calls of one reply run at once; < 2: one after another
	IDPrefix string                               // the start of IDs made for a hook's tool calls
	Deliver  func(hooks.Chunk) error              // non-nil: stream every model call to it (the Provider is a Streamer)
}

// Result is where a loop stopped; see the adapters' Result.
type Result[M any] struct {
	Output   string
	Ended    bool
	Messages []M
	Turns    int
}

// Run runs params round the loop (see the adapters' Loop.Run). It returns
// maxTurns when the loop reached l.MaxTurns.
func Run[P, M any, R comparable](ctx context.Context, l Loop, p Provider[P, M, R], run *hooks.Run, params P, maxTurns error) (Result[M], error) {
	ctx = hooks.ContextWithRun(ctx, run)
	res := Result[M]{Messages: slices.Clone(p.Messages(params))}
	for res.Turns < l.MaxTurns {
		params = p.WithMessages(params, res.Messages)
		var reply R
		step, err := callModel(ctx, l, p, run, params, &reply)
		res.Turns++
		if err != nil {
			return res, err
		}
		if step.End != nil {
			res.Output, res.Ended = step.End.Output, true
			return res, nil
		}
		resp := step.Response
		resp.ToolCalls = FillCallIDs(resp.ToolCalls, l.IDPrefix)
		msg, err := p.Assistant(reply, resp)
		if err != nil {
			return res, err
		}
		res.Messages = append(res.Messages, msg)
		res.Output = resp.Text
		if len(resp.ToolCalls) == 0 {
			var zero R
			switch {
			case reply != zero && p.Paused(reply):
				continue // sent back as it is: the provider goes on with its turn
			case step.Continue == "":
				return res, nil
			}
			res.Messages = append(res.Messages, p.User(step.Continue))
			continue
		}
		results, err := callTools(ctx, l, p, run, reply, resp.ToolCalls)
		if err != nil {
			return res, err
		}
		msgs, err := p.ToolResults(resp.ToolCalls, results)
		if err != nil {
			return res, err
		}
		res.Messages = append(res.Messages, msgs...)
	}
	return res, maxTurns
}

// callModel makes one model call through the hooks, streamed to
// l.Deliver when it is set; reply is the provider's.
func callModel[P, M any, R comparable](ctx context.Context, l Loop, p Provider[P, M, R], run *hooks.Run, params P, reply *R) (hooks.ModelReply, error) {
	if l.Deliver != nil {
		s, ok := p.(Streamer[P, R])
		if !ok {
			return hooks.ModelReply{}, errors.New("the loop's provider cannot stream")
		}
		return run.StreamModel(ctx, p.Request(params), func(c *hooks.Context, req hooks.ModelRequest, yield func(hooks.Chunk) error) (hooks.ModelResponse, error) {
			r, resp, err := s.Stream(c, params, req, yield)
			*reply = r
			return resp, err
		}, l.Deliver)
	}
	return run.CallModel(ctx, p.Request(params), func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
		// c.Context, never c: an SDK may keep its context past this call.
		r, resp, err := p.Call(c.Context, params, req)
		*reply = r
		return resp, err
	})
}

// callTools runs a reply's tool calls through the hooks, up to l.Parallel
// at once, and returns their results in the calls' order; the error is
// the first one in that order, and once a call failed no other starts.
// Every call has returned when it returns.
func callTools[P, M any, R comparable](ctx context.Context, l Loop, p Provider[P, M, R], run *hooks.Run,
	reply R, calls []hooks.ToolCall) ([]hooks.ToolResult, error) {
	results := make([]hooks.ToolResult, len(calls))
	errs := make([]error, len(calls))
	one := func(i int) {
		var args Arguments // none: a hook made the call, the tool reads the hooks' arguments
		if zero := *new(R); reply != zero {
			if raw, ok := p.RawArguments(reply, calls[i].ID); ok {
				args = ParseArguments(raw)
			}
		}
		results[i], errs[i] = run.CallTool(ctx, calls[i], l.toolFunc(args))
	}
	if l.Parallel < 2 || len(calls) < 2 {
		for i := range calls {
			if one(i); errs[i] != nil {
				return results, errs[i]
			}
		}
		return results, nil
	}
	var (
		wg     sync.WaitGroup
		failed atomic.Bool // a call failed: start no more, as one after another would not
	)
	slots := make(chan struct{}, l.Parallel)
	for i := range calls {
		slots <- struct{}{}
		if failed.Load() {
			<-slots
			break
		}
		wg.Go(func() {
			defer func() { <-slots }()
			if one(i); errs[i] != nil {
				failed.Store(true)
			}
		})
	}
	wg.Wait()
	return results, firstError(errs)
}

// firstError is the first non-nil error of errs.
func firstError(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// toolFunc runs the named tool with the arguments ForTool chose. A tool's
// error is the result the model reads (IsError, its message), after the
// AfterToolExecute hooks, so that they may redact it; only an error while
// the context is done stops the loop.
func (l Loop) toolFunc(args Arguments) hooks.ToolFunc {
	return func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		tool, ok := l.Tools(call.Name)
		if !ok {
			return hooks.ToolResult{Text: fmt.Sprintf("unknown tool %q", call.Name), IsError: true}, nil
		}
		raw, refusal, err := args.ForTool(c, call)
		if err != nil {
			return hooks.ToolResult{Text: err.Error(), IsError: true}, nil
		}
		if refusal != nil {
			return *refusal, nil
		}
		res, err := tool(c, call.ID, raw)
		if err != nil {
			if c.Context.Err() != nil {
				return res, err
			}
			return hooks.ToolResult{Text: err.Error(), IsError: true}, nil
		}
		return res, nil
	}
}
