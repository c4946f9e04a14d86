package hooks_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rienda/hooks"
)

type keyT struct{}

// A ToolFunc hands its *Context to a goroutine that outlives the call
// (an async audit log, an errgroup): normal Go. The kept context must
// report its own call's end, answer with its own call's values, and never
// panic, whatever calls come after it.
func TestAKeptContextReportsItsOwnCallsEnd(t *testing.T) {
	chain, err := hooks.NewChain([]hooks.Hook{&nop{name: "guard"}})
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{})
	require.NoError(t, err)

	kept := make(chan context.Context, 1)
	release := make(chan struct{})
	type seen struct {
		err   error
		value any
		done  bool
	}
	report := make(chan seen, 1)
	tool := func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		kept <- c
		go func(ctx context.Context) {
			<-release // the call has returned, and another has run
			<-ctx.Done()
			report <- seen{err: ctx.Err(), value: ctx.Value(keyT{}), done: true}
		}(c)
		return hooks.ToolResult{Text: "ok"}, nil
	}
	ctx1 := context.WithValue(context.Background(), keyT{}, "first")
	_, err = run.CallTool(ctx1, benchCall, tool)
	require.NoError(t, err)
	first := <-kept

	ctx2 := context.WithValue(context.Background(), keyT{}, "second")
	_, err = run.CallTool(ctx2, benchCall, func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		assert.NoError(t, c.Err(), "a call's own context is live while it runs")
		assert.Equal(t, "second", c.Value(keyT{}))
		return hooks.ToolResult{}, nil
	})
	require.NoError(t, err)
	close(release)

	got := <-report
	assert.ErrorIs(t, got.err, context.Canceled, "a kept context reports its call's end")
	assert.Equal(t, "first", got.value, "a kept context answers for its own call, never another's")
	assert.ErrorIs(t, first.Err(), context.Canceled)
}

// A hook that keeps its Context sees its own name and state, not those of
// the hooks that ran after it.
func TestAKeptContextStaysItsHooks(t *testing.T) {
	var kept *hooks.Context
	first := hooks.Funcs{HookName: "first",
		BeforeRun: func(c *hooks.Context, start hooks.RunStart) (*hooks.RunPatch, error) {
			return &hooks.RunPatch{State: "first's"}, nil
		},
		BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			kept = c
			return nil, nil
		}}
	second := hooks.Funcs{HookName: "second",
		BeforeRun: func(c *hooks.Context, start hooks.RunStart) (*hooks.RunPatch, error) {
			return &hooks.RunPatch{State: "second's"}, nil
		},
		BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			return nil, nil
		}}
	chain, err := hooks.NewChain([]hooks.Hook{first, second})
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{})
	require.NoError(t, err)
	_, err = run.CallTool(context.Background(), benchCall, benchTool)
	require.NoError(t, err)
	require.NotNil(t, kept)
	assert.Equal(t, "first", kept.Hook())
	assert.Equal(t, "first's", kept.State())
	assert.ErrorIs(t, kept.Err(), context.Canceled)
	select {
	case <-kept.Done():
	default:
		t.Error("a kept context's Done is closed once its call returned")
	}
	assert.Equal(t, hooks.BeforeToolExecute, kept.Point())
}

// A Context literal without a context.Context works as one (Background).
func TestAContextLiteralIsAContext(t *testing.T) {
	var c hooks.Context
	assert.NoError(t, c.Err())
	assert.Nil(t, c.Done())
	assert.Nil(t, c.Value(keyT{}))
	_, ok := c.Deadline()
	assert.False(t, ok)
}

// Continuations counts the run's streak of model calls sent on by
// Continue, whichever hook continued, and a user's turn resets it.
func TestContinuationsCountTheRunsStreak(t *testing.T) {
	var seen []int
	cont := func(name string, every int) hooks.Funcs {
		n := 0
		return hooks.Funcs{HookName: name, AfterModelResponse: func(c *hooks.Context, r hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
			n++
			if n%every == 0 {
				msg := "go on"
				return &hooks.ModelResponsePatch{Continue: &msg}, nil
			}
			return nil, nil
		}}
	}
	probe := hooks.Funcs{HookName: "probe", BeforeModelRequest: func(c *hooks.Context, r hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
		seen = append(seen, c.Continuations())
		return nil, nil
	}}
	// Two hooks take turns continuing: a every second reply, c every third.
	chain, err := hooks.NewChain([]hooks.Hook{probe, cont("a", 2), cont("c", 3)})
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{})
	require.NoError(t, err)
	for range 6 {
		_, err := run.CallModel(context.Background(), hooks.ModelRequest{}, func(*hooks.Context, hooks.ModelRequest) (hooks.ModelResponse, error) {
			return hooks.ModelResponse{Text: "done"}, nil
		})
		require.NoError(t, err)
	}
	// a continues replies 2, 4, 6; c continues reply 3 and 6: calls 3, 4, 5
	// follow continued replies (2, 3, 4), call 6 does not (reply 5 was
	// final).
	assert.Equal(t, []int{0, 0, 1, 2, 3, 0}, seen)
}

// The streak survives a hop: a bound on how often hooks send a run on
// holds across Snapshot and Rehydrate.
func TestContinuationsSurviveASnapshot(t *testing.T) {
	msg := "go on"
	var seen []int
	h := hooks.Funcs{HookName: "stop",
		BeforeModelRequest: func(c *hooks.Context, r hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
			seen = append(seen, c.Continuations())
			return nil, nil
		},
		AfterModelResponse: func(c *hooks.Context, r hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
			return &hooks.ModelResponsePatch{Continue: &msg}, nil
		}}
	chain, err := hooks.NewChain([]hooks.Hook{h})
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{})
	require.NoError(t, err)
	model := func(*hooks.Context, hooks.ModelRequest) (hooks.ModelResponse, error) {
		return hooks.ModelResponse{Text: "x"}, nil
	}
	for range 3 {
		data, err := run.Snapshot()
		require.NoError(t, err)
		run, err = chain.Rehydrate(hooks.Host{}, data)
		require.NoError(t, err)
		_, err = run.CallModel(context.Background(), hooks.ModelRequest{}, model)
		require.NoError(t, err)
	}
	assert.Equal(t, []int{0, 1, 2}, seen)
}
