package otel_test

import (
	"context"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// secret is in every verdict's arguments and answer: it must reach no span.
const secret = "s3cr3t-token"

func TestHookEventShowsThePersonsVerdictNeverItsArguments(t *testing.T) {
	for _, tc := range []struct {
		verdict hooks.Verdict
		want    string
	}{
		{hooks.Verdict{Approved: true}, hooks.ReviewApproved},
		{hooks.Verdict{Approved: true, Arguments: map[string]any{"path": secret}}, hooks.ReviewEdited},
		{hooks.Verdict{Message: "not that file"}, hooks.ReviewRejected},
		{hooks.Verdict{Result: &hooks.ToolResult{Text: secret}}, hooks.ReviewAnswered},
	} {
		t.Run(tc.want, func(t *testing.T) {
			rec := newRecorded(t)
			approver := hooks.Funcs{HookName: "approver", BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
				v, err := c.Review(hooks.Review{Prompt: hooks.Prompt{Title: "run " + call.Name + "?"}, Call: &call})
				if err != nil {
					return nil, err
				}
				return v.Patch(), nil
			}}
			host := hooks.Host{Review: func(context.Context, hooks.Review) (hooks.Verdict, error) { return tc.verdict, nil }}
			chain := rec.chain(t, []hooks.Hook{approver})
			ctx := context.Background()
			run, err := chain.Start(ctx, host, hooks.RunStart{RunID: "r"})
			require.NoError(t, err)
			_, err = run.CallTool(ctx, hooks.ToolCall{ID: "t1", Name: "read", Arguments: map[string]any{"path": "notes"}},
				func(*hooks.Context, hooks.ToolCall) (hooks.ToolResult, error) {
					return hooks.ToolResult{Text: "contents"}, nil
				})
			require.NoError(t, err)
			run.End(ctx, hooks.RunEnd{})

			spans := rec.spans.Ended()
			ev := event(t, one(t, spans, "execute_tool read"), decisionOf(t, spans, "approver"))
			assert.Equal(t, tc.want, str(ev.Attributes, "hooks.review"))
			assertNoSecret(t, spans)
		})
	}
}

func TestHookEventWithoutAReviewHasNoVerdict(t *testing.T) {
	rec := newRecorded(t)
	refuser := hooks.Funcs{HookName: "refuser", BeforeToolExecute: func(*hooks.Context, hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		return hooks.Refuse("no"), nil
	}}
	chain := rec.chain(t, []hooks.Hook{refuser})
	ctx := context.Background()
	run, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{RunID: "r"})
	require.NoError(t, err)
	_, err = run.CallTool(ctx, hooks.ToolCall{ID: "t1", Name: "read"}, func(*hooks.Context, hooks.ToolCall) (hooks.ToolResult, error) {
		return hooks.ToolResult{}, nil
	})
	require.NoError(t, err)
	run.End(ctx, hooks.RunEnd{})
	ev := event(t, one(t, rec.spans.Ended(), "execute_tool read"), string(hooks.DecisionRefused))
	_, has := attr(ev.Attributes, "hooks.review")
	assert.False(t, has, "a hook that asked no one has no verdict")
}

// decisionOf is the name of the event hook recorded: its decision.
func decisionOf(t *testing.T, spans []sdktrace.ReadOnlySpan, hook string) string {
	t.Helper()
	for _, s := range spans {
		for _, e := range s.Events() {
			if str(e.Attributes, "hooks.hook") == hook {
				return e.Name
			}
		}
	}
	require.Failf(t, "no event", "hook %s recorded no event", hook)
	return ""
}

// assertNoSecret checks that no span's attributes or events hold secret.
func assertNoSecret(t *testing.T, spans []sdktrace.ReadOnlySpan) {
	t.Helper()
	for _, s := range spans {
		for _, kv := range s.Attributes() {
			assert.NotContains(t, kv.Value.String(), secret, "span %s attribute %s", s.Name(), kv.Key)
		}
		for _, e := range s.Events() {
			for _, kv := range e.Attributes {
				assert.NotContains(t, kv.Value.String(), secret, "span %s event %s attribute %s", s.Name(), e.Name, kv.Key)
			}
		}
	}
}
