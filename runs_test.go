package hooks_test

import (
	"context"
	"errors"
	"maps"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sessionRuns is what an MCP adapter keeps: one run per session id on a
// real chain whose AfterRun counts the ends of each run. Each start waits
// for a value on its gate: a function returning the run's error (nil: the
// run starts) or panicking.
type sessionRuns struct {
	*hooks.Runs[string]
	starts  atomic.Int32
	entered chan string       // a start began, for the key sent
	gate    chan func() error // what the start waiting does next

	mu    sync.Mutex
	ended map[string]int
}

func newSessionRuns(t *testing.T) *sessionRuns {
	t.Helper()
	s := &sessionRuns{entered: make(chan string, 16), gate: make(chan func() error), ended: map[string]int{}}
	chain, err := hooks.NewChain([]hooks.Hook{hooks.Funcs{HookName: "audit",
		AfterRun: func(c *hooks.Context, e hooks.RunEnd) error {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.ended[e.RunID]++
			return nil
		}}})
	require.NoError(t, err)
	s.Runs = hooks.NewRuns(func(ctx context.Context, key string) (*hooks.Run, error) {
		s.starts.Add(1)
		s.entered <- key
		if err := (<-s.gate)(); err != nil {
			return nil, err
		}
		return chain.Start(ctx, hooks.Host{Session: hooks.Session{ID: key}}, hooks.RunStart{RunID: key})
	})
	return s
}

func (s *sessionRuns) ends() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.ended)
}

// letStart lets the next waiting start go on and start its run.
func (s *sessionRuns) letStart() { s.gate <- func() error { return nil } }

// got is what one Get returned.
type got struct {
	run *hooks.Run
	err error
}

// getAsync runs Get on its own goroutine.
func (s *sessionRuns) getAsync(ctx context.Context, key string) <-chan got {
	out := make(chan got, 1)
	go func() {
		run, err := s.Get(ctx, key)
		out <- got{run, err}
	}()
	return out
}

// waitingCtx closes waiting when Get asks for Done, which it does only
// while it waits for another caller's start: the test then knows the
// caller is a waiter, without sleeping.
type waitingCtx struct {
	context.Context
	once    sync.Once
	waiting chan struct{}
}

func newWaitingCtx() *waitingCtx {
	return &waitingCtx{Context: context.Background(), waiting: make(chan struct{})}
}

func (c *waitingCtx) Done() <-chan struct{} {
	c.once.Do(func() { close(c.waiting) })
	return c.Context.Done()
}

// until spins (yielding, never sleeping) until cond holds.
func until(cond func() bool) {
	for !cond() {
		runtime.Gosched()
	}
}

func TestRunsStartsAKeyOnceForConcurrentGets(t *testing.T) {
	s := newSessionRuns(t)
	const callers = 16
	results := make([]<-chan got, callers)
	for i := range results {
		results[i] = s.getAsync(bg, "s1")
	}
	assert.Equal(t, "s1", <-s.entered)
	assert.Equal(t, 1, s.Len(), "a starting run counts")
	s.letStart()
	first := <-results[0]
	require.NoError(t, first.err)
	for _, r := range results[1:] {
		g := <-r
		require.NoError(t, g.err)
		assert.Same(t, first.run, g.run)
	}
	assert.EqualValues(t, 1, s.starts.Load(), "one start for one key")
	assert.Equal(t, "s1", first.run.ID())

	other := s.getAsync(bg, "s2")
	assert.Equal(t, "s2", <-s.entered)
	s.letStart()
	g := <-other
	require.NoError(t, g.err)
	assert.NotSame(t, first.run, g.run, "another key, another run")
	assert.Equal(t, 2, s.Len())
}

func TestRunsRetriesAFailedStartAndSharesItsError(t *testing.T) {
	s := newSessionRuns(t)
	starter := s.getAsync(bg, "s1")
	<-s.entered
	wctx := newWaitingCtx()
	waiter := s.getAsync(wctx, "s1")
	<-wctx.waiting

	errDown := errors.New("session store is down")
	s.gate <- func() error { return errDown }
	for _, r := range []<-chan got{starter, waiter} {
		g := <-r
		assert.ErrorIs(t, g.err, errDown)
		assert.Nil(t, g.run)
	}
	assert.Equal(t, 0, s.Len(), "a failed start is not kept")

	retry := s.getAsync(bg, "s1")
	<-s.entered
	s.letStart()
	g := <-retry
	require.NoError(t, g.err, "the next Get starts the run again")
	assert.Equal(t, "s1", g.run.ID())
	assert.EqualValues(t, 2, s.starts.Load())
}

func TestRunsRetriesAPanickingStartWithoutWedgingItsWaiters(t *testing.T) {
	s := newSessionRuns(t)
	panicked := make(chan any, 1)
	go func() {
		defer func() { panicked <- recover() }()
		_, _ = s.Get(bg, "s1")
	}()
	<-s.entered
	wctx := newWaitingCtx()
	waiter := s.getAsync(wctx, "s1")
	<-wctx.waiting

	s.gate <- func() error { panic("start blew up") }
	assert.Equal(t, "start blew up", <-panicked, "the panic reaches the caller that started")
	g := <-waiter
	require.Error(t, g.err, "a waiter goes on with an error")
	assert.Contains(t, g.err.Error(), "panicked")
	assert.Nil(t, g.run)

	retry := s.getAsync(bg, "s1")
	<-s.entered
	s.letStart()
	g = <-retry
	require.NoError(t, g.err)
	assert.NotNil(t, g.run)
}

func TestRunsRetriesAStartThatReturnedNoRunOrWhoseBeforeRunFailed(t *testing.T) {
	fail := true
	chain, err := hooks.NewChain([]hooks.Hook{hooks.Funcs{HookName: "quota",
		BeforeRun: func(c *hooks.Context, s hooks.RunStart) (*hooks.RunPatch, error) {
			if fail {
				return nil, errors.New("over quota")
			}
			return nil, nil
		}}})
	require.NoError(t, err)
	noRun := true
	runs := hooks.NewRuns(func(ctx context.Context, key string) (*hooks.Run, error) {
		if noRun {
			noRun = false
			return nil, nil
		}
		return chain.Start(ctx, hooks.Host{}, hooks.RunStart{RunID: key})
	})

	_, err = runs.Get(bg, "k")
	require.Error(t, err, "a nil run without an error is an error")
	assert.Contains(t, err.Error(), "no run")

	_, err = runs.Get(bg, "k")
	var hookErr *hooks.HookError
	require.ErrorAs(t, err, &hookErr, "the chain's own error reaches the adapter")
	assert.Equal(t, "quota", hookErr.Hook)

	fail = false
	run, err := runs.Get(bg, "k")
	require.NoError(t, err)
	assert.Equal(t, "k", run.ID())
	assert.Equal(t, 1, runs.Len())
}

func TestRunsEndWaitsForAStartingRun(t *testing.T) {
	s := newSessionRuns(t)
	assert.False(t, s.End(bg, "none", hooks.RunEnd{}), "no run to end")

	starter := s.getAsync(bg, "s1")
	<-s.entered
	ended := make(chan bool, 1)
	go func() { ended <- s.End(bg, "s1", hooks.RunEnd{}) }()
	until(func() bool { return s.Len() == 0 }) // End took the key: it now waits for the start
	select {
	case <-ended:
		t.Fatal("End returned before the run it ends had started")
	default:
	}
	s.letStart()
	assert.True(t, <-ended)
	g := <-starter
	require.NoError(t, g.err)
	assert.Equal(t, map[string]int{"s1": 1}, s.ends(), "the run started, then ended once")
	assert.Equal(t, 0, s.Len())
}

func TestRunsCloseEndsEveryRunOnce(t *testing.T) {
	s := newSessionRuns(t)
	for _, key := range []string{"a", "b", "c"} {
		r := s.getAsync(bg, key)
		<-s.entered
		s.letStart()
		require.NoError(t, (<-r).err)
	}
	assert.True(t, s.End(bg, "b", hooks.RunEnd{}))
	starting := s.getAsync(bg, "d")
	<-s.entered

	var wg sync.WaitGroup
	closed := make(chan struct{})
	wg.Add(2)
	go func() {
		defer wg.Done()
		s.Close(bg, hooks.RunEnd{Outcome: hooks.Interrupted, Reason: "server shut down"})
		close(closed)
	}()
	go func() {
		defer wg.Done()
		s.End(bg, "a", hooks.RunEnd{}) // races Close for "a": one of them ends it
	}()
	until(func() bool { return s.Len() == 0 })
	select {
	case <-closed:
		t.Fatal("Close returned before the run starting for d had started and ended")
	default:
	}
	s.letStart()
	wg.Wait()
	require.NoError(t, (<-starting).err)
	assert.Equal(t, map[string]int{"a": 1, "b": 1, "c": 1, "d": 1}, s.ends(), "every run ended exactly once")

	run, err := s.Get(bg, "a")
	assert.ErrorIs(t, err, hooks.ErrRunsClosed)
	assert.Nil(t, run)
	assert.False(t, s.End(bg, "c", hooks.RunEnd{}))
	s.Close(bg, hooks.RunEnd{}) // twice is harmless
	assert.Equal(t, 0, s.Len())
	assert.EqualValues(t, 4, s.starts.Load(), "Get after Close starts nothing")
}

func TestRunsWaiterWhoseContextEndsReturnsItsError(t *testing.T) {
	s := newSessionRuns(t)
	starter := s.getAsync(bg, "s1")
	<-s.entered
	ctx, cancel := context.WithCancel(bg)
	cancel()
	run, err := s.Get(ctx, "s1")
	assert.ErrorIs(t, err, context.Canceled)
	assert.Nil(t, run)

	s.letStart()
	g := <-starter
	require.NoError(t, g.err, "the start goes on for those still waiting")
	again, err := s.Get(bg, "s1")
	require.NoError(t, err)
	assert.Same(t, g.run, again)
	assert.EqualValues(t, 1, s.starts.Load())
}
