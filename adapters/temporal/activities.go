package temporal

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/rienda/hooks"
	sdk "go.temporal.io/sdk/temporal"
)

// The activities' inputs and outputs travel through Temporal as JSON. The
// run's snapshot rides along as raw JSON, so that the workflow's history
// shows it as it is rather than as base64.

type startInput struct {
	RunID   string
	Input   string
	Answers []Answer
	// The conversation the run starts on, put in the Agent's Store if it
	// has one: Messages, or the stored Conversation.
	Messages     []hooks.Message `json:",omitempty"`
	Conversation string          `json:",omitempty"`
	WorkflowAsks bool            `json:",omitempty"` // the workflow posts the question (ActivityAsk): the step does not
}

type startOutput struct {
	Snapshot   json.RawMessage
	Suspension *suspension
	// The key of the stored conversation: "" when the Agent has no Store
	// (the workflow then carries the conversation itself).
	Conversation string `json:",omitempty"`
}

type modelInput struct {
	Snapshot json.RawMessage
	Request  hooks.ModelRequest
	Answers  []Answer
	Answered *hooks.ModelResponse // the model answered before an after-hook waited: do not call it again
	// Conversation is the key of the stored conversation; Request's
	// Messages are then empty and read from the Store.
	Conversation string `json:",omitempty"`
	WorkflowAsks bool   `json:",omitempty"` // the workflow posts the question (ActivityAsk): the step does not
}

type modelOutput struct {
	Snapshot   json.RawMessage
	Reply      hooks.ModelReply
	Suspension *suspension
	// Conversation is the stored conversation with the reply (and a
	// hook's Continue) added.
	Conversation string `json:",omitempty"`
}

type toolInput struct {
	Snapshot json.RawMessage
	Call     hooks.ToolCall
	Answers  []Answer
	Executed *hooks.ToolResult // the tool ran before an after-hook waited: do not run it again
	// Conversation is the key of the stored conversation.
	Conversation string `json:",omitempty"`
	WorkflowAsks bool   `json:",omitempty"` // the workflow posts the question (ActivityAsk): the step does not
}

type toolOutput struct {
	Snapshot   json.RawMessage
	Result     hooks.ToolResult // with a Store: no Text or Value, which are in the conversation
	Suspension *suspension
	// Conversation is the stored conversation with the tool's result
	// added; Bytes is the length of the result's text, for the trace.
	Conversation string `json:",omitempty"`
	Bytes        int    `json:",omitempty"`
}

type endInput struct {
	Snapshot     json.RawMessage
	End          hooks.RunEnd
	Answers      []Answer
	WorkflowAsks bool `json:",omitempty"` // the workflow posts the question (ActivityAsk): the step does not
}

type endOutput struct {
	Snapshot   json.RawMessage
	Suspension *suspension
}

// Ask tells the Agent's Ask of a question the workflow waits on. The
// workflow runs it once the step that asked has returned, so a step
// retried after a crash does not ask again; a crash inside Ask itself
// asks again with the same Question.ID, which the receiver can dedupe on.
func (a *activities) Ask(ctx context.Context, q Question) error {
	ctx, stop := beat(ctx)
	defer stop()
	if a.agent.Ask != nil {
		a.agent.Ask(ctx, q)
	}
	return nil
}

// Start runs the BeforeRun hooks, once for the whole run. A hook that
// fails the run has had its AfterRun: the error is final.
func (a *activities) Start(ctx context.Context, in startInput) (startOutput, error) {
	ctx, stop := beat(ctx)
	defer stop()
	asked := make(chan hooks.Review, 1)
	// No cancellation on a prompt here: a cancelled BeforeRun would end
	// the run (AfterRun). The run is thrown away anyway.
	run, err := a.agent.Chain.Start(ctx, a.host(in.Answers, asked, nil), hooks.RunStart{RunID: in.RunID, Input: in.Input})
	if w := a.suspended(ctx, asked, in.WorkflowAsks); w != nil {
		return startOutput{Suspension: w}, nil
	}
	if err != nil {
		return startOutput{}, final(err)
	}
	snap, err := a.snapshot(ctx, run)
	if err != nil {
		return startOutput{}, err
	}
	out := startOutput{Snapshot: snap, Conversation: in.Conversation}
	if a.agent.Store != nil && out.Conversation == "" {
		msgs := in.Messages
		if len(msgs) == 0 {
			msgs = []hooks.Message{{Role: "user", Text: in.Input}}
		}
		if out.Conversation, err = a.conv.append(ctx, a.agent.Store, "", msgs...); err != nil {
			return startOutput{}, err // the store may be back on the next attempt
		}
	}
	return out, nil
}

// Model runs one model call through the hooks.
func (a *activities) Model(ctx context.Context, in modelInput) (modelOutput, error) {
	ctx, stop := beat(ctx)
	defer stop()
	s, err := a.rehydrate(ctx, in.Snapshot, in.Answers)
	if err != nil {
		return modelOutput{}, err
	}
	defer s.cancel()
	if in.Conversation != "" {
		if in.Request.Messages, err = a.conv.load(ctx, a.store(), in.Conversation); err != nil {
			return modelOutput{}, finalIfTampered(err)
		}
	}
	st, err := s.run.BeforeModelRequest(s.ctx, in.Request)
	if w := a.suspended(ctx, s.asked, in.WorkflowAsks); w != nil {
		return modelOutput{Suspension: w}, nil
	}
	if err != nil {
		return modelOutput{}, stepError(err)
	}
	resp := hooks.ModelResponse{}
	if in.Answered != nil && st.Response == nil && st.End == nil {
		resp = *in.Answered
	} else if resp, err = s.run.ExecuteModel(s.ctx, st, a.agent.Model); err != nil {
		if w := a.suspended(ctx, s.asked, in.WorkflowAsks); w != nil { // a wrap hook asked: the whole call runs again
			return modelOutput{Suspension: w}, nil
		}
		return modelOutput{}, stepError(err)
	}
	reply, err := s.run.AfterModelResponse(s.ctx, st, resp)
	if w := a.suspended(ctx, s.asked, in.WorkflowAsks); w != nil {
		w.Answered = &resp
		return modelOutput{Suspension: w}, nil
	}
	if err != nil {
		return modelOutput{}, stepError(err)
	}
	snap, err := a.snapshot(ctx, s.run)
	if err != nil {
		return modelOutput{}, err
	}
	out := modelOutput{Snapshot: snap, Reply: reply}
	if in.Conversation != "" && reply.End == nil {
		added := []hooks.Message{{Role: "assistant", Text: reply.Response.Text, ToolCalls: reply.Response.ToolCalls}}
		if len(reply.Response.ToolCalls) == 0 && reply.Continue != "" {
			added = append(added, hooks.Message{Role: "user", Text: reply.Continue})
		}
		if out.Conversation, err = a.conv.append(ctx, a.store(), in.Conversation, added...); err != nil {
			return modelOutput{}, err
		}
	}
	return out, nil
}

// Tool runs one tool call through the hooks. A refusal after a person's
// "no" carries the person's reason to the model.
func (a *activities) Tool(ctx context.Context, in toolInput) (toolOutput, error) {
	ctx, stop := beat(ctx)
	defer stop()
	s, err := a.rehydrate(ctx, in.Snapshot, in.Answers)
	if err != nil {
		return toolOutput{}, err
	}
	defer s.cancel()
	st, err := s.run.BeforeToolExecute(s.ctx, in.Call)
	if w := a.suspended(ctx, s.asked, in.WorkflowAsks); w != nil {
		return toolOutput{Suspension: w}, nil
	}
	if err != nil {
		return toolOutput{}, stepError(err)
	}
	res, executed := *orEmpty(st.Result), in.Executed
	switch {
	case st.Refused:
		res.Text = withPersonsReason(st.Reason, in.Answers)
	case in.Executed != nil && st.Result == nil:
		res, err = s.run.AfterToolExecute(s.ctx, st, *in.Executed)
	default:
		if res, err = s.run.ExecuteTool(s.ctx, st, a.runTool); err != nil {
			if w := a.suspended(ctx, s.asked, in.WorkflowAsks); w != nil { // a wrap hook asked: the whole call runs again
				return toolOutput{Suspension: w}, nil
			}
			return toolOutput{}, stepError(err)
		}
		ran := res
		executed = &ran
		res, err = s.run.AfterToolExecute(s.ctx, st, res)
	}
	if w := a.suspended(ctx, s.asked, in.WorkflowAsks); w != nil {
		w.Executed = executed
		return toolOutput{Suspension: w}, nil
	}
	if err != nil {
		return toolOutput{}, stepError(err)
	}
	snap, err := a.snapshot(ctx, s.run)
	if err != nil {
		return toolOutput{}, err
	}
	if in.Conversation == "" {
		return toolOutput{Snapshot: snap, Result: res}, nil
	}
	head, err := a.conv.append(ctx, a.store(), in.Conversation, hooks.Message{Role: "tool", Text: res.Text, ToolCallID: in.Call.ID})
	if err != nil {
		return toolOutput{}, err
	}
	return toolOutput{Snapshot: snap, Result: hooks.ToolResult{IsError: res.IsError}, Conversation: head, Bytes: len(res.Text)}, nil
}

// End runs the AfterRun hooks; on a run that has ended (a retried End) it
// does nothing.
func (a *activities) End(ctx context.Context, in endInput) (endOutput, error) {
	ctx, stop := beat(ctx)
	defer stop()
	s, err := a.rehydrate(ctx, in.Snapshot, in.Answers)
	if err != nil {
		return endOutput{}, err
	}
	defer s.cancel()
	var began string
	if Progress(ctx, &began) && began == afterRunBegan {
		// An earlier attempt of this step began AfterRun and then died (a
		// worker killed): AfterRun must not run twice, so it does not run
		// again. At most once: hooks after the one that was running when
		// the worker died do not run.
		snap, err := a.markEnded(ctx, in.Snapshot)
		return endOutput{Snapshot: snap}, err
	}
	Heartbeat(ctx, afterRunBegan) // the step's first heartbeat: sent before AfterRun begins
	s.run.End(ctx, in.End)
	if w := a.suspended(ctx, s.asked, in.WorkflowAsks); w != nil {
		return endOutput{Suspension: w}, nil
	}
	snap, err := a.snapshot(ctx, s.run)
	return endOutput{Snapshot: snap}, err
}

// store is the Agent's Store; a workflow that carries a stored
// conversation to a worker without one fails its step with an error
// saying so, rather than running without the conversation.
func (a *activities) store() Store {
	if a.agent.Store == nil {
		return noStore{}
	}
	return a.agent.Store
}

type noStore struct{}

func (noStore) Put(context.Context, string, []byte) error {
	return errors.New("temporal: this worker's Agent has no Store, and the run keeps its conversation in one")
}

func (noStore) Get(context.Context, string) ([]byte, error) {
	return nil, errors.New("temporal: this worker's Agent has no Store, and the run keeps its conversation in one")
}

// afterRunBegan is the End step's heartbeat: AfterRun has begun.
const afterRunBegan = "afterRun began"

// markEnded returns a snapshot of the run snap describes, ended, without
// running a hook.
func (a *activities) markEnded(ctx context.Context, snap json.RawMessage) (json.RawMessage, error) {
	snap, err := a.openSnapshot(ctx, snap)
	if err != nil {
		return nil, err
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(snap, &doc); err != nil {
		return nil, final(fmt.Errorf("temporal: corrupt run snapshot: %w", err))
	}
	doc["ended"] = json.RawMessage("true")
	if snap, err = json.Marshal(doc); err != nil {
		return nil, final(err)
	}
	return a.claim(ctx, snap)
}

// SnapshotInlineMax is the largest snapshot a step carries in the
// workflow's history: with a Store, a larger one is put there and the
// history carries its key (a JSON string in place of the snapshot).
const SnapshotInlineMax = 32 << 10

// snapshot is the run's snapshot as a step returns it: itself, or its key
// in the Store when it is large. A snapshot that fails is final; a store
// that fails is retried.
func (a *activities) snapshot(ctx context.Context, run *hooks.Run) (json.RawMessage, error) {
	snap, err := run.Snapshot()
	if err != nil {
		return nil, final(err)
	}
	return a.claim(ctx, snap)
}

func (a *activities) claim(ctx context.Context, snap json.RawMessage) (json.RawMessage, error) {
	if a.agent.Store == nil || len(snap) <= SnapshotInlineMax {
		return snap, nil
	}
	key := ContentKey(snap)
	if err := a.agent.Store.Put(ctx, key, snap); err != nil {
		return nil, fmt.Errorf("temporal: storing the run's snapshot: %w", err)
	}
	return json.Marshal(key)
}

// openSnapshot returns the snapshot a step carries, read from the Store
// if the step carries its key.
func (a *activities) openSnapshot(ctx context.Context, snap json.RawMessage) (json.RawMessage, error) {
	if len(snap) == 0 || snap[0] != '"' {
		return snap, nil
	}
	var key string
	if err := json.Unmarshal(snap, &key); err != nil {
		return nil, final(fmt.Errorf("temporal: corrupt snapshot key: %w", err))
	}
	data, err := getVerified(ctx, a.store(), key)
	if err != nil {
		return nil, finalIfTampered(fmt.Errorf("temporal: reading the run's snapshot: %w", err))
	}
	return data, nil
}

// runTool runs the agent's tool by name. A tool's error is the result the
// model reads, unless the step was cancelled: then Temporal retries it.
func (a *activities) runTool(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
	tool, ok := a.agent.Tools[call.Name]
	if !ok {
		return hooks.ToolResult{Text: fmt.Sprintf("unknown tool %q", call.Name), IsError: true}, nil
	}
	res, err := tool(c, call)
	if err != nil {
		if c.Context.Err() != nil {
			return res, err
		}
		return hooks.ToolResult{Text: err.Error(), IsError: true}, nil
	}
	return res, nil
}

func orEmpty(r *hooks.ToolResult) *hooks.ToolResult {
	if r == nil {
		return &hooks.ToolResult{}
	}
	return r
}

// stepError sorts a step's error for Temporal: a hook that failed the run
// is final; anything else (the model's error, a timeout) is retried.
func stepError(err error) error {
	var he *hooks.HookError
	if errors.As(err, &he) {
		return final(err)
	}
	return err
}

// final makes err one that Temporal does not retry.
func final(err error) error {
	if err == nil {
		return nil
	}
	return sdk.NewNonRetryableApplicationError(err.Error(), errTypeRunFailed, err)
}

// finalIfTampered makes a read of bytes that do not match their key
// final: a retry reads the same wrong bytes, and the run must not go on
// from them.
func finalIfTampered(err error) error {
	if errors.Is(err, ErrTampered) {
		return final(err)
	}
	return err
}

// errTypeRunFailed is the type of the error of a step that failed the run.
const errTypeRunFailed = "hooks.RunFailed"
