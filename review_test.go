package hooks_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestVerdictPatchIsTheOneReadingOfAVerdict(t *testing.T) {
	res := &hooks.ToolResult{Text: "42", IsError: true, Value: map[string]any{"n": []any{1.0}}}
	cyclic := map[string]any{}
	cyclic["self"] = cyclic
	var deep any = "x"
	for range 20_000 {
		deep = map[string]any{"d": deep}
	}
	cases := []struct {
		name string
		v    hooks.Verdict
		want *hooks.ToolCallPatch
		kind string
	}{
		{"approved", hooks.Verdict{Approved: true}, nil, hooks.ReviewApproved},
		{"approved with a note", hooks.Verdict{Approved: true, Message: "fine"}, nil, hooks.ReviewApproved},
		{"edited", hooks.Verdict{Approved: true, Arguments: map[string]any{"command": "ls"}},
			&hooks.ToolCallPatch{Arguments: map[string]any{"command": "ls"}}, hooks.ReviewEdited},
		{"edited to no arguments", hooks.Verdict{Approved: true, Arguments: map[string]any{}},
			&hooks.ToolCallPatch{Arguments: map[string]any{}}, hooks.ReviewEdited},
		{"rejected with words", hooks.Verdict{Message: "not on main"}, hooks.Refuse("not on main"), hooks.ReviewRejected},
		{"rejected", hooks.Verdict{}, hooks.Refuse(hooks.DefaultRejection), hooks.ReviewRejected},
		{"answered", hooks.Verdict{Approved: true, Result: res}, &hooks.ToolCallPatch{Result: res}, hooks.ReviewAnswered},
		{"answered without approving", hooks.Verdict{Result: res}, &hooks.ToolCallPatch{Result: res}, hooks.ReviewAnswered},
		{"answered and edited", hooks.Verdict{Approved: true, Result: res, Arguments: map[string]any{}, Message: "huh"},
			hooks.Refuse("huh"), hooks.ReviewRejected},
		{"rejected and edited", hooks.Verdict{Arguments: map[string]any{"command": "rm -rf /"}},
			hooks.Refuse(hooks.DefaultRejection), hooks.ReviewRejected},
		{"edited into a cycle", hooks.Verdict{Approved: true, Arguments: cyclic}, hooks.Refuse(hooks.DefaultRejection), hooks.ReviewRejected},
		{"edited too deep", hooks.Verdict{Approved: true, Arguments: map[string]any{"a": deep}}, hooks.Refuse(hooks.DefaultRejection), hooks.ReviewRejected},
		{"answered with a cycle", hooks.Verdict{Result: &hooks.ToolResult{Value: cyclic}}, hooks.Refuse(hooks.DefaultRejection), hooks.ReviewRejected},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.v.Patch())
			assert.Equal(t, tc.kind, tc.v.Kind())
			if tc.want != nil && tc.want.Allow != nil {
				assert.False(t, *tc.want.Allow)
			}
		})
	}

	// The patch is the caller's own: the verdict's maps may be reused.
	args := map[string]any{"paths": []any{"a"}}
	p := hooks.Verdict{Approved: true, Arguments: args}.Patch()
	args["paths"].([]any)[0] = "/etc/passwd"
	args["more"] = 1
	assert.Equal(t, map[string]any{"paths": []any{"a"}}, p.Arguments)
	rp := hooks.Verdict{Result: res}.Patch()
	res.Value.(map[string]any)["n"].([]any)[0] = 2.0
	assert.Equal(t, map[string]any{"n": []any{1.0}}, rp.Result.Value)
	res.Value.(map[string]any)["n"].([]any)[0] = 1.0
}

// reviewer is a BeforeToolExecute hook that asks a person about each call
// and does what they decide.
func reviewer(name string) hooks.Hook {
	return hooks.Funcs{HookName: name,
		BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			v, _ := c.Review(hooks.Review{Prompt: hooks.Prompt{Title: "Run " + call.Name + "?"}, Call: &call})
			return v.Patch(), nil
		}}
}

// noRootRemoval is a guard that refuses a command removing /, and counts
// the calls it sees.
func noRootRemoval(seen *[]string, mu *sync.Mutex) hooks.Hook {
	return hooks.Funcs{HookName: "guard",
		BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			cmd, _ := call.Arguments["command"].(string)
			mu.Lock()
			*seen = append(*seen, cmd)
			mu.Unlock()
			if strings.Contains(cmd, "rm -rf /") {
				return hooks.Refuse("no removing /"), nil
			}
			return nil, nil
		}}
}

func editTo(args map[string]any) func(context.Context, hooks.Review) (hooks.Verdict, error) {
	return func(context.Context, hooks.Review) (hooks.Verdict, error) {
		return hooks.Verdict{Approved: true, Arguments: args}, nil
	}
}

// A person's edit is a new call: the guard listed before the hook that
// asked passed on the model's arguments, and checks the person's again.
func TestAPersonsEditPassesTheGuardsListedBefore(t *testing.T) {
	var mu sync.Mutex
	var seen, after []string
	later := hooks.Funcs{HookName: "later",
		BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			after = append(after, call.Arguments["command"].(string))
			assert.True(t, c.Rewritten())
			orig, _ := c.OriginalCall()
			assert.Equal(t, "ls", orig.Arguments["command"], "the model's call stays the original")
			return nil, nil
		}}
	var trace []hooks.TraceEvent
	chain, err := hooks.NewChain([]hooks.Hook{noRootRemoval(&seen, &mu), reviewer("approval"), later},
		hooks.WithTrace(func(e hooks.TraceEvent) { trace = append(trace, e) }))
	require.NoError(t, err)

	run, err := chain.Start(context.Background(), hooks.Host{Review: editTo(map[string]any{"command": "rm -rf /"})}, hooks.RunStart{RunID: "r"})
	require.NoError(t, err)
	ran := false
	res, err := run.CallTool(context.Background(), hooks.ToolCall{ID: "1", Name: "shell", Arguments: map[string]any{"command": "ls"}},
		func(*hooks.Context, hooks.ToolCall) (hooks.ToolResult, error) {
			ran = true
			return hooks.ToolResult{}, nil
		})
	require.NoError(t, err)
	assert.False(t, ran, "the edited call is refused by the guard listed before")
	assert.Equal(t, hooks.ToolResult{Text: "no removing /", IsError: true}, res)
	assert.Equal(t, []string{"ls", "rm -rf /"}, seen)
	assert.Empty(t, after, "no hook after a refusal")
	require.Len(t, trace, 3)
	assert.Equal(t, []string{"guard", "approval", "guard"}, []string{trace[0].Hook, trace[1].Hook, trace[2].Hook})
	assert.Equal(t, hooks.ReviewEdited, trace[1].Review)
	assert.Equal(t, hooks.DecisionChanged, trace[1].Decision)
	assert.Equal(t, hooks.DecisionRefused, trace[2].Decision)
	assert.Empty(t, trace[0].Review+trace[2].Review, "only the hook that asked records the verdict")

	// An edit the guard accepts runs, with the person's arguments, and the
	// hooks after see it once.
	seen = nil
	run, err = chain.Start(context.Background(), hooks.Host{Review: editTo(map[string]any{"command": "ls -la"})}, hooks.RunStart{RunID: "r2"})
	require.NoError(t, err)
	var got hooks.ToolCall
	_, err = run.CallTool(context.Background(), hooks.ToolCall{ID: "1", Name: "shell", Arguments: map[string]any{"command": "ls"}},
		func(_ *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
			got = call
			return hooks.ToolResult{}, nil
		})
	require.NoError(t, err)
	assert.Equal(t, hooks.ToolCall{ID: "1", Name: "shell", Arguments: map[string]any{"command": "ls -la"}}, got)
	assert.Equal(t, []string{"ls", "ls -la"}, seen)
	assert.Equal(t, []string{"ls -la"}, after)
}

// A hook listed before that answers the edited call answers it; the
// hooks entered unwind on that answer.
func TestAnEditAnsweredOnTheSecondLookUnwindsEveryEnteredHook(t *testing.T) {
	var unwound []string
	cache := hooks.Funcs{HookName: "cache",
		BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			if call.Arguments["q"] == "cached" {
				return &hooks.ToolCallPatch{Result: &hooks.ToolResult{Text: "from cache"}}, nil
			}
			return nil, nil
		},
		AfterToolExecute: func(*hooks.Context, hooks.ToolCall, hooks.ToolResult) (*hooks.ToolResultPatch, error) {
			unwound = append(unwound, "cache")
			return nil, nil
		}}
	asker := reviewer("approval").(hooks.Funcs)
	asker.AfterToolExecute = func(*hooks.Context, hooks.ToolCall, hooks.ToolResult) (*hooks.ToolResultPatch, error) {
		unwound = append(unwound, "approval")
		return nil, nil
	}
	last := hooks.Funcs{HookName: "last", AfterToolExecute: func(*hooks.Context, hooks.ToolCall, hooks.ToolResult) (*hooks.ToolResultPatch, error) {
		unwound = append(unwound, "last")
		return nil, nil
	}}
	chain, err := hooks.NewChain([]hooks.Hook{cache, asker, last})
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), hooks.Host{Review: editTo(map[string]any{"q": "cached"})}, hooks.RunStart{})
	require.NoError(t, err)
	res, err := run.CallTool(context.Background(), hooks.ToolCall{ID: "1", Name: "search", Arguments: map[string]any{"q": "new"}},
		func(*hooks.Context, hooks.ToolCall) (hooks.ToolResult, error) {
			t.Error("the tool ran")
			return hooks.ToolResult{}, nil
		})
	require.NoError(t, err)
	assert.Equal(t, "from cache", res.Text)
	assert.Equal(t, []string{"approval", "cache"}, unwound)
}

// People who edit every time they are asked cannot keep a call going
// forever: the second looks are bounded, and the call ends refused or run,
// never hung.
func TestEditsOfEditsAreBounded(t *testing.T) {
	var asks atomic.Int64
	host := hooks.Host{Review: func(context.Context, hooks.Review) (hooks.Verdict, error) {
		n := asks.Add(1)
		return hooks.Verdict{Approved: true, Arguments: map[string]any{"n": float64(n)}}, nil
	}}
	var hs []hooks.Hook
	for i := range 8 {
		hs = append(hs, reviewer(fmt.Sprint("approval", i)))
	}
	chain, err := hooks.NewChain(hs)
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), host, hooks.RunStart{})
	require.NoError(t, err)
	step, err := run.BeforeToolExecute(context.Background(), hooks.ToolCall{ID: "1", Name: "x", Arguments: map[string]any{}})
	require.NoError(t, err)
	assert.True(t, step.Refused, "edits past the bound are refused")
	assert.Contains(t, step.Reason, "edited again")
	assert.Less(t, asks.Load(), int64(200))
}

// A host whose Review panics, fails or contradicts itself gives a
// rejection and a diagnostic naming the hook that asked; never a crash,
// never an allow.
func TestAReviewThatCannotBeReadIsARejection(t *testing.T) {
	cases := map[string]func(context.Context, hooks.Review) (hooks.Verdict, error){
		"panics": func(context.Context, hooks.Review) (hooks.Verdict, error) { panic("terminal gone") },
		"fails": func(context.Context, hooks.Review) (hooks.Verdict, error) {
			return hooks.Verdict{Approved: true}, errors.New("terminal gone")
		},
		"contradicts itself": func(context.Context, hooks.Review) (hooks.Verdict, error) {
			return hooks.Verdict{Approved: true, Arguments: map[string]any{}, Result: &hooks.ToolResult{}}, nil
		},
	}
	for name, review := range cases {
		t.Run(name, func(t *testing.T) {
			var diags []hooks.Diagnostic
			var trace []hooks.TraceEvent
			chain, err := hooks.NewChain([]hooks.Hook{reviewer("approval")},
				hooks.WithDiagnostics(func(d hooks.Diagnostic) { diags = append(diags, d) }),
				hooks.WithTrace(func(e hooks.TraceEvent) { trace = append(trace, e) }))
			require.NoError(t, err)
			run, err := chain.Start(context.Background(), hooks.Host{Review: review}, hooks.RunStart{})
			require.NoError(t, err)
			step, err := run.BeforeToolExecute(context.Background(), hooks.ToolCall{ID: "1", Name: "x"})
			require.NoError(t, err)
			assert.True(t, step.Refused)
			require.Len(t, diags, 1)
			assert.Equal(t, "approval", diags[0].Hook)
			require.Len(t, trace, 1)
			assert.Equal(t, hooks.ReviewRejected, trace[0].Review)
		})
	}
}

// A host that suspends the call from its Review (a durable engine) pauses
// it: nothing applied, nothing reported, nothing traced as the person's.
func TestAPauseFromReviewIsNeitherAWarningNorAVerdict(t *testing.T) {
	var diags []hooks.Diagnostic
	var trace []hooks.TraceEvent
	chain, err := hooks.NewChain([]hooks.Hook{reviewer("approval")},
		hooks.WithDiagnostics(func(d hooks.Diagnostic) { diags = append(diags, d) }),
		hooks.WithTrace(func(e hooks.TraceEvent) { trace = append(trace, e) }))
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	run, err := chain.Start(context.Background(), hooks.Host{Review: func(context.Context, hooks.Review) (hooks.Verdict, error) {
		cancel()
		return hooks.Verdict{Approved: true, Arguments: map[string]any{"late": true}}, errors.New("suspended")
	}}, hooks.RunStart{})
	require.NoError(t, err)
	_, err = run.BeforeToolExecute(ctx, hooks.ToolCall{ID: "1", Name: "x"})
	assert.ErrorIs(t, err, context.Canceled)
	assert.Empty(t, diags)
	for _, e := range trace {
		assert.Empty(t, e.Review)
		assert.NotEqual(t, hooks.DecisionRefused, e.Decision)
	}
}

// The host sees its own copy of the call, and what it does to its maps
// after answering changes nothing that runs.
func TestAReviewSharesNoMapWithTheHost(t *testing.T) {
	var kept map[string]any
	host := hooks.Host{Review: func(_ context.Context, r hooks.Review) (hooks.Verdict, error) {
		r.Call.Arguments["path"] = "/etc/shadow" // the host's copy
		kept = map[string]any{"path": "notes.txt", "opts": map[string]any{"n": 1.0}}
		return hooks.Verdict{Approved: true, Arguments: kept}, nil
	}}
	var seenByHook map[string]any
	asker := hooks.Funcs{HookName: "approval",
		BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			v, err := c.Review(hooks.Review{Prompt: hooks.Prompt{Title: "?"}, Call: &call})
			require.NoError(t, err)
			seenByHook = call.Arguments
			return v.Patch(), nil
		}}
	chain, err := hooks.NewChain([]hooks.Hook{asker})
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), host, hooks.RunStart{})
	require.NoError(t, err)
	step, err := run.BeforeToolExecute(context.Background(), hooks.ToolCall{ID: "1", Name: "read", Arguments: map[string]any{"path": "a.txt"}})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"path": "a.txt"}, seenByHook)
	kept["path"] = "/etc/shadow"
	kept["opts"].(map[string]any)["n"] = 2.0
	assert.Equal(t, map[string]any{"path": "notes.txt", "opts": map[string]any{"n": 1.0}}, step.Call.Arguments)
}

// Parallel tool calls ask at once; each gets its own verdict.
func TestConcurrentReviewsEachGetTheirOwnVerdict(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	chain, err := hooks.NewChain([]hooks.Hook{noRootRemoval(&seen, &mu), reviewer("approval")})
	require.NoError(t, err)
	host := hooks.Host{Review: func(_ context.Context, r hooks.Review) (hooks.Verdict, error) {
		if r.Call.ID == "3" {
			return hooks.Verdict{Message: "not that one"}, nil
		}
		return hooks.Verdict{Approved: true, Arguments: map[string]any{"command": "echo " + r.Call.ID}}, nil
	}}
	run, err := chain.Start(context.Background(), host, hooks.RunStart{})
	require.NoError(t, err)
	var wg sync.WaitGroup
	results := make([]hooks.ToolResult, 8)
	for i := range results {
		wg.Go(func() {
			call := hooks.ToolCall{ID: fmt.Sprint(i), Name: "shell", Arguments: map[string]any{"command": "ls"}}
			res, err := run.CallTool(context.Background(), call, func(_ *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
				return hooks.ToolResult{Text: call.Arguments["command"].(string)}, nil
			})
			assert.NoError(t, err)
			results[i] = res
		})
	}
	wg.Wait()
	for i, res := range results {
		if i == 3 {
			assert.Equal(t, hooks.ToolResult{Text: "not that one", IsError: true}, res)
			continue
		}
		assert.Equal(t, fmt.Sprint("echo ", i), res.Text)
	}
	assert.Len(t, seen, 15, "each edited call is seen twice by the guard, the rejected one once")
}

// Confirm served by a host with only a Review is a yes only for a plain
// approval: an edit or an answer cannot travel in a yes.
func TestConfirmThroughReviewIsAYesOnlyForAPlainApproval(t *testing.T) {
	for _, tc := range []struct {
		v    hooks.Verdict
		want bool
	}{
		{hooks.Verdict{Approved: true}, true},
		{hooks.Verdict{Approved: true, Message: "ok"}, true},
		{hooks.Verdict{Approved: true, Arguments: map[string]any{}}, false},
		{hooks.Verdict{Approved: true, Result: &hooks.ToolResult{}}, false},
		{hooks.Verdict{}, false},
	} {
		var got bool
		asker := hooks.Funcs{HookName: "asker", BeforeToolExecute: func(c *hooks.Context, _ hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			got = c.Confirm(hooks.Prompt{Title: "?"})
			return nil, nil
		}}
		chain, err := hooks.NewChain([]hooks.Hook{asker})
		require.NoError(t, err)
		run, err := chain.Start(context.Background(), hooks.Host{Review: func(context.Context, hooks.Review) (hooks.Verdict, error) { return tc.v, nil }}, hooks.RunStart{})
		require.NoError(t, err)
		_, err = run.BeforeToolExecute(context.Background(), hooks.ToolCall{ID: "1", Name: "x"})
		require.NoError(t, err)
		assert.Equal(t, tc.want, got, "%+v", tc.v)
	}
}

// A Go hook that asked about the call and was told no cannot let it
// through either: the person's no stands, loudly.
func TestAPersonsNoStandsWhateverTheHookReturns(t *testing.T) {
	for name, ret := range map[string]func(hooks.Verdict) (*hooks.ToolCallPatch, error){
		"nothing": func(hooks.Verdict) (*hooks.ToolCallPatch, error) { return nil, nil },
		"an edit": func(hooks.Verdict) (*hooks.ToolCallPatch, error) {
			return &hooks.ToolCallPatch{Arguments: map[string]any{}}, nil
		},
		"an error":  func(hooks.Verdict) (*hooks.ToolCallPatch, error) { return nil, errors.New("boom") },
		"a panic":   func(hooks.Verdict) (*hooks.ToolCallPatch, error) { panic("boom") },
		"its patch": func(v hooks.Verdict) (*hooks.ToolCallPatch, error) { return v.Patch(), nil },
	} {
		t.Run(name, func(t *testing.T) {
			var diags []hooks.Diagnostic
			h := hooks.WithPolicy(hooks.Funcs{HookName: "asker",
				BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
					v, _ := c.Review(hooks.Review{Prompt: hooks.Prompt{Title: "?"}, Call: &call})
					return ret(v)
				}}, hooks.Report)
			chain, err := hooks.NewChain([]hooks.Hook{h}, hooks.WithDiagnostics(func(d hooks.Diagnostic) { diags = append(diags, d) }))
			require.NoError(t, err)
			run, err := chain.Start(context.Background(), hooks.Host{Review: func(context.Context, hooks.Review) (hooks.Verdict, error) {
				return hooks.Verdict{Message: "no"}, nil
			}}, hooks.RunStart{})
			require.NoError(t, err)
			step, err := run.BeforeToolExecute(context.Background(), hooks.ToolCall{ID: "1", Name: "x"})
			require.NoError(t, err)
			assert.True(t, step.Refused)
			assert.Equal(t, "no", step.Reason)
			if name == "its patch" {
				assert.Empty(t, diags)
			} else {
				require.Len(t, diags, 1)
				assert.Equal(t, "asker", diags[0].Hook)
			}
		})
	}
}
