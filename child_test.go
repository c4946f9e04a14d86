package hooks_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

// runLog records, per run id, the run points its hooks saw, and what a
// hook reads of the run tree.
type runLog struct {
	mu      sync.Mutex
	points  map[string][]string
	parents map[string]string // run id → ParentRunID as the hooks read it
	starts  map[string]hooks.RunStart
	ends    map[string]hooks.RunEnd
}

func newRunLog() *runLog {
	return &runLog{points: map[string][]string{}, parents: map[string]string{},
		starts: map[string]hooks.RunStart{}, ends: map[string]hooks.RunEnd{}}
}

func (l *runLog) add(c *hooks.Context, what string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.points[c.RunID()] = append(l.points[c.RunID()], what)
	l.parents[c.RunID()] = c.ParentRunID()
}

// hook is a hook that records every run point, and refuses a tool named
// "forbidden".
func (l *runLog) hook() hooks.Hook {
	return hooks.Funcs{
		HookName: "log",
		BeforeRun: func(c *hooks.Context, s hooks.RunStart) (*hooks.RunPatch, error) {
			l.add(c, "beforeRun")
			l.mu.Lock()
			l.starts[s.RunID] = s
			l.mu.Unlock()
			return nil, nil
		},
		AfterRun: func(c *hooks.Context, e hooks.RunEnd) error {
			l.add(c, "afterRun")
			l.mu.Lock()
			l.ends[e.RunID] = e
			l.mu.Unlock()
			return nil
		},
		BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			l.add(c, "tool "+call.Name)
			if call.Name == "forbidden" {
				return hooks.Refuse("no"), nil
			}
			return nil, nil
		},
		BeforeModelRequest: func(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
			l.add(c, "model")
			return nil, nil
		},
	}
}

func (l *runLog) of(id string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.points[id]...)
}

func okTool(*hooks.Context, hooks.ToolCall) (hooks.ToolResult, error) {
	return hooks.ToolResult{Text: "ok"}, nil
}

func TestChildRunsTheParentsHooksAndKnowsItsParent(t *testing.T) {
	l := newRunLog()
	chain, err := hooks.NewChain([]hooks.Hook{l.hook()})
	require.NoError(t, err)
	ctx := context.Background()
	parent, err := chain.Start(ctx, hooks.Host{Workdir: "/w", Session: hooks.Session{ID: "s1"}}, hooks.RunStart{RunID: "p"})
	require.NoError(t, err)

	var seen hooks.Host
	var depth int
	res, err := parent.CallTool(ctx, hooks.ToolCall{ID: "1", Name: "task"}, func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		child, err := parent.Child(c, hooks.RunStart{RunID: "c", Input: "sub"})
		require.NoError(t, err)
		refused, err := child.CallTool(c, hooks.ToolCall{ID: "2", Name: "forbidden"}, func(c *hooks.Context, _ hooks.ToolCall) (hooks.ToolResult, error) {
			t.Error("a tool the parent's guard refuses ran in the child")
			return hooks.ToolResult{}, nil
		})
		require.NoError(t, err)
		assert.True(t, refused.IsError)
		_, err = child.CallTool(c, hooks.ToolCall{ID: "3", Name: "read"}, func(c *hooks.Context, _ hooks.ToolCall) (hooks.ToolResult, error) {
			seen = hooks.Host{Workdir: c.Workdir, Session: c.Session}
			depth = c.Depth()
			return hooks.ToolResult{Text: "read"}, nil
		})
		require.NoError(t, err)
		child.End(c, hooks.RunEnd{Output: "done"})
		return hooks.ToolResult{Text: "sub done"}, nil
	})
	require.NoError(t, err)
	assert.Equal(t, "sub done", res.Text)
	parent.End(ctx, hooks.RunEnd{})

	assert.Equal(t, []string{"beforeRun", "tool forbidden", "tool read", "afterRun"}, l.of("c"))
	assert.Equal(t, []string{"beforeRun", "tool task", "afterRun"}, l.of("p"))
	assert.Equal(t, "p", l.parents["c"], "a hook in the child reads its parent's id")
	assert.Equal(t, "", l.parents["p"])
	assert.Equal(t, "p", l.starts["c"].ParentRunID, "BeforeRun's RunStart names the parent")
	assert.Equal(t, hooks.Completed, l.ends["c"].Outcome)
	assert.Equal(t, hooks.Host{Workdir: "/w", Session: hooks.Session{ID: "s1"}}, seen, "the child's host is the parent's")
	assert.Equal(t, 1, depth)
}

func TestChildEndNeverEndsTheParentButTheParentsEndEndsItsChildren(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, ignore) })
	l := newRunLog()
	ender := hooks.Funcs{HookName: "ender", BeforeModelRequest: func(c *hooks.Context, _ hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
		if c.ParentRunID() != "" {
			return &hooks.ModelRequestPatch{End: &hooks.End{Output: "child stops"}}, nil
		}
		return nil, nil
	}}
	chain, err := hooks.NewChain([]hooks.Hook{l.hook(), ender})
	require.NoError(t, err)
	ctx := context.Background()
	parent, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{RunID: "p"})
	require.NoError(t, err)

	a, err := parent.Child(ctx, hooks.RunStart{RunID: "a"})
	require.NoError(t, err)
	step, err := a.BeforeModelRequest(ctx, hooks.ModelRequest{})
	require.NoError(t, err)
	require.NotNil(t, step.End, "a hook ends the child")
	a.End(ctx, hooks.RunEnd{Output: step.End.Output})
	_, err = a.BeforeToolExecute(ctx, hooks.ToolCall{Name: "x"})
	assert.ErrorIs(t, err, hooks.ErrRunEnded, "an ended child's calls refuse")

	_, err = parent.BeforeToolExecute(ctx, hooks.ToolCall{Name: "x"})
	require.NoError(t, err, "the child's end does not end the parent")
	assert.NotContains(t, l.of("p"), "afterRun")

	b, err := parent.Child(ctx, hooks.RunStart{RunID: "b"})
	require.NoError(t, err)
	grand, err := b.Child(ctx, hooks.RunStart{RunID: "g"})
	require.NoError(t, err)
	var kept *hooks.Context
	_, err = grand.CallTool(ctx, hooks.ToolCall{Name: "keep"}, func(c *hooks.Context, _ hooks.ToolCall) (hooks.ToolResult, error) {
		kept = c
		return hooks.ToolResult{}, nil
	})
	require.NoError(t, err)
	assert.Equal(t, []*hooks.Run{b}, parent.Children())

	parent.End(ctx, hooks.RunEnd{})
	assert.Equal(t, hooks.Interrupted, l.ends["b"].Outcome)
	assert.Equal(t, hooks.Interrupted, l.ends["g"].Outcome)
	assert.Contains(t, l.ends["b"].Reason, "parent run p ended")
	l.mu.Lock()
	order := append([]string(nil), l.points["g"]...)
	l.mu.Unlock()
	assert.Equal(t, "afterRun", order[len(order)-1])
	for _, r := range []*hooks.Run{b, grand} {
		_, err = r.BeforeToolExecute(ctx, hooks.ToolCall{Name: "x"})
		assert.ErrorIs(t, err, hooks.ErrRunEnded, "run %s", r.ID())
		assert.ErrorIs(t, err, context.Canceled)
		_, err = r.BeforeModelRequest(ctx, hooks.ModelRequest{})
		assert.ErrorIs(t, err, hooks.ErrRunEnded, "run %s", r.ID())
	}
	<-kept.Done()
	assert.Error(t, kept.Err())
	assert.Empty(t, parent.Children())

	_, err = parent.Child(ctx, hooks.RunStart{RunID: "late"})
	assert.ErrorIs(t, err, hooks.ErrRunEnded, "no child starts after the parent ended")
	assert.Empty(t, l.of("late"), "and no hook of it runs")
}

func TestChildNeverOutlivesItsContext(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, ignore) })
	l := newRunLog()
	chain, err := hooks.NewChain([]hooks.Hook{l.hook()})
	require.NoError(t, err)
	parent, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{RunID: "p"})
	require.NoError(t, err)
	defer parent.End(context.Background(), hooks.RunEnd{})

	var child *hooks.Run
	var done <-chan struct{}
	_, err = parent.CallTool(context.Background(), hooks.ToolCall{Name: "task"}, func(c *hooks.Context, _ hooks.ToolCall) (hooks.ToolResult, error) {
		child, err = parent.Child(c, hooks.RunStart{RunID: "c"}) // never ended: it leaks past the tool call
		require.NoError(t, err)
		_, err = child.CallTool(c, hooks.ToolCall{Name: "x"}, func(c *hooks.Context, _ hooks.ToolCall) (hooks.ToolResult, error) {
			done = c.Done()
			return hooks.ToolResult{}, nil
		})
		return hooks.ToolResult{}, err
	})
	require.NoError(t, err)
	_, err = child.BeforeToolExecute(context.Background(), hooks.ToolCall{Name: "after"})
	assert.ErrorIs(t, err, context.Canceled, "the child's life was the tool call's")
	<-done

	ctx, cancel := context.WithCancel(context.Background())
	c2, err := parent.Child(ctx, hooks.RunStart{RunID: "c2"})
	require.NoError(t, err)
	cancel()
	_, err = c2.BeforeModelRequest(context.Background(), hooks.ModelRequest{})
	assert.ErrorIs(t, err, context.Canceled)
}

func TestChildRefusesWhatWouldMakeItARootOrAnother(t *testing.T) {
	chain, err := hooks.NewChain(nil)
	require.NoError(t, err)
	ctx := context.Background()
	_, err = chain.Start(ctx, hooks.Host{}, hooks.RunStart{ParentRunID: "p"})
	assert.ErrorContains(t, err, "ParentRunID")
	parent, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{RunID: "p"})
	require.NoError(t, err)
	defer parent.End(ctx, hooks.RunEnd{})
	for name, start := range map[string]hooks.RunStart{
		"resumed":      {Resumed: true},
		"other parent": {ParentRunID: "q"},
		"parent's id":  {RunID: "p"},
	} {
		_, err := parent.Child(ctx, start)
		assert.Error(t, err, name)
	}
	_, err = parent.Child(ctx, hooks.RunStart{RunID: "c"})
	require.NoError(t, err)
	_, err = parent.Child(ctx, hooks.RunStart{RunID: "c"})
	assert.ErrorContains(t, err, "live child", "two live children of one id")
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	_, err = parent.Child(cctx, hooks.RunStart{})
	assert.ErrorIs(t, err, context.Canceled)
	var nilRun *hooks.Run
	_, err = nilRun.Child(ctx, hooks.RunStart{})
	assert.Error(t, err)
}

func TestChildWithAnotherChainRunsTheParentsHooksFirst(t *testing.T) {
	var order []string
	var mu sync.Mutex
	mark := func(name string) hooks.Hook {
		return &markHook{name: name, mark: func(c *hooks.Context) {
			mu.Lock()
			order = append(order, name+"@"+c.RunID())
			mu.Unlock()
		}}
	}
	guard := mark("guard")
	chain, err := hooks.NewChain([]hooks.Hook{guard})
	require.NoError(t, err)
	own, err := hooks.NewChain([]hooks.Hook{mark("own"), guard})
	require.NoError(t, err)
	ctx := context.Background()
	parent, err := chain.Start(ctx, hooks.Host{Workdir: "/p"}, hooks.RunStart{RunID: "p"})
	require.NoError(t, err)
	defer parent.End(ctx, hooks.RunEnd{})
	h := parent.Host()
	h.Workdir = "/p/sub"
	child, err := parent.ChildWith(ctx, hooks.RunStart{RunID: "c"}, hooks.ChildConfig{Chain: own, Host: &h})
	require.NoError(t, err)
	var wd string
	_, err = child.CallTool(ctx, hooks.ToolCall{Name: "x"}, func(c *hooks.Context, _ hooks.ToolCall) (hooks.ToolResult, error) {
		wd = c.Workdir
		return hooks.ToolResult{}, nil
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"guard@c", "own@c"}, order, "the parent's guard first, once")
	assert.Equal(t, "/p/sub", wd)

	other, err := hooks.NewChain([]hooks.Hook{mark("guard")})
	require.NoError(t, err)
	_, err = parent.ChildWith(ctx, hooks.RunStart{}, hooks.ChildConfig{Chain: other})
	assert.ErrorContains(t, err, `"guard"`, "another hook under the parent's hook's name is loud")

	_, err = parent.Snapshot()
	require.NoError(t, err)
	snap, err := parent.Snapshot()
	require.NoError(t, err)
	_, err = chain.Rehydrate(hooks.Host{}, snap)
	assert.ErrorContains(t, err, "beyond its parent's", "a child whose hooks the parent's chain lacks does not come back without them")
}

func TestChildTraceEventsNameTheParent(t *testing.T) {
	var mu sync.Mutex
	var events []hooks.TraceEvent
	h := hooks.Funcs{HookName: "h", BeforeToolExecute: func(*hooks.Context, hooks.ToolCall) (*hooks.ToolCallPatch, error) { return nil, nil }}
	chain, err := hooks.NewChain([]hooks.Hook{h}, hooks.WithTrace(func(e hooks.TraceEvent) {
		mu.Lock()
		events = append(events, e)
		mu.Unlock()
	}))
	require.NoError(t, err)
	ctx := context.Background()
	parent, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{RunID: "p"})
	require.NoError(t, err)
	child, err := parent.Child(ctx, hooks.RunStart{RunID: "c"})
	require.NoError(t, err)
	_, err = parent.BeforeToolExecute(ctx, hooks.ToolCall{Name: "x"})
	require.NoError(t, err)
	_, err = child.BeforeToolExecute(ctx, hooks.ToolCall{Name: "x"})
	require.NoError(t, err)
	parent.End(ctx, hooks.RunEnd{})
	require.Len(t, events, 2)
	assert.Equal(t, [2]string{"p", ""}, [2]string{events[0].RunID, events[0].ParentRunID})
	assert.Equal(t, [2]string{"c", "p"}, [2]string{events[1].RunID, events[1].ParentRunID})
}

func TestSubagentEndsTheChildWithTheFunctionsOutcome(t *testing.T) {
	l := newRunLog()
	chain, err := hooks.NewChain([]hooks.Hook{l.hook()})
	require.NoError(t, err)
	ctx := context.Background()
	parent, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{RunID: "p"})
	require.NoError(t, err)
	defer parent.End(ctx, hooks.RunEnd{})
	boom := errors.New("boom")
	_, err = parent.CallTool(ctx, hooks.ToolCall{Name: "task"}, func(c *hooks.Context, _ hooks.ToolCall) (hooks.ToolResult, error) {
		out, err := c.Subagent(hooks.RunStart{RunID: "ok"}, func(ctx context.Context, child *hooks.Run) (string, error) {
			_, err := child.CallTool(ctx, hooks.ToolCall{Name: "x"}, okTool)
			return "answer", err
		})
		assert.Equal(t, "answer", out)
		require.NoError(t, err)
		_, err = c.Subagent(hooks.RunStart{RunID: "bad"}, func(context.Context, *hooks.Run) (string, error) { return "", boom })
		assert.ErrorIs(t, err, boom)
		assert.Panics(t, func() {
			_, _ = c.Subagent(hooks.RunStart{RunID: "panics"}, func(context.Context, *hooks.Run) (string, error) { panic("x") })
		})
		return hooks.ToolResult{}, nil
	})
	require.NoError(t, err)
	assert.Equal(t, hooks.RunEnd{RunID: "ok", Outcome: hooks.Completed, Reason: "completed", Output: "answer"}, l.ends["ok"])
	assert.Equal(t, hooks.Failed, l.ends["bad"].Outcome)
	assert.Equal(t, hooks.Failed, l.ends["panics"].Outcome)
	assert.Equal(t, []string{"beforeRun", "tool x", "afterRun"}, l.of("ok"))
	_, err = (&hooks.Context{Context: ctx}).Subagent(hooks.RunStart{}, nil)
	assert.Error(t, err)
}

// markHook is a comparable hook (a pointer): a child's chain may list it
// again where its parent's has it.
type markHook struct {
	name string
	mark func(*hooks.Context)
}

func (h *markHook) Name() string { return h.name }

func (h *markHook) BeforeToolExecute(c *hooks.Context, _ hooks.ToolCall) (*hooks.ToolCallPatch, error) {
	h.mark(c)
	return nil, nil
}

// Children that start and call while their parent ends: every child ends
// exactly once, none starts after the end, and every call after it
// refuses.
func TestChildrenRacingTheParentsEnd(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, ignore) })
	for range 20 {
		l := newRunLog()
		chain, err := hooks.NewChain([]hooks.Hook{l.hook()})
		require.NoError(t, err)
		ctx := context.Background()
		parent, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{RunID: "p"})
		require.NoError(t, err)
		var wg sync.WaitGroup
		var mu sync.Mutex
		var started []*hooks.Run
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				child, err := parent.Child(ctx, hooks.RunStart{})
				if err != nil {
					assert.ErrorIs(t, err, hooks.ErrRunEnded)
					return
				}
				mu.Lock()
				started = append(started, child)
				mu.Unlock()
				for range 5 {
					if _, err := child.CallTool(ctx, hooks.ToolCall{Name: "x"}, okTool); err != nil {
						assert.ErrorIs(t, err, hooks.ErrRunEnded)
						return
					}
				}
			}()
		}
		parent.End(ctx, hooks.RunEnd{})
		wg.Wait()
		for _, k := range started {
			_, err := k.BeforeToolExecute(ctx, hooks.ToolCall{Name: "x"})
			assert.ErrorIs(t, err, hooks.ErrRunEnded)
			k.End(ctx, hooks.RunEnd{}) // a second End does nothing
		}
		l.mu.Lock()
		for id, points := range l.points {
			n := 0
			for _, p := range points {
				if p == "afterRun" {
					n++
				}
			}
			assert.Equal(t, 1, n, "run %s ended once", id)
		}
		l.mu.Unlock()
	}
}

// Children of one id started at once: one of them lives.
func TestChildrenOfOneIDStartedAtOnce(t *testing.T) {
	chain, err := hooks.NewChain(nil)
	require.NoError(t, err)
	ctx := context.Background()
	parent, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{RunID: "p"})
	require.NoError(t, err)
	defer parent.End(ctx, hooks.RunEnd{})
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = parent.Child(ctx, hooks.RunStart{RunID: "same"})
		}()
	}
	wg.Wait()
	assert.Len(t, parent.Children(), 1)
}
