package temporal_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/rienda/hooks"
	durable "github.com/rienda/hooks/adapters/temporal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/temporalproto"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

var update = flag.Bool("update", false, "rewrite testdata/approval-history.json from a fresh run")

// goApproval asks before every delete, in Go.
var goApproval = hooks.Funcs{HookName: "go-approval",
	BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		if call.Name == "delete" && !c.Confirm(hooks.Prompt{Title: "Delete?", Body: "delete everything"}) {
			return nil, &hooks.ToolError{Message: "not approved"}
		}
		return nil, nil
	},
}

// recordHistory runs a workflow that waits for a person and is answered
// yes, and returns its whole history.
func recordHistory(t *testing.T) *historypb.History {
	var rec record
	asked := make(chan durable.Question, 1)
	agent := newAgent(t, &rec)
	chain, err := hooks.NewChain([]hooks.Hook{goApproval})
	require.NoError(t, err)
	agent.Chain = chain
	agent.Ask = func(ctx context.Context, q durable.Question) { asked <- q }
	startWorker(t, "replay", agent)
	run := startRun(t, "replay", "replay", durable.Input{Input: "what version?", Messages: []hooks.Message{{Role: "user", Text: "now tidy up"}}})
	q := <-asked
	require.NoError(t, durable.SendAnswer(context.Background(), server.GetDefaultClient(), "replay",
		durable.Answer{QuestionID: q.ID, Verdict: &hooks.Verdict{Approved: true, Message: "go ahead"}}))
	out := wait(t, run)
	require.Equal(t, "tidied", out.Output)
	assert.Equal(t, "deleted", out.Messages[2].Text, "approved: the tool ran")

	it := server.GetDefaultClient().GetWorkflowHistory(context.Background(), "replay", run.GetRunID(), false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	history := &historypb.History{}
	for it.HasNext() {
		e, err := it.Next()
		require.NoError(t, err)
		history.Events = append(history.Events, e)
	}
	return history
}

func TestWorkflowReplaysDeterministically(t *testing.T) {
	history := recordHistory(t)
	replayer := worker.NewWorkflowReplayer()
	replayer.RegisterWorkflowWithOptions(durable.Workflow, workflow.RegisterOptions{Name: durable.WorkflowName})
	require.NoError(t, replayer.ReplayWorkflowHistory(nil, history), "the history just recorded")

	// approval-history.json was recorded before questions had ids and runs
	// continued as new (workflow.GetVersion's default version); -v1 before
	// answers carried verdicts (its answer is a bare yes); -v2 by the
	// version of this code. -update rewrites the latest only: older ones
	// are the runs still in flight when a new version deploys.
	fixture := filepath.Join("testdata", "approval-history-v2.json")
	if *update {
		raw, err := temporalproto.CustomJSONMarshalOptions{Indent: " "}.Marshal(history)
		require.NoError(t, err)
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(fixture, raw, 0o644))
	}
	for _, f := range []string{"approval-history.json", "approval-history-v1.json", "approval-history-v2.json"} {
		assert.NoError(t, replayer.ReplayWorkflowHistoryFromJSONFile(nil, filepath.Join("testdata", f)),
			"%s: a history recorded by an earlier version of the workflow (a change that breaks it breaks running workflows)", f)
	}
}
