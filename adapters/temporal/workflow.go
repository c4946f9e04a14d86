package temporal

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/rienda/hooks"
	sdk "go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// DefaultMaxTurns bounds a run whose Input.MaxTurns is zero.
const DefaultMaxTurns = 32

// DefaultStepTimeout bounds one attempt of a step when Input.StepTimeout
// is zero.
const DefaultStepTimeout = 10 * time.Minute

// Input starts a durable run (client.ExecuteWorkflow with WorkflowName).
type Input struct {
	RunID    string          // "": the workflow id
	Input    string          // the person's message; RunStart.Input
	System   string          // the system prompt of every model call
	Messages []hooks.Message // the conversation so far; empty: one user message, Input
	MaxTurns int             // model calls; 0: DefaultMaxTurns
	// StepTimeout bounds one attempt of a step (an activity's
	// StartToCloseTimeout): a worker that dies mid-step is noticed then,
	// and the step runs again on another.
	StepTimeout time.Duration
	// Retry is the steps' retry policy; nil: Temporal's default (retry
	// with backoff, for ever). Errors of a hook that failed the run are
	// never retried.
	Retry *sdk.RetryPolicy
	// Options are the activity options by kind of step and by tool:
	// timeouts, retry policy, heartbeat timeout, task queue, summary.
	Options Options
	// Conversation starts the run on a conversation in the Agent's Store
	// (StoreConversation) instead of Messages: one too long for a
	// workflow's input.
	Conversation string
	// ContinueAsNewTurns continues the run as a new workflow execution
	// (the same workflow id) after this many model calls in one
	// execution, carrying the run's snapshot and conversation; 0: only on
	// the server's suggestion or past ContinueAsNewBytes.
	ContinueAsNewTurns int
	// ContinueAsNewBytes continues the run as new once the execution's
	// history passes this size; 0: DefaultContinueAsNewBytes.
	ContinueAsNewBytes int
	// SearchAttributes keeps the search attributes SearchWaiting and
	// SearchTools up to date; they must be registered on the namespace.
	SearchAttributes bool
	// Carried is set by the workflow itself when it continues as new; a
	// client leaves it nil.
	Carried *Carried
}

// DefaultContinueAsNewBytes is the history size past which a run
// continues as new when Input.ContinueAsNewBytes is zero: well under
// Temporal's 50 MB limit, and the size from which the server suggests it.
const DefaultContinueAsNewBytes = 4 << 20

// Carried is what a run that continues as new carries to its next
// workflow execution: where it was.
type Carried struct {
	Snapshot     json.RawMessage // the run's snapshot: hook states, memo, model calls
	Conversation string          // the stored conversation's key, with a Store
	Messages     []hooks.Message // the conversation, without a Store
	Turns        int
	Output       string
	Steps        []Step
	Continued    int // executions before this one
}

// Output is where a durable run stopped.
type Output struct {
	Output string // the final reply's text, or the output of a hook's End
	Ended  bool   // a hook ended the run
	Turns  int    // model calls, those a hook answered included
	// Messages is the conversation (Input's messages, then the turns) of a
	// run whose Agent has no Store. With a Store it is empty, and the
	// conversation is under the key Conversation (LoadConversation): the
	// result does not repeat it.
	Messages     []hooks.Message
	Conversation string
	Steps        []Step // what happened, in order: the trace of the run (tool results are not quoted)
	// Snapshot is the run's last snapshot (hook states, memo, model
	// calls); with a Store, one past SnapshotInlineMax is there, and this
	// is its key as a JSON string (OpenSnapshot reads either).
	Snapshot  json.RawMessage
	Continued int // times the run continued as new
}

// Step is one line of a durable run's trace.
type Step struct {
	Kind   string // start, model, tool, wait, answer, end
	Detail string
}

// flow is one execution of the workflow: the snapshot it carries and the
// trace it keeps. Only its activities touch hooks.
type flow struct {
	ctx     workflow.Context
	in      Input
	out     Output
	snap    json.RawMessage
	pending *Question
	// conv is the key of the stored conversation; "" when the workflow
	// carries it in out.Messages (an Agent without a Store).
	conv string
	// version is the workflow code's version this execution runs
	// (workflow.GetVersion): executions started before a change replay
	// as they ran.
	version workflow.Version
	turns   int // model calls in this execution

	questionsVersion workflow.Version // 1: questions have ids, answers are updates
	secretIDsVersion workflow.Version // 1: ids are unguessable; early answers are dropped
	verdictsVersion  workflow.Version // 1: answers carry verdicts, read strictly (set at the first question)
	asked            int              // questions asked in this execution
	answered         bool             // the pending question has its answer
	answers          workflow.Channel // answers the update handler took
	tools            []string         // tools the run used (SearchTools), in this execution
}

// changeContinueAsNew names the change that made runs continue as new;
// executions recorded before it never do.
const changeContinueAsNew = "hooks.continue-as-new"

// Workflow is the agent loop as a Temporal workflow: every model call and
// every tool call is an activity that runs the hooks on the run the
// workflow carries as a snapshot. A hook's Confirm suspends its step until
// a person answers (SignalAnswer); the step then runs again with the
// answer. AfterRun runs once, in the last step, also when the run fails or
// is cancelled.
func Workflow(ctx workflow.Context, in Input) (Output, error) {
	f := &flow{ctx: ctx, in: in, verdictsVersion: workflow.DefaultVersion}
	if err := f.setHandlers(); err != nil {
		return Output{}, err
	}
	f.version = workflow.GetVersion(ctx, changeContinueAsNew, workflow.DefaultVersion, 1)
	f.questionsVersion = workflow.GetVersion(ctx, changeQuestionIDs, workflow.DefaultVersion, 1)
	f.secretIDsVersion = workflow.GetVersion(ctx, changeSecretQuestionIDs, workflow.DefaultVersion, 1)
	if c := in.Carried; c != nil {
		f.snap, f.conv, f.out.Messages = c.Snapshot, c.Conversation, c.Messages
		f.out.Turns, f.out.Output, f.out.Steps, f.out.Continued = c.Turns, c.Output, c.Steps, c.Continued
	} else if err := f.start(); err != nil {
		return f.out, err // no run, or one whose AfterRun has run
	}
	err := f.loop()
	if workflow.IsContinueAsNewError(err) {
		return Output{}, err
	}
	if endErr := f.end(err); err == nil {
		err = endErr
	}
	f.out.Snapshot, f.out.Conversation = f.snap, f.conv
	return f.out, err
}

func (f *flow) trace(kind, format string, args ...any) {
	f.out.Steps = append(f.out.Steps, Step{Kind: kind, Detail: fmt.Sprintf(format, args...)})
}

// suspendable is an activity's output that may say it waits for a person.
type suspendable interface{ waiting() *suspension }

func (o *startOutput) waiting() *suspension { return o.Suspension }
func (o *modelOutput) waiting() *suspension { return o.Suspension }
func (o *toolOutput) waiting() *suspension  { return o.Suspension }
func (o *endOutput) waiting() *suspension   { return o.Suspension }

// call runs a step until it does not wait for a person: after each
// suspension it waits for the answer and runs the step again with every
// answer given so far in this step.
func (f *flow) call(ctx workflow.Context, name, tool string, input func(answers []Answer, s *suspension) any, out suspendable) error {
	var answers []Answer
	var last *suspension
	for {
		if err := workflow.ExecuteActivity(f.stepOptions(ctx, name, tool), name, f.withAsks(input(answers, last))).Get(ctx, out); err != nil {
			return err
		}
		if last = out.waiting(); last == nil {
			return nil
		}
		a, err := f.await(ctx, last)
		if err != nil {
			return err
		}
		answers = append(answers, a)
	}
}

func (f *flow) start() error {
	runID := f.in.RunID
	if runID == "" {
		runID = workflow.GetInfo(f.ctx).WorkflowExecution.ID
	}
	var out startOutput
	err := f.call(f.ctx, ActivityStart, "", func(answers []Answer, _ *suspension) any {
		return startInput{RunID: runID, Input: f.in.Input, Answers: answers, Messages: f.in.Messages, Conversation: f.in.Conversation}
	}, &out)
	if err != nil {
		return err
	}
	f.snap, f.conv = out.Snapshot, out.Conversation
	if f.conv == "" {
		f.out.Messages = slices.Clone(f.in.Messages)
		if len(f.out.Messages) == 0 {
			f.out.Messages = []hooks.Message{{Role: "user", Text: f.in.Input}}
		}
	}
	f.trace("start", "run %s", runID)
	return nil
}

// end runs the AfterRun hooks, whatever happened to the run: on a context
// that a cancellation does not reach.
func (f *flow) end(runErr error) error {
	ctx, cancel := workflow.NewDisconnectedContext(f.ctx)
	defer cancel()
	end := hooks.RunEnd{Output: f.out.Output, Outcome: hooks.Completed}
	switch {
	case f.ctx.Err() != nil || sdk.IsCanceledError(runErr):
		end.Outcome, end.Reason = hooks.Interrupted, "the workflow was cancelled"
	case runErr != nil:
		end.Outcome, end.Reason = hooks.Failed, runErr.Error()
	}
	var out endOutput
	err := f.call(ctx, ActivityEnd, "", func(answers []Answer, _ *suspension) any {
		return endInput{Snapshot: f.snap, End: end, Answers: answers}
	}, &out)
	if err != nil {
		return err
	}
	f.snap = out.Snapshot
	f.trace("end", "%s", end.Outcome)
	return nil
}

// errNoReply is the error of a run that made MaxTurns model calls without
// a final reply.
var errNoReply = errors.New("temporal: the run reached its MaxTurns without a final reply")
