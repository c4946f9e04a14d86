package temporal

import (
	"strings"
	"unicode/utf8"

	"github.com/rienda/hooks"
	sdk "go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// loop sends the conversation round the model and the tools until the
// model gives a final reply that no hook continues, a hook ends the run,
// or an error. Tool calls of one reply run one after another.
func (f *flow) loop() error {
	limit := f.in.MaxTurns
	if limit <= 0 {
		limit = DefaultMaxTurns
	}
	for f.out.Turns < limit {
		if f.shouldContinueAsNew() {
			return f.continueAsNew()
		}
		reply, err := f.model(hooks.ModelRequest{System: f.in.System, Messages: f.out.Messages})
		f.out.Turns++
		f.turns++
		if err != nil {
			return err
		}
		if reply.End != nil {
			f.out.Output, f.out.Ended = reply.End.Output, true
			return nil
		}
		resp := reply.Response
		f.add(hooks.Message{Role: "assistant", Text: resp.Text, ToolCalls: resp.ToolCalls})
		f.out.Output = resp.Text
		if len(resp.ToolCalls) == 0 {
			if reply.Continue == "" {
				return nil
			}
			f.add(hooks.Message{Role: "user", Text: reply.Continue})
			continue
		}
		for _, call := range resp.ToolCalls {
			res, err := f.tool(call)
			if err != nil {
				return err
			}
			f.add(hooks.Message{Role: "tool", Text: res.Text, ToolCallID: call.ID})
		}
	}
	return sdk.NewNonRetryableApplicationError(errNoReply.Error(), errTypeMaxTurns, errNoReply)
}

// add adds messages to the conversation the workflow carries; with a
// Store, the steps added them to the stored one.
func (f *flow) add(msgs ...hooks.Message) {
	if f.conv == "" {
		f.out.Messages = append(f.out.Messages, msgs...)
	}
}

// shouldContinueAsNew says whether this execution has grown enough that
// the run goes on in a new one: on the server's suggestion, past the turn
// bound or past the history size bound. Never before a first turn (a run
// always moves forward) nor in executions recorded before the change.
func (f *flow) shouldContinueAsNew() bool {
	if f.version < 1 || f.turns == 0 {
		return false
	}
	info := workflow.GetInfo(f.ctx)
	limit := f.in.ContinueAsNewBytes
	if limit <= 0 {
		limit = DefaultContinueAsNewBytes
	}
	return info.GetContinueAsNewSuggested() ||
		(f.in.ContinueAsNewTurns > 0 && f.turns >= f.in.ContinueAsNewTurns) ||
		info.GetCurrentHistorySize() >= limit
}

// continueAsNew ends this execution and starts the next, carrying the
// run's snapshot, its conversation (or its key) and its trace.
func (f *flow) continueAsNew() error {
	f.trace("continue", "as new after %d turns", f.out.Turns)
	in := f.in
	in.Messages, in.Conversation = nil, ""
	in.Carried = &Carried{Snapshot: f.snap, Conversation: f.conv, Messages: f.out.Messages, Turns: f.out.Turns,
		Output: f.out.Output, Steps: f.out.Steps, Continued: f.out.Continued + 1}
	return workflow.NewContinueAsNewError(f.ctx, WorkflowName, in)
}

func (f *flow) model(req hooks.ModelRequest) (hooks.ModelReply, error) {
	var out modelOutput
	err := f.call(f.ctx, ActivityModel, "", func(answers []Answer, s *suspension) any {
		in := modelInput{Snapshot: f.snap, Request: req, Answers: answers, Conversation: f.conv}
		if s != nil {
			in.Answered = s.Answered
		}
		return in
	}, &out)
	if err != nil {
		return hooks.ModelReply{}, err
	}
	f.snap = out.Snapshot
	if f.conv != "" {
		f.conv = out.Conversation
	}
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
		f.trace("model", "replies %q", short(r.Response.Text))
	}
	if r.Continue != "" {
		f.trace("model", "continued by a hook: %q", r.Continue)
	}
	return r, nil
}

func (f *flow) tool(call hooks.ToolCall) (hooks.ToolResult, error) {
	f.searchTool(call.Name)
	var out toolOutput
	err := f.call(f.ctx, ActivityTool, call.Name, func(answers []Answer, s *suspension) any {
		in := toolInput{Snapshot: f.snap, Call: call, Answers: answers, Conversation: f.conv}
		if s != nil {
			in.Executed = s.Executed
		}
		return in
	}, &out)
	if err != nil {
		return hooks.ToolResult{}, err
	}
	f.snap = out.Snapshot
	size := len(out.Result.Text)
	if f.conv != "" {
		f.conv, size = out.Conversation, out.Bytes
	}
	status := "ok"
	if out.Result.IsError {
		status = "error"
	}
	f.trace("tool", "%s %s (%d bytes)", call.Name, status, size)
	return out.Result, nil
}

// short is text cut to a line of the trace: the trace must not repeat the
// conversation.
func short(text string) string {
	const max = 200
	if len(text) <= max {
		return text
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	return text[:cut] + "…"
}
