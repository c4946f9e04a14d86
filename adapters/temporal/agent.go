package temporal

import (
	"context"
	"errors"

	"github.com/rienda/hooks"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

// Agent is what a worker runs the steps of durable runs with: the hooks,
// the model and the tools. Every worker of a task queue needs one built
// from the same hook definitions, since any worker may run any step.
type Agent struct {
	// Chain holds the hooks; nil runs none. A Chain built anew after a
	// restart continues the runs the old one was running.
	Chain *hooks.Chain
	// Host is given to every step. Its Review and Confirm are replaced: a
	// review (or a prompt, a review without a call) is answered with the
	// verdict recorded in the workflow, or suspends the step until a person
	// gives one (SendAnswer).
	Host hooks.Host
	// Model calls the model; required.
	Model hooks.ModelFunc
	// Tools run the tool calls, by name. A tool's error is the result the
	// model reads; an unknown name is an error result too.
	Tools map[string]hooks.ToolFunc
	// Ask is told, in the step that a prompt suspended, that a person must
	// answer it: send the question where people see it (a chat, a ticket).
	// The workflow waits for SignalAnswer in any case, and its QueryPending
	// query shows the question. nil: nobody is told.
	Ask func(ctx context.Context, q Question)
	// Store keeps the conversation and tool outputs out of the workflow's
	// history (a claim check): the workflow then carries one key per step
	// instead of the conversation, so a run of any length fits Temporal's
	// limits. Every worker of the task queue must share it. nil: the
	// conversation travels in the history, as it grows (fine for short
	// runs; a long one reaches Temporal's 2 MB payload limit).
	Store Store
}

// Question is a review a durable run waits on (Context.Review, or
// Context.Confirm: a review without a call), and where to answer it.
type Question struct {
	// ID names this question and no other, across the run's executions:
	// an answer names it. Asked again after a crash, a question keeps its
	// ID, so a chat or ticket system can post it once.
	ID         string
	WorkflowID string
	Prompt     hooks.Prompt
	// Call is the tool call under review, as the hook that asked saw it;
	// nil when the question is not about a call (a Confirm), and then an
	// answer can only approve or reject.
	Call *hooks.ToolCall `json:",omitempty"`
}

// Review is what the hook that asked is deciding about: the prompt and
// the call.
func (q Question) Review() hooks.Review { return hooks.Review{Prompt: q.Prompt, Call: q.Call} }

// Answer is a person's answer to a Question (SendAnswer). QuestionID must
// be the waiting question's: an answer to an unknown question, one already
// answered, or one no longer waited on is refused, so a double click or a
// retried request never approves the next question, even an identical one.
//
// The answer carries a Verdict: approve, approve with edited Arguments,
// reject with a Message the model reads, or answer instead of the tool
// (Result); the hook's Context.Review returns it as given. An answer
// without a Verdict is a yes or no: Approved, with Reason as the
// verdict's Message (how answers were given before verdicts, and how
// recorded ones still read). With a Verdict, leave Approved and Reason
// zero (or equal to the verdict's): an answer that says two things is
// refused. An answer whose JSON has a field this type does not know (a
// misspelling), a key twice, or a value of the wrong type is refused too:
// it never approves.
type Answer struct {
	QuestionID string
	Prompt     hooks.Prompt // the question's, for the trace (runs from before questions had ids match on it)
	Approved   bool
	Reason     string // why: a refusal carries it to the model
	By         string // who answered, for the trace
	// Verdict is the person's decision; nil: Approved and Reason say it.
	Verdict *hooks.Verdict
	// Call is the question's call, recorded by the run with the answer
	// (what a sender sets is replaced): the verdict answers a review of
	// this call and no other.
	Call *hooks.ToolCall
}

// The names the workflow and its steps are registered under.
const (
	WorkflowName  = "hooks.AgentRun"
	ActivityStart = "hooks.Start"
	ActivityModel = "hooks.Model"
	ActivityTool  = "hooks.Tool"
	ActivityEnd   = "hooks.End"
	ActivityAsk   = "hooks.Ask"    // tells Agent.Ask of a question, from the workflow
	SignalAnswer  = "hooks.answer" // carries an Answer; one the update would refuse is dropped
	// UpdateAnswer carries an Answer and says whether it was taken: its
	// validator refuses an answer to a question that is not waiting.
	UpdateAnswer = "hooks.answerQuestion"
	QueryPending = "hooks.pending" // returns the *Question waited on, or nil
	QueryRun     = "hooks.run"     // returns a RunStatus: where the run is
)

// errTypeMaxTurns is the error type of a run that reached its MaxTurns.
const errTypeMaxTurns = "hooks.MaxTurns"

// Register registers the workflow and its steps on a worker (or a
// worker.WorkflowReplayer's registry, for the workflow alone).
func Register(r worker.Registry, agent *Agent) error {
	if agent == nil || agent.Model == nil {
		return errors.New("temporal: Register needs an Agent with a Model")
	}
	r.RegisterWorkflowWithOptions(Workflow, workflow.RegisterOptions{Name: WorkflowName})
	a := &activities{agent: agent, conv: &convCache{}}
	r.RegisterActivityWithOptions(a.Start, activity.RegisterOptions{Name: ActivityStart})
	r.RegisterActivityWithOptions(a.Model, activity.RegisterOptions{Name: ActivityModel})
	r.RegisterActivityWithOptions(a.Tool, activity.RegisterOptions{Name: ActivityTool})
	r.RegisterActivityWithOptions(a.End, activity.RegisterOptions{Name: ActivityEnd})
	r.RegisterActivityWithOptions(a.Ask, activity.RegisterOptions{Name: ActivityAsk})
	return nil
}

// SendAnswer gives a person's answer to the durable run workflowID, as
// the UpdateAnswer update: it returns once the run has taken it, or an
// error if the run refused it (the question it names is not waiting: an
// unknown id, answered already, or stale).
func SendAnswer(ctx context.Context, c client.Client, workflowID string, a Answer) error {
	h, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: workflowID, UpdateName: UpdateAnswer,
		Args: []any{a}, WaitForStage: client.WorkflowUpdateStageCompleted})
	if err != nil {
		return err
	}
	return h.Get(ctx, nil)
}
