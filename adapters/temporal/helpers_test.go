package temporal_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rienda/hooks"
	durable "github.com/rienda/hooks/adapters/temporal"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"
	sdk "go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
)

// record counts what the hooks did, across every worker of a test.
type record struct {
	mu        sync.Mutex
	starts    []hooks.RunStart
	ends      []hooks.RunEnd
	memoRuns  int
	decisions []string // "hook point decision", in order
}

func (r *record) add(f func(r *record)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	f(r)
}

func (r *record) trace(e hooks.TraceEvent) {
	r.add(func(r *record) { r.decisions = append(r.decisions, fmt.Sprintf("%s %s %s", e.Hook, e.Point, e)) })
}

func (r *record) snapshot() record {
	r.mu.Lock()
	defer r.mu.Unlock()
	return record{starts: append([]hooks.RunStart(nil), r.starts...), ends: append([]hooks.RunEnd(nil), r.ends...),
		memoRuns: r.memoRuns, decisions: append([]string(nil), r.decisions...)}
}

// agentHooks are the hook definitions every worker of a test builds its
// chain from: a hook that keeps state and memoizes, a guard, a rewrite, a
// cached answer and a redaction.
func agentHooks(rec *record) []hooks.Hook {
	return []hooks.Hook{bookkeeper(rec), guard, sandbox, cache, redact}
}

// bookkeeper counts tool calls in its state, and memoizes work that must
// run once per run, whichever step needs it first.
func bookkeeper(rec *record) hooks.Hook {
	policy := func(c *hooks.Context) error {
		_, err := c.Memo("policy", func() (any, error) {
			rec.add(func(r *record) { r.memoRuns++ })
			return "loaded", nil
		})
		return err
	}
	return hooks.Funcs{HookName: "bookkeeper",
		BeforeRun: func(c *hooks.Context, s hooks.RunStart) (*hooks.RunPatch, error) {
			rec.add(func(r *record) { r.starts = append(r.starts, s) })
			return &hooks.RunPatch{State: map[string]any{"tools": 0.0}}, nil
		},
		BeforeModelRequest: func(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
			return nil, policy(c)
		},
		BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			if err := policy(c); err != nil {
				return nil, err
			}
			st := c.State().(map[string]any)
			c.SetState(map[string]any{"tools": st["tools"].(float64) + 1})
			return nil, nil
		},
		AfterRun: func(c *hooks.Context, e hooks.RunEnd) error {
			if err := policy(c); err != nil {
				return err
			}
			rec.add(func(r *record) { r.ends = append(r.ends, e) })
			return nil
		},
	}
}

var guard = hooks.Funcs{HookName: "guard",
	BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		if call.Name == "delete" {
			return nil, &hooks.ToolError{Message: "deleting is not allowed"}
		}
		return nil, nil
	},
}

var sandbox = hooks.Funcs{HookName: "sandbox",
	BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		if call.Name != "read" {
			return nil, nil
		}
		return &hooks.ToolCallPatch{Arguments: map[string]any{"path": "/sandbox/" + fmt.Sprint(call.Arguments["path"])}}, nil
	},
}

// cache answers a question it knows without the model, and then sends the
// run on, once (its state remembers).
var cache = hooks.Funcs{HookName: "cache",
	BeforeModelRequest: func(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
		if last := req.Messages[len(req.Messages)-1]; last.Text == "what version?" {
			return &hooks.ModelRequestPatch{Respond: &hooks.ModelResponse{Text: "v1.2"}}, nil
		}
		return nil, nil
	},
	AfterModelResponse: func(c *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
		if resp.Text == "v1.2" && c.State() == nil {
			c.SetState("nudged")
			next := "now tidy up"
			return &hooks.ModelResponsePatch{Continue: &next}, nil
		}
		return nil, nil
	},
}

var redact = hooks.Funcs{HookName: "redact",
	AfterToolExecute: func(c *hooks.Context, call hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
		if !strings.Contains(res.Text, "secret-") {
			return nil, nil
		}
		text := strings.ReplaceAll(res.Text, "secret-123", "[redacted]")
		return &hooks.ToolResultPatch{Text: &text}, nil
	},
}

// scriptedModel answers from the conversation alone, so that any worker,
// any attempt, answers the same.
func scriptedModel(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
	last := req.Messages[len(req.Messages)-1]
	switch {
	case last.Role == "user" && last.Text == "now tidy up":
		return hooks.ModelResponse{ToolCalls: []hooks.ToolCall{
			{ID: "c1", Name: "delete", Arguments: map[string]any{"path": "/"}},
			{ID: "c2", Name: "read", Arguments: map[string]any{"path": "notes.txt"}},
		}}, nil
	case last.Role == "tool":
		return hooks.ModelResponse{Text: "tidied"}, nil
	}
	return hooks.ModelResponse{Text: "?"}, nil
}

func readTool(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
	return hooks.ToolResult{Text: fmt.Sprintf("%v: token=secret-123", call.Arguments["path"])}, nil
}

func deleteTool(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
	return hooks.ToolResult{Text: "deleted"}, nil
}

// newAgent builds a worker's agent: a fresh chain from the hook
// definitions, as a process that restarts would.
func newAgent(t *testing.T, rec *record, extra ...hooks.Hook) *durable.Agent {
	t.Helper()
	chain, err := hooks.NewChain(append(agentHooks(rec), extra...), hooks.WithTrace(rec.trace))
	require.NoError(t, err)
	return &durable.Agent{Chain: chain, Model: scriptedModel,
		Tools: map[string]hooks.ToolFunc{"read": readTool, "delete": deleteTool}}
}

// startWorker starts a worker on queue; stop stops it (once, also at the
// end of the test).
func startWorker(t *testing.T, queue string, agent *durable.Agent) (stop func()) {
	t.Helper()
	w := worker.New(server.GetDefaultClient(), queue, worker.Options{})
	require.NoError(t, durable.Register(w, agent))
	require.NoError(t, w.Start())
	stop = sync.OnceFunc(w.Stop)
	t.Cleanup(stop)
	return stop
}

// quickRetry retries a failed step at once, so that tests do not wait.
var quickRetry = &sdk.RetryPolicy{InitialInterval: 10 * time.Millisecond, BackoffCoefficient: 1, MaximumAttempts: 5}

func startRun(t *testing.T, queue, id string, in durable.Input) client.WorkflowRun {
	t.Helper()
	in.StepTimeout, in.Retry = 30*time.Second, quickRetry
	run, err := server.GetDefaultClient().ExecuteWorkflow(context.Background(),
		client.StartWorkflowOptions{ID: id, TaskQueue: queue}, durable.WorkflowName, in)
	require.NoError(t, err)
	return run
}

func wait(t *testing.T, run client.WorkflowRun) durable.Output {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out durable.Output
	require.NoError(t, run.Get(ctx, &out))
	return out
}
