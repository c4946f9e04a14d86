package temporal_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/rienda/hooks"
	durable "github.com/rienda/hooks/adapters/temporal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"
)

// reviewed is what a test's reviewer and delete tool saw, across workers.
type reviewed struct {
	mu       sync.Mutex
	verdicts []hooks.Verdict  // what Context.Review returned to the hook
	deletes  []map[string]any // the arguments the delete tool ran with
}

func (r *reviewed) seen() ([]hooks.Verdict, []map[string]any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]hooks.Verdict(nil), r.verdicts...), append([]map[string]any(nil), r.deletes...)
}

// reviewer asks a person about each delete, with the call, and does what
// the verdict says: run the call as edited, refuse it with the person's
// words, or take the person's answer as the tool's (prebuilt.Approval's
// mapping, written out here so that the test holds the transport alone).
func reviewer(r *reviewed) hooks.Hook {
	return hooks.Funcs{HookName: "reviewer",
		BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			if call.Name != "delete" {
				return nil, nil
			}
			v, err := c.Review(hooks.Review{Prompt: hooks.Prompt{Title: "Delete?", Body: fmt.Sprint(call.Arguments["path"])}, Call: &call})
			if err != nil {
				return nil, err // the durable host suspends the step here
			}
			r.mu.Lock()
			r.verdicts = append(r.verdicts, v)
			r.mu.Unlock()
			switch {
			case !v.Approved:
				return hooks.Refuse("rejected: " + v.Message), nil
			case v.Result != nil:
				return &hooks.ToolCallPatch{Result: v.Result}, nil
			case v.Arguments != nil:
				return &hooks.ToolCallPatch{Arguments: v.Arguments}, nil
			}
			return nil, nil
		},
	}
}

// reviewAgent runs one delete of "/" past the reviewer; its tool records
// the arguments it ran with, then does what block says (nil: returns).
func reviewAgent(t *testing.T, r *reviewed, asked chan<- durable.Question, block func(c *hooks.Context) error) *durable.Agent {
	t.Helper()
	var rec record
	agent := newAgent(t, &rec)
	chain, err := hooks.NewChain([]hooks.Hook{reviewer(r)})
	require.NoError(t, err)
	agent.Chain = chain
	agent.Model = func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
		if last := req.Messages[len(req.Messages)-1]; last.Role == "tool" {
			return hooks.ModelResponse{Text: "done: " + last.Text}, nil
		}
		return hooks.ModelResponse{ToolCalls: []hooks.ToolCall{{ID: "c1", Name: "delete", Arguments: map[string]any{"path": "/"}}}}, nil
	}
	agent.Tools["delete"] = func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		r.mu.Lock()
		r.deletes = append(r.deletes, call.Arguments)
		r.mu.Unlock()
		if block != nil {
			if err := block(c); err != nil {
				return hooks.ToolResult{}, err
			}
		}
		return hooks.ToolResult{Text: fmt.Sprintf("deleted %v", call.Arguments["path"])}, nil
	}
	agent.Ask = func(ctx context.Context, q durable.Question) { asked <- q }
	return agent
}

// pendingQuestion is the question the run waits on, by the QueryPending
// query.
func pendingQuestion(t *testing.T, id string) *durable.Question {
	t.Helper()
	v, err := server.GetDefaultClient().QueryWorkflow(context.Background(), id, "", durable.QueryPending)
	require.NoError(t, err)
	var q *durable.Question
	require.NoError(t, v.Get(&q))
	return q
}

// The person's verdict reaches the hook's Context.Review as given, through
// the update, the history and the step that runs again: an edit runs the
// call with the person's arguments, a rejection's words reach the model,
// and an answer for the tool is the result, the tool not running.
func TestAVerdictReachesTheReviewAsThePersonGaveIt(t *testing.T) {
	call := hooks.ToolCall{ID: "c1", Name: "delete", Arguments: map[string]any{"path": "/"}}
	for name, c := range map[string]struct {
		verdict hooks.Verdict
		deletes []map[string]any
		tool    string // what the model read
	}{
		"edit": {hooks.Verdict{Approved: true, Arguments: map[string]any{"path": "/tmp/old", "dryRun": true}, Message: "only the old files"},
			[]map[string]any{{"path": "/tmp/old", "dryRun": true}}, "deleted /tmp/old"},
		"reject":  {hooks.Verdict{Message: "use the trash instead"}, nil, "rejected: use the trash instead"},
		"respond": {hooks.Verdict{Approved: true, Result: &hooks.ToolResult{Text: "there is nothing to delete"}}, nil, "there is nothing to delete"},
		"approve": {hooks.Verdict{Approved: true}, []map[string]any{{"path": "/"}}, "deleted /"},
	} {
		t.Run(name, func(t *testing.T) {
			var r reviewed
			asked := make(chan durable.Question, 2)
			id := "verdict-" + name
			startWorker(t, id, reviewAgent(t, &r, asked, nil))
			run := startRun(t, id, id, durable.Input{Input: "tidy up"})
			q := <-asked
			assert.Equal(t, &call, q.Call, "the question carries the call under review")
			assert.Equal(t, hooks.Review{Prompt: hooks.Prompt{Title: "Delete?", Body: "/"}, Call: &call}, q.Review())
			pending := pendingQuestion(t, id)
			require.NotNil(t, pending)
			assert.Equal(t, q, *pending, "the query shows the question with its call")

			v := c.verdict
			require.NoError(t, durable.SendAnswer(context.Background(), server.GetDefaultClient(), id,
				durable.Answer{QuestionID: q.ID, Verdict: &v, By: "alice"}))
			out := wait(t, run)
			verdicts, deletes := r.seen()
			assert.Equal(t, []hooks.Verdict{c.verdict}, verdicts, "Context.Review returned the verdict unchanged")
			assert.Equal(t, c.deletes, deletes)
			assert.Equal(t, "done: "+c.tool, out.Output)
			assert.Equal(t, hooks.Message{Role: "tool", Text: c.tool, ToolCallID: "c1"}, out.Messages[2])
			assert.Empty(t, asked, "asked once")
		})
	}
}

// A verdict recorded in the history survives the worker: the worker that
// asked stops before the answer comes (a signal, taken by the next
// worker), and the worker that runs the step with it is stopped mid-tool.
// The person is asked once, and every attempt of the step runs the call
// with the person's arguments.
func TestAKilledWorkerStillAppliesTheVerdictOnce(t *testing.T) {
	const id = "verdict-kill"
	var r reviewed
	asked := make(chan durable.Question, 2)
	stopFirst := startWorker(t, id, reviewAgent(t, &r, asked, nil))
	in := durable.Input{Input: "tidy up", Options: durable.Options{Tool: durable.StepOptions{HeartbeatTimeout: 2 * time.Second}}}
	run := startRun(t, id, id, in)
	q := <-asked
	waitForEvents(t, id, waitingForSignal)
	stopFirst()

	edit := hooks.Verdict{Approved: true, Arguments: map[string]any{"path": "/tmp/old"}}
	require.NoError(t, server.GetDefaultClient().SignalWorkflow(context.Background(), id, "", durable.SignalAnswer,
		durable.Answer{QuestionID: q.ID, Verdict: &edit, By: "alice"}))

	started := make(chan struct{})
	var once sync.Once
	blockFirst := func(c *hooks.Context) error {
		first := false
		once.Do(func() { first = true })
		if !first {
			return nil
		}
		close(started)
		<-c.Done() // the worker stops under the tool
		return c.Err()
	}
	stopSecond := startWorker(t, id, reviewAgent(t, &r, asked, blockFirst))
	<-started
	stopSecond()
	startWorker(t, id, reviewAgent(t, &r, asked, nil))

	out := wait(t, run)
	verdicts, deletes := r.seen()
	require.GreaterOrEqual(t, len(deletes), 2, "the step ran again after its worker stopped")
	for i, d := range deletes {
		assert.Equal(t, map[string]any{"path": "/tmp/old"}, d, "attempt %d ran the edited call", i+1)
	}
	for _, v := range verdicts {
		assert.Equal(t, edit, v)
	}
	assert.Equal(t, "done: deleted /tmp/old", out.Output)
	assert.Empty(t, asked, "the person was asked once")
	answers := 0
	for _, s := range out.Steps {
		if s.Kind == "answer" {
			answers++
		}
	}
	assert.Equal(t, 1, answers, "one answer recorded: %v", out.Steps)
}

// sendRaw sends an answer's JSON as it is, by the update and by the
// signal: the update's error, if any.
func sendRaw(t *testing.T, id, raw string) error {
	t.Helper()
	c := server.GetDefaultClient()
	require.NoError(t, c.SignalWorkflow(context.Background(), id, "", durable.SignalAnswer, json.RawMessage(raw)))
	h, err := c.UpdateWorkflow(context.Background(), client.UpdateWorkflowOptions{WorkflowID: id, UpdateName: durable.UpdateAnswer,
		Args: []any{json.RawMessage(raw)}, WaitForStage: client.WorkflowUpdateStageCompleted})
	if err != nil {
		return err
	}
	return h.Get(context.Background(), nil)
}

// Answers that must not decide: to a question that does not exist, in
// JSON that cannot be read strictly (a misspelt field, a key twice, a
// wrong type), with a verdict that contradicts itself, and a second answer
// to a question answered. Each is refused by the update (with why) and
// dropped from the signal; the question waits, and only the person's
// answer decides.
func TestAnswersThatMustNotDecideAreRefused(t *testing.T) {
	const id = "verdict-attacks"
	var r reviewed
	asked := make(chan durable.Question, 2)
	startWorker(t, id, reviewAgent(t, &r, asked, nil))
	run := startRun(t, id, id, durable.Input{Input: "tidy up"})
	q := <-asked

	for raw, fault := range map[string]string{
		`{"QuestionID":"no-such-question","Verdict":{"approved":true}}`:                         "no-such-question",
		fmt.Sprintf(`{"QuestionID":%q,"Verdict":{"aproved":true}}`, q.ID):                       "aproved",
		fmt.Sprintf(`{"QuestionID":%q,"Aproved":true}`, q.ID):                                   "Aproved",
		fmt.Sprintf(`{"QuestionID":%q,"Verdict":{"approved":false,"Approved":true}}`, q.ID):     "twice",
		fmt.Sprintf(`{"QuestionID":%q,"Verdict":{"approved":"true"}}`, q.ID):                    "approved",
		fmt.Sprintf(`{"QuestionID":%q,"Verdict":{"arguments":{"path":"/etc"}}}`, q.ID):          "an edit is an approval",
		fmt.Sprintf(`{"QuestionID":%q,"Approved":true,"Verdict":{"approved":false}}`, q.ID):     "Approved",
		fmt.Sprintf(`{"QuestionID":%q,"Verdict":{"approved":true,"arguments":null}}`, q.ID):     "null",
		fmt.Sprintf(`{"QuestionID":%q,"Verdict":{"approved":true,"result":{"txt":"x"}}}`, q.ID): "txt",
	} {
		assert.ErrorContains(t, sendRaw(t, id, raw), fault, raw)
	}
	pending := pendingQuestion(t, id)
	require.NotNil(t, pending, "the question still waits")
	assert.Equal(t, q.ID, pending.ID)
	_, deletes := r.seen()
	assert.Empty(t, deletes, "nothing ran")

	no := durable.Answer{QuestionID: q.ID, Verdict: &hooks.Verdict{Message: "not today"}, By: "alice"}
	require.NoError(t, durable.SendAnswer(context.Background(), server.GetDefaultClient(), id, no))
	assert.Error(t, durable.SendAnswer(context.Background(), server.GetDefaultClient(), id, no), "a second answer to the question")
	out := wait(t, run)
	verdicts, deletes := r.seen()
	assert.Equal(t, []hooks.Verdict{{Message: "not today"}}, verdicts, "only the person's answer decided, once")
	assert.Empty(t, deletes)
	assert.Equal(t, "done: rejected: not today", out.Output)
	assert.Contains(t, out.Steps, durable.Step{Kind: "answer", Detail: `no by "alice": not today`})
}

// A question that is not about a call (Context.Confirm) takes a yes or a
// no with words: a verdict that edits arguments or answers for a tool is
// refused, and the words of a no reach the model.
func TestAConfirmTakesNoEditAndNoToolAnswer(t *testing.T) {
	const id = "verdict-confirm"
	var rec record
	var deletes int
	var mu sync.Mutex
	asked := make(chan durable.Question, 2)
	agent := newAgent(t, &rec)
	chain, err := hooks.NewChain([]hooks.Hook{goApproval})
	require.NoError(t, err)
	agent.Chain = chain
	agent.Tools["delete"] = func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		mu.Lock()
		deletes++
		mu.Unlock()
		return hooks.ToolResult{Text: "deleted"}, nil
	}
	agent.Ask = func(ctx context.Context, q durable.Question) { asked <- q }
	startWorker(t, id, agent)
	run := startRun(t, id, id, durable.Input{Input: "now tidy up"})
	q := <-asked
	assert.Nil(t, q.Call, "a Confirm is not about a call")

	c := server.GetDefaultClient()
	edit := durable.Answer{QuestionID: q.ID, Verdict: &hooks.Verdict{Approved: true, Arguments: map[string]any{"path": "/tmp"}}}
	assert.ErrorContains(t, durable.SendAnswer(context.Background(), c, id, edit), "not about a tool call")
	respond := durable.Answer{QuestionID: q.ID, Verdict: &hooks.Verdict{Approved: true, Result: &hooks.ToolResult{Text: "ok"}}}
	assert.ErrorContains(t, durable.SendAnswer(context.Background(), c, id, respond), "not about a tool call")
	require.NoError(t, c.SignalWorkflow(context.Background(), id, "", durable.SignalAnswer, edit), "the signal path drops it")
	require.NotNil(t, pendingQuestion(t, id), "the question still waits")

	require.NoError(t, durable.SendAnswer(context.Background(), c, id,
		durable.Answer{QuestionID: q.ID, Verdict: &hooks.Verdict{Message: "ask again on Monday"}, By: "bob"}))
	out := wait(t, run)
	assert.Equal(t, "not approved: ask again on Monday", out.Messages[2].Text)
	mu.Lock()
	assert.Zero(t, deletes)
	mu.Unlock()
}
