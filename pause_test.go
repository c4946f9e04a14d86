package hooks_test

import (
	"context"
	"errors"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A host that suspends a call to wait for a person (a durable engine)
// cancels the call from its Confirm and answers with an error. That is a
// pause, not a failure: no diagnostic, no "refused" in the trace for the
// "no" the hook read, no tool run; the method returns the cancellation.
func TestAPauseFromConfirmIsNeitherAWarningNorARefusal(t *testing.T) {
	var diags []hooks.Diagnostic
	var trace []hooks.TraceEvent
	asker := hooks.Funcs{HookName: "asker",
		BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			if !c.Confirm(hooks.Prompt{Title: "Delete?"}) {
				return hooks.Refuse("refused by the user"), nil
			}
			return nil, nil
		},
	}
	chain, err := hooks.NewChain([]hooks.Hook{asker},
		hooks.WithDiagnostics(func(d hooks.Diagnostic) { diags = append(diags, d) }),
		hooks.WithTrace(func(e hooks.TraceEvent) { trace = append(trace, e) }))
	require.NoError(t, err)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	suspended := errors.New("waiting for a person")
	host := hooks.Host{Confirm: func(context.Context, hooks.Prompt) (bool, error) {
		cancel() // the step is suspended: its call ends here
		return false, suspended
	}}
	run, err := chain.Start(context.Background(), host, hooks.RunStart{RunID: "r"})
	require.NoError(t, err)

	ran := false
	_, err = run.CallTool(ctx, hooks.ToolCall{ID: "1", Name: "delete"}, func(*hooks.Context, hooks.ToolCall) (hooks.ToolResult, error) {
		ran = true
		return hooks.ToolResult{Text: "deleted"}, nil
	})
	assert.ErrorIs(t, err, context.Canceled)
	assert.False(t, ran, "no tool runs on a paused call")
	assert.Empty(t, diags, "a pause is not a warning")
	for _, e := range trace {
		assert.NotEqual(t, hooks.DecisionRefused, e.Decision, "the hook's no was not the person's: %v", e)
	}

	// A host whose Confirm fails without ending the call is still reported,
	// and the hook's refusal stands.
	failing := hooks.Host{Confirm: func(context.Context, hooks.Prompt) (bool, error) { return false, errors.New("no terminal") }}
	run, err = chain.Start(context.Background(), failing, hooks.RunStart{RunID: "r2"})
	require.NoError(t, err)
	step, err := run.BeforeToolExecute(context.Background(), hooks.ToolCall{ID: "2", Name: "delete"})
	require.NoError(t, err)
	assert.True(t, step.Refused)
	require.Len(t, diags, 1)
	assert.ErrorContains(t, diags[0].Err, "no terminal")
}
