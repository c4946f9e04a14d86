package prebuilt_test

import (
	"context"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/hooktest"
	"github.com/rienda/hooks/prebuilt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func shellApproval() hooks.Hook {
	return prebuilt.Approval(prebuilt.ApprovalConfig{
		Require: []prebuilt.Rule{{Tool: "shell"}, {Tool: "fs_*", Args: map[string]string{"path": `^/etc/`}}},
		Allow:   []prebuilt.Rule{{Tool: "shell", Args: map[string]string{"command": `^(ls|git status)(\s|$)`}}},
	})
}

func TestApprovalAsksForMatchingCallsOnly(t *testing.T) {
	h := hooktest.NewWith(t, hooktest.Options{Answers: []bool{true, false, true}}, shellApproval())
	h.Tool("shell", map[string]any{"command": "make deploy"}).RequireAllowed(t)
	h.Tool("shell", map[string]any{"command": "rm -r build"}).RequireRefused(t,
		`The user did not approve this call of "shell". Do not retry it unchanged; ask the user or go on another way.`)
	h.Tool("shell", map[string]any{"command": "ls -la"}).RequireAllowed(t)     // allow-listed: not asked
	h.Tool("fs_read", map[string]any{"path": "/srv/x"}).RequireAllowed(t)      // no rule: not asked
	h.Tool("fs_write", map[string]any{"path": "/etc/hosts"}).RequireAllowed(t) // asked: the third answer
	h.Tool("search", nil).RequireAllowed(t)
	prompts := h.Prompts()
	require.Len(t, prompts, 3)
	assert.Equal(t, "Allow shell?", prompts[0].Title)
	assert.JSONEq(t, `{"command":"make deploy"}`, prompts[0].Body)
	assert.Equal(t, "Allow fs_write?", prompts[2].Title)
}

func TestApprovalWithNoRequireAsksForEveryCall(t *testing.T) {
	h := hooktest.NewWith(t, hooktest.Options{Answers: []bool{false}}, prebuilt.Approval(prebuilt.ApprovalConfig{}))
	assert.False(t, h.Tool("anything", nil).Ran)
	assert.Len(t, h.Prompts(), 1)
}

func TestApprovalFollowsHostAutoApproveWithNoPerson(t *testing.T) {
	for _, auto := range []bool{true, false} {
		chain, err := hooks.NewChain([]hooks.Hook{prebuilt.Approval(prebuilt.ApprovalConfig{})})
		require.NoError(t, err)
		run, err := chain.Start(context.Background(), hooks.Host{AutoApprove: auto, Env: map[string]string{}}, hooks.RunStart{})
		require.NoError(t, err)
		res := callTool(t, run, "deploy", nil)
		assert.Equal(t, !auto, res.IsError, "AutoApprove %v", auto)
		run.End(context.Background(), hooks.RunEnd{})
	}
}

func TestApprovalAsksOnceForACallAcrossResume(t *testing.T) {
	asked := 0
	host := hooks.Host{Env: map[string]string{}, Confirm: func(ctx context.Context, p hooks.Prompt) (bool, error) {
		asked++
		return true, nil
	}}
	chain, err := hooks.NewChain([]hooks.Hook{prebuilt.Approval(prebuilt.ApprovalConfig{Remember: true})})
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), host, hooks.RunStart{RunID: "r"})
	require.NoError(t, err)
	call := hooks.ToolCall{ID: "call-7", Name: "deploy", Arguments: map[string]any{"env": "prod"}}
	_, err = run.CallTool(context.Background(), call, ok)
	require.NoError(t, err)
	snap, err := run.Snapshot()
	require.NoError(t, err)

	// The process restarts and replays the same call (at-least-once): nobody is asked again.
	resumed, err := chain.Resume(context.Background(), host, snap)
	require.NoError(t, err)
	defer resumed.End(context.Background(), hooks.RunEnd{})
	res, err := resumed.CallTool(context.Background(), call, ok)
	require.NoError(t, err)
	assert.Equal(t, "ok", res.Text)
	assert.Equal(t, 1, asked)

	// Other arguments under the same ID are another question.
	call.Arguments = map[string]any{"env": "staging"}
	_, err = resumed.CallTool(context.Background(), call, ok)
	require.NoError(t, err)
	assert.Equal(t, 2, asked)
}

func TestApprovalCancelledWhileWaitingIsNotANo(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	host := hooks.Host{Env: map[string]string{}, Confirm: func(ctx context.Context, p hooks.Prompt) (bool, error) {
		cancel() // the person never answers: the run is cancelled while waiting
		<-ctx.Done()
		return false, ctx.Err()
	}}
	chain, err := hooks.NewChain([]hooks.Hook{prebuilt.Approval(prebuilt.ApprovalConfig{})}, hooks.WithDiagnostics(func(hooks.Diagnostic) {}))
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), host, hooks.RunStart{})
	require.NoError(t, err)
	defer run.End(context.Background(), hooks.RunEnd{})
	ran := false
	_, err = run.CallTool(ctx, hooks.ToolCall{ID: "c1", Name: "deploy"}, func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		ran = true
		return hooks.ToolResult{}, nil
	})
	require.ErrorIs(t, err, context.Canceled)
	assert.False(t, ran)
}

func TestApprovalRefusesBrokenRules(t *testing.T) {
	assert.PanicsWithValue(t, "prebuilt.Approval: field Require[0].Args[\"path\"]: error parsing regexp: missing closing ): `(`", func() {
		prebuilt.Approval(prebuilt.ApprovalConfig{Require: []prebuilt.Rule{{Tool: "x", Args: map[string]string{"path": "("}}}})
	})
}

func TestApprovalAsksEachTimeWithoutRemember(t *testing.T) {
	h := hooktest.NewWith(t, hooktest.Options{Answers: []bool{false, true}}, prebuilt.Approval(prebuilt.ApprovalConfig{}))
	assert.False(t, h.Tool("deploy", nil).Ran)
	h.Tool("deploy", nil).RequireAllowed(t)
	assert.Len(t, h.Prompts(), 2)
}

// With nobody to ask (no Host.Confirm), NonInteractive decides, whatever
// AutoApprove says; with a person, it does not apply.
func TestApprovalNonInteractiveDecidesWhenNobodyCanBeAsked(t *testing.T) {
	for _, tc := range []struct {
		mode     prebuilt.Unattended
		auto     bool
		person   bool
		refused  bool
		asked    int
		scenario string
	}{
		{prebuilt.DenyUnattended, true, false, true, 0, "deny unattended, though AutoApprove says yes"},
		{prebuilt.ApproveUnattended, false, false, false, 0, "approve unattended, though AutoApprove says no"},
		{prebuilt.AskHost, false, false, true, 0, "ask the host: AutoApprove no"},
		{prebuilt.DenyUnattended, false, true, false, 1, "a person answers yes: the mode does not apply"},
	} {
		asked := 0
		host := hooks.Host{AutoApprove: tc.auto, Env: map[string]string{}}
		if tc.person {
			host.Confirm = func(context.Context, hooks.Prompt) (bool, error) { asked++; return true, nil }
		}
		chain, err := hooks.NewChain([]hooks.Hook{prebuilt.Approval(prebuilt.ApprovalConfig{NonInteractive: tc.mode})})
		require.NoError(t, err)
		run, err := chain.Start(context.Background(), host, hooks.RunStart{})
		require.NoError(t, err)
		res := callTool(t, run, "deploy", nil)
		assert.Equal(t, tc.refused, res.IsError, tc.scenario)
		assert.Equal(t, tc.asked, asked, tc.scenario)
		run.End(context.Background(), hooks.RunEnd{})
	}
}

// Spelling and wrapping: an argument in another case is found as the
// tool's decoder finds it, for Require and Allow alike; an Allow pattern
// exempts a shell command only when each command it runs matches.
func TestApprovalReadsArgumentsAsTheTool(t *testing.T) {
	h := hooktest.New(t, prebuilt.Approval(prebuilt.ApprovalConfig{
		Require:        []prebuilt.Rule{{Tool: "shell", Args: map[string]string{"command": `rm`}}},
		Allow:          []prebuilt.Rule{{Tool: "shell", Args: map[string]string{"command": `^rm -i `}}},
		NonInteractive: prebuilt.DenyUnattended,
	}))
	for _, args := range []map[string]any{{"Command": "rm -rf x"}, {"COMMAND": "rm x"}, {"command": []any{"rm", "-rf", "x"}},
		{"command": "ls", "Command": "rm x"}} {
		assert.False(t, h.Tool("shell", args).Ran, "%v", args)
	}
	assert.False(t, h.Tool("Shell", map[string]any{"command": "rm x"}).Ran, "the tool in another case")
	h.Tool("shell", map[string]any{"command": "rm -i x"}).RequireAllowed(t)
	for _, cmd := range []string{"rm -i x && rm -rf /", "rm -i x; rm -rf /", "rm -i x\nrm -rf /", "rm -i $(rm -rf /)", "rm -i x | sh",
		"rm -i x > /etc/passwd", `rm -i "x`} {
		assert.False(t, h.Tool("shell", map[string]any{"command": cmd}).Ran, cmd)
	}
	assert.False(t, h.Tool("shell", map[string]any{"command": "rm -i x", "Command": "rm -rf /"}).Ran, "every variant must qualify for Allow")
}
