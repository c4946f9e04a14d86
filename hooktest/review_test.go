package hooktest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/hooktest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// asker asks a person about each call and does what they decide.
var asker = hooks.Funcs{HookName: "asker",
	BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		v, _ := c.Review(hooks.Review{Prompt: hooks.Prompt{Title: "Run " + call.Name + "?"}, Call: &call})
		return v.Patch(), nil
	}}

// Scripted verdicts answer reviews in order: approve, edit, reject with a
// message, respond with a result.
func TestVerdictsAnswerReviewsInOrder(t *testing.T) {
	h := hooktest.NewWith(t, hooktest.Options{Verdicts: []hooks.Verdict{
		{Approved: true},
		{Approved: true, Arguments: map[string]any{"n": 2.0}},
		{Message: "not now"},
		{Result: &hooks.ToolResult{Text: "42"}},
	}}, asker)
	h.Tool("calc", map[string]any{"n": 1}).RequireAllowed(t)
	edited := h.Tool("calc", map[string]any{"n": 1})
	edited.RequireAllowed(t)
	assert.Equal(t, map[string]any{"n": 2.0}, edited.Seen.Arguments)
	h.Tool("calc", map[string]any{"n": 1}).RequireRefused(t, "not now")
	answered := h.Tool("calc", map[string]any{"n": 1})
	assert.False(t, answered.Ran)
	assert.Equal(t, "42", answered.Result.Text)
	require.Len(t, h.Reviews(), 4)
	assert.Equal(t, "Run calc?", h.Reviews()[0].Prompt.Title)
	assert.Equal(t, map[string]any{"n": 1.0}, h.Reviews()[0].Call.Arguments)
	assert.Len(t, h.Prompts(), 4)
	events := answered.Decisions
	require.Len(t, events, 1)
	assert.Equal(t, hooks.ReviewAnswered, events[0].Review)
}

// A review asked when no scripted verdict is left is an error that says
// so: the call is refused, and the test fails.
func TestAReviewPastTheScriptFailsClearly(t *testing.T) {
	h, err := hooktest.Start(hooktest.Options{Verdicts: []hooks.Verdict{{Approved: true}}}, asker)
	require.NoError(t, err)
	defer h.End(hooks.RunEnd{})
	assert.True(t, h.Tool("calc", nil).Ran)
	out := h.Tool("calc", nil)
	assert.False(t, out.Ran)
	diags := h.Diagnostics()
	require.Len(t, diags, 1)
	assert.Equal(t, "asker", diags[0].Hook)
	assert.ErrorContains(t, diags[0].Err, `review "Run calc?" was asked, and no scripted verdict is left (Options.Verdicts had 1)`)

	ft2 := &erroringT{TB: t}
	h3 := hooktest.NewWith(ft2, hooktest.Options{Verdicts: []hooks.Verdict{{Approved: true}}}, asker)
	h3.Tool("calc", nil)
	h3.Tool("calc", nil)
	require.NotEmpty(t, ft2.errors)
	assert.Contains(t, ft2.errors[0], "no scripted verdict is left")
}

// erroringT records what a harness reports with Errorf.
type erroringT struct {
	testing.TB
	errors []string
}

func (f *erroringT) Errorf(format string, args ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}

func (f *erroringT) Helper() {}

// Confirm-only tests are unchanged: Answers serve Confirm, and reviews
// when no verdict is scripted.
func TestAnswersStillServeConfirmAndReviews(t *testing.T) {
	h := hooktest.NewWith(t, hooktest.Options{Answers: []bool{true, false}}, asker)
	h.Tool("calc", nil).RequireAllowed(t)
	h.Tool("calc", nil).RequireRefused(t, hooks.DefaultRejection)
	// Past them, the host's own Review answers.
	h2 := hooktest.NewWith(t, hooktest.Options{Host: hooks.Host{Review: func(context.Context, hooks.Review) (hooks.Verdict, error) {
		return hooks.Verdict{Message: "host says no"}, nil
	}}}, asker)
	h2.Tool("calc", nil).RequireRefused(t, "host says no")
}

// A fixture's host.review scripts verdicts, read strictly.
func TestFixtureHostReviewScriptsVerdicts(t *testing.T) {
	var f hooktest.Fixture
	require.NoError(t, json.Unmarshal([]byte(`{
		"point": "beforeToolExecute",
		"input": {"call": {"id": "1", "name": "shell", "arguments": {"command": "make deploy"}}},
		"host": {"review": [{"approved": true, "arguments": {"command": "make staging"}}]},
		"expect": {"ran": true, "arguments": {"command": "make staging"}, "prompts": 1}
	}`), &f))
	require.NoError(t, hooktest.Check(f, asker))

	f.Host.Review = []hooks.Verdict{{Message: "frozen"}}
	f.Expect = hooktest.FixtureExpect{}
	require.NoError(t, json.Unmarshal([]byte(`{"refused": true, "reason": "frozen"}`), &f.Expect))
	require.NoError(t, hooktest.Check(f, asker))
}
