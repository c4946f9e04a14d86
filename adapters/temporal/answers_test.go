package temporal_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/rienda/hooks"
	durable "github.com/rienda/hooks/adapters/temporal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Two identical questions in a row (two deletes in one reply): the same
// answer sent twice (a double click, a retried request) is refused the
// second time and does not approve the second question; an answer to an
// unknown question is refused; the second delete waits for its own answer.
func TestADoubleAnswerDoesNotApproveTheNextIdenticalQuestion(t *testing.T) {
	var rec record
	var deletes atomic.Int32
	asked := make(chan durable.Question, 4)
	agent := newAgent(t, &rec)
	chain, err := hooks.NewChain([]hooks.Hook{bookkeeper(&rec), goApproval})
	require.NoError(t, err)
	agent.Chain = chain
	agent.Model = func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
		if req.Messages[len(req.Messages)-1].Role == "tool" {
			return hooks.ModelResponse{Text: "tidied"}, nil
		}
		return hooks.ModelResponse{ToolCalls: []hooks.ToolCall{
			{ID: "c1", Name: "delete", Arguments: map[string]any{"path": "/"}},
			{ID: "c2", Name: "delete", Arguments: map[string]any{"path": "/"}},
		}}, nil
	}
	agent.Tools["delete"] = func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		deletes.Add(1)
		return hooks.ToolResult{Text: "deleted"}, nil
	}
	agent.Ask = func(ctx context.Context, q durable.Question) { asked <- q }
	startWorker(t, "double", agent)
	run := startRun(t, "double", "double", durable.Input{Input: "tidy up"})
	c := server.GetDefaultClient()

	first := <-asked
	require.NotEmpty(t, first.ID)
	yes := durable.Answer{QuestionID: first.ID, Approved: true, By: "alice"}
	require.NoError(t, durable.SendAnswer(context.Background(), c, "double", yes))

	second := <-asked
	assert.Equal(t, first.Prompt, second.Prompt, "the same question again")
	assert.NotEqual(t, first.ID, second.ID, "but not the same question")
	err = durable.SendAnswer(context.Background(), c, "double", yes) // the double click
	assert.ErrorContains(t, err, first.ID, "an answer to a question answered already is refused")
	err = durable.SendAnswer(context.Background(), c, "double", durable.Answer{QuestionID: "no-such-question", Approved: true})
	assert.ErrorContains(t, err, "no-such-question")
	require.NoError(t, c.SignalWorkflow(context.Background(), "double", "", durable.SignalAnswer, yes), "the signal path drops it too")

	var pending *durable.Question
	v, err := c.QueryWorkflow(context.Background(), "double", "", durable.QueryPending)
	require.NoError(t, err)
	require.NoError(t, v.Get(&pending))
	require.NotNil(t, pending, "the second question still waits")
	assert.Equal(t, second.ID, pending.ID)
	assert.Equal(t, int32(1), deletes.Load(), "only the approved delete ran")

	require.NoError(t, durable.SendAnswer(context.Background(), c, "double", durable.Answer{QuestionID: second.ID, Approved: false, Reason: "one is enough"}))
	out := wait(t, run)
	assert.Equal(t, int32(1), deletes.Load(), "the second delete was refused")
	assert.Equal(t, "not approved: one is enough", out.Messages[3].Text)
	assert.Empty(t, asked, "each question was asked once")
}

// An answer signalled before its question is asked, naming the id the
// question would have had when ids were "<runID>/<n>", approves nothing:
// question ids are unguessable, and an answer that came before its
// question is dropped. The person's own answer, to the asked id, decides.
func TestAnAnswerSentBeforeItsQuestionApprovesNothing(t *testing.T) {
	var rec record
	var deletes atomic.Int32
	asked := make(chan durable.Question, 2)
	release := make(chan struct{})
	var first atomic.Bool
	agent := newAgent(t, &rec)
	chain, err := hooks.NewChain([]hooks.Hook{bookkeeper(&rec), goApproval})
	require.NoError(t, err)
	agent.Chain = chain
	agent.Model = func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
		if first.CompareAndSwap(false, true) {
			<-release // the early answer is in the history before any question
		}
		if req.Messages[len(req.Messages)-1].Role == "tool" {
			return hooks.ModelResponse{Text: "tidied"}, nil
		}
		return hooks.ModelResponse{ToolCalls: []hooks.ToolCall{{ID: "c1", Name: "delete", Arguments: map[string]any{"path": "/"}}}}, nil
	}
	agent.Tools["delete"] = func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		deletes.Add(1)
		return hooks.ToolResult{Text: "deleted"}, nil
	}
	agent.Ask = func(ctx context.Context, q durable.Question) { asked <- q }
	startWorker(t, "early", agent)
	run := startRun(t, "early", "early", durable.Input{Input: "tidy up"})
	c := server.GetDefaultClient()

	for _, id := range []string{run.GetRunID() + "/1", run.GetRunID() + "/0", ""} {
		early := durable.Answer{QuestionID: id, Approved: true, By: "mallory"}
		require.NoError(t, c.SignalWorkflow(context.Background(), "early", "", durable.SignalAnswer, early))
	}
	close(release)

	q := <-asked
	assert.NotEqual(t, run.GetRunID()+"/1", q.ID, "the id cannot be named ahead")
	assert.Regexp(t, `^`+run.GetRunID()+`/1-[0-9a-f]{32}$`, q.ID)
	var pending *durable.Question
	v, err := c.QueryWorkflow(context.Background(), "early", "", durable.QueryPending)
	require.NoError(t, err)
	require.NoError(t, v.Get(&pending))
	require.NotNil(t, pending, "the question still waits: the early answers were dropped")
	assert.Equal(t, q.ID, pending.ID)
	assert.Zero(t, deletes.Load())

	require.NoError(t, durable.SendAnswer(context.Background(), c, "early", durable.Answer{QuestionID: q.ID, Approved: false, Reason: "no"}))
	out := wait(t, run)
	assert.Zero(t, deletes.Load(), "only the person's answer decided")
	assert.Equal(t, "not approved: no", out.Messages[2].Text)
}
