package hooks_test

import (
	"context"
	"fmt"
	"sync"
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

// A hook that hands its Context to a goroutine which asks for Done for
// the first time just as the call returns: whichever comes first, Done
// closes (the goroutine would hang otherwise), at every point and for
// every hook of the point.
func TestAKeptContextsFirstDoneRacingTheCallsEndCloses(t *testing.T) {
	var wg sync.WaitGroup
	keep := func(c *hooks.Context) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-c.Done()
		}()
	}
	list := make([]hooks.Hook, 3)
	for i := range list {
		list[i] = hooks.Funcs{HookName: fmt.Sprint("keeper", i),
			BeforeToolExecute: func(c *hooks.Context, _ hooks.ToolCall) (*hooks.ToolCallPatch, error) {
				keep(c)
				return nil, nil
			},
			AfterToolExecute: func(c *hooks.Context, _ hooks.ToolCall, _ hooks.ToolResult) (*hooks.ToolResultPatch, error) {
				keep(c)
				return nil, nil
			},
			BeforeModelRequest: func(c *hooks.Context, _ hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
				keep(c)
				return nil, nil
			},
			AfterModelResponse: func(c *hooks.Context, _ hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
				keep(c)
				return nil, nil
			}}
	}
	chain, err := hooks.NewChain(list)
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{})
	require.NoError(t, err)
	for range 200 {
		_, err := run.CallTool(context.Background(), benchCall, func(c *hooks.Context, _ hooks.ToolCall) (hooks.ToolResult, error) {
			keep(c)
			return hooks.ToolResult{}, nil
		})
		require.NoError(t, err)
		_, err = run.CallModel(context.Background(), hooks.ModelRequest{}, func(c *hooks.Context, _ hooks.ModelRequest) (hooks.ModelResponse, error) {
			keep(c)
			return hooks.ModelResponse{}, nil
		})
		require.NoError(t, err)
	}
	wg.Wait() // every kept Context's Done closed
}

// Each of ten hooks that keep their Contexts finds, after later calls,
// its own name, state and point, the call's end, and the host's fields as
// the run has them: one allocation for the ten does not make them share
// anything a hook can see.
func TestTenKeptContextsStayTheirHooks(t *testing.T) {
	const n = 10
	kept := make([][]*hooks.Context, 0, 3)
	var calls int
	list := make([]hooks.Hook, n)
	for i := range list {
		list[i] = hooks.Funcs{HookName: fmt.Sprint("h", i),
			BeforeRun: func(c *hooks.Context, _ hooks.RunStart) (*hooks.RunPatch, error) {
				return &hooks.RunPatch{State: i}, nil
			},
			AfterModelResponse: func(c *hooks.Context, _ hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
				if i == n-1 { // the first to run: after-hooks unwind in reverse
					kept = append(kept, make([]*hooks.Context, n))
					calls++
				}
				kept[calls-1][i] = c
				c.Workdir = "changed by a hook" // its own Context: no other hook sees it
				return nil, nil
			}}
	}
	chain, err := hooks.NewChain(list)
	require.NoError(t, err)
	host := hooks.Host{Workdir: t.TempDir(), Session: hooks.Session{ID: "s"}, Config: map[string]any{"k": "v"}, Env: map[string]string{"E": "1"}}
	run, err := chain.Start(context.Background(), host, hooks.RunStart{})
	require.NoError(t, err)
	for range 3 {
		_, err := run.AfterModelResponse(context.Background(), hooks.ModelStep{}, hooks.ModelResponse{})
		require.NoError(t, err)
	}
	require.Len(t, kept, 3)
	for call, cs := range kept {
		for i, c := range cs {
			require.NotNil(t, c)
			assert.Equal(t, fmt.Sprint("h", i), c.Hook(), "call %d", call)
			assert.Equal(t, i, c.State())
			assert.Equal(t, hooks.AfterModelResponse, c.Point())
			assert.ErrorIs(t, c.Err(), context.Canceled)
			assert.Equal(t, "changed by a hook", c.Workdir)
			assert.Equal(t, "s", c.Session.ID)
			assert.Equal(t, "v", c.Config["k"])
			assert.Equal(t, "1", c.Env["E"])
			for j, other := range cs {
				if j != i {
					assert.NotSame(t, c, other)
				}
			}
		}
	}
	// A hook's write to its own Context reaches no later hook nor call.
	probe := hooks.Funcs{HookName: "probe", AfterModelResponse: func(c *hooks.Context, _ hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
		assert.Equal(t, host.Workdir, c.Workdir)
		return nil, nil
	}}
	chain, err = hooks.NewChain(append([]hooks.Hook{probe}, list...)) // probe runs last: after-hooks unwind
	require.NoError(t, err)
	run, err = chain.Start(context.Background(), host, hooks.RunStart{})
	require.NoError(t, err)
	kept = kept[:0]
	calls = 0
	_, err = run.AfterModelResponse(context.Background(), hooks.ModelStep{}, hooks.ModelResponse{})
	require.NoError(t, err)
}
