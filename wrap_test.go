package hooks_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// toolLayer is a hook with a guard, a wrap and an after-hook on tool calls,
// recording "name:before", "name:wrap>", "name:wrap<" and "name:after".
func toolLayer(rec *recorder, name string) hooks.Funcs {
	return hooks.Funcs{
		HookName: name,
		BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			rec.add(name + ":before")
			return nil, nil
		},
		WrapTool: func(c *hooks.Context, call hooks.ToolCall, next hooks.ToolFunc) (hooks.ToolResult, error) {
			rec.add(name + ":wrap>")
			res, err := next(c, call)
			rec.add(name + ":wrap<")
			return res, err
		},
		AfterToolExecute: func(c *hooks.Context, call hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
			rec.add(name + ":after:" + res.Text)
			return nil, nil
		},
	}
}

// toolWrap is a hook with only a wrap on tool calls.
func toolWrap(name string, wrap func(c *hooks.Context, call hooks.ToolCall, next hooks.ToolFunc) (hooks.ToolResult, error)) hooks.Funcs {
	return hooks.Funcs{HookName: name, WrapTool: wrap}
}

// startChain builds a chain of hs with opts, reporting to rec, and starts a run.
func startChain(t *testing.T, rec *recorder, host hooks.Host, opts []hooks.Option, hs ...hooks.Hook) *hooks.Run {
	t.Helper()
	chain, err := hooks.NewChain(hs, append(opts, hooks.WithDiagnostics(rec.diagnose))...)
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), host, hooks.RunStart{RunID: "r1"})
	require.NoError(t, err)
	return run
}

var wrapCall = hooks.ToolCall{ID: "c1", Name: "echo", Arguments: map[string]any{"text": "hi"}}

func TestWrapToolSitsInnermostInListOrder(t *testing.T) {
	before := []string{"a:before", "b:before", "c:before", "a:wrap>", "b:wrap>", "tool:echo", "b:wrap<", "a:wrap<"}
	for name, tc := range map[string]struct {
		opts  []hooks.Option
		after []string
	}{
		"reverse after-hooks":                      {nil, []string{"c:after:hi", "b:after:hi", "a:after:hi"}},
		"InListOrder changes only the after-hooks": {[]hooks.Option{hooks.InListOrder()}, []string{"a:after:hi", "b:after:hi", "c:after:hi"}},
	} {
		t.Run(name, func(t *testing.T) {
			rec := &recorder{}
			c := toolLayer(rec, "c")
			c.WrapTool = nil
			run := startChain(t, rec, hooks.Host{}, tc.opts, toolLayer(rec, "a"), toolLayer(rec, "b"), c)
			res, err := run.CallTool(context.Background(), wrapCall, echoTool(rec))
			require.NoError(t, err)
			assert.Equal(t, "hi", res.Text)
			assert.Equal(t, append(slices.Clone(before), tc.after...), rec.got())
			assert.Empty(t, rec.diagnostics())
		})
	}
}

func TestWrapToolSeesTheRewrittenCallAndOriginalCall(t *testing.T) {
	rec := &recorder{}
	rewrite := hooks.Funcs{HookName: "rewrite", BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		return &hooks.ToolCallPatch{Arguments: map[string]any{"text": "safe"}}, nil
	}}
	var seen, original []string
	wrap := toolWrap("w", func(c *hooks.Context, call hooks.ToolCall, next hooks.ToolFunc) (hooks.ToolResult, error) {
		orig, ok := c.OriginalCall()
		require.True(t, ok)
		seen, original = append(seen, call.Arguments["text"].(string)), append(original, orig.Arguments["text"].(string))
		assert.True(t, c.Rewritten())
		assert.Equal(t, "w", c.Hook())
		call.Arguments = map[string]any{"text": "safer"} // a wrap may change the call it passes on
		return next(c, call)
	})
	tool := func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		orig, _ := c.OriginalCall()
		original = append(original, orig.Arguments["text"].(string))
		assert.Equal(t, "", c.Hook(), "the tool runs as no hook")
		return echoTool(rec)(c, call)
	}
	run := startChain(t, rec, hooks.Host{}, nil, rewrite, wrap)
	res, err := run.CallTool(context.Background(), wrapCall, tool)
	require.NoError(t, err)
	assert.Equal(t, "safer", res.Text)
	assert.Equal(t, []string{"safe"}, seen, "the wrap sees the call as the guards left it")
	assert.Equal(t, []string{"hi", "hi"}, original, "OriginalCall is the model's, in the wrap and in the tool")
}

// A wrap may change the call it passes to next: the tool's
// Context.Rewritten says so, or a host that sends the model's raw JSON
// unless Rewritten (the eino, MCP, OpenAI and Anthropic adapters) would
// drop the wrap's change.
func TestWrapToolChangedCallIsRewrittenForTheTool(t *testing.T) {
	rec := &recorder{}
	sanitize := toolWrap("sanitize", func(c *hooks.Context, call hooks.ToolCall, next hooks.ToolFunc) (hooks.ToolResult, error) {
		call.Arguments = map[string]any{"text": "sanitized"}
		return next(c, call)
	})
	var rewritten bool
	tool := func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		rewritten = c.Rewritten()
		return echoTool(rec)(c, call)
	}
	run := startChain(t, rec, hooks.Host{}, nil, sanitize)
	res, err := run.CallTool(context.Background(), wrapCall, tool)
	require.NoError(t, err)
	require.Equal(t, "sanitized", res.Text)
	assert.True(t, rewritten, "the tool got other arguments than the model's, so c.Rewritten() must say so")
}

// retry is a wrap that calls next until it gives no error, at most n times.
func retry(name string, n int) hooks.Funcs {
	return toolWrap(name, func(c *hooks.Context, call hooks.ToolCall, next hooks.ToolFunc) (res hooks.ToolResult, err error) {
		for range n {
			if res, err = next(c, call); err == nil {
				return res, nil
			}
		}
		return res, err
	})
}

// flaky is a tool that fails its first n calls, then echoes; calls counts them.
func flaky(n int32, calls *atomic.Int32) hooks.ToolFunc {
	return func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		if calls.Add(1) <= n {
			return hooks.ToolResult{}, errors.New("transient")
		}
		return hooks.ToolResult{Text: fmt.Sprint("attempt ", calls.Load())}, nil
	}
}

func TestWrapToolRetryRunsTheToolAgainNotTheHooks(t *testing.T) {
	rec := &recorder{}
	var asked atomic.Int32
	host := hooks.Host{Confirm: func(ctx context.Context, p hooks.Prompt) (bool, error) {
		asked.Add(1)
		return true, nil
	}}
	guard := toolLayer(rec, "guard")
	guard.WrapTool = nil
	guard.BeforeToolExecute = func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		rec.add("guard:before")
		if !c.Confirm(hooks.Prompt{Title: "run " + call.Name + "?"}) {
			return hooks.Refuse("no"), nil
		}
		return nil, nil
	}
	var calls atomic.Int32
	run := startChain(t, rec, host, nil, guard, toolLayer(rec, "outer"), retry("retry", 3))
	res, err := run.CallTool(context.Background(), wrapCall, flaky(1, &calls))
	require.NoError(t, err)
	assert.Equal(t, "attempt 2", res.Text)
	assert.Equal(t, int32(2), calls.Load(), "next twice runs the tool twice")
	assert.Equal(t, int32(1), asked.Load(), "the person is asked once")
	assert.Equal(t, []string{"guard:before", "outer:before", "outer:wrap>", "outer:wrap<", "outer:after:attempt 2", "guard:after:attempt 2"}, rec.got(),
		"guards and after-hooks run once, the after-hooks on the final result")
}

func TestWrapToolAnswersWithoutNext(t *testing.T) {
	rec := &recorder{}
	cache := toolWrap("cache", func(c *hooks.Context, call hooks.ToolCall, next hooks.ToolFunc) (hooks.ToolResult, error) {
		return hooks.ToolResult{Text: "cached"}, nil
	})
	run := startChain(t, rec, hooks.Host{}, nil, toolLayer(rec, "outer"), cache, toolLayer(rec, "inner"))
	res, err := run.CallTool(context.Background(), wrapCall, echoTool(rec))
	require.NoError(t, err)
	assert.Equal(t, "cached", res.Text)
	assert.Equal(t, []string{"outer:before", "inner:before", "outer:wrap>", "outer:wrap<", "inner:after:cached", "outer:after:cached"}, rec.got(),
		"neither the inner wraps nor the tool run; every after-hook runs on the answer")
}

func TestWrapToolErrorIsTheCallsError(t *testing.T) {
	rec := &recorder{}
	errTool := errors.New("disk full")
	var outerSaw error
	outer := toolWrap("outer", func(c *hooks.Context, call hooks.ToolCall, next hooks.ToolFunc) (hooks.ToolResult, error) {
		res, err := next(c, call)
		outerSaw = err
		return res, err
	})
	inner := toolWrap("inner", func(c *hooks.Context, call hooks.ToolCall, next hooks.ToolFunc) (hooks.ToolResult, error) {
		if _, err := next(c, call); err != nil {
			return hooks.ToolResult{}, fmt.Errorf("inner: %w", err)
		}
		return hooks.ToolResult{}, nil
	})
	after := toolLayer(rec, "after")
	after.WrapTool = nil
	tool := func(*hooks.Context, hooks.ToolCall) (hooks.ToolResult, error) { return hooks.ToolResult{}, errTool }
	run := startChain(t, rec, hooks.Host{}, nil, after, outer, inner)
	_, err := run.CallTool(context.Background(), wrapCall, tool)
	assert.ErrorIs(t, err, errTool)
	assert.EqualError(t, err, "inner: disk full", "returned as the wrap made it, not as a *HookError")
	assert.ErrorIs(t, outerSaw, errTool, "the outer wrap sees the inner wrap's error")
	assert.Equal(t, []string{"after:before"}, rec.got(), "no after-hook runs on an error")
	assert.Empty(t, rec.diagnostics())
}

// panicking is a tool wrap that panics, after calling next when afterNext.
func panicking(name string, afterNext bool) hooks.Funcs {
	return toolWrap(name, func(c *hooks.Context, call hooks.ToolCall, next hooks.ToolFunc) (hooks.ToolResult, error) {
		if afterNext {
			_, _ = next(c, call)
		}
		panic("wrap broke")
	})
}

func TestWrapToolPanicUnderFailRunFailsTheCall(t *testing.T) {
	rec := &recorder{}
	run := startChain(t, rec, hooks.Host{}, nil, toolLayer(rec, "outer"), panicking("boom", true))
	_, err := run.CallTool(context.Background(), wrapCall, echoTool(rec))
	require.ErrorIs(t, err, hooks.ErrHookFailed)
	var he *hooks.HookError
	require.ErrorAs(t, err, &he)
	assert.Equal(t, "boom", he.Hook)
	assert.Equal(t, hooks.WrapToolCall, he.Point)
	var pe *hooks.PanicError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, "wrap broke", pe.Value)
	assert.Equal(t, []string{"outer:before", "outer:wrap>", "tool:echo", "outer:wrap<"}, rec.got(), "no after-hook runs")
	assert.Empty(t, rec.diagnostics())
}

func TestWrapToolPanicUnderReportSkipsTheLayer(t *testing.T) {
	for name, afterNext := range map[string]bool{"before next": false, "after next": true} {
		t.Run(name, func(t *testing.T) {
			rec := &recorder{}
			var calls atomic.Int32
			run := startChain(t, rec, hooks.Host{}, nil, toolLayer(rec, "outer"), hooks.WithPolicy(panicking("boom", afterNext), hooks.Report))
			res, err := run.CallTool(context.Background(), wrapCall, flaky(0, &calls))
			require.NoError(t, err)
			assert.Equal(t, "attempt 1", res.Text)
			assert.Equal(t, int32(1), calls.Load(), "the tool runs once: by the wrap, or in its place")
			assert.Equal(t, []string{"outer:before", "outer:wrap>", "outer:wrap<", "outer:after:attempt 1"}, rec.got())
			diags := rec.diagnostics()
			require.Len(t, diags, 1)
			assert.Equal(t, "boom", diags[0].Hook)
			assert.Equal(t, hooks.WrapToolCall, diags[0].Point)
			var pe *hooks.PanicError
			assert.ErrorAs(t, diags[0].Err, &pe)
		})
	}
}

func TestWrapToolWithContextGivesTheToolADeadline(t *testing.T) {
	rec := &recorder{}
	timeout := toolWrap("timeout", func(c *hooks.Context, call hooks.ToolCall, next hooks.ToolFunc) (hooks.ToolResult, error) {
		ctx, cancel := context.WithTimeout(c.Context, time.Millisecond)
		defer cancel()
		res, err := next(c.WithContext(ctx), call)
		if errors.Is(err, context.DeadlineExceeded) {
			return hooks.ToolResult{Text: "timed out", IsError: true}, nil
		}
		return res, err
	})
	slow := func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		if _, ok := c.Deadline(); !ok {
			return hooks.ToolResult{}, errors.New("the tool has no deadline: it would wait forever")
		}
		<-c.Done()
		return hooks.ToolResult{}, c.Err()
	}
	after := toolLayer(rec, "after")
	after.WrapTool = nil
	run := startChain(t, rec, hooks.Host{}, nil, after, timeout)
	ctx := context.Background()
	res, err := run.CallTool(ctx, wrapCall, slow)
	require.NoError(t, err, "the tool runs under the wrap's context")
	assert.Equal(t, hooks.ToolResult{Text: "timed out", IsError: true}, res)
	assert.Equal(t, []string{"after:before", "after:after:timed out"}, rec.got(), "the call's own context is intact")
}

func TestWrapToolCallCancelledMidWrap(t *testing.T) {
	waits := func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		<-c.Done()
		return hooks.ToolResult{}, c.Err()
	}
	for name, callNext := range map[string]bool{"the tool sees it": true, "an answer after it is not used": false} {
		t.Run(name, func(t *testing.T) {
			rec := &recorder{}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			w := toolWrap("w", func(c *hooks.Context, call hooks.ToolCall, next hooks.ToolFunc) (hooks.ToolResult, error) {
				cancel()
				if callNext {
					return next(c, call)
				}
				return hooks.ToolResult{Text: "late"}, nil
			})
			after := toolLayer(rec, "after")
			after.WrapTool = nil
			run := startChain(t, rec, hooks.Host{}, nil, after, w)
			_, err := run.CallTool(ctx, wrapCall, waits)
			assert.ErrorIs(t, err, context.Canceled)
			assert.Equal(t, []string{"after:before"}, rec.got(), "no after-hook runs")
		})
	}
}

func TestWrapToolNotReachedByRefusedOrAnsweredCalls(t *testing.T) {
	for name, tc := range map[string]struct {
		patch *hooks.ToolCallPatch
		want  hooks.ToolResult
	}{
		"refused":  {hooks.Refuse("no"), hooks.ToolResult{Text: "no", IsError: true}},
		"answered": {&hooks.ToolCallPatch{Result: &hooks.ToolResult{Text: "answer"}}, hooks.ToolResult{Text: "answer"}},
	} {
		t.Run(name, func(t *testing.T) {
			rec := &recorder{}
			guard := hooks.Funcs{HookName: "guard", BeforeToolExecute: func(*hooks.Context, hooks.ToolCall) (*hooks.ToolCallPatch, error) {
				return tc.patch, nil
			}}
			run := startChain(t, rec, hooks.Host{}, nil, guard, toolLayer(rec, "w"))
			res, err := run.CallTool(context.Background(), wrapCall, echoTool(rec))
			require.NoError(t, err)
			assert.Equal(t, tc.want, res)
			assert.Empty(t, rec.got(), "neither the wrap nor the tool runs")

			step, err := run.BeforeToolExecute(context.Background(), wrapCall)
			require.NoError(t, err)
			res, err = run.ExecuteTool(context.Background(), step, echoTool(rec))
			require.NoError(t, err)
			assert.Equal(t, tc.want, res)
			_, err = run.AfterToolExecute(context.Background(), step, res)
			require.NoError(t, err)
			assert.Empty(t, rec.got())
			assert.Empty(t, rec.diagnostics(), "a step with a result does not expect the wraps")
		})
	}
}

func TestWrapToolSplitMethods(t *testing.T) {
	ctx := context.Background()
	splitCall := func(t *testing.T, run *hooks.Run, execute bool, tool hooks.ToolFunc) {
		step, err := run.BeforeToolExecute(ctx, wrapCall)
		require.NoError(t, err)
		var res hooks.ToolResult
		if execute {
			res, err = run.ExecuteTool(ctx, step, tool)
		} else {
			res, err = tool(nil, step.Call) // the host runs the tool itself
		}
		require.NoError(t, err)
		_, err = run.AfterToolExecute(ctx, step, res)
		require.NoError(t, err)
	}
	t.Run("ExecuteTool runs the wraps", func(t *testing.T) {
		rec := &recorder{}
		run := startChain(t, rec, hooks.Host{}, nil, toolLayer(rec, "a"), toolLayer(rec, "b"))
		splitCall(t, run, true, echoTool(rec))
		assert.Equal(t, []string{"a:before", "b:before", "a:wrap>", "b:wrap>", "tool:echo", "b:wrap<", "a:wrap<", "b:after:hi", "a:after:hi"}, rec.got())
		assert.Empty(t, rec.diagnostics())
	})
	t.Run("without it, one diagnostic per run naming the wraps", func(t *testing.T) {
		rec := &recorder{}
		chain, err := hooks.NewChain([]hooks.Hook{toolLayer(rec, "a"), retry("b", 2)}, hooks.WithDiagnostics(rec.diagnose))
		require.NoError(t, err)
		for runs := 1; runs <= 2; runs++ {
			run, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{})
			require.NoError(t, err)
			var wg sync.WaitGroup
			for range 4 {
				wg.Go(func() { splitCall(t, run, false, echoTool(rec)) })
			}
			wg.Wait()
			diags := rec.diagnostics()
			require.Len(t, diags, runs)
			assert.Equal(t, hooks.WrapToolCall, diags[runs-1].Point)
			assert.ErrorContains(t, diags[runs-1].Err, "a, b")
			assert.ErrorContains(t, diags[runs-1].Err, "ExecuteTool")
		}
	})
	t.Run("a chain without wraps says nothing", func(t *testing.T) {
		rec := &recorder{}
		l := toolLayer(rec, "a")
		l.WrapTool = nil
		run := startChain(t, rec, hooks.Host{}, nil, l)
		splitCall(t, run, false, echoTool(rec))
		assert.Empty(t, rec.diagnostics())
	})
}

func TestWrapToolParallelCalls(t *testing.T) {
	rec := &recorder{}
	var wraps atomic.Int32
	counting := toolWrap("count", func(c *hooks.Context, call hooks.ToolCall, next hooks.ToolFunc) (hooks.ToolResult, error) {
		wraps.Add(1)
		return next(c, call)
	})
	var calls atomic.Int32
	tool := func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		if calls.Add(1)%2 == 1 { // every other attempt fails
			return hooks.ToolResult{}, errors.New("transient")
		}
		return echoTool(rec)(c, call)
	}
	run := startChain(t, rec, hooks.Host{}, nil, retry("retry", 100), counting)
	const n = 16
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			call := hooks.ToolCall{ID: fmt.Sprint(i), Name: "echo", Arguments: map[string]any{"text": fmt.Sprint(i)}}
			res, err := run.CallTool(context.Background(), call, tool)
			assert.NoError(t, err)
			assert.Equal(t, fmt.Sprint(i), res.Text)
		})
	}
	wg.Wait()
	assert.Equal(t, calls.Load(), wraps.Load(), "the inner wrap runs once per attempt")
	assert.Len(t, rec.got(), n)
	assert.Empty(t, rec.diagnostics())
}

// A wrap that hedges (calls next from two goroutines and takes the first
// answer) is a wrap that calls next more than once, at once: the chain
// keeps each call's result for the panic rule under a lock.
func TestWrapToolHedgedNextCalls(t *testing.T) {
	rec := &recorder{}
	hedge := toolWrap("hedge", func(c *hooks.Context, call hooks.ToolCall, next hooks.ToolFunc) (hooks.ToolResult, error) {
		results := make(chan hooks.ToolResult, 2)
		for range 2 {
			go func() {
				res, _ := next(c.WithContext(c.Context), call)
				results <- res
			}()
		}
		first := <-results
		<-results // no goroutine outlives the call
		return first, nil
	})
	run := startChain(t, rec, hooks.Host{}, nil, hedge)
	res, err := run.CallTool(context.Background(), wrapCall, echoTool(rec))
	require.NoError(t, err)
	assert.Equal(t, "hi", res.Text)
	assert.Equal(t, []string{"tool:echo", "tool:echo"}, rec.got())
}

// timing is a struct hook (not Funcs) that implements only the wraps.
type timing struct{ calls *atomic.Int32 }

func (timing) Name() string { return "timing" }
func (h timing) WrapTool(c *hooks.Context, call hooks.ToolCall, next hooks.ToolFunc) (hooks.ToolResult, error) {
	h.calls.Add(1)
	return next(c, call)
}
func (h timing) WrapModel(c *hooks.Context, req hooks.ModelRequest, next hooks.ModelFunc) (hooks.ModelResponse, error) {
	h.calls.Add(1)
	return next(c, req)
}

func TestWrapStructHookIsFoundByNewChain(t *testing.T) {
	rec := &recorder{}
	var calls atomic.Int32
	run := startChain(t, rec, hooks.Host{}, nil, timing{&calls})
	_, err := run.CallTool(context.Background(), wrapCall, echoTool(rec))
	require.NoError(t, err)
	_, err = run.CallModel(context.Background(), hooks.ModelRequest{}, echoModel(rec))
	require.NoError(t, err)
	assert.Equal(t, int32(2), calls.Load())
}
