package temporal

import (
	"slices"
	"strings"

	"github.com/rienda/hooks"
	sdk "go.temporal.io/sdk/temporal"
)

// loop sends the conversation round the model and the tools until the
// model gives a final reply that no hook continues, a hook ends the run,
// or an error. Tool calls of one reply run one after another.
func (f *flow) loop() error {
	limit := f.in.MaxTurns
	if limit <= 0 {
		limit = DefaultMaxTurns
	}
	f.out.Messages = slices.Clone(f.in.Messages)
	if len(f.out.Messages) == 0 {
		f.out.Messages = []hooks.Message{{Role: "user", Text: f.in.Input}}
	}
	for f.out.Turns < limit {
		reply, err := f.model(hooks.ModelRequest{System: f.in.System, Messages: f.out.Messages})
		f.out.Turns++
		if err != nil {
			return err
		}
		if reply.End != nil {
			f.out.Output, f.out.Ended = reply.End.Output, true
			return nil
		}
		resp := reply.Response
		f.out.Messages = append(f.out.Messages, hooks.Message{Role: "assistant", Text: resp.Text, ToolCalls: resp.ToolCalls})
		f.out.Output = resp.Text
		if len(resp.ToolCalls) == 0 {
			if reply.Continue == "" {
				return nil
			}
			f.out.Messages = append(f.out.Messages, hooks.Message{Role: "user", Text: reply.Continue})
			continue
		}
		for _, call := range resp.ToolCalls {
			res, err := f.tool(call)
			if err != nil {
				return err
			}
			f.out.Messages = append(f.out.Messages, hooks.Message{Role: "tool", Text: res.Text, ToolCallID: call.ID})
		}
	}
	return sdk.NewNonRetryableApplicationError(errNoReply.Error(), errTypeMaxTurns, errNoReply)
}

func (f *flow) model(req hooks.ModelRequest) (hooks.ModelReply, error) {
	var out modelOutput
	err := f.call(f.ctx, ActivityModel, func(answers []Answer, s *suspension) any {
		in := modelInput{Snapshot: f.snap, Request: req, Answers: answers}
		if s != nil {
			in.Answered = s.Answered
		}
		return in
	}, &out)
	if err != nil {
		return hooks.ModelReply{}, err
	}
	f.snap = out.Snapshot
	r := out.Reply
	switch {
	case r.End != nil:
		f.trace("model", "ended by a hook: %q", r.End.Output)
	case len(r.Response.ToolCalls) > 0:
		names := make([]string, len(r.Response.ToolCalls))
		for i, c := range r.Response.ToolCalls {
			names[i] = c.Name
		}
		f.trace("model", "calls %s", strings.Join(names, ", "))
	default:
		f.trace("model", "replies %q", r.Response.Text)
	}
	if r.Continue != "" {
		f.trace("model", "continued by a hook: %q", r.Continue)
	}
	return r, nil
}

func (f *flow) tool(call hooks.ToolCall) (hooks.ToolResult, error) {
	var out toolOutput
	err := f.call(f.ctx, ActivityTool, func(answers []Answer, s *suspension) any {
		in := toolInput{Snapshot: f.snap, Call: call, Answers: answers}
		if s != nil {
			in.Executed = s.Executed
		}
		return in
	}, &out)
	if err != nil {
		return hooks.ToolResult{}, err
	}
	f.snap = out.Snapshot
	status := "ok"
	if out.Result.IsError {
		status = "error"
	}
	f.trace("tool", "%s %s: %q", call.Name, status, out.Result.Text)
	return out.Result, nil
}
