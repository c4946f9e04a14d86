package temporal

import (
	"context"
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rienda/hooks"
	"go.temporal.io/sdk/activity"
	sdk "go.temporal.io/sdk/temporal"
)

// suspension says that a hook asked a person something nobody has
// answered yet: the step did not happen, and runs again with the answer.
type suspension struct {
	Prompt   hooks.Prompt
	Call     *hooks.ToolCall      `json:",omitempty"` // the call under review; nil: a prompt alone
	Answered *hooks.ModelResponse `json:",omitempty"`
	Executed *hooks.ToolResult    `json:",omitempty"`
}

// errSuspended is what the durable Host.Review answers for a review that
// has no recorded answer: the step is suspended, not refused.
var errSuspended = errors.New("waiting for a person's answer (the step is suspended and runs again with it)")

// activities are the steps of the workflow, on the worker's Agent.
type activities struct {
	agent *Agent
	conv  *convCache // the conversation nodes this worker read or wrote
}

// step is one activity's run, rehydrated from the snapshot the workflow
// carries, with a Host.Review that answers from the recorded answers and
// suspends the step on a review that has none.
type step struct {
	run    *hooks.Run
	ctx    context.Context // the hooks': cancelled when the step suspends
	cancel context.CancelFunc
	asked  chan hooks.Review // the first unanswered review; buffered 1
}

// host is the Agent's Host with a Review that answers from the answers
// recorded for this step. Its Confirm is removed, so that Context.Confirm
// asks the same Review (a review without a call) for a yes or no: one
// question and one answer path for both.
func (a *activities) host(answers []Answer, asked chan hooks.Review, cancel context.CancelFunc) hooks.Host {
	host := a.agent.Host
	host.Confirm = nil
	host.Review = func(ctx context.Context, r hooks.Review) (hooks.Verdict, error) {
		for _, ans := range answers {
			if ans.answers(r) {
				return ans.verdict(), nil
			}
		}
		if r.Call != nil { // the hook may change its call after asking: the question keeps what it asked about
			c := *r.Call
			c.Arguments = cloneJSON(c.Arguments)
			r.Call = &c
		}
		select {
		case asked <- r: // the first review is the one the person is asked
		default:
		}
		if cancel != nil {
			cancel()
		}
		return hooks.Verdict{}, errSuspended
	}
	return host
}

// rehydrate makes the run of a step again from its snapshot.
func (a *activities) rehydrate(ctx context.Context, snapshot []byte, answers []Answer) (*step, error) {
	s := &step{asked: make(chan hooks.Review, 1)}
	s.ctx, s.cancel = context.WithCancel(ctx)
	snapshot, err := a.openSnapshot(ctx, snapshot)
	if err != nil {
		s.cancel()
		return nil, err
	}
	run, err := a.agent.Chain.Rehydrate(a.host(answers, s.asked, s.cancel), snapshot)
	if err != nil {
		s.cancel()
		return nil, sdk.NewNonRetryableApplicationError(err.Error(), "hooks.Snapshot", err)
	}
	s.run = run
	return s, nil
}

// suspended returns the suspension of a step that a review suspended, or
// nil; the step's run is then thrown away, and the person is told.
func (a *activities) suspended(ctx context.Context, s <-chan hooks.Review, workflowAsks bool) *suspension {
	select {
	case r := <-s:
		if a.agent.Ask != nil && !workflowAsks { // a workflow of before questions had ids: ask here
			info := activity.GetInfo(ctx)
			a.agent.Ask(ctx, Question{WorkflowID: info.WorkflowExecution.ID, Prompt: r.Prompt, Call: r.Call})
		}
		return &suspension{Prompt: r.Prompt, Call: r.Call}
	default:
		return nil
	}
}

// withPersonsReason adds to a refusal the messages people gave with a
// rejection in this call, so that the model reads why; a message the
// refusal already ends with (a hook that refused with "…: " + it) is not
// repeated.
func withPersonsReason(reason string, answers []Answer) string {
	for _, a := range answers {
		if v := a.verdict(); !v.Approved && v.Message != "" && !endsWith(reason, v.Message) {
			reason += ": " + v.Message
		}
	}
	return reason
}

// endsWith says whether text ends with the words of msg: at its end, and
// not inside a word ("not approved" does not end with "no", nor "ok" with
// "k").
func endsWith(text, msg string) bool {
	if !strings.HasSuffix(text, msg) {
		return false
	}
	before, _ := utf8.DecodeLastRuneInString(text[:len(text)-len(msg)])
	first, _ := utf8.DecodeRuneInString(msg)
	return len(text) == len(msg) || !(unicode.IsLetter(before) || unicode.IsDigit(before)) ||
		!(unicode.IsLetter(first) || unicode.IsDigit(first))
}
