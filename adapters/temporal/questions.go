package temporal

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"go.temporal.io/sdk/workflow"
)

// changeSecretQuestionIDs names the change that made question ids
// unguessable and refused answers signalled before their question was
// asked: before it, an answer naming the predictable id "<runID>/1",
// signalled ahead, approved the call when it came.
const changeSecretQuestionIDs = "hooks.secret-question-ids"

// nonce is 128 random bits in hex, recorded in the history (SideEffect),
// so a replay reads the same id and nobody can name a question before the
// run has asked it.
func (f *flow) nonce(ctx workflow.Context) string {
	var id string
	enc := workflow.SideEffect(ctx, func(workflow.Context) any {
		var b [16]byte
		if _, err := rand.Read(b[:]); err != nil {
			panic(err) // crypto/rand never fails on supported platforms
		}
		return hex.EncodeToString(b[:])
	})
	if err := enc.Get(&id); err != nil {
		panic(err) // a string recorded by this code always decodes
	}
	return id
}

// dropEarlyAnswers discards the answer signals delivered before the
// question they could answer exists: an answer is to a question asked.
func dropEarlyAnswers(ctx workflow.Context, signals workflow.ReceiveChannel) {
	for {
		var raw json.RawMessage
		if !signals.ReceiveAsync(&raw) {
			return
		}
		workflow.GetLogger(ctx).Info("answer signal dropped: no question was waiting when it came", "answer", short(string(raw)))
	}
}

// changeQuestionIDs names the change that gave questions ids, answered by
// an update and posted from the workflow; executions recorded before it
// match answers on the prompt and ask inside the step.
const changeQuestionIDs = "hooks.question-ids"

// RunStatus is where a durable run is: the QueryRun query's answer.
type RunStatus struct {
	Turns        int             // model calls so far
	Continued    int             // executions before this one (continue-as-new)
	Pending      *Question       // the question the run waits on, or nil
	Steps        []Step          // the trace so far
	Snapshot     json.RawMessage // the run's snapshot: hook states, memo, model calls
	Conversation string          // the stored conversation's key, with a Store
}

// setHandlers registers the queries and the answer update.
func (f *flow) setHandlers() error {
	f.answers = workflow.NewBufferedChannel(f.ctx, 1)
	if err := workflow.SetQueryHandler(f.ctx, QueryPending, func() (*Question, error) { return f.pending, nil }); err != nil {
		return err
	}
	if err := workflow.SetQueryHandler(f.ctx, QueryRun, func() (RunStatus, error) {
		return RunStatus{Turns: f.out.Turns, Continued: f.out.Continued, Pending: f.pending, Steps: f.out.Steps,
			Snapshot: f.snap, Conversation: f.conv}, nil
	}); err != nil {
		return err
	}
	// The update's argument is read here, not by the data converter, so
	// that an answer that cannot be read strictly is refused with why.
	return workflow.SetUpdateHandlerWithOptions(f.ctx, UpdateAnswer,
		func(ctx workflow.Context, raw json.RawMessage) error {
			a, err := f.read(raw)
			if err != nil {
				return err
			}
			f.answered = true
			f.answers.Send(ctx, a)
			return nil
		}, workflow.UpdateHandlerOptions{Validator: func(_ workflow.Context, raw json.RawMessage) error {
			_, err := f.read(raw)
			return err
		}})
}

// read reads an answer a person sent and says why it is refused, if it
// is: an answer that cannot be read, or one validate refuses. It only
// reads the workflow's state, as a validator must.
func (f *flow) read(raw json.RawMessage) (Answer, error) {
	a, err := decodeAnswer(raw, int(f.verdictsVersion))
	if f.pending == nil {
		return Answer{}, fmt.Errorf("temporal: no question is waiting for an answer (question %q is unknown, answered or stale)", a.QuestionID)
	}
	if err != nil {
		return Answer{}, fmt.Errorf("temporal: the answer cannot be read, so it is refused: %w", err)
	}
	return a, f.validate(a)
}

// validate refuses an answer to a question that is not waiting, and one
// whose verdict the question cannot take.
func (f *flow) validate(a Answer) error {
	switch {
	case f.pending == nil:
		return fmt.Errorf("temporal: no question is waiting for an answer (question %q is unknown, answered or stale)", a.QuestionID)
	case f.pending.ID == "" && a.Prompt != f.pending.Prompt: // an execution from before questions had ids
		return fmt.Errorf("temporal: the answer is to prompt %q; the run waits on %q", a.Prompt.Title, f.pending.Prompt.Title)
	case f.pending.ID != "" && a.QuestionID != f.pending.ID:
		return fmt.Errorf("temporal: question %q is not waiting for an answer (unknown, answered or stale); the run waits on %q", a.QuestionID, f.pending.ID)
	case f.answered:
		return fmt.Errorf("temporal: question %q has been answered", a.QuestionID)
	case f.verdictsVersion >= 1: // executions from before verdicts keep the checks they had
		return a.check(f.pending)
	}
	return nil
}

// withAsks marks a step's input so that the step does not tell Agent.Ask
// itself: the workflow posts the question (ActivityAsk) once the step has
// returned.
func (f *flow) withAsks(in any) any {
	if f.questionsVersion < 1 {
		return in
	}
	switch in := in.(type) {
	case startInput:
		in.WorkflowAsks = true
		return in
	case modelInput:
		in.WorkflowAsks = true
		return in
	case toolInput:
		in.WorkflowAsks = true
		return in
	case endInput:
		in.WorkflowAsks = true
		return in
	}
	return in
}

// changeVerdicts names the change that made answers carry a verdict,
// read strictly and checked against the question (a verdict on a call
// only for a question about one). It is asked at an execution's first
// question, so an execution that started before it and asks its first
// question after it takes it; one that had asked keeps its old reading.
const changeVerdicts = "hooks.verdicts"

// await waits, as long as it takes, for a person's answer to the review
// s asks: by the answer update, or a signal naming the question.
func (f *flow) await(ctx workflow.Context, s *suspension) (Answer, error) {
	f.verdictsVersion = workflow.GetVersion(ctx, changeVerdicts, workflow.DefaultVersion, 1)
	p := s.Prompt
	info := workflow.GetInfo(ctx)
	q := &Question{WorkflowID: info.WorkflowExecution.ID, Prompt: p, Call: s.Call}
	if f.questionsVersion >= 1 {
		f.asked++
		q.ID = fmt.Sprintf("%s/%d", info.WorkflowExecution.RunID, f.asked)
	}
	signals := workflow.GetSignalChannel(ctx, SignalAnswer)
	if f.secretIDsVersion >= 1 {
		q.ID += "-" + f.nonce(ctx)
		dropEarlyAnswers(ctx, signals)
	}
	f.pending, f.answered = q, false
	f.searchWaiting(true)
	defer func() { f.pending = nil; f.searchWaiting(false) }()
	f.trace("wait", "%s: %s", p.Title, p.Body)
	if q.ID != "" {
		if err := workflow.ExecuteActivity(f.stepOptions(ctx, ActivityAsk, ""), ActivityAsk, *q).Get(ctx, nil); err != nil && ctx.Err() == nil {
			workflow.GetLogger(ctx).Warn("telling Agent.Ask failed; the run waits for the answer anyway", "question", q.ID, "error", err)
		}
	}
	for {
		var a Answer
		took := false
		sel := workflow.NewSelector(ctx)
		sel.AddReceive(f.answers, func(c workflow.ReceiveChannel, _ bool) { c.Receive(ctx, &a); took = true })
		sel.AddReceive(signals, func(c workflow.ReceiveChannel, _ bool) {
			var raw json.RawMessage
			if !c.ReceiveAsync(&raw) { // not Receive: it would wait past a payload it cannot read, deaf to a cancellation
				return
			}
			read, err := f.read(raw)
			if err != nil {
				workflow.GetLogger(ctx).Warn("answer signal dropped", "error", err)
				return
			}
			a, f.answered, took = read, true, true
		})
		sel.AddReceive(ctx.Done(), func(workflow.ReceiveChannel, bool) {})
		sel.Select(ctx)
		if err := ctx.Err(); err != nil {
			return Answer{}, err
		}
		if !took {
			continue
		}
		a.Prompt, a.Call = p, s.Call // the answer is to this question, whatever prompt or call it quotes
		f.trace("answer", "%s", traceVerdict(a))
		return a, nil
	}
}

// traceVerdict is an answer's line in the trace: the decision, who gave
// it and the message, never the edited arguments or the answered result
// (the trace must not repeat the conversation).
func traceVerdict(a Answer) string {
	v := a.verdict()
	word := "no"
	switch {
	case v.Result != nil:
		word = "answered for the tool"
	case v.Arguments != nil:
		word = "yes, edited"
	case v.Approved:
		word = "yes"
	}
	return fmt.Sprintf("%s by %q: %s", word, a.By, v.Message)
}
