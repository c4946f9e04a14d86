package prebuilt_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/hooktest"
	"github.com/rienda/hooks/prebuilt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func usage(in, out int64) hooks.ModelResponse {
	return hooks.ModelResponse{Text: "r", Usage: hooks.Usage{InputTokens: in, OutputTokens: out}}
}

func TestBudgetTokensExactlyAtTheLimitStillRunsThenPastItEnds(t *testing.T) {
	h := hooktest.New(t, prebuilt.Budget(prebuilt.BudgetConfig{MaxTokens: 1000, WarnAt: -1}))
	h.Model(hooks.ModelRequest{}, usage(600, 100)).RequireText(t, "r")
	h.Model(hooks.ModelRequest{}, usage(250, 50)).RequireText(t, "r") // 1000: at the limit, not past it
	h.Model(hooks.ModelRequest{}, usage(1, 0)).RequireText(t, "r")    // allowed: the total was not past it; now 1001
	o := h.Model(hooks.ModelRequest{}, usage(1, 0))
	o.RequireNotCalled(t)
	o.RequireEnded(t, "Run ended: budget exceeded: 1001 of 1000 tokens.")
}

func TestBudgetWarnsOnceAtTheThreshold(t *testing.T) {
	h := hooktest.New(t, prebuilt.Budget(prebuilt.BudgetConfig{MaxTokens: 100}))
	h.Model(hooks.ModelRequest{}, usage(70, 0))
	assert.Empty(t, h.Notices())
	h.Model(hooks.ModelRequest{}, usage(10, 0))
	h.Model(hooks.ModelRequest{}, usage(5, 0))
	assert.Equal(t, []hooks.Notice{{Title: "Budget warning", Body: "This run has spent 80 of 100 tokens."}}, h.Notices())
}

func TestBudgetCostUsesThePriceOfTheModelCalled(t *testing.T) {
	budget := prebuilt.Budget(prebuilt.BudgetConfig{MaxCost: 1, WarnAt: -1, Prices: map[string]prebuilt.Price{
		"big":   {Input: 10, Output: 30, CachedInput: 1},
		"small": {Input: 1, Output: 2},
	}})
	// The fallback is listed first (outermost): the budget, inside it, sees
	// the model each attempt went to.
	chain, run := start(t, prebuilt.ModelFallback(prebuilt.ModelFallbackConfig{Models: []string{"small-2025"}}), budget)
	reply, err := run.CallModel(context.Background(), hooks.ModelRequest{Model: "big"}, func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
		if req.Model == "big" {
			return hooks.ModelResponse{}, errors.New("down")
		}
		return hooks.ModelResponse{Usage: hooks.Usage{InputTokens: 200_000, OutputTokens: 100_000}}, nil
	})
	require.NoError(t, err)
	require.Nil(t, reply.End)
	snap, err := run.Snapshot()
	require.NoError(t, err)
	assert.JSONEq(t, `{"tokens":300000,"cost":0.4,"model":"small-2025"}`, stateOf(t, snap, "budget"),
		"priced as small (the longest prefix): 0.2 + 0.2")

	// Cached input at its own price: 100k cached of 200k input, 10k output.
	_, err = run.CallModel(context.Background(), hooks.ModelRequest{Model: "big"}, func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
		return hooks.ModelResponse{Usage: hooks.Usage{InputTokens: 200_000, CachedInputTokens: 100_000, OutputTokens: 10_000}}, nil
	})
	require.NoError(t, err)
	snap, err = run.Snapshot()
	require.NoError(t, err)
	var spent struct {
		Tokens int64
		Cost   float64
	}
	require.NoError(t, json.Unmarshal([]byte(stateOf(t, snap, "budget")), &spent))
	assert.EqualValues(t, 510_000, spent.Tokens)
	assert.InDelta(t, 1.8, spent.Cost, 1e-9, "0.4 + 1 (uncached input) + 0.1 (cached) + 0.3 (output)")

	resumed, err := chain.Resume(context.Background(), hooks.Host{}, snap)
	require.NoError(t, err)
	defer resumed.End(context.Background(), hooks.RunEnd{})
	step, err := resumed.BeforeModelRequest(context.Background(), hooks.ModelRequest{Model: "big"})
	require.NoError(t, err)
	require.NotNil(t, step.End, "the restored total is past the budget")
	assert.Equal(t, "Run ended: budget exceeded: 1.8 of 1 in cost.", step.End.Output)
}

func TestBudgetSaysOnceThatAModelHasNoPrice(t *testing.T) {
	h := hooktest.New(t, prebuilt.Budget(prebuilt.BudgetConfig{MaxCost: 5, Prices: map[string]prebuilt.Price{"a": {Input: 1}}}))
	h.Model(hooks.ModelRequest{Model: "mystery"}, usage(10, 10))
	h.Model(hooks.ModelRequest{Model: "mystery"}, usage(10, 10))
	h.RequireDiagnostics(t, 1)
	assert.EqualError(t, h.Diagnostics()[0].Err, `no price for model "mystery": its calls count as free against MaxCost`)
}

func TestBudgetRefusesAConfigThatLimitsNothing(t *testing.T) {
	assert.PanicsWithValue(t, "prebuilt.Budget: neither MaxTokens nor MaxCost is set: the budget limits nothing", func() {
		prebuilt.Budget(prebuilt.BudgetConfig{})
	})
	assert.PanicsWithValue(t, "prebuilt.Budget: field MaxCost is set but Prices is empty: every call would be free", func() {
		prebuilt.Budget(prebuilt.BudgetConfig{MaxCost: 1})
	})
}

func TestBudgetWarnModelTellsTheModelPastTheThreshold(t *testing.T) {
	h := hooktest.New(t, prebuilt.Budget(prebuilt.BudgetConfig{MaxTokens: 100, WarnAt: 0.5, WarnModel: true}))
	h.Model(hooks.ModelRequest{System: "sys"}, usage(40, 0)).RequireSystem(t, "sys")
	h.Model(hooks.ModelRequest{System: "sys"}, usage(20, 0)).RequireSystem(t, "sys") // now 60: past 0.5
	h.Model(hooks.ModelRequest{System: "sys"}, usage(0, 0)).RequireSystem(t,
		"sys\n\nBudget: this run has spent 60 of 100 tokens. Finish the task soon; the run ends when the budget is spent.")
}
