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

// A person may approve, edit, reject with words, or answer instead of the
// tool; Approval does what they decide.
func TestApprovalDoesWhatThePersonDecides(t *testing.T) {
	h := hooktest.NewWith(t, hooktest.Options{Verdicts: []hooks.Verdict{
		{Approved: true},
		{Approved: true, Arguments: map[string]any{"command": "make deploy-staging"}},
		{Message: "Not today: the release is frozen."},
		{Approved: true, Result: &hooks.ToolResult{Text: "deployed by hand", Value: map[string]any{"by": "ana"}}},
		{Result: &hooks.ToolResult{Text: "it failed when I ran it", IsError: true}},
		{},
	}}, prebuilt.Approval(prebuilt.ApprovalConfig{Require: []prebuilt.Rule{{Tool: "shell"}}}))
	deploy := map[string]any{"command": "make deploy"}

	h.Tool("shell", deploy).RequireAllowed(t)

	edited := h.Tool("shell", deploy)
	edited.RequireAllowed(t)
	assert.Equal(t, map[string]any{"command": "make deploy-staging"}, edited.Seen.Arguments)

	h.Tool("shell", deploy).RequireRefused(t, "Not today: the release is frozen.")

	answered := h.Tool("shell", deploy)
	assert.False(t, answered.Ran)
	assert.Equal(t, hooks.ToolResult{Text: "deployed by hand", Value: map[string]any{"by": "ana"}}, answered.Result)

	failed := h.Tool("shell", deploy)
	assert.False(t, failed.Ran)
	assert.Equal(t, hooks.ToolResult{Text: "it failed when I ran it", IsError: true}, failed.Result)

	h.Tool("shell", deploy).RequireRefused(t,
		`The user did not approve this call of "shell". Do not retry it unchanged; ask the user or go on another way.`)

	reviews := h.Reviews()
	require.Len(t, reviews, 6)
	assert.Equal(t, "Allow shell?", reviews[0].Prompt.Title)
	require.NotNil(t, reviews[0].Call)
	assert.Equal(t, "shell", reviews[0].Call.Name)
	assert.Equal(t, deploy, reviews[0].Call.Arguments)
	h.RequireDiagnostics(t, 0)
}

// The person's edit is checked by the guards listed before the approval:
// a Sandbox before it refuses an edit to rm -rf /, as it refuses the
// model's.
func TestASandboxListedBeforeAnApprovalRefusesAPersonsEdit(t *testing.T) {
	dir := t.TempDir()
	sandbox := prebuilt.Sandbox(prebuilt.SandboxConfig{Roots: []string{dir}})
	approval := prebuilt.Approval(prebuilt.ApprovalConfig{Require: []prebuilt.Rule{{Tool: "shell"}}})
	for _, edit := range []string{"rm -rf /", "rm -rf " + dir + "/../..", "r''m -rf /"} {
		h := hooktest.NewWith(t, hooktest.Options{Host: hooks.Host{Workdir: dir, Env: map[string]string{}},
			Verdicts: []hooks.Verdict{{Approved: true, Arguments: map[string]any{"command": edit}}}}, sandbox, approval)
		out := h.Tool("shell", map[string]any{"command": "ls"})
		assert.False(t, out.Ran, "edit %q ran", edit)
		assert.True(t, out.Result.IsError, "edit %q", edit)
		events := out.Decisions
		require.NotEmpty(t, events)
		last := events[len(events)-1]
		assert.Equal(t, "sandbox", last.Hook, "the sandbox's second look refused %q", edit)
		assert.Equal(t, hooks.DecisionRefused, last.Decision)
	}

	// An edit inside the sandbox runs, with the person's arguments.
	h := hooktest.NewWith(t, hooktest.Options{Host: hooks.Host{Workdir: dir, Env: map[string]string{}},
		Verdicts: []hooks.Verdict{{Approved: true, Arguments: map[string]any{"command": "ls -la"}}}}, sandbox, approval)
	out := h.Tool("shell", map[string]any{"command": "ls"})
	out.RequireAllowed(t)
	assert.Equal(t, "ls -la", out.Seen.Arguments["command"])
}

// What a person may answer is the config's, narrowed by the rules that
// take the call; an answer not allowed refuses the call, loudly. A person
// may always say no.
func TestApprovalRefusesAnAnswerItsRulesDoNotAllow(t *testing.T) {
	cfg := prebuilt.ApprovalConfig{
		Responses: []prebuilt.Response{prebuilt.Approve, prebuilt.Edit, prebuilt.Reject},
		Require: []prebuilt.Rule{
			{Tool: "shell", Responses: []prebuilt.Response{prebuilt.Approve}},
			{Tool: "deploy"},
			{Tool: "deploy", Args: map[string]string{"env": "^prod$"}, Responses: []prebuilt.Response{prebuilt.Edit, prebuilt.Respond}},
		},
	}
	edit := hooks.Verdict{Approved: true, Arguments: map[string]any{"command": "ls"}}
	respond := hooks.Verdict{Result: &hooks.ToolResult{Text: "done"}}
	h := hooktest.NewWith(t, hooktest.Options{Verdicts: []hooks.Verdict{
		edit, {Message: "no"}, {Approved: true}, // shell: approve only
		respond, edit, // deploy: approve, edit, reject
		{Approved: true}, edit, // deploy to prod: edit only (the config has no respond)
	}}, prebuilt.Approval(cfg))

	out := h.Tool("shell", map[string]any{"command": "rm -r build"})
	assert.False(t, out.Ran)
	assert.Contains(t, out.Result.Text, "(edit) is not one this approval accepts")
	h.Tool("shell", map[string]any{"command": "rm -r build"}).RequireRefused(t, "no")
	h.Tool("shell", map[string]any{"command": "rm -r build"}).RequireAllowed(t)

	out = h.Tool("deploy", map[string]any{"env": "dev"})
	assert.False(t, out.Ran, "respond is not in the config's responses")
	h.Tool("deploy", map[string]any{"env": "dev"}).RequireAllowed(t)

	out = h.Tool("deploy", map[string]any{"env": "prod"})
	assert.False(t, out.Ran, "a plain approval is not allowed for prod")
	assert.Contains(t, out.Result.Text, "(approve) is not one")
	h.Tool("deploy", map[string]any{"env": "prod"}).RequireAllowed(t)

	diags := h.Diagnostics()
	require.Len(t, diags, 3)
	assert.Contains(t, diags[0].Err.Error(), `was "edit", which this approval does not allow (it allows approve, reject)`)
}

func TestApprovalRefusesUnknownResponses(t *testing.T) {
	assert.PanicsWithValue(t, `prebuilt.Approval: field Responses[1]: unknown response "accept" (the responses are approve, edit, reject, respond)`, func() {
		prebuilt.Approval(prebuilt.ApprovalConfig{Responses: []prebuilt.Response{prebuilt.Approve, "accept"}})
	})
	assert.PanicsWithValue(t, `prebuilt.Approval: field Require[0].Responses: empty: a person must be able to answer something (nil allows every response)`, func() {
		prebuilt.Approval(prebuilt.ApprovalConfig{Require: []prebuilt.Rule{{Tool: "x", Responses: []prebuilt.Response{}}}})
	})
}

// With Remember, an edit is kept like a yes: a replayed step runs the
// person's arguments without asking again, also after a resume, and the
// guard listed before the approval checks the kept edit as it checked the
// fresh one.
func TestApprovalRemembersAnEditAcrossResume(t *testing.T) {
	asked := 0
	host := hooks.Host{Env: map[string]string{}, Review: func(context.Context, hooks.Review) (hooks.Verdict, error) {
		asked++
		return hooks.Verdict{Approved: true, Arguments: map[string]any{"env": "staging", "n": 2.0}}, nil
	}}
	var guarded []any
	guard := hooks.Funcs{HookName: "guard", BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		guarded = append(guarded, call.Arguments["env"])
		return nil, nil
	}}
	chain, err := hooks.NewChain([]hooks.Hook{guard, prebuilt.Approval(prebuilt.ApprovalConfig{Remember: true})})
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), host, hooks.RunStart{RunID: "r"})
	require.NoError(t, err)
	call := hooks.ToolCall{ID: "call-7", Name: "deploy", Arguments: map[string]any{"env": "prod"}}
	var seen []map[string]any
	tool := func(_ *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		seen = append(seen, call.Arguments)
		return hooks.ToolResult{Text: "ok"}, nil
	}
	_, err = run.CallTool(context.Background(), call, tool)
	require.NoError(t, err)
	snap, err := run.Snapshot()
	require.NoError(t, err)

	resumed, err := chain.Resume(context.Background(), host, snap)
	require.NoError(t, err)
	defer resumed.End(context.Background(), hooks.RunEnd{})
	_, err = resumed.CallTool(context.Background(), call, tool)
	require.NoError(t, err)
	assert.Equal(t, 1, asked)
	want := map[string]any{"env": "staging", "n": 2.0}
	assert.Equal(t, []map[string]any{want, want}, seen)
	assert.Equal(t, []any{"prod", "staging", "prod", "staging"}, guarded, "the kept edit gets its second look too")
}

// A host that panics while a person is asked is a refusal naming the
// approval, never a crash and never an allow.
func TestApprovalWhoseHostPanicsRefuses(t *testing.T) {
	h := hooktest.NewWith(t, hooktest.Options{Host: hooks.Host{Review: func(context.Context, hooks.Review) (hooks.Verdict, error) {
		panic("the terminal went away")
	}}}, prebuilt.Approval(prebuilt.ApprovalConfig{}))
	out := h.Tool("deploy", nil)
	assert.False(t, out.Ran)
	assert.True(t, out.Result.IsError)
	diags := h.Diagnostics()
	require.Len(t, diags, 1)
	assert.Equal(t, "approval", diags[0].Hook)
	assert.Contains(t, diags[0].Err.Error(), "the terminal went away")
}

// An agent file sets the responses too, for the config and per rule.
func TestApprovalSpecTakesResponses(t *testing.T) {
	h, err := prebuilt.FromSpec("approval", map[string]any{
		"responses": []any{"approve", "reject"},
		"require":   []any{map[string]any{"tool": "deploy", "responses": []any{"approve"}}},
	})
	require.NoError(t, err)
	hk := hooktest.NewWith(t, hooktest.Options{Verdicts: []hooks.Verdict{{Approved: true, Arguments: map[string]any{}}}}, h)
	assert.False(t, hk.Tool("deploy", nil).Ran, "edit is not allowed")

	_, err = prebuilt.FromSpec("approval", map[string]any{"responses": []any{"accept"}})
	assert.ErrorContains(t, err, `unknown response "accept"`)
	_, err = prebuilt.FromSpec("approval", map[string]any{"require": []any{map[string]any{"tool": "x", "responses": []any{1}}}})
	assert.ErrorContains(t, err, "want one of approve, edit, reject, respond")
}
