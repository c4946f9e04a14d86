package temporal_test

import (
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rienda/hooks"
	durable "github.com/rienda/hooks/adapters/temporal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	sdk "go.temporal.io/sdk/temporal"
)

// approvalGuard asks a person before a delete, as a user writes it for
// any host.
const approvalGuard = `module.exports = {
  beforeToolExecute: function (ctx, call) {
    if (call.name !== "delete") return;
    if (!ctx.confirm({ title: "Delete files?", body: "delete " + call.arguments.path })) {
      return { allow: false, reason: "refused by the user" };
    }
  },
};
`

// approvalAgent loads the JS guard from dir, as a worker that starts does.
func approvalAgent(t *testing.T, dir string, rec *record, asked chan<- durable.Question, deletes *atomic.Int32) *durable.Agent {
	t.Helper()
	jsGuard, err := (&hooks.Loader{Dir: dir}).Load("approval")
	require.NoError(t, err)
	agent := newAgent(t, rec)
	chain, err := hooks.NewChain([]hooks.Hook{bookkeeper(rec), jsGuard}, hooks.WithTrace(rec.trace))
	require.NoError(t, err)
	agent.Chain = chain
	agent.Tools["delete"] = func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		deletes.Add(1)
		return hooks.ToolResult{Text: "deleted"}, nil
	}
	agent.Ask = func(ctx context.Context, q durable.Question) { asked <- q }
	return agent
}

// waitForEvents reads the workflow's history as it grows until done
// says the history has what the test waits for.
func waitForEvents(t *testing.T, id string, done func(events []*historypb.HistoryEvent) bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	it := server.GetDefaultClient().GetWorkflowHistory(ctx, id, "", true, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	var events []*historypb.HistoryEvent
	for it.HasNext() {
		e, err := it.Next()
		require.NoError(t, err)
		if events = append(events, e); done(events) {
			return
		}
	}
	t.Fatalf("the history of %s ended before the test saw what it waited for", id)
}

// waitingForSignal says whether the workflow has posted its first
// question and gone back to waiting: a completed hooks.Ask activity (the
// workflow posts the question once the step that asked has returned), then
// a completed workflow task.
func waitingForSignal(events []*historypb.HistoryEvent) bool {
	scheduled := map[int64]string{}
	sawTool := false
	for _, e := range events {
		switch e.GetEventType() {
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
			scheduled[e.GetEventId()] = e.GetActivityTaskScheduledEventAttributes().GetActivityType().GetName()
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED:
			id := e.GetActivityTaskCompletedEventAttributes().GetScheduledEventId()
			sawTool = sawTool || scheduled[id] == durable.ActivityAsk
		case enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED:
			if sawTool {
				return true
			}
		}
	}
	return false
}

func TestAJSGuardWaitsForAPersonAcrossAWorkerRestart(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "approval"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "approval", "index.js"), []byte(approvalGuard), 0o644))
	var rec record
	var deletes atomic.Int32
	asked := make(chan durable.Question, 4)

	stopFirst := startWorker(t, "approval", approvalAgent(t, dir, &rec, asked, &deletes))
	run := startRun(t, "approval", "approval", durable.Input{Input: "now tidy up"})
	q := <-asked
	assert.Equal(t, hooks.Prompt{Title: "Delete files?", Body: "delete /"}, q.Prompt)
	assert.Equal(t, "approval", q.WorkflowID)
	waitForEvents(t, "approval", waitingForSignal)
	stopFirst()

	startWorker(t, "approval", approvalAgent(t, dir, &rec, asked, &deletes))
	var pending *durable.Question
	v, err := server.GetDefaultClient().QueryWorkflow(context.Background(), "approval", "", durable.QueryPending)
	require.NoError(t, err)
	require.NoError(t, v.Get(&pending))
	require.NotNil(t, pending, "the workflow shows what it waits for")
	assert.Equal(t, q.Prompt, pending.Prompt)

	require.NoError(t, durable.SendAnswer(context.Background(), server.GetDefaultClient(), "approval",
		durable.Answer{QuestionID: q.ID, Approved: false, Reason: "not on a Friday", By: "alice"}))
	out := wait(t, run)

	assert.Equal(t, hooks.Message{Role: "tool", Text: "refused by the user: not on a Friday", ToolCallID: "c1"}, out.Messages[2])
	assert.Zero(t, deletes.Load(), "the refused tool never ran")
	assert.Empty(t, asked, "the person was asked once")
	assert.Contains(t, out.Steps, durable.Step{Kind: "wait", Detail: "Delete files?: delete /"})
	assert.Contains(t, out.Steps, durable.Step{Kind: "answer", Detail: `no by "alice": not on a Friday`})
	got := rec.snapshot()
	assert.Len(t, got.starts, 1)
	assert.Len(t, got.ends, 1)
	assert.Equal(t, "tidied", out.Output)
}

func TestACancelledRunEndsOnceWhileWaitingForAPerson(t *testing.T) {
	var rec record
	asked := make(chan durable.Question, 1)
	agent := newAgent(t, &rec)
	chain, err := hooks.NewChain([]hooks.Hook{bookkeeper(&rec), goApproval})
	require.NoError(t, err)
	agent.Chain = chain
	agent.Ask = func(ctx context.Context, q durable.Question) { asked <- q }
	startWorker(t, "cancel", agent)
	run := startRun(t, "cancel", "cancel", durable.Input{Input: "now tidy up"})
	<-asked
	waitForEvents(t, "cancel", waitingForSignal)

	require.NoError(t, server.GetDefaultClient().CancelWorkflow(context.Background(), "cancel", ""))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	err = run.Get(ctx, nil)
	require.Error(t, err)
	assert.True(t, sdk.IsCanceledError(err), "the run was cancelled: %v", err)
	got := rec.snapshot()
	require.Len(t, got.ends, 1, "AfterRun ran once, in the cleanup step")
	assert.Equal(t, hooks.Interrupted, got.ends[0].Outcome)
}
