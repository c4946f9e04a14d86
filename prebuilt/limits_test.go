package prebuilt_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/hooktest"
	"github.com/rienda/hooks/prebuilt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestToolCallLimitRefusesTheCallPastTheRunLimit(t *testing.T) {
	h := hooktest.New(t, prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{Run: 2}))
	h.Tool("search", nil).RequireAllowed(t)
	h.Tool("read", nil).RequireAllowed(t)
	h.Tool("search", nil).RequireRefused(t, "Tool call limit reached: this run may make 2 tool calls, and it has. Do not call any more tools; answer with what you have.")
	h.Tool("read", nil).RequireRefused(t, "Tool call limit reached: this run may make 2 tool calls, and it has. Do not call any more tools; answer with what you have.")
	h.Model(hooks.ModelRequest{}, hooks.ModelResponse{Text: "done"}).RequireText(t, "done") // Refuse: the run goes on
}

func TestToolCallLimitPerToolCountsOnlyThatTool(t *testing.T) {
	h := hooktest.New(t, prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{PerTool: map[string]int{"search": 1, "deploy": 0}}))
	h.Tool("search", nil).RequireAllowed(t)
	h.Tool("search", nil).RequireRefused(t, `Tool call limit reached: "search" may be called 1 times in this run, and it has been. Do not call "search" again in this run; go on without it.`)
	h.Tool("deploy", nil).RequireRefused(t, `Tool call limit reached: "deploy" may be called 0 times in this run, and it has been. Do not call "deploy" again in this run; go on without it.`)
	for range 5 {
		h.Tool("read", nil).RequireAllowed(t)
	}
}

func TestToolCallLimitEndRunEndsAtTheNextModelRequest(t *testing.T) {
	h := hooktest.New(t, prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{Run: 1, OnLimit: prebuilt.EndRun}))
	h.Model(hooks.ModelRequest{}, hooks.ModelResponse{Text: "go"}).RequireText(t, "go")
	h.Tool("search", nil).RequireAllowed(t)
	o := h.Tool("search", nil)
	require.False(t, o.Ran)
	h.Model(hooks.ModelRequest{}, hooks.ModelResponse{Text: "more"}).RequireEnded(t, "Run ended: "+o.Result.Text)
}

func TestToolCallLimitLetsExactlyTheLimitThroughParallelCalls(t *testing.T) {
	const limit, calls = 10, 64
	_, run := start(t, prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{Run: limit}))
	var ran atomic.Int64
	var wg sync.WaitGroup
	for range calls {
		wg.Go(func() {
			_, err := run.CallTool(context.Background(), hooks.ToolCall{Name: "t"}, func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
				ran.Add(1)
				return hooks.ToolResult{}, nil
			})
			assert.NoError(t, err)
		})
	}
	wg.Wait()
	assert.EqualValues(t, limit, ran.Load())
}

func TestToolCallLimitCountsSurviveSnapshotResumeAndRehydrate(t *testing.T) {
	limit := prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{Run: 3, PerTool: map[string]int{"search": 2}})
	chain, run := start(t, limit)
	callTool(t, run, "search", nil)
	snap, err := run.Snapshot()
	require.NoError(t, err)
	assert.JSONEq(t, `{"total":1,"perTool":{"search":1}}`, stateOf(t, snap, "toolCallLimit"))

	resumed, err := chain.Resume(context.Background(), hooks.Host{}, snap)
	require.NoError(t, err)
	defer resumed.End(context.Background(), hooks.RunEnd{})
	assert.False(t, callTool(t, resumed, "search", nil).IsError)
	assert.True(t, callTool(t, resumed, "search", nil).IsError, "the restored count of search reaches its limit")

	snap2, err := resumed.Snapshot()
	require.NoError(t, err)
	step, err := chain.Rehydrate(hooks.Host{}, snap2)
	require.NoError(t, err)
	assert.False(t, callTool(t, step, "read", nil).IsError, "the third call of the run")
	assert.True(t, callTool(t, step, "read", nil).IsError, "past the run's limit of 3, counted across the three runs")
}

func TestModelCallLimitEndsTheRunAtTheRequestPastTheLimit(t *testing.T) {
	h := hooktest.New(t, prebuilt.ModelCallLimit(prebuilt.ModelCallLimitConfig{Run: 2}))
	h.Model(hooks.ModelRequest{}, hooks.ModelResponse{Text: "1"}).RequireText(t, "1")
	h.Model(hooks.ModelRequest{}, hooks.ModelResponse{Text: "2"}).RequireText(t, "2")
	o := h.Model(hooks.ModelRequest{}, hooks.ModelResponse{Text: "3"})
	o.RequireEnded(t, "Run ended: model call limit reached (2 calls in this run).")
	o.RequireNotCalled(t)
}

func TestLimitConstructorsRefuseConfigsThatCannotWork(t *testing.T) {
	assert.PanicsWithValue(t, "prebuilt.ToolCallLimit: field Run is -1: a limit cannot be negative (0 means none)", func() {
		prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{Run: -1})
	})
	assert.PanicsWithValue(t, `prebuilt.ToolCallLimit: field PerTool["x"] is -2: a limit cannot be negative`, func() {
		prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{PerTool: map[string]int{"x": -2}})
	})
	assert.PanicsWithValue(t, "prebuilt.ModelCallLimit: field Run is 0: the limit must be positive", func() {
		prebuilt.ModelCallLimit(prebuilt.ModelCallLimitConfig{})
	})
}
