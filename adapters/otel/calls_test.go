package otel_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rienda/hooks"
	hooksotel "github.com/rienda/hooks/adapters/otel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

func TestParallelToolCallsGetTheirOwnSpans(t *testing.T) {
	const n = 16
	rec := newRecorded(t)
	oddOut := hooks.Funcs{HookName: "odd-out", BeforeToolExecute: func(_ *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		var i int
		_, _ = fmt.Sscanf(call.ID, "c%d", &i)
		if i%2 == 1 {
			return hooks.Refuse("refused " + call.ID), nil
		}
		return &hooks.ToolCallPatch{Arguments: map[string]any{"id": call.ID}}, nil
	}}
	chain := rec.chain(t, []hooks.Hook{oddOut})
	run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{})
	require.NoError(t, err)

	// The allowed calls wait in the tool until all of them are in it, so
	// that their spans are open at once.
	var arrived atomic.Int32
	all := make(chan struct{})
	tool := func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		if arrived.Add(1) == n/2 {
			close(all)
		}
		<-all
		return hooks.ToolResult{Text: call.Arguments["id"].(string)}, nil
	}
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			id := fmt.Sprintf("c%d", i)
			res, err := run.CallTool(context.Background(), hooks.ToolCall{ID: id, Name: "work"}, tool)
			assert.NoError(t, err)
			assert.Contains(t, res.Text, id)
		})
	}
	wg.Wait()
	run.End(context.Background(), hooks.RunEnd{})

	spans := rec.spans.Ended()
	root := one(t, spans, "invoke_agent")
	calls := named(spans, "execute_tool work")
	require.Len(t, calls, n)
	seen := map[string]bool{}
	for _, s := range calls {
		id := str(s.Attributes(), "gen_ai.tool.call.id")
		seen[id] = true
		assert.Equal(t, root.SpanContext().SpanID(), s.Parent().SpanID())
		var i int
		_, _ = fmt.Sscanf(id, "c%d", &i)
		if i%2 == 1 {
			assert.Equal(t, codes.Error, s.Status().Code, id)
			assert.Equal(t, "refused", str(s.Attributes(), "error.type"), id)
			assert.Equal(t, "refused "+id, str(event(t, s, "refused").Attributes, "hooks.reason"), "the refusal is on its own call's span")
		} else {
			assert.Equal(t, codes.Unset, s.Status().Code, id)
			assert.Equal(t, []string{"changed"}, events(s), id)
		}
	}
	assert.Len(t, seen, n, "one span per call")
	assert.Empty(t, root.Events(), "no decision fell back to the run's span")
}

func TestWrapPutsTheCallSpanInTheToolsContextAndEndsAFailedCall(t *testing.T) {
	rec := newRecorded(t)
	chain := rec.chain(t, nil)
	run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{})
	require.NoError(t, err)

	var inTool trace.SpanContext
	boom := errors.New("disk full")
	_, err = run.CallTool(context.Background(), hooks.ToolCall{ID: "w1", Name: "write"}, func(c *hooks.Context, _ hooks.ToolCall) (hooks.ToolResult, error) {
		_, own := rec.tracers.Tracer("tool").Start(c.Context, "write file")
		own.End()
		inTool = trace.SpanContextFromContext(c.Context)
		return hooks.ToolResult{}, boom
	})
	require.ErrorIs(t, err, boom)
	_, err = run.CallModel(context.Background(), hooks.ModelRequest{}, func(*hooks.Context, hooks.ModelRequest) (hooks.ModelResponse, error) {
		return hooks.ModelResponse{}, errors.New("429 too many requests")
	})
	require.Error(t, err)
	run.End(context.Background(), hooks.RunEnd{Err: err})

	spans := rec.spans.Ended()
	call := one(t, spans, "execute_tool write")
	assert.Equal(t, call.SpanContext(), inTool, "the tool runs inside its execute_tool span")
	assert.Equal(t, call.SpanContext().SpanID(), one(t, spans, "write file").Parent().SpanID())
	assert.Equal(t, codes.Error, call.Status().Code)
	assert.Equal(t, "disk full", call.Status().Description)
	assert.Equal(t, "call_failed", str(call.Attributes(), "error.type"))
	assert.Equal(t, "disk full", str(event(t, call, "exception").Attributes, "exception.message"))

	chat := one(t, spans, "chat")
	assert.Equal(t, codes.Error, chat.Status().Code)
	assert.Equal(t, "429 too many requests", chat.Status().Description)

	root := one(t, spans, "invoke_agent")
	assert.Equal(t, codes.Error, root.Status().Code, "the run failed")
	assert.Equal(t, "failed", str(root.Attributes(), "error.type"))
	assert.Equal(t, "429 too many requests", root.Status().Description)
}

func TestSplitMethodsWithoutWraps(t *testing.T) {
	rec := newRecorded(t, hooksotel.WithoutWraps())
	var diagnostics []hooks.Diagnostic
	chain := rec.chain(t, nil, hooks.WithDiagnostics(func(d hooks.Diagnostic) { diagnostics = append(diagnostics, d) }))
	run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{})
	require.NoError(t, err)

	step, err := run.BeforeToolExecute(context.Background(), hooks.ToolCall{ID: "s1", Name: "fetch"})
	require.NoError(t, err)
	_, err = run.AfterToolExecute(context.Background(), step, hooks.ToolResult{Text: "404", IsError: true})
	require.NoError(t, err)
	_, err = run.BeforeToolExecute(context.Background(), hooks.ToolCall{ID: "s2", Name: "hang"})
	require.NoError(t, err) // the host never comes back with the result
	run.End(context.Background(), hooks.RunEnd{Outcome: hooks.Suspended})

	assert.Empty(t, diagnostics, "the hook handles no wrap point: the chain has nothing to warn about")
	spans := rec.spans.Ended()
	fetch := one(t, spans, "execute_tool fetch")
	assert.Equal(t, codes.Error, fetch.Status().Code, "the model read an error result")
	assert.Equal(t, "tool_error", str(fetch.Attributes(), "error.type"))
	hang := one(t, spans, "execute_tool hang")
	assert.Equal(t, codes.Error, hang.Status().Code, "the run ended first")
	assert.Equal(t, "unfinished", str(hang.Attributes(), "error.type"))
	root := one(t, spans, "invoke_agent")
	assert.Equal(t, "suspended", str(root.Attributes(), "hooks.run.outcome"))
	assert.Equal(t, codes.Unset, root.Status().Code)
}

func TestWrapsWarnASplitHostThatSkipsThem(t *testing.T) {
	rec := newRecorded(t)
	var diagnostics []hooks.Diagnostic
	chain := rec.chain(t, nil, hooks.WithDiagnostics(func(d hooks.Diagnostic) { diagnostics = append(diagnostics, d) }))
	run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{})
	require.NoError(t, err)
	step, err := run.BeforeToolExecute(context.Background(), hooks.ToolCall{ID: "s1", Name: "fetch"})
	require.NoError(t, err)
	_, err = run.AfterToolExecute(context.Background(), step, hooks.ToolResult{Text: "ok"})
	require.NoError(t, err)
	run.End(context.Background(), hooks.RunEnd{})
	require.Len(t, diagnostics, 1, "the reason for WithoutWraps")
	assert.Contains(t, diagnostics[0].Err.Error(), "otel")
	assert.Len(t, named(rec.spans.Ended(), "execute_tool fetch"), 1)
}

func TestAFailedStartEndsTheRunSpan(t *testing.T) {
	rec := newRecorded(t)
	chain := rec.chain(t, []hooks.Hook{
		hooks.Funcs{HookName: "keys", BeforeRun: func(*hooks.Context, hooks.RunStart) (*hooks.RunPatch, error) {
			return &hooks.RunPatch{State: "loaded"}, nil
		}},
		hooks.Funcs{HookName: "license", BeforeRun: func(*hooks.Context, hooks.RunStart) (*hooks.RunPatch, error) {
			return nil, errors.New("license expired")
		}},
	})
	_, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{})
	require.ErrorIs(t, err, hooks.ErrHookFailed)

	root := one(t, rec.spans.Ended(), "invoke_agent")
	assert.Equal(t, codes.Error, root.Status().Code)
	assert.Contains(t, root.Status().Description, "license expired")
	assert.Equal(t, []string{"changed", "error"}, events(root), "run points' decisions go on the run's span")
	assert.Equal(t, "FailRun", str(event(t, root, "error").Attributes, "hooks.policy"))
}

func TestNoOpinionEvents(t *testing.T) {
	quiet := hooks.Funcs{HookName: "quiet", BeforeToolExecute: func(*hooks.Context, hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		return nil, nil
	}}
	for _, tc := range []struct {
		opts []hooksotel.Opt
		want []string
	}{
		{nil, nil},
		{[]hooksotel.Opt{hooksotel.WithNoOpinionEvents()}, []string{"no opinion"}},
	} {
		rec := newRecorded(t, tc.opts...)
		run, err := rec.chain(t, []hooks.Hook{quiet}).Start(context.Background(), hooks.Host{}, hooks.RunStart{})
		require.NoError(t, err)
		_, err = run.CallTool(context.Background(), hooks.ToolCall{ID: "q", Name: "ls"}, (&echo{runs: map[string]hooks.ToolCall{}}).tool)
		require.NoError(t, err)
		run.End(context.Background(), hooks.RunEnd{})
		assert.Equal(t, tc.want, events(one(t, rec.spans.Ended(), "execute_tool ls")))
	}
}

func TestEvictsTheOldestRunPastTheBound(t *testing.T) {
	rec := newRecorded(t, hooksotel.WithMaxOpenRuns(1))
	chain := rec.chain(t, nil)
	first, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{RunID: "first"})
	require.NoError(t, err)
	second, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{RunID: "second"})
	require.NoError(t, err)
	spans := rec.spans.Ended()
	require.Len(t, spans, 1, "the first run's span ended when the second started")
	assert.Equal(t, "first", str(spans[0].Attributes(), "hooks.run.id"))
	assert.Equal(t, codes.Error, spans[0].Status().Code)
	assert.Contains(t, spans[0].Status().Description, "evicted")

	first.End(context.Background(), hooks.RunEnd{}) // forgotten: nothing to end
	second.End(context.Background(), hooks.RunEnd{})
	assert.Len(t, rec.spans.Ended(), 2)
}

func TestNewRefusesABadBound(t *testing.T) {
	_, err := hooksotel.New(hooksotel.WithMaxOpenRuns(0))
	assert.ErrorContains(t, err, "WithMaxOpenRuns(0)")
	_, err = hooksotel.New(hooksotel.WithHookName(""))
	assert.ErrorContains(t, err, "WithHookName")
}

func TestABlockedCallIsRefused(t *testing.T) {
	rec := newRecorded(t)
	chain := rec.chain(t, []hooks.Hook{hooks.WithPolicy(hooks.Funcs{HookName: "scanner",
		BeforeToolExecute: func(*hooks.Context, hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			return nil, errors.New("scanner down")
		}}, hooks.Block)})
	run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{})
	require.NoError(t, err)
	res, err := run.CallTool(context.Background(), hooks.ToolCall{ID: "b", Name: "upload"}, (&echo{runs: map[string]hooks.ToolCall{}}).tool)
	require.NoError(t, err)
	require.True(t, res.IsError)
	run.End(context.Background(), hooks.RunEnd{})

	s := one(t, rec.spans.Ended(), "execute_tool upload")
	assert.Equal(t, codes.Error, s.Status().Code)
	assert.Equal(t, "refused", str(s.Attributes(), "error.type"))
	assert.Equal(t, "Tool call blocked: scanner down", s.Status().Description)
	assert.Equal(t, "Block", str(event(t, s, "refused").Attributes, "hooks.policy"), "a failure that refused is one refused event")
}

func TestInListOrderLateDecisionsGoOnTheRunSpan(t *testing.T) {
	rec := newRecorded(t)
	redact := "[redacted]"
	chain := rec.chain(t, []hooks.Hook{hooks.Funcs{HookName: "redact",
		AfterToolExecute: func(*hooks.Context, hooks.ToolCall, hooks.ToolResult) (*hooks.ToolResultPatch, error) {
			return &hooks.ToolResultPatch{Text: &redact}, nil
		}}}, hooks.InListOrder())
	run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{})
	require.NoError(t, err)
	_, err = run.CallTool(context.Background(), hooks.ToolCall{ID: "k1", Name: "env"}, (&echo{runs: map[string]hooks.ToolCall{}}).tool)
	require.NoError(t, err)
	run.End(context.Background(), hooks.RunEnd{})

	spans := rec.spans.Ended()
	assert.Empty(t, one(t, spans, "execute_tool env").Events(), "the adapter's after-method ran first and ended the span")
	root := one(t, spans, "invoke_agent")
	e := event(t, root, "changed")
	assert.Equal(t, "redact", str(e.Attributes, "hooks.hook"))
	assert.Equal(t, "k1", str(e.Attributes, "gen_ai.tool.call.id"), "the call is named on the run's span")
}
