package hooks_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rienda/hooks"
)

// shortError is a failure with a short text for the model.
type shortError struct{}

func (shortError) Error() string        { return "exit status 3: stderr full of secrets" }
func (shortError) BlockMessage() string { return "hook guard failed: exit status 3" }

// guardReturning is a guard answering every tool call with p and err.
func guardReturning(p *hooks.ToolCallPatch, err error) hooks.Hook {
	return hooks.Funcs{HookName: "guard", BeforeToolExecute: func(*hooks.Context, hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		return p, err
	}}
}

// Every route to a refused tool call is decided in one place and traced
// the same way: each case pins the reason the model reads and the trace
// event, so that changing how one route is traced or worded is a failing
// test, not a silent change.
func TestEveryRouteToARefusalIsTracedTheSameWay(t *testing.T) {
	boom := errors.New("boom")
	blocked := func(h hooks.Hook) hooks.Hook { return hooks.WithPolicy(h, hooks.Block) }
	panicking := hooks.Funcs{HookName: "guard", BeforeToolExecute: func(*hooks.Context, hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		panic("kaboom")
	}}
	wrapPanicking := hooks.Funcs{HookName: "guard", WrapTool: func(*hooks.Context, hooks.ToolCall, hooks.ToolFunc) (hooks.ToolResult, error) {
		panic("kaboom")
	}}
	js := func(src string) hooks.Hook {
		h, err := hooks.CompileJS("guard", src, nil)
		require.NoError(t, err)
		return h
	}
	failClosed := commandHooks(t, with(entry("pre_tool_call", script(t, "fail.sh")), "failClosed", true))[0]
	cases := []struct {
		name    string
		hook    hooks.Hook
		reason  string
		failure bool // the trace keeps the error that refused
		point   hooks.Point
		policy  hooks.Policy
	}{
		{"Refuse with a reason", guardReturning(hooks.Refuse("no force-push"), nil), "no force-push", false, hooks.BeforeToolExecute, hooks.FailRun},
		{"Allow false without a reason", guardReturning(&hooks.ToolCallPatch{Allow: new(false)}, nil), "refused by hook guard", false, hooks.BeforeToolExecute, hooks.FailRun},
		{"a ToolError", guardReturning(nil, &hooks.ToolError{Message: "not here"}), "not here", false, hooks.BeforeToolExecute, hooks.FailRun},
		{"an empty ToolError", guardReturning(nil, &hooks.ToolError{}), "refused by hook guard", false, hooks.BeforeToolExecute, hooks.FailRun},
		{"an error under Block", blocked(guardReturning(nil, boom)), "Tool call blocked: boom", true, hooks.BeforeToolExecute, hooks.Block},
		{"a BlockMessager under Block", blocked(guardReturning(nil, shortError{})), "Tool call blocked: hook guard failed: exit status 3", true, hooks.BeforeToolExecute, hooks.Block},
		{"FailClosed under Report", hooks.WithPolicy(guardReturning(nil, hooks.FailClosed(boom)), hooks.Report), "Tool call blocked: boom", true, hooks.BeforeToolExecute, hooks.Report},
		{"FailClosed under FailRun", guardReturning(nil, hooks.FailClosed(boom)), "Tool call blocked: boom", true, hooks.BeforeToolExecute, hooks.FailRun},
		{"a panic under Block", blocked(panicking), "Tool call blocked: panic: kaboom", true, hooks.BeforeToolExecute, hooks.Block},
		{"a wrap's panic under Block", blocked(wrapPanicking), "Tool call blocked: panic: kaboom", true, hooks.WrapToolCall, hooks.Block},
		{"a command entry with failClosed", failClosed, "Tool call blocked: hook pre_tool_call#0 failed: exit status 3", true, hooks.BeforeToolExecute, hooks.Block},
		{"JavaScript {block}", js(`exports.beforeToolExecute = () => ({block: "turned off here"})`), "turned off here", false, hooks.BeforeToolExecute, hooks.Report},
		{"JavaScript {allow: false}", js(`exports.beforeToolExecute = () => ({allow: false})`), "refused by hook guard", false, hooks.BeforeToolExecute, hooks.Report},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var events []hooks.TraceEvent
			var diags []hooks.Diagnostic
			chain, err := hooks.NewChain([]hooks.Hook{tc.hook},
				hooks.WithTrace(func(e hooks.TraceEvent) { events = append(events, e) }),
				hooks.WithDiagnostics(func(d hooks.Diagnostic) { diags = append(diags, d) }))
			require.NoError(t, err)
			run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{})
			require.NoError(t, err)
			ran := false
			res, err := run.CallTool(context.Background(), benchCall, func(*hooks.Context, hooks.ToolCall) (hooks.ToolResult, error) {
				ran = true
				return hooks.ToolResult{Text: "ran"}, nil
			})
			require.NoError(t, err, "a refusal is not the run's failure")
			assert.False(t, ran, "a refused call never runs")
			assert.Equal(t, hooks.ToolResult{Text: tc.reason, IsError: true}, res)
			require.Len(t, events, 1)
			e := events[0]
			assert.Equal(t, hooks.DecisionRefused, e.Decision)
			assert.Equal(t, tc.reason, e.Reason)
			assert.Equal(t, tc.point, e.Point)
			assert.Equal(t, tc.policy, e.Policy)
			if tc.failure {
				assert.Error(t, e.Err)
				require.Len(t, diags, 1, "a failure that refused is a diagnostic")
				assert.Equal(t, tc.hook.Name(), diags[0].Hook)
			} else {
				assert.NoError(t, e.Err)
				assert.Empty(t, diags)
			}
		})
	}
}

// Errors that are not refusals: under Report the call goes on; under
// FailRun the run fails. Neither is traced as a refusal.
func TestFailuresThatDoNotRefuse(t *testing.T) {
	boom := errors.New("boom")
	for _, tc := range []struct {
		policy  hooks.Policy
		wantErr bool
	}{{hooks.Report, false}, {hooks.FailRun, true}} {
		var events []hooks.TraceEvent
		chain, err := hooks.NewChain([]hooks.Hook{hooks.WithPolicy(guardReturning(nil, boom), tc.policy)},
			hooks.WithTrace(func(e hooks.TraceEvent) { events = append(events, e) }), hooks.WithDiagnostics(func(hooks.Diagnostic) {}))
		require.NoError(t, err)
		run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{})
		require.NoError(t, err)
		res, err := run.CallTool(context.Background(), benchCall, benchTool)
		if tc.wantErr {
			assert.ErrorIs(t, err, hooks.ErrHookFailed)
		} else {
			require.NoError(t, err)
			assert.Equal(t, "ok", res.Text)
		}
		require.Len(t, events, 1)
		assert.Equal(t, hooks.DecisionErrored, events[0].Decision, tc.policy.String())
		assert.Empty(t, events[0].Reason)
	}
}

// A step a host builds by hand that says Refused never runs the tool,
// whatever its Result says.
func TestAHandMadeRefusedStepRunsNoTool(t *testing.T) {
	chain, err := hooks.NewChain([]hooks.Hook{&nop{name: "guard"}})
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{})
	require.NoError(t, err)
	step := hooks.ToolStep{Call: benchCall, Refused: true, Reason: "no"}
	res, err := run.ExecuteTool(context.Background(), step, func(*hooks.Context, hooks.ToolCall) (hooks.ToolResult, error) {
		t.Error("the tool ran")
		return hooks.ToolResult{}, nil
	})
	require.NoError(t, err)
	assert.Equal(t, hooks.ToolResult{Text: "no", IsError: true}, res)
	res, err = run.AfterToolExecute(context.Background(), step, hooks.ToolResult{Text: "ran"})
	require.NoError(t, err)
	assert.Equal(t, hooks.ToolResult{Text: "no", IsError: true}, res)
}
