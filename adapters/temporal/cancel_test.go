package temporal_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/rienda/hooks"
	durable "github.com/rienda/hooks/adapters/temporal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	sdk "go.temporal.io/sdk/temporal"
)

// A cancelled run's cancellation reaches the running tool (its context is
// cancelled, by the step's heartbeat) and the tool stops before
// AfterRun("interrupted") runs; the tool's idempotency key is stable.
func TestACancelReachesTheRunningToolBeforeAfterRun(t *testing.T) {
	var mu sync.Mutex
	var order []string
	note := func(s string) { mu.Lock(); order = append(order, s); mu.Unlock() }
	entered := make(chan string, 1)
	ender := hooks.Funcs{HookName: "ender", AfterRun: func(c *hooks.Context, e hooks.RunEnd) error {
		note("afterRun " + string(e.Outcome))
		return nil
	}}
	chain, err := hooks.NewChain([]hooks.Hook{ender})
	require.NoError(t, err)
	agent := &durable.Agent{Chain: chain, Model: func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
		return hooks.ModelResponse{ToolCalls: []hooks.ToolCall{{ID: "c1", Name: "slow"}}}, nil
	}, Tools: map[string]hooks.ToolFunc{"slow": func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		key, attempt := durable.StepKey(c)
		entered <- key
		assert.Equal(t, 1, attempt)
		durable.Heartbeat(c, "halfway")
		<-c.Done()
		note("tool stopped")
		return hooks.ToolResult{}, c.Err()
	}}}
	startWorker(t, "cancel-tool", agent)
	in := durable.Input{Input: "go", Options: durable.Options{Tools: map[string]durable.StepOptions{"slow": {HeartbeatTimeout: time.Second}}}}
	run := startRun(t, "cancel-tool", "cancel-tool", in)
	key := <-entered
	assert.Regexp(t, `^cancel-tool/[0-9a-f-]+/[0-9]+$`, key, "workflow, execution and step")

	require.NoError(t, server.GetDefaultClient().CancelWorkflow(context.Background(), "cancel-tool", ""))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	err = run.Get(ctx, nil)
	require.Error(t, err)
	assert.True(t, sdk.IsCanceledError(err), "cancelled: %v", err)
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, []string{"tool stopped", "afterRun interrupted"}, order)
}
