package hooks_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// blocker is a hook that signals entered and waits until its context is cancelled.
func blocker(entered chan<- struct{}) hooks.Funcs {
	wait := func(c *hooks.Context) error {
		close(entered)
		<-c.Done()
		return c.Err()
	}
	return hooks.Funcs{HookName: "blocker",
		BeforeToolExecute: func(c *hooks.Context, _ hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			return nil, wait(c)
		},
		BeforeModelRequest: func(c *hooks.Context, _ hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
			return nil, wait(c)
		},
	}
}

func TestCancellationInterruptsABlockingHook(t *testing.T) {
	for _, policy := range []hooks.Policy{hooks.FailRun, hooks.Report, hooks.Block} {
		rec := &recorder{}
		entered := make(chan struct{})
		run := start(t, rec, hooks.WithPolicy(blocker(entered), policy))
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			<-entered
			cancel()
		}()
		_, err := run.CallTool(ctx, hooks.ToolCall{Name: "shell"}, echoTool(rec))
		require.Error(t, err, policy.String())
		assert.ErrorIs(t, err, context.Canceled)
		assert.NotErrorIs(t, err, hooks.ErrHookFailed)
		assert.Contains(t, err.Error(), `"blocker"`)
		assert.Empty(t, rec.got(), "no tool runs after a cancellation")
		assert.Empty(t, rec.diagnostics())
	}
}

func TestCancelledContextRunsNothing(t *testing.T) {
	rec := &recorder{}
	run := start(t, rec, layer(rec, "a"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := run.CallTool(ctx, hooks.ToolCall{Name: "x"}, echoTool(rec))
	assert.ErrorIs(t, err, context.Canceled)
	_, err = run.CallModel(ctx, hooks.ModelRequest{}, func(*hooks.Context, hooks.ModelRequest) (hooks.ModelResponse, error) {
		rec.add("model")
		return hooks.ModelResponse{}, nil
	})
	assert.ErrorIs(t, err, context.Canceled)
	_, err = run.AfterToolExecute(ctx, hooks.ToolStep{}, hooks.ToolResult{})
	assert.ErrorIs(t, err, context.Canceled)
	_, err = (&hooks.Chain{}).Start(ctx, hooks.Host{}, hooks.RunStart{})
	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, []string{"a:beforeRun"}, rec.got())
}

func TestHookThatIgnoresCancellationStillStopsTheTool(t *testing.T) {
	rec := &recorder{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	run := start(t, rec, hooks.Funcs{HookName: "canceller", BeforeToolExecute: func(*hooks.Context, hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		cancel()
		return nil, nil
	}})
	_, err := run.CallTool(ctx, hooks.ToolCall{Name: "x"}, echoTool(rec))
	assert.ErrorIs(t, err, context.Canceled)
	assert.Empty(t, rec.got())
}

func TestParallelToolCallsOnOneRun(t *testing.T) {
	rec := &recorder{}
	var before, after atomic.Int64
	run := start(t, rec,
		hooks.Funcs{HookName: "count", BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			before.Add(1)
			n := call.Arguments["n"].(int)
			if n%4 == 0 {
				return hooks.Refuse(fmt.Sprint("no ", n)), nil
			}
			return &hooks.ToolCallPatch{Arguments: map[string]any{"text": fmt.Sprint("call ", n), "n": n}}, nil
		}},
		hooks.Funcs{HookName: "tag", AfterToolExecute: func(c *hooks.Context, call hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
			after.Add(1)
			orig, _ := c.OriginalCall()
			return &hooks.ToolResultPatch{Text: ptr(fmt.Sprintf("%s (%s)", res.Text, orig.ID))}, nil
		}},
		hooks.Funcs{HookName: "memo", BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			_, err := c.Memo("shared", func() (any, error) { return "once", nil })
			return nil, err
		}},
	)
	results := make([]hooks.ToolResult, 64)
	var wg sync.WaitGroup
	for i := range results {
		wg.Go(func() {
			res, err := run.CallTool(context.Background(), hooks.ToolCall{ID: fmt.Sprint("id", i), Name: "echo", Arguments: map[string]any{"n": i}}, echoTool(rec))
			assert.NoError(t, err)
			results[i] = res
		})
	}
	wg.Wait()
	for i, res := range results {
		if i%4 == 0 {
			assert.Equal(t, hooks.ToolResult{Text: fmt.Sprint("no ", i), IsError: true}, res)
		} else {
			assert.Equal(t, fmt.Sprintf("call %d (id%d)", i, i), res.Text)
		}
	}
	assert.EqualValues(t, 64, before.Load())
	assert.EqualValues(t, 48, after.Load())
	assert.Len(t, rec.got(), 48)
}

func TestConcurrentRunsOnOneChain(t *testing.T) {
	rec := &recorder{}
	chain, err := hooks.NewChain([]hooks.Hook{hooks.Funcs{HookName: "stateful",
		BeforeRun: func(c *hooks.Context, s hooks.RunStart) (*hooks.RunPatch, error) {
			return &hooks.RunPatch{State: s.Input}, nil
		},
		BeforeModelRequest: func(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
			return &hooks.ModelRequestPatch{System: ptr(fmt.Sprint(c.State(), "/", c.ModelCalls()))}, nil
		},
	}}, hooks.WithDiagnostics(rec.diagnose))
	require.NoError(t, err)
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			ctx := context.Background()
			run, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{Input: fmt.Sprint("run", i)})
			if !assert.NoError(t, err) {
				return
			}
			for j := range 5 {
				step, err := run.BeforeModelRequest(ctx, hooks.ModelRequest{})
				assert.NoError(t, err)
				assert.Equal(t, fmt.Sprintf("run%d/%d", i, j), step.Request.System)
			}
			run.End(ctx, hooks.RunEnd{})
		})
	}
	wg.Wait()
	assert.Empty(t, rec.diagnostics())
}

func TestStatePerHookAndResumeKeepsIt(t *testing.T) {
	rec := &recorder{}
	var states []any
	h := func(name string) hooks.Funcs {
		return hooks.Funcs{HookName: name,
			BeforeRun: func(c *hooks.Context, s hooks.RunStart) (*hooks.RunPatch, error) {
				if s.Resumed {
					return nil, nil // keep the restored state
				}
				return &hooks.RunPatch{State: map[string]any{"owner": name}}, nil
			},
			BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
				states = append(states, c.State())
				return nil, nil
			}}
	}
	run := start(t, rec, h("a"), h("b"))
	_, err := run.BeforeToolExecute(context.Background(), hooks.ToolCall{})
	require.NoError(t, err)
	assert.Equal(t, []any{map[string]any{"owner": "a"}, map[string]any{"owner": "b"}}, states)
}

func TestMemoRunsOncePerRunHookAndKey(t *testing.T) {
	rec := &recorder{}
	var runs atomic.Int64
	release := make(chan struct{})
	first := make(chan struct{})
	slow := func() (any, error) {
		if runs.Add(1) == 1 {
			close(first)
			<-release
		}
		return "approved", nil
	}
	var got []any
	var mu sync.Mutex
	run := start(t, rec, hooks.Funcs{HookName: "approve", BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		v, err := c.Memo(call.Name, slow)
		mu.Lock()
		got = append(got, v)
		mu.Unlock()
		return nil, err
	}})
	var wg sync.WaitGroup
	wg.Go(func() {
		_, err := run.BeforeToolExecute(context.Background(), hooks.ToolCall{Name: "deploy"})
		assert.NoError(t, err)
	})
	<-first
	waiters := 8
	for range waiters {
		wg.Go(func() {
			_, err := run.BeforeToolExecute(context.Background(), hooks.ToolCall{Name: "deploy"})
			assert.NoError(t, err)
		})
	}
	close(release)
	wg.Wait()
	assert.EqualValues(t, 1, runs.Load(), "concurrent callers waited for the first")
	assert.Len(t, got, waiters+1)
	for _, v := range got {
		assert.Equal(t, "approved", v)
	}
	_, err := run.BeforeToolExecute(context.Background(), hooks.ToolCall{Name: "other key"})
	require.NoError(t, err)
	assert.EqualValues(t, 2, runs.Load(), "another key runs again")
}

func TestMemoDoesNotKeepErrorsOrPanics(t *testing.T) {
	var calls int
	run := start(t, &recorder{}, hooks.Funcs{HookName: "m", BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		v, err := c.Memo("k", func() (any, error) {
			calls++
			switch calls {
			case 1:
				return nil, errors.New("try later")
			case 2:
				panic("memo panicked")
			}
			return calls, nil
		})
		if err != nil {
			return hooks.Refuse(err.Error()), nil
		}
		return hooks.Refuse(fmt.Sprint(v)), nil
	}})
	var reasons []string
	for range 4 {
		step, err := run.BeforeToolExecute(context.Background(), hooks.ToolCall{})
		require.NoError(t, err)
		reasons = append(reasons, step.Reason)
	}
	assert.Equal(t, []string{"try later", "panic: memo panicked", "3", "3"}, reasons)
}

func TestSnapshotRoundTrip(t *testing.T) {
	rec := &recorder{}
	var memoRuns int
	var seen []string
	newChain := func() *hooks.Chain {
		chain, err := hooks.NewChain([]hooks.Hook{hooks.Funcs{HookName: "durable",
			BeforeRun: func(c *hooks.Context, s hooks.RunStart) (*hooks.RunPatch, error) {
				seen = append(seen, fmt.Sprintf("start %s resumed=%v calls=%d", s.Input, s.Resumed, c.ModelCalls()))
				if s.Resumed {
					return nil, nil
				}
				return &hooks.RunPatch{State: map[string]any{"budget": 3}}, nil
			},
			BeforeModelRequest: func(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
				v, err := c.Memo("approval", func() (any, error) {
					memoRuns++
					return map[string]any{"by": "alice"}, nil
				})
				seen = append(seen, fmt.Sprintf("state=%v memo=%v", c.State(), v))
				return nil, err
			},
		}}, hooks.WithDiagnostics(rec.diagnose))
		require.NoError(t, err)
		return chain
	}
	ctx := context.Background()
	run, err := newChain().Start(ctx, hooks.Host{}, hooks.RunStart{RunID: "run-1", Input: "deploy"})
	require.NoError(t, err)
	_, err = run.BeforeModelRequest(ctx, hooks.ModelRequest{})
	require.NoError(t, err)
	snap, err := run.Snapshot()
	require.NoError(t, err)
	assert.Contains(t, string(snap), `"kind":"rienda.hooks/run"`)

	resumed, err := newChain().Resume(ctx, hooks.Host{}, snap)
	require.NoError(t, err)
	assert.Equal(t, "run-1", resumed.ID())
	_, err = resumed.BeforeModelRequest(ctx, hooks.ModelRequest{})
	require.NoError(t, err)
	assert.Equal(t, []string{
		"start deploy resumed=false calls=0",
		"state=map[budget:3] memo=map[by:alice]",
		"start deploy resumed=true calls=1",
		"state=map[budget:3] memo=map[by:alice]",
	}, seen)
	assert.Equal(t, 1, memoRuns, "the memo result survived the resume")
	assert.Equal(t, 2, modelCalls(t, resumed))
}

func TestResumeRejectsBadSnapshots(t *testing.T) {
	chain, err := hooks.NewChain(nil)
	require.NoError(t, err)
	for _, tc := range []struct{ name, snap, want string }{
		{"not JSON", `{"kind":`, "corrupt run snapshot"},
		{"foreign", `{"kind":"something/else","version":1,"runId":"x"}`, `not a run snapshot (kind "something/else"`},
		{"no kind", `[1,2]`, "corrupt run snapshot"},
		{"future version", `{"kind":"rienda.hooks/run","version":2,"runId":"x"}`, "version 2 is not supported"},
		{"no run id", `{"kind":"rienda.hooks/run","version":1}`, "no runId"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := chain.Resume(context.Background(), hooks.Host{}, []byte(tc.snap))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestSnapshotNamesTheHookWhoseStateIsNotJSON(t *testing.T) {
	run := start(t, &recorder{}, hooks.Funcs{HookName: "chan-state", BeforeRun: func(*hooks.Context, hooks.RunStart) (*hooks.RunPatch, error) {
		return &hooks.RunPatch{State: make(chan int)}, nil
	}})
	_, err := run.Snapshot()
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"chan-state"`)
}

func TestZeroHostWorks(t *testing.T) {
	t.Setenv("HOOKS_TEST_VAR", "from-env")
	dir := t.TempDir()
	var got []any
	run := startWith(t, &recorder{}, hooks.Host{Workdir: dir}, hooks.Funcs{HookName: "probe", BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		require.NoError(t, c.Files.Write("notes/a.txt", []byte("one\n")))
		require.NoError(t, c.Files.Append("notes/a.txt", []byte("two\n")))
		data, err := c.Files.Read(filepath.Join(dir, "notes", "a.txt"))
		require.NoError(t, err)
		ok, err := c.Files.Exists("notes/a.txt")
		require.NoError(t, err)
		missing, err := c.Files.Exists("nope")
		require.NoError(t, err)
		got = append(got, c.Env["HOOKS_TEST_VAR"], c.HTTP != nil && c.HTTP.Timeout > 0, c.Confirm(hooks.Prompt{Title: "ok?"}),
			string(data), ok, missing, c.System.OS != "" && c.System.Arch != "", !c.System.Now().IsZero(), c.Hook(), c.Workdir)
		c.Log("logged to slog")
		c.Notify(hooks.Notice{Title: "noticed"})
		return nil, nil
	}})
	_, err := run.BeforeToolExecute(context.Background(), hooks.ToolCall{})
	require.NoError(t, err)
	assert.Equal(t, []any{"from-env", true, false, "one\ntwo\n", true, false, true, true, "probe", dir}, got)
}

func TestHostCapabilitiesReachTheHost(t *testing.T) {
	var lines []string
	rec := &recorder{}
	host := hooks.Host{
		Session:     hooks.Session{ID: "s1"},
		Config:      map[string]any{"level": "strict"},
		Env:         map[string]string{"ONLY": "this"},
		AutoApprove: true,
		Log:         func(hook, line string) { lines = append(lines, hook+": "+line) },
		Notify:      func(hook string, n hooks.Notice) { lines = append(lines, hook+" notice: "+n.Title) },
		Confirm: func(ctx context.Context, p hooks.Prompt) (bool, error) {
			if p.Title == "fail" {
				return true, errors.New("terminal closed")
			}
			return p.Title == "yes", nil
		},
	}
	run := startWith(t, rec, host, hooks.Funcs{HookName: "probe", BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		c.Log("level", c.Config["level"], "env", len(c.Env), c.Session.ID, c.RunID())
		c.Notify(hooks.Notice{Title: "hello"})
		lines = append(lines, fmt.Sprint(c.Confirm(hooks.Prompt{Title: "yes"}), c.Confirm(hooks.Prompt{Title: "no"}), c.Confirm(hooks.Prompt{Title: "fail"})))
		return nil, nil
	}})
	_, err := run.BeforeToolExecute(context.Background(), hooks.ToolCall{})
	require.NoError(t, err)
	assert.Equal(t, []string{"probe: level strict env 1 s1 " + run.ID(), "probe notice: hello", "true false false"}, lines)
	require.Len(t, rec.diagnostics(), 1, "a failed confirm is a diagnostic and answers no")
	assert.Contains(t, rec.diagnostics()[0].Err.Error(), "terminal closed")
}

func TestContextLiteralOutsideARunWorks(t *testing.T) {
	for _, c := range []*hooks.Context{{}, {Context: context.Background(), Workdir: t.TempDir()}} {
		assert.Equal(t, "", c.Hook())
		assert.Equal(t, "", c.RunID())
		assert.Equal(t, 0, c.ModelCalls())
		assert.Nil(t, c.State())
		assert.False(t, c.Confirm(hooks.Prompt{Title: "ok?"}), "nobody to ask answers no")
		c.Log("to slog")
		c.Notify(hooks.Notice{Title: "to slog"})
		runs := 0
		for range 2 {
			v, err := c.Memo("k", func() (any, error) { runs++; return runs, nil })
			require.NoError(t, err)
			assert.Equal(t, runs, v)
		}
		assert.Equal(t, 2, runs, "without a run, Memo has nowhere to remember")
	}
}
