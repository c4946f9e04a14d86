package hooks_test

import (
	"context"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// jsReviewRun starts a run of one JS hook whose host answers reviews with
// review, and returns it with the diagnostics it collects.
func jsReviewRun(t *testing.T, src string, review func(context.Context, hooks.Review) (hooks.Verdict, error)) (*hooks.Run, *[]hooks.Diagnostic) {
	t.Helper()
	h, err := hooks.CompileJS("asker", src, nil)
	require.NoError(t, err)
	var diags []hooks.Diagnostic
	chain, err := hooks.NewChain([]hooks.Hook{h}, hooks.WithDiagnostics(func(d hooks.Diagnostic) { diags = append(diags, d) }))
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), hooks.Host{Review: review, Env: map[string]string{}}, hooks.RunStart{})
	require.NoError(t, err)
	t.Cleanup(func() { run.End(context.Background(), hooks.RunEnd{}) })
	return run, &diags
}

func answer(v hooks.Verdict) func(context.Context, hooks.Review) (hooks.Verdict, error) {
	return func(context.Context, hooks.Review) (hooks.Verdict, error) { return v, nil }
}

const jsReviewer = `exports.beforeToolExecute = (ctx, call) => {
	const v = ctx.review({title: "Run " + call.name + "?", body: call.arguments.command, call});
	if (v.result) return {result: v.result};
	if (!v.approved) return {allow: false, reason: v.message || "no"};
	if (v.arguments) return {arguments: v.arguments};
};`

func TestJSReviewReturnsThePersonsVerdict(t *testing.T) {
	call := hooks.ToolCall{ID: "1", Name: "shell", Arguments: map[string]any{"command": "make deploy"}}
	cases := []struct {
		name string
		v    hooks.Verdict
		want func(t *testing.T, step hooks.ToolStep)
	}{
		{"approve", hooks.Verdict{Approved: true}, func(t *testing.T, step hooks.ToolStep) {
			assert.False(t, step.Refused)
			assert.Nil(t, step.Result)
			assert.Equal(t, call.Arguments, step.Call.Arguments)
		}},
		{"edit", hooks.Verdict{Approved: true, Arguments: map[string]any{"command": "make staging", "n": 2.0}}, func(t *testing.T, step hooks.ToolStep) {
			assert.False(t, step.Refused)
			assert.Equal(t, map[string]any{"command": "make staging", "n": 2.0}, step.Call.Arguments)
		}},
		{"reject", hooks.Verdict{Message: "frozen"}, func(t *testing.T, step hooks.ToolStep) {
			assert.True(t, step.Refused)
			assert.Equal(t, "frozen", step.Reason)
		}},
		{"respond", hooks.Verdict{Result: &hooks.ToolResult{Text: "done by hand", IsError: true, Value: map[string]any{"k": "v"}}}, func(t *testing.T, step hooks.ToolStep) {
			assert.False(t, step.Refused)
			assert.Equal(t, &hooks.ToolResult{Text: "done by hand", IsError: true, Value: map[string]any{"k": "v"}}, step.Result)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var asked hooks.Review
			run, diags := jsReviewRun(t, jsReviewer, func(_ context.Context, r hooks.Review) (hooks.Verdict, error) {
				asked = r
				return tc.v, nil
			})
			step, err := run.BeforeToolExecute(context.Background(), call)
			require.NoError(t, err)
			tc.want(t, step)
			assert.Empty(t, *diags)
			assert.Equal(t, hooks.Prompt{Title: "Run shell?", Body: "make deploy"}, asked.Prompt)
			require.NotNil(t, asked.Call)
			assert.Equal(t, call, *asked.Call)
		})
	}
}

// Misuses of ctx.review cannot let a call through that the person
// rejected, or that nobody was asked about.
func TestJSReviewMisuseNeverBecomesAnAllow(t *testing.T) {
	call := hooks.ToolCall{ID: "1", Name: "shell", Arguments: map[string]any{"command": "rm -rf /"}}
	cases := map[string]string{
		// An object is always true: read like confirm's boolean, a no is a yes.
		"tested as a boolean": `exports.beforeToolExecute = (ctx, call) => { if (!ctx.review({title: "Run?", call})) return {allow: false}; };`,
		"returned as it is":   `exports.beforeToolExecute = (ctx, call) => ctx.review({title: "Run?", call});`,
		"ignored":             `exports.beforeToolExecute = (ctx, call) => { ctx.review("Run?"); return {allow: true}; };`,
		"thrown after":        `exports.beforeToolExecute = (ctx, call) => { const v = ctx.review({call}); throw new Error("oops " + v.approved); };`,
		"edited anyway":       `exports.beforeToolExecute = (ctx, call) => { const v = ctx.review({call}); return {arguments: {command: "ls"}}; };`,
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			run, diags := jsReviewRun(t, src, answer(hooks.Verdict{Message: "never on prod"}))
			step, err := run.BeforeToolExecute(context.Background(), call)
			require.NoError(t, err)
			assert.True(t, step.Refused)
			assert.Equal(t, "never on prod", step.Reason)
			require.NotEmpty(t, *diags)
			assert.Equal(t, "asker", (*diags)[0].Hook)
		})
	}

	// A call argument that cannot be read is not asked about: a rejection.
	for name, arg := range map[string]string{
		"call not an object": `{title: "Run?", call: 42}`,
		"arguments a string": `{title: "Run?", call: {name: "shell", arguments: "rm -rf /"}}`,
		"name a number":      `{title: "Run?", call: {name: 7, arguments: {}}}`,
	} {
		t.Run(name, func(t *testing.T) {
			asked := false
			run, diags := jsReviewRun(t, `exports.beforeToolExecute = (ctx, call) => { const v = ctx.review(`+arg+`); return v.approved ? {} : {allow: false, reason: "no"}; };`,
				func(context.Context, hooks.Review) (hooks.Verdict, error) {
					asked = true
					return hooks.Verdict{Approved: true}, nil
				})
			step, err := run.BeforeToolExecute(context.Background(), call)
			require.NoError(t, err)
			assert.True(t, step.Refused)
			assert.False(t, asked)
			require.Len(t, *diags, 1)
			assert.Contains(t, (*diags)[0].Err.Error(), "ctx.review: call")
		})
	}
}

// The verdict a hook reads is its own copy: what it does to it changes
// nothing the host holds.
func TestJSReviewVerdictIsTheHooksOwnCopy(t *testing.T) {
	hostArgs := map[string]any{"command": "make staging", "opts": map[string]any{"dry": true}}
	run, diags := jsReviewRun(t, `exports.beforeToolExecute = (ctx, call) => {
		const v = ctx.review({title: "Run?", call});
		v.arguments.command = "rm -rf /";
		v.arguments.opts.dry = false;
		call.arguments.command = "rm -rf /";
		return {};
	};`, func(_ context.Context, r hooks.Review) (hooks.Verdict, error) {
		return hooks.Verdict{Approved: true, Arguments: hostArgs}, nil
	})
	step, err := run.BeforeToolExecute(context.Background(), hooks.ToolCall{ID: "1", Name: "shell", Arguments: map[string]any{"command": "ls"}})
	require.NoError(t, err)
	assert.Empty(t, *diags)
	assert.Equal(t, map[string]any{"command": "make staging", "opts": map[string]any{"dry": true}}, hostArgs)
	assert.Equal(t, map[string]any{"command": "ls"}, step.Call.Arguments, "the hook returned no edit")
}

// ctx.confirm is unchanged: a boolean, served by a host's Review.
func TestJSConfirmStaysABoolean(t *testing.T) {
	run, _ := jsReviewRun(t, `exports.beforeToolExecute = (ctx) => (ctx.confirm({title: "Run?"}) === true ? {} : {allow: false, reason: "no"});`,
		answer(hooks.Verdict{Approved: true}))
	step, err := run.BeforeToolExecute(context.Background(), hooks.ToolCall{ID: "1", Name: "x"})
	require.NoError(t, err)
	assert.False(t, step.Refused)
}
