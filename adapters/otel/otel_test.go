package otel_test

import (
	"context"
	"errors"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// guards are the hooks of the span-tree test: each one decides something
// about one tool or one model call.
func guards() []hooks.Hook {
	return []hooks.Hook{
		hooks.Funcs{HookName: "prompt", BeforeModelRequest: func(c *hooks.Context, _ hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
			if c.ModelCalls() > 0 {
				return &hooks.ModelRequestPatch{End: &hooks.End{Output: "budget spent"}}, nil
			}
			system := "be brief"
			return &hooks.ModelRequestPatch{System: &system}, nil
		}},
		hooks.Funcs{HookName: "no-rm", BeforeToolExecute: func(_ *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			if call.Name == "shell" {
				return hooks.Refuse("rm -rf is turned off here"), nil
			}
			return nil, nil
		}},
		hooks.Funcs{HookName: "sandbox", BeforeToolExecute: func(_ *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			if call.Name == "read" {
				return &hooks.ToolCallPatch{Arguments: map[string]any{"path": "/sandbox/notes.txt"}}, nil
			}
			return nil, nil
		}},
		hooks.Funcs{HookName: "cache", BeforeToolExecute: func(_ *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			if call.Name == "weather" {
				return &hooks.ToolCallPatch{Result: &hooks.ToolResult{Text: "sunny (cached)"}}, nil
			}
			return nil, nil
		}},
		hooks.WithPolicy(hooks.Funcs{HookName: "audit", AfterToolExecute: func(_ *hooks.Context, call hooks.ToolCall, _ hooks.ToolResult) (*hooks.ToolResultPatch, error) {
			if call.Name == "lookup" {
				return nil, errors.New("audit log offline")
			}
			return nil, nil
		}}, hooks.Report),
		hooks.Funcs{HookName: "deploy-guard", BeforeToolExecute: func(_ *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			if call.Name == "deploy" {
				return nil, errors.New("policy server unreachable")
			}
			return nil, nil
		}},
	}
}

func TestSpanTreeOfARun(t *testing.T) {
	rec := newRecorded(t)
	chain := rec.chain(t, guards())
	ctx, host := rec.tracers.Tracer("host").Start(context.Background(), "host request")
	tools := &echo{runs: map[string]hooks.ToolCall{}}

	run, err := chain.Start(ctx, hooks.Host{Session: hooks.Session{ID: "s-1"}, Agent: &hooks.Agent{Name: "helper", Model: "gpt-x"}},
		hooks.RunStart{RunID: "run-1", Input: "hi"})
	require.NoError(t, err)
	_, err = run.CallModel(ctx, hooks.ModelRequest{}, func(*hooks.Context, hooks.ModelRequest) (hooks.ModelResponse, error) {
		return hooks.ModelResponse{Text: "calling tools"}, nil
	})
	require.NoError(t, err)
	for _, call := range []hooks.ToolCall{
		{ID: "c1", Name: "shell", Arguments: map[string]any{"command": "rm -rf /"}},
		{ID: "c2", Name: "read", Arguments: map[string]any{"path": "/etc/passwd"}},
		{ID: "c3", Name: "weather"},
		{ID: "c4", Name: "lookup"},
	} {
		_, err := run.CallTool(ctx, call, tools.tool)
		require.NoError(t, err, call.Name)
	}
	_, err = run.CallTool(ctx, hooks.ToolCall{ID: "c5", Name: "deploy"}, tools.tool)
	var he *hooks.HookError
	require.ErrorAs(t, err, &he, "a FailRun hook fails the call")
	reply, err := run.CallModel(ctx, hooks.ModelRequest{}, nil)
	require.NoError(t, err)
	require.NotNil(t, reply.End, "prompt ended the run at the second model call")
	run.End(ctx, hooks.RunEnd{Output: reply.End.Output})
	host.End()

	spans := rec.spans.Ended()
	require.Len(t, spans, 9, "host, run, 2 chat, 5 execute_tool")
	root := one(t, spans, "invoke_agent helper")
	assert.Equal(t, host.SpanContext().SpanID(), root.Parent().SpanID(), "the host's span is the run's parent")
	assert.Equal(t, trace.SpanKindInternal, root.SpanKind())
	assert.Equal(t, "invoke_agent", str(root.Attributes(), "gen_ai.operation.name"))
	assert.Equal(t, "helper", str(root.Attributes(), "gen_ai.agent.name"))
	assert.Equal(t, "s-1", str(root.Attributes(), "gen_ai.conversation.id"))
	assert.Equal(t, "run-1", str(root.Attributes(), "hooks.run.id"))
	assert.Equal(t, "completed", str(root.Attributes(), "hooks.run.outcome"))
	assert.Equal(t, codes.Unset, root.Status().Code)
	for _, s := range spans {
		if s.Name() != "host request" && s != root {
			assert.Equal(t, root.SpanContext().SpanID(), s.Parent().SpanID(), "%s is a child of the run", s.Name())
			assert.Equal(t, root.SpanContext().TraceID(), s.SpanContext().TraceID())
		}
	}
	assertChatSpans(t, named(spans, "chat gpt-x"))
	assertToolSpans(t, spans)

	assert.NotContains(t, tools.runs, "c1", "the refused call did not run")
	assert.Equal(t, map[string]any{"path": "/sandbox/notes.txt"}, tools.runs["c2"].Arguments, "the tool got the rewritten call")
	assert.NotContains(t, tools.runs, "c3", "the cached call did not run")
	assert.Contains(t, tools.runs, "c4", "a Report error does not stop the call")
	assert.NotContains(t, tools.runs, "c5", "the failed call did not run")
}

func assertChatSpans(t *testing.T, chats []sdktrace.ReadOnlySpan) {
	t.Helper()
	require.Len(t, chats, 2)
	for _, s := range chats {
		assert.Equal(t, trace.SpanKindClient, s.SpanKind())
		assert.Equal(t, "chat", str(s.Attributes(), "gen_ai.operation.name"))
		assert.Equal(t, "gpt-x", str(s.Attributes(), "gen_ai.request.model"))
		assert.Equal(t, codes.Unset, s.Status().Code)
	}
	assert.Equal(t, []string{"changed"}, events(chats[0]))
	changed := event(t, chats[0], "changed")
	assert.Equal(t, "prompt", str(changed.Attributes, "hooks.hook"))
	assert.Equal(t, "beforeModelRequest", str(changed.Attributes, "hooks.point"))
	v, _ := attr(changed.Attributes, "hooks.changed")
	assert.Equal(t, []string{"system"}, v.AsStringSlice())

	assert.Equal(t, []string{"ended"}, events(chats[1]), "a hook ended the run: the model was not called")
}

func assertToolSpans(t *testing.T, spans []sdktrace.ReadOnlySpan) {
	t.Helper()
	refused := one(t, spans, "execute_tool shell")
	assert.Equal(t, "execute_tool", str(refused.Attributes(), "gen_ai.operation.name"))
	assert.Equal(t, "shell", str(refused.Attributes(), "gen_ai.tool.name"))
	assert.Equal(t, "c1", str(refused.Attributes(), "gen_ai.tool.call.id"))
	assert.Equal(t, codes.Error, refused.Status().Code)
	assert.Equal(t, "rm -rf is turned off here", refused.Status().Description)
	assert.Equal(t, "refused", str(refused.Attributes(), "error.type"))
	e := event(t, refused, "refused")
	assert.Equal(t, "no-rm", str(e.Attributes, "hooks.hook"))
	assert.Equal(t, "beforeToolExecute", str(e.Attributes, "hooks.point"))
	assert.Equal(t, "rm -rf is turned off here", str(e.Attributes, "hooks.reason"))
	_, timed := attr(e.Attributes, "hooks.duration_ms")
	assert.True(t, timed, "the event says how long the hook took")

	rewritten := one(t, spans, "execute_tool read")
	assert.Equal(t, codes.Unset, rewritten.Status().Code)
	assert.Equal(t, []string{"changed"}, events(rewritten))
	v, _ := attr(event(t, rewritten, "changed").Attributes, "hooks.changed")
	assert.Equal(t, []string{"arguments"}, v.AsStringSlice())
	v, _ = attr(rewritten.Attributes(), "hooks.tool.rewritten")
	assert.True(t, v.AsBool())

	cached := one(t, spans, "execute_tool weather")
	assert.Equal(t, codes.Unset, cached.Status().Code)
	assert.Equal(t, []string{"answered"}, events(cached))
	assert.Equal(t, "cache", str(event(t, cached, "answered").Attributes, "hooks.hook"))

	reported := one(t, spans, "execute_tool lookup")
	assert.Equal(t, codes.Unset, reported.Status().Code, "a Report error does not fail the call")
	e = event(t, reported, "error")
	assert.Equal(t, "audit", str(e.Attributes, "hooks.hook"))
	assert.Equal(t, "afterToolExecute", str(e.Attributes, "hooks.point"))
	assert.Equal(t, "audit log offline", str(e.Attributes, "hooks.error"))
	assert.Equal(t, "Report", str(e.Attributes, "hooks.policy"))

	failed := one(t, spans, "execute_tool deploy")
	assert.Equal(t, codes.Error, failed.Status().Code)
	assert.Contains(t, failed.Status().Description, "policy server unreachable")
	assert.Equal(t, "hook_failed", str(failed.Attributes(), "error.type"))
	e = event(t, failed, "error")
	assert.Equal(t, "FailRun", str(e.Attributes, "hooks.policy"))
}
