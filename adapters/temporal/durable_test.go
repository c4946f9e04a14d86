package temporal_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/rienda/hooks"
	durable "github.com/rienda/hooks/adapters/temporal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/activity"
)

// runInProcess runs the same loop as the workflow with the library alone,
// in this process: the reference a durable run must agree with.
func runInProcess(t *testing.T, rec *record, input string) (string, []hooks.Message) {
	ctx := context.Background()
	agent := newAgent(t, rec)
	run, err := agent.Chain.Start(ctx, hooks.Host{}, hooks.RunStart{RunID: "local", Input: input})
	require.NoError(t, err)
	msgs := []hooks.Message{{Role: "user", Text: input}}
	output := ""
	for range durable.DefaultMaxTurns {
		reply, err := run.CallModel(ctx, hooks.ModelRequest{Messages: msgs}, agent.Model)
		require.NoError(t, err)
		resp := reply.Response
		msgs = append(msgs, hooks.Message{Role: "assistant", Text: resp.Text, ToolCalls: resp.ToolCalls})
		output = resp.Text
		if len(resp.ToolCalls) == 0 {
			if reply.Continue == "" {
				break
			}
			msgs = append(msgs, hooks.Message{Role: "user", Text: reply.Continue})
			continue
		}
		for _, call := range resp.ToolCalls {
			res, err := run.CallTool(ctx, call, agent.Tools[call.Name])
			require.NoError(t, err)
			msgs = append(msgs, hooks.Message{Role: "tool", Text: res.Text, ToolCallID: call.ID})
		}
	}
	run.End(ctx, hooks.RunEnd{Output: output})
	return output, msgs
}

func TestDurableRunDecidesAsTheInProcessLibrary(t *testing.T) {
	var local record
	wantOutput, wantMessages := runInProcess(t, &local, "what version?")

	var rec record
	startWorker(t, "same-decisions", newAgent(t, &rec))
	out := wait(t, startRun(t, "same-decisions", "same-decisions", durable.Input{Input: "what version?"}))

	assert.Equal(t, wantOutput, out.Output)
	assert.Equal(t, "tidied", out.Output)
	assert.Equal(t, wantMessages, out.Messages)
	got := rec.snapshot()
	assert.Equal(t, local.snapshot().decisions, got.decisions, "every hook decided as in process")
	assert.Contains(t, got.decisions, "guard beforeToolExecute refused: deleting is not allowed")
	assert.Contains(t, got.decisions, "sandbox beforeToolExecute changed arguments")
	assert.Contains(t, got.decisions, "cache beforeModelRequest answered")
	assert.Contains(t, got.decisions, "redact afterToolExecute changed text")
	assert.Equal(t, hooks.Message{Role: "tool", Text: "/sandbox/notes.txt: token=[redacted]", ToolCallID: "c2"}, out.Messages[5])
	require.Len(t, got.ends, 1)
	assert.Equal(t, hooks.Completed, got.ends[0].Outcome)
	assert.Equal(t, "tidied", got.ends[0].Output)
}

// snapshotOf reads what a test checks in a run's snapshot.
func snapshotOf(t *testing.T, raw json.RawMessage) (modelCalls int, states map[string]any) {
	t.Helper()
	var doc struct {
		ModelCalls int            `json:"modelCalls"`
		States     map[string]any `json:"states"`
		Ended      bool           `json:"ended"`
	}
	require.NoError(t, json.Unmarshal(raw, &doc))
	assert.True(t, doc.Ended, "the last snapshot is of an ended run")
	return doc.ModelCalls, doc.States
}

func TestANewWorkerFinishesARunWhoseWorkerStopped(t *testing.T) {
	var rec record
	entered := make(chan struct{})
	first := newAgent(t, &rec)
	first.Model = func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
		if req.Messages[len(req.Messages)-1].Role != "tool" {
			return scriptedModel(c, req)
		}
		close(entered) // the last model call: this worker goes away in it
		<-activity.GetWorkerStopChannel(c.Context)
		return hooks.ModelResponse{}, errors.New("the worker is going away")
	}
	stopFirst := startWorker(t, "restart", first)
	run := startRun(t, "restart", "restart", durable.Input{Input: "what version?"})
	<-entered
	stopFirst()
	startWorker(t, "restart", newAgent(t, &rec)) // a fresh chain from the same definitions

	out := wait(t, run)
	assert.Equal(t, "tidied", out.Output)
	got := rec.snapshot()
	require.Len(t, got.starts, 1, "BeforeRun ran once: a rehydrated run does not start again")
	assert.False(t, got.starts[0].Resumed)
	assert.Equal(t, 1, got.memoRuns, "memo survived the restart")
	require.Len(t, got.ends, 1, "AfterRun ran once")
	assert.Equal(t, hooks.Completed, got.ends[0].Outcome)
	modelCalls, states := snapshotOf(t, out.Snapshot)
	assert.Equal(t, 2, modelCalls, "the failed attempt is not counted")
	assert.Equal(t, map[string]any{"tools": 2.0}, states["bookkeeper"], "state set by the first worker reached the second")
	assert.Equal(t, "nudged", states["cache"])
}

func TestARetriedStepCountsAndMemoizesOnce(t *testing.T) {
	var rec record
	var calls, failures atomic.Int32
	agent := newAgent(t, &rec)
	agent.Model = func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
		calls.Add(1)
		if req.Messages[len(req.Messages)-1].Role == "tool" && failures.Add(1) == 1 {
			return hooks.ModelResponse{}, errors.New("the model's service is overloaded")
		}
		return scriptedModel(c, req)
	}
	startWorker(t, "retry", agent)
	out := wait(t, startRun(t, "retry", "retry", durable.Input{Input: "what version?"}))

	assert.Equal(t, "tidied", out.Output)
	assert.EqualValues(t, 3, calls.Load(), "the failed call was retried")
	modelCalls, _ := snapshotOf(t, out.Snapshot)
	assert.Equal(t, 2, modelCalls, "ModelCalls counts the retried call once")
	got := rec.snapshot()
	assert.Equal(t, 1, got.memoRuns, "memoized work did not run again")
	assert.Len(t, got.ends, 1)
}
