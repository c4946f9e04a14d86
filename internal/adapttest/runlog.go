package adapttest

import (
	"sync"
	"testing"
	"time"

	"github.com/rienda/hooks"
)

// RunLog records the runs a chain started and ended, for the adapters
// that start and end runs themselves (one per MCP session). Make it with
// NewRunLog and put Hook in the chain.
type RunLog struct {
	mu       sync.Mutex
	started  []string // Session.ID of each run started
	ended    []hooks.RunEnd
	endedRun []string // Session.ID of each run ended
	ends     chan hooks.RunEnd
}

// NewRunLog returns an empty log.
func NewRunLog() *RunLog { return &RunLog{ends: make(chan hooks.RunEnd, 256)} }

// Hook is the hook that records into l.
func (l *RunLog) Hook() hooks.Funcs {
	return hooks.Funcs{
		HookName: "runlog",
		BeforeRun: func(c *hooks.Context, _ hooks.RunStart) (*hooks.RunPatch, error) {
			l.mu.Lock()
			defer l.mu.Unlock()
			l.started = append(l.started, c.Session.ID)
			return nil, nil
		},
		AfterRun: func(c *hooks.Context, end hooks.RunEnd) error {
			l.mu.Lock()
			l.ended = append(l.ended, end)
			l.endedRun = append(l.endedRun, c.Session.ID)
			l.mu.Unlock()
			select {
			case l.ends <- end:
			default: // nobody waits for this many ends
			}
			return nil
		},
	}
}

// Counts are the runs started and ended so far.
func (l *RunLog) Counts() (started, ended int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.started), len(l.ended)
}

// Ends are the RunEnds so far.
func (l *RunLog) Ends() []hooks.RunEnd {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]hooks.RunEnd(nil), l.ended...)
}

// Started and EndedRuns are the Session.IDs of the runs started and ended.
func (l *RunLog) Started() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.started...)
}

// EndedRuns: see Started.
func (l *RunLog) EndedRuns() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.endedRun...)
}

// NextEnd waits for the next AfterRun, for adapters that end a run
// asynchronously (a session's end arrives on another goroutine).
func (l *RunLog) NextEnd(t testing.TB) hooks.RunEnd {
	t.Helper()
	select {
	case end := <-l.ends:
		return end
	case <-time.After(10 * time.Second): // a deadline, not a synchronisation
		t.Fatal("no AfterRun within 10s")
		return hooks.RunEnd{}
	}
}
