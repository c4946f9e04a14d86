package hooks_test

import (
	"context"
	"errors"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// failing returns a hook that fails at every point with err, or panics
// with it when panics is set.
func failing(name string, err error, panics bool) hooks.Funcs {
	fail := func() error {
		if panics {
			panic(err)
		}
		return err
	}
	return hooks.Funcs{HookName: name,
		BeforeRun: func(*hooks.Context, hooks.RunStart) (*hooks.RunPatch, error) { return nil, fail() },
		AfterRun:  func(*hooks.Context, hooks.RunEnd) error { return fail() },
		BeforeModelRequest: func(*hooks.Context, hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
			return nil, fail()
		},
		AfterModelResponse: func(*hooks.Context, hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
			return nil, fail()
		},
		BeforeToolExecute: func(*hooks.Context, hooks.ToolCall) (*hooks.ToolCallPatch, error) { return nil, fail() },
		AfterToolExecute: func(*hooks.Context, hooks.ToolCall, hooks.ToolResult) (*hooks.ToolResultPatch, error) {
			return nil, fail()
		},
	}
}

// everyPoint drives one run through every point and returns the errors of
// the run methods, by point.
func everyPoint(t *testing.T, chain *hooks.Chain) (map[hooks.Point]error, *hooks.Run) {
	t.Helper()
	ctx := context.Background()
	errs := map[hooks.Point]error{}
	run, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{})
	errs[hooks.BeforeRun] = err
	if run == nil {
		return errs, nil
	}
	_, errs[hooks.BeforeModelRequest] = run.BeforeModelRequest(ctx, hooks.ModelRequest{})
	_, errs[hooks.AfterModelResponse] = run.AfterModelResponse(ctx, hooks.ModelStep{}, hooks.ModelResponse{})
	_, errs[hooks.BeforeToolExecute] = run.BeforeToolExecute(ctx, hooks.ToolCall{Name: "x"})
	_, errs[hooks.AfterToolExecute] = run.AfterToolExecute(ctx, hooks.ToolStep{}, hooks.ToolResult{})
	run.End(ctx, hooks.RunEnd{})
	return errs, run
}

func TestFailRunReturnsHookError(t *testing.T) {
	cause := errors.New("disk full")
	for _, panics := range []bool{false, true} {
		rec := &recorder{}
		chain, err := hooks.NewChain([]hooks.Hook{failing("bad", cause, panics)}, hooks.WithDiagnostics(rec.diagnose))
		require.NoError(t, err)

		_, err = chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{})
		var he *hooks.HookError
		require.ErrorAs(t, err, &he)
		assert.ErrorIs(t, err, hooks.ErrHookFailed)
		assert.ErrorIs(t, err, cause, "the cause is unwrapped, a panic's too")
		assert.Equal(t, "bad", he.Hook)
		assert.Equal(t, hooks.BeforeRun, he.Point)
		assert.Contains(t, err.Error(), `"bad"`)
		assert.Contains(t, err.Error(), "beforeRun")
		// Its AfterRun ran (and failed: a diagnostic), once, with outcome failed.
		require.Len(t, rec.diagnostics(), 1)
		assert.Equal(t, hooks.AfterRun, rec.diagnostics()[0].Point)

		// The other points, with BeforeRun reporting instead.
		chain, err = hooks.NewChain([]hooks.Hook{hooks.Funcs{HookName: "bad",
			BeforeModelRequest: failing("", cause, panics).BeforeModelRequest,
			AfterModelResponse: failing("", cause, panics).AfterModelResponse,
			BeforeToolExecute:  failing("", cause, panics).BeforeToolExecute,
			AfterToolExecute:   failing("", cause, panics).AfterToolExecute,
		}})
		require.NoError(t, err)
		errs, _ := everyPoint(t, chain)
		for _, p := range []hooks.Point{hooks.BeforeModelRequest, hooks.AfterModelResponse, hooks.BeforeToolExecute, hooks.AfterToolExecute} {
			require.ErrorAs(t, errs[p], &he, p)
			assert.Equal(t, p, he.Point)
			assert.ErrorIs(t, errs[p], cause)
		}
	}
}

func TestReportAndPanicsAtEveryPointAreDiagnostics(t *testing.T) {
	for _, policy := range []hooks.Policy{hooks.Report, hooks.Block} {
		rec := &recorder{}
		chain, err := hooks.NewChain([]hooks.Hook{hooks.WithPolicy(failing("panicky", errors.New("boom"), true), policy)},
			hooks.WithDiagnostics(rec.diagnose))
		require.NoError(t, err)
		errs, run := everyPoint(t, chain)
		require.NotNil(t, run)
		for p, err := range errs {
			assert.NoError(t, err, "%s under %s", p, policy)
		}
		ds := rec.diagnostics()
		var points []hooks.Point
		for _, d := range ds {
			points = append(points, d.Point)
			assert.Equal(t, "panicky", d.Hook)
			var pe *hooks.PanicError
			require.ErrorAs(t, d.Err, &pe)
			assert.Contains(t, string(pe.Stack), "hooks_test.failing", "the stack leads to the panicking hook")
			assert.Contains(t, d.String(), "panic: boom")
		}
		assert.ElementsMatch(t, hooks.Points(), points, policy.String())
	}
}

func TestBlockRefusesTheToolCall(t *testing.T) {
	rec := &recorder{}
	run := start(t, rec, hooks.WithPolicy(failing("checker", errors.New("policy server down"), false), hooks.Block))
	res, err := run.CallTool(context.Background(), hooks.ToolCall{Name: "shell"}, echoTool(rec))
	require.NoError(t, err)
	assert.Equal(t, hooks.ToolResult{Text: "Tool call blocked: policy server down", IsError: true}, res)
	assert.Empty(t, rec.got(), "the tool did not run")
	assert.NotEmpty(t, rec.diagnostics())
}

func TestReportCountsAsNoOpinion(t *testing.T) {
	rec := &recorder{}
	run := start(t, rec, layer(rec, "outer"), hooks.WithPolicy(failing("flaky", errors.New("oops"), false), hooks.Report), layer(rec, "inner"))
	res, err := run.CallTool(context.Background(), hooks.ToolCall{Name: "echo", Arguments: map[string]any{"text": "hi"}}, echoTool(rec))
	require.NoError(t, err)
	assert.Equal(t, "hi", res.Text)
	assert.Contains(t, rec.got(), "inner:beforeTool")
	assert.Contains(t, rec.got(), "tool:echo")
	require.Len(t, rec.diagnostics(), 3, "beforeRun, beforeTool and afterTool each report")
	assert.Equal(t, hooks.BeforeToolExecute, rec.diagnostics()[1].Point)
}

func TestStartFailureUnwindsEnteredHooks(t *testing.T) {
	rec := &recorder{}
	chain, err := hooks.NewChain([]hooks.Hook{
		layer(rec, "a"),
		hooks.Funcs{HookName: "auditOnly", AfterRun: layer(rec, "auditOnly").AfterRun},
		failing("bad", errors.New("no config"), false),
		layer(rec, "never"),
	}, hooks.WithDiagnostics(rec.diagnose))
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{})
	require.ErrorIs(t, err, hooks.ErrHookFailed)
	assert.Nil(t, run)
	assert.Equal(t, []string{"a:beforeRun", "auditOnly:afterRun:failed", "a:afterRun:failed"}, rec.got())
}

func TestAfterRunRunsOnceAndNeverFails(t *testing.T) {
	rec := &recorder{}
	var ends []hooks.RunEnd
	run := start(t, rec,
		hooks.Funcs{HookName: "audit", AfterRun: func(c *hooks.Context, e hooks.RunEnd) error {
			ends = append(ends, e)
			return nil
		}},
		hooks.WithPolicy(hooks.Funcs{HookName: "broken", AfterRun: func(*hooks.Context, hooks.RunEnd) error {
			return errors.New("audit log unreachable")
		}}, hooks.FailRun))
	run.End(context.Background(), hooks.RunEnd{Output: "42"})
	run.End(context.Background(), hooks.RunEnd{Output: "again"})
	require.Len(t, ends, 1)
	assert.Equal(t, hooks.RunEnd{RunID: run.ID(), Outcome: hooks.Completed, Reason: "completed", Output: "42"}, ends[0])
	require.Len(t, rec.diagnostics(), 1, "an AfterRun error is a diagnostic even under FailRun")
	assert.Equal(t, "broken", rec.diagnostics()[0].Hook)
}

func TestEndFillsOutcomeAndRunsDetachedFromCancellation(t *testing.T) {
	for _, tc := range []struct {
		name      string
		end       hooks.RunEnd
		cancelled bool
		want      hooks.Outcome
		reason    string
	}{
		{"completed", hooks.RunEnd{}, false, hooks.Completed, "completed"},
		{"failed", hooks.RunEnd{Err: errors.New("model down")}, false, hooks.Failed, "model down"},
		{"interrupted by ctx", hooks.RunEnd{}, true, hooks.Interrupted, "interrupted"},
		{"interrupted by err", hooks.RunEnd{Err: context.Canceled}, false, hooks.Interrupted, "context canceled"},
		{"given", hooks.RunEnd{Outcome: hooks.Suspended, Reason: "waiting for approval"}, true, hooks.Suspended, "waiting for approval"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got hooks.RunEnd
			var ctxErr error
			run := start(t, &recorder{}, hooks.Funcs{HookName: "audit", AfterRun: func(c *hooks.Context, e hooks.RunEnd) error {
				got, ctxErr = e, c.Err()
				return nil
			}})
			ctx, cancel := context.WithCancel(context.Background())
			if tc.cancelled {
				cancel()
			}
			defer cancel()
			run.End(ctx, tc.end)
			assert.Equal(t, tc.want, got.Outcome)
			assert.Equal(t, tc.reason, got.Reason)
			assert.Equal(t, run.ID(), got.RunID)
			assert.NoError(t, ctxErr, "AfterRun runs without the context's cancellation")
		})
	}
}
