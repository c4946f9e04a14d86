package prebuilt_test

import (
	"errors"
	"math"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/hooktest"
	"github.com/rienda/hooks/prebuilt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestToolCallLimitThatLimitsNothingIsRefused(t *testing.T) {
	for _, cfg := range []prebuilt.ToolCallLimitConfig{{}, {PerTool: map[string]int{}}, {OnLimit: prebuilt.EndRun}} {
		assert.PanicsWithValue(t, "prebuilt.ToolCallLimit: neither Run nor PerTool is set: the limit limits nothing (set Run, the run's tool calls, or PerTool, a tool's)",
			func() { prebuilt.ToolCallLimit(cfg) })
	}
	for _, src := range []string{`{}`, `{perTool: {}}`, `{onLimit: end}`, `{run: 0}`, `{name: x}`} {
		_, err := prebuilt.FromSpec("toolCallLimit", settingsOf(t, src))
		assert.EqualError(t, err, "prebuilt toolCallLimit: neither Run nor PerTool is set: the limit limits nothing (set Run, the run's tool calls, or PerTool, a tool's)", src)
	}
	_, err := prebuilt.FromSpec("toolCallLimit", nil)
	assert.Error(t, err, "no settings at all")
	// An entry of 0 is a limit: it allows none.
	_, err = prebuilt.FromSpec("toolCallLimit", settingsOf(t, `{perTool: {deploy: 0}}`))
	assert.NoError(t, err)
}

func TestToolCallLimitErrorRunFailsTheCallWithTheCounts(t *testing.T) {
	h := hooktest.New(t, prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{Run: 2, PerTool: map[string]int{"search": 1}, OnLimit: prebuilt.ErrorRun}))
	h.Tool("search", nil).RequireAllowed(t)
	o := h.Tool("search", nil)
	require.Error(t, o.Err)
	assert.False(t, o.Ran)
	assert.ErrorIs(t, o.Err, hooks.ErrHookFailed)
	var lerr *prebuilt.LimitError
	require.ErrorAs(t, o.Err, &lerr)
	assert.Equal(t, prebuilt.LimitError{Hook: "toolCallLimit", Tool: "search", Count: 1, Limit: 1}, *lerr)
	assert.Contains(t, o.Err.Error(), `toolCallLimit: tool call limit exceeded: "search" called 1 times in this run, limit 1`)

	h.Tool("read", nil).RequireAllowed(t)
	o = h.Tool("read", nil)
	require.ErrorAs(t, o.Err, &lerr)
	assert.Equal(t, prebuilt.LimitError{Hook: "toolCallLimit", Count: 2, Limit: 2}, *lerr)
	assert.Contains(t, o.Err.Error(), "toolCallLimit: tool call limit exceeded: 2 tool calls in this run, limit 2")
}

// Under a policy that reports errors instead of failing the run, the call
// past the limit is not refused (the policy's choice), but the run still
// stops spending: it ends at its next model request.
func TestToolCallLimitErrorRunEndsTheRunWhateverThePolicy(t *testing.T) {
	h := hooktest.New(t, hooks.WithPolicy(prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{Run: 1, OnLimit: prebuilt.ErrorRun}), hooks.Report))
	h.Tool("search", nil).RequireAllowed(t)
	h.Tool("search", nil)
	require.NotEmpty(t, h.Diagnostics())
	h.Model(hooks.ModelRequest{}, hooks.ModelResponse{Text: "more"}).RequireEnded(t,
		"Run ended: Tool call limit reached: this run may make 1 tool calls, and it has. Do not call any more tools; answer with what you have.")
}

func TestModelCallLimitErrorRunFailsTheRequestWithTheCounts(t *testing.T) {
	h := hooktest.New(t, prebuilt.ModelCallLimit(prebuilt.ModelCallLimitConfig{Run: 1, OnLimit: prebuilt.ErrorRun}))
	h.Model(hooks.ModelRequest{}, hooks.ModelResponse{Text: "one"}).RequireText(t, "one")
	o := h.Model(hooks.ModelRequest{}, hooks.ModelResponse{Text: "two"})
	var lerr *prebuilt.LimitError
	require.ErrorAs(t, o.Err, &lerr)
	assert.Equal(t, prebuilt.LimitError{Hook: "modelCallLimit", Model: true, Count: 1, Limit: 1}, *lerr)
	assert.Contains(t, o.Err.Error(), "modelCallLimit: model call limit exceeded: 1 model calls in this run, limit 1")
	o.RequireNotCalled(t)

	// The default (and Refuse, the zero value) ends the run.
	h = hooktest.New(t, prebuilt.ModelCallLimit(prebuilt.ModelCallLimitConfig{Run: 1, OnLimit: prebuilt.EndRun}))
	h.Model(hooks.ModelRequest{}, hooks.ModelResponse{Text: "one"})
	h.Model(hooks.ModelRequest{}, hooks.ModelResponse{Text: "two"}).RequireEnded(t, "Run ended: model call limit reached (1 calls in this run).")
}

func TestLoopGuardErrorRunFailsTheCall(t *testing.T) {
	h := hooktest.New(t, prebuilt.LoopGuard(prebuilt.LoopGuardConfig{Repeats: 2, OnLoop: prebuilt.ErrorRun}))
	h.Tool("search", map[string]any{"q": "x"}).RequireAllowed(t)
	o := h.Tool("search", map[string]any{"q": "x"})
	var lerr *prebuilt.LoopError
	require.ErrorAs(t, o.Err, &lerr)
	assert.Equal(t, prebuilt.LoopError{Hook: "loopGuard", Tool: "search", Period: 1, Repeats: 2}, *lerr)
	assert.False(t, o.Ran)
	h.Model(hooks.ModelRequest{}, hooks.ModelResponse{Text: "more"}).RequireNotCalled(t)
}

func TestFromSpecExitBehaviours(t *testing.T) {
	for _, tc := range []struct{ name, src string }{
		{"toolCallLimit", `{run: 1, onLimit: error}`},
		{"modelCallLimit", `{run: 1, onLimit: error}`},
		{"loopGuard", `{repeats: 2, onLoop: error}`},
	} {
		h, err := prebuilt.FromSpec(tc.name, settingsOf(t, tc.src))
		require.NoError(t, err, tc.name)
		run := hooktest.New(t, h)
		var failed error
		for range 3 {
			if tc.name == "modelCallLimit" {
				failed = errors.Join(failed, run.Model(hooks.ModelRequest{}, hooks.ModelResponse{Text: "r"}).Err)
			} else {
				failed = errors.Join(failed, run.Tool("t", nil).Err)
			}
		}
		assert.ErrorIs(t, failed, hooks.ErrHookFailed, tc.name)
	}
	_, err := prebuilt.FromSpec("modelCallLimit", settingsOf(t, `{run: 1, onLimit: refuse}`))
	assert.EqualError(t, err, `prebuilt modelCallLimit: setting "onLimit": unknown value "refuse" (want one of: end, error)`)
	_, err = prebuilt.FromSpec("toolCallLimit", settingsOf(t, `{run: 1, onLimit: continue}`))
	assert.EqualError(t, err, `prebuilt toolCallLimit: setting "onLimit": unknown value "continue" (LangChain's "continue" is "refuse") (want one of: refuse, end, error)`)
}

// Sizes and names a config cannot mean: an empty tool name, a Repeats
// whose window (2*Repeats) would overflow.
func TestLimitsRefuseSizesAndNamesTheyCannotMean(t *testing.T) {
	assert.PanicsWithValue(t, "prebuilt.ToolCallLimit: field PerTool has an entry for the empty name: no tool has it",
		func() { prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{PerTool: map[string]int{"": 1}}) })
	assert.PanicsWithValue(t, "prebuilt.ToolRetry: field Tools[1] is empty: no tool has that name",
		func() { prebuilt.ToolRetry(prebuilt.ToolRetryConfig{Tools: []string{"fetch", ""}}) })
	assert.PanicsWithValue(t, "prebuilt.ToolErrors: field Tools[0] is empty: no tool has that name",
		func() { prebuilt.ToolErrors(prebuilt.ToolErrorsConfig{Tools: []string{""}}) })
	assert.PanicsWithValue(t, "prebuilt.LoopGuard: field Repeats is 9223372036854775807: it must be at most 1048576",
		func() { prebuilt.LoopGuard(prebuilt.LoopGuardConfig{Repeats: math.MaxInt}) })
	h := hooktest.New(t, prebuilt.LoopGuard(prebuilt.LoopGuardConfig{Repeats: 1 << 20}))
	for range 3 {
		h.Tool("t", nil).RequireAllowed(t)
	}
}

// Under a policy that only reports ModelCallLimit's error, one request
// past the limit goes through (the policy's choice), and the next ends
// the run: the limit still holds.
func TestModelCallLimitErrorRunHoldsUnderReport(t *testing.T) {
	h := hooktest.New(t, hooks.WithPolicy(prebuilt.ModelCallLimit(prebuilt.ModelCallLimitConfig{Run: 1, OnLimit: prebuilt.ErrorRun}), hooks.Report))
	h.Model(hooks.ModelRequest{}, hooks.ModelResponse{Text: "one"}).RequireText(t, "one")
	h.Model(hooks.ModelRequest{}, hooks.ModelResponse{Text: "two"}).RequireText(t, "two")
	require.Len(t, h.Diagnostics(), 1)
	h.Model(hooks.ModelRequest{}, hooks.ModelResponse{Text: "three"}).RequireEnded(t, "Run ended: model call limit reached (1 calls in this run).")
}
