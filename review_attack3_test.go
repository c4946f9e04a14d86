package hooks_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Attacks on a person's verdict (time, state, order): each test fails when
// the attack gets a call, or a yes, past the person.

// A host that answers after the call's deadline (it ignored its context)
// has decided nothing the hook may act on: its late yes, or its late
// edit, is a rejection returned with the call's error, as the docs say of
// a cancelled context; never an approval a hook (in any point) acts on.
func TestAttack3AVerdictAfterTheDeadlineIsARejection(t *testing.T) {
	for name, late := range map[string]hooks.Verdict{
		"approval": {Approved: true},
		"edit":     {Approved: true, Arguments: map[string]any{"command": "rm -rf /"}},
		"answer":   {Result: &hooks.ToolResult{Text: "done"}},
	} {
		t.Run(name, func(t *testing.T) {
			var got hooks.Verdict
			var gotErr error
			asker := hooks.Funcs{HookName: "asker",
				BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
					got, gotErr = c.Review(hooks.Review{Prompt: hooks.Prompt{Title: "Run?"}, Call: &call})
					return got.Patch(), nil
				}}
			chain, err := hooks.NewChain([]hooks.Hook{asker})
			require.NoError(t, err)
			ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
			defer cancel()
			run, err := chain.Start(context.Background(), hooks.Host{Review: func(ctx context.Context, _ hooks.Review) (hooks.Verdict, error) {
				<-ctx.Done() // the person answers after the deadline; the host ignores it
				return late, nil
			}}, hooks.RunStart{RunID: "r"})
			require.NoError(t, err)
			ran := false
			_, err = run.CallTool(ctx, hooks.ToolCall{ID: "1", Name: "shell", Arguments: map[string]any{"command": "ls"}},
				func(*hooks.Context, hooks.ToolCall) (hooks.ToolResult, error) {
					ran = true
					return hooks.ToolResult{}, nil
				})
			assert.Error(t, err)
			assert.False(t, ran)
			assert.ErrorIs(t, gotErr, context.DeadlineExceeded, "Review returns the call's error")
			assert.False(t, got.Approved, "a late verdict is no yes")
			assert.Nil(t, got.Arguments)
			assert.Nil(t, got.Result)
		})
	}

	// Outside tool points too: Confirm served by a late Review is a no.
	var yes bool
	asker := hooks.Funcs{HookName: "asker", BeforeModelRequest: func(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
		yes = c.Confirm(hooks.Prompt{Title: "Send?"})
		return nil, nil
	}}
	chain, err := hooks.NewChain([]hooks.Hook{asker})
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), hooks.Host{Review: func(ctx context.Context, _ hooks.Review) (hooks.Verdict, error) {
		<-ctx.Done()
		return hooks.Verdict{Approved: true}, nil
	}}, hooks.RunStart{RunID: "r"})
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	_, _ = run.BeforeModelRequest(ctx, hooks.ModelRequest{})
	assert.False(t, yes, "a late yes through Confirm")
}

// A goroutine a hook leaves behind asks a person after the hook has
// returned: its no comes too late to decide this call, and nothing of it
// is left for another call or run (it is not recorded as the hook's
// review), and the race detector finds no unsynchronised write.
func TestAttack3AReviewAfterTheHookReturnedDecidesNothing(t *testing.T) {
	start, done := make(chan struct{}), make(chan struct{})
	var late hooks.Verdict
	var lateErr error
	leaver := hooks.Funcs{HookName: "leaver",
		BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			go func() {
				defer close(done)
				<-start
				late, lateErr = c.Review(hooks.Review{Prompt: hooks.Prompt{Title: "late"}, Call: &call})
			}()
			return nil, nil
		}}
	waiter := hooks.Funcs{HookName: "waiter",
		BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			close(start) // the leaver has returned; its goroutine asks now
			<-done
			return nil, nil
		}}
	var trace []hooks.TraceEvent
	var mu sync.Mutex
	chain, err := hooks.NewChain([]hooks.Hook{leaver, waiter}, hooks.WithTrace(func(e hooks.TraceEvent) {
		mu.Lock()
		trace = append(trace, e)
		mu.Unlock()
	}))
	require.NoError(t, err)
	asked := 0
	run, err := chain.Start(context.Background(), hooks.Host{Review: func(context.Context, hooks.Review) (hooks.Verdict, error) {
		asked++
		return hooks.Verdict{Message: "no"}, nil
	}}, hooks.RunStart{RunID: "r"})
	require.NoError(t, err)
	step, err := run.BeforeToolExecute(context.Background(), hooks.ToolCall{ID: "1", Name: "x"})
	require.NoError(t, err)
	assert.False(t, step.Refused, "a no after the hook returned does not decide the call")
	assert.Equal(t, 0, asked, "nobody is asked for a hook that has returned")
	assert.Error(t, lateErr)
	assert.False(t, late.Approved)
	for _, e := range trace {
		assert.Empty(t, e.Review, "a late review is nobody's verdict")
	}
}

// Parallel calls of one run, each reviewed, each told something else:
// each call gets its own person's verdict (a no stands for its call only,
// an edit runs only in its call), under the race detector.
func TestAttack3ParallelReviewsKeepTheirOwnVerdicts(t *testing.T) {
	guard := hooks.Funcs{HookName: "guard",
		BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			if cmd, _ := call.Arguments["command"].(string); strings.Contains(cmd, "rm") {
				return hooks.Refuse("no rm"), nil
			}
			return nil, nil
		}}
	careless := hooks.Funcs{HookName: "careless", // ignores a no: it must stand
		BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			v, _ := c.Review(hooks.Review{Prompt: hooks.Prompt{Title: "Run?"}, Call: &call})
			if v.Arguments != nil {
				return v.Patch(), nil
			}
			return nil, nil
		}}
	chain, err := hooks.NewChain([]hooks.Hook{guard, careless})
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), hooks.Host{Review: func(_ context.Context, r hooks.Review) (hooks.Verdict, error) {
		switch r.Call.ID[0] {
		case 'n':
			return hooks.Verdict{Message: "no " + r.Call.ID}, nil
		case 'e':
			return hooks.Verdict{Approved: true, Arguments: map[string]any{"command": "rm " + r.Call.ID}}, nil
		case 'f':
			return hooks.Verdict{Approved: true, Arguments: map[string]any{"command": "echo " + r.Call.ID}}, nil
		}
		return hooks.Verdict{Approved: true}, nil
	}}, hooks.RunStart{RunID: "r"})
	require.NoError(t, err)
	var wg sync.WaitGroup
	const n = 40
	steps := make([]hooks.ToolStep, n)
	ids := make([]string, n)
	for i := range n {
		ids[i] = string("nefa"[i%4]) + strings.Repeat("x", i)
		wg.Go(func() {
			s, err := run.BeforeToolExecute(context.Background(), hooks.ToolCall{ID: ids[i], Name: "shell", Arguments: map[string]any{"command": "ls"}})
			assert.NoError(t, err)
			steps[i] = s
		})
	}
	wg.Wait()
	for i, s := range steps {
		switch ids[i][0] {
		case 'n':
			assert.True(t, s.Refused, ids[i])
			assert.Equal(t, "no "+ids[i], s.Reason)
		case 'e':
			assert.True(t, s.Refused, ids[i])
			assert.Equal(t, "no rm", s.Reason)
		case 'f':
			assert.False(t, s.Refused, ids[i])
			assert.Equal(t, "echo "+ids[i], s.Call.Arguments["command"])
		default:
			assert.False(t, s.Refused, ids[i])
			assert.Equal(t, "ls", s.Call.Arguments["command"])
		}
	}
}

// A verdict in Go's own types is read in its JSON form, sharing nothing
// with the host's values; what has no JSON form is a rejection, never
// arguments a guard cannot read.
func TestAttack3AVerdictInGoTypesIsCopiedInItsJSONForm(t *testing.T) {
	argv := []string{"ls", "-l"}
	opts := map[string]string{"path": "a"}
	type flags struct{ Force bool }
	p := hooks.Verdict{Approved: true, Arguments: map[string]any{"argv": argv, "opts": opts, "flags": &flags{true}, "n": 3}}.Patch()
	require.NotNil(t, p)
	require.NotNil(t, p.Arguments)
	argv[0], opts["path"] = "rm", "/etc"
	assert.Equal(t, map[string]any{"argv": []any{"ls", "-l"}, "opts": map[string]any{"path": "a"},
		"flags": map[string]any{"Force": true}, "n": 3}, p.Arguments)

	for name, bad := range map[string]any{"func": func() {}, "chan": make(chan int), "nested func": []func(){func() {}}} {
		v := hooks.Verdict{Approved: true, Arguments: map[string]any{"x": bad}}
		assert.Error(t, v.Check(), name)
		assert.Equal(t, hooks.ReviewRejected, v.Kind(), name)
		p := v.Patch()
		require.NotNil(t, p, name)
		require.NotNil(t, p.Allow, name)
		assert.False(t, *p.Allow, name)
	}
}

// panicky is a value of the host's whose JSON form panics.
type panicky struct{}

func (panicky) MarshalJSON() ([]byte, error) { panic("boom") }

// A host's verdict whose values panic when read is a rejection, not a
// panic of the hook that asked (which its policy might let pass).
func TestAttack3AVerdictWhoseValuesPanicIsARejection(t *testing.T) {
	for name, v := range map[string]hooks.Verdict{
		"arguments": {Approved: true, Arguments: map[string]any{"x": panicky{}}},
		"result":    {Result: &hooks.ToolResult{Value: panicky{}}},
	} {
		t.Run(name, func(t *testing.T) {
			chain, err := hooks.NewChain([]hooks.Hook{reviewer("approval")})
			require.NoError(t, err)
			run, err := chain.Start(context.Background(), hooks.Host{Review: answer(v)}, hooks.RunStart{RunID: "r"})
			require.NoError(t, err)
			step, err := run.BeforeToolExecute(context.Background(), hooks.ToolCall{ID: "1", Name: "x"})
			require.NoError(t, err)
			assert.True(t, step.Refused)
			assert.Equal(t, hooks.ReviewRejected, v.Kind())
		})
	}
}
