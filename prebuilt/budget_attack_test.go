package prebuilt_test

import (
	"math"
	"strings"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/hooktest"
	"github.com/rienda/hooks/prebuilt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A usage near the int64 maximum must not wrap the total to a negative
// number, which would read as nothing spent.
func TestBudgetTotalSaturatesInsteadOfWrapping(t *testing.T) {
	h := hooktest.New(t, prebuilt.Budget(prebuilt.BudgetConfig{MaxTokens: 1000, WarnAt: -1}))
	h.Model(hooks.ModelRequest{}, usage(math.MaxInt64, math.MaxInt64)).RequireText(t, "r")
	o := h.Model(hooks.ModelRequest{}, usage(1, 1))
	o.RequireNotCalled(t)
	o.RequireEnded(t, "Run ended: budget exceeded: 9223372036854775807 of 1000 tokens.")

	h = hooktest.New(t, prebuilt.Budget(prebuilt.BudgetConfig{MaxTokens: math.MaxInt64 - 1, WarnAt: -1}))
	h.Model(hooks.ModelRequest{}, usage(math.MaxInt64-10, 0))
	h.Model(hooks.ModelRequest{}, usage(100, 0))
	h.Model(hooks.ModelRequest{}, usage(1, 0)).RequireNotCalled(t)
}

// A negative count (a broken adapter) cannot give tokens back.
func TestBudgetNegativeUsageCountsAsZeroAndIsSaid(t *testing.T) {
	h := hooktest.New(t, prebuilt.Budget(prebuilt.BudgetConfig{MaxTokens: 100, WarnAt: -1}))
	h.Model(hooks.ModelRequest{}, usage(101, 0))
	h.Model(hooks.ModelRequest{}, usage(-1000, 0)).RequireNotCalled(t)

	h = hooktest.New(t, prebuilt.Budget(prebuilt.BudgetConfig{MaxTokens: 100, WarnAt: -1}))
	h.Model(hooks.ModelRequest{}, usage(90, 0))
	h.Model(hooks.ModelRequest{}, usage(-80, 0))
	h.Model(hooks.ModelRequest{}, usage(20, 0)).RequireText(t, "r")
	h.Model(hooks.ModelRequest{}, usage(1, 0)).RequireNotCalled(t)
	require.Len(t, h.Diagnostics(), 1)
	assert.Contains(t, h.Diagnostics()[0].Err.Error(), "negative token count")
}

func TestBudgetRefusesPricesThatCanNeverTrip(t *testing.T) {
	for _, src := range []string{
		`{maxCost: 1, prices: {m: {input: .nan, output: 1}}}`,
		`{maxCost: 1, prices: {m: {input: 1, output: .inf}}}`,
		`{maxCost: 1, prices: {m: {input: 1, output: 1, cachedInput: -.inf}}}`,
		`{maxCost: 1, prices: {m: {input: -1, output: 1}}}`,
	} {
		_, err := prebuilt.FromSpec("budget", settingsOf(t, src))
		require.Error(t, err, src)
		assert.Contains(t, err.Error(), `prebuilt budget: field Prices["m"].`, src)
		assert.Contains(t, err.Error(), "a price is a number, 0 or more", src)
	}
	assert.Panics(t, func() {
		prebuilt.Budget(prebuilt.BudgetConfig{MaxCost: 1, Prices: map[string]prebuilt.Price{"m": {Output: math.NaN()}}})
	})
	for _, src := range []string{`{maxTokens: .inf}`, `{maxTokens: 1e300}`, `{maxTokens: -.inf}`, `{maxTokens: .nan}`, `{maxTokens: 18446744073709551615}`} {
		_, err := prebuilt.FromSpec("budget", settingsOf(t, src))
		require.Error(t, err, src)
		assert.Contains(t, err.Error(), `setting "maxTokens"`, src)
	}
	_, err := prebuilt.FromSpec("budget", settingsOf(t, `{maxTokens: 9223372036854775807}`))
	assert.NoError(t, err, "the largest count is a count")
}

// A reply without Usage is not free without a word: by default it counts
// an estimate, and says so once per run.
func TestBudgetReplyWithoutUsageCountsAnEstimateAndSaysSo(t *testing.T) {
	h := hooktest.New(t, prebuilt.Budget(prebuilt.BudgetConfig{MaxTokens: 100, WarnAt: -1}))
	long := strings.Repeat("x", 400)
	req := hooks.ModelRequest{Messages: []hooks.Message{{Role: "user", Text: long}}}
	h.Model(req, hooks.ModelResponse{Text: "ok"}).RequireText(t, "ok") // ~101 input + 1 output
	h.Model(req, hooks.ModelResponse{Text: "ok"}).RequireNotCalled(t)
	require.Len(t, h.Diagnostics(), 1, "said once per run")
	assert.Contains(t, h.Diagnostics()[0].Err.Error(), "has no Usage: counting an estimate, 101 input and 1 output tokens")

	// Estimate overrides; returning zero counts the reply as free, by choice.
	free := hooktest.New(t, prebuilt.Budget(prebuilt.BudgetConfig{MaxTokens: 100, WarnAt: -1,
		Estimate: func(hooks.ModelRequest, hooks.ModelResponse) hooks.Usage { return hooks.Usage{} }}))
	for range 5 {
		free.Model(req, hooks.ModelResponse{Text: "ok"}).RequireText(t, "ok")
	}
	assert.Empty(t, free.Diagnostics())

	// The estimate counts the reply's tool calls too.
	fixed := hooktest.New(t, prebuilt.Budget(prebuilt.BudgetConfig{MaxTokens: 10, WarnAt: -1}))
	big := hooks.ModelResponse{ToolCalls: []hooks.ToolCall{{ID: "1", Name: "write", Arguments: map[string]any{"text": long}}}}
	fixed.Model(hooks.ModelRequest{}, big)
	fixed.Model(hooks.ModelRequest{}, hooks.ModelResponse{Text: "ok"}).RequireNotCalled(t)
}

// An Estimate of one's own that returns a negative count gives nothing
// back either.
func TestBudgetNegativeEstimateGivesNothingBack(t *testing.T) {
	calls := 0
	h := hooktest.New(t, prebuilt.Budget(prebuilt.BudgetConfig{MaxTokens: 100, WarnAt: -1,
		Estimate: func(hooks.ModelRequest, hooks.ModelResponse) hooks.Usage {
			calls++
			return hooks.Usage{InputTokens: -1 << 40}
		}}))
	h.Model(hooks.ModelRequest{}, usage(101, 0))
	h.Model(hooks.ModelRequest{}, hooks.ModelResponse{Text: "no usage"}).RequireNotCalled(t)
	assert.Equal(t, 0, calls, "the run had ended before the estimate was asked")

	h = hooktest.New(t, prebuilt.Budget(prebuilt.BudgetConfig{MaxTokens: 100, WarnAt: -1,
		Estimate: func(hooks.ModelRequest, hooks.ModelResponse) hooks.Usage { return hooks.Usage{InputTokens: -1 << 40} }}))
	h.Model(hooks.ModelRequest{}, usage(90, 0))
	h.Model(hooks.ModelRequest{}, hooks.ModelResponse{Text: "no usage"})
	h.Model(hooks.ModelRequest{}, usage(20, 0)).RequireText(t, "r")
	h.Model(hooks.ModelRequest{}, usage(1, 0)).RequireNotCalled(t)
}

// A model whose price is misspelt is said with the name meant.
func TestBudgetUnpricedModelSaysTheClosestPrice(t *testing.T) {
	h := hooktest.New(t, prebuilt.Budget(prebuilt.BudgetConfig{MaxCost: 1, WarnAt: -1, Prices: map[string]prebuilt.Price{"gpt-4o": {Input: 1, Output: 1}}}))
	h.Model(hooks.ModelRequest{Model: "gpt4o"}, usage(10, 10))
	require.Len(t, h.Diagnostics(), 1)
	assert.EqualError(t, h.Diagnostics()[0].Err, `no price for model "gpt4o": its calls count as free against MaxCost (did you mean "gpt-4o"?)`)
}
