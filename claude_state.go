package hooks

import "sync"

// claudeSet is what the hooks of one ClaudeCodeHooks call share: the
// options, and each run's state, by run id, dropped at AfterRun.
type claudeSet struct {
	opts claudeOptions
	mu   sync.Mutex
	runs map[string]*claudeRun
}

// claudeRun is one run's state across points and events.
type claudeRun struct {
	context       string  // what SessionStart handlers added to every request's System
	end           *string // an end a tool or SessionStart handler asked for, at the next request
	stopActive    bool    // the run goes on because a Stop handler sent it on
	continuations int     // Stop continuations in a row
	continuation  string  // the message of the last one
	continuedAt   int     // ModelCalls when it was sent: the next request carries it
}

// update runs fn on the run's state, made if there is none.
func (s *claudeSet) update(runID string, fn func(*claudeRun)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.runs[runID]
	if st == nil {
		st = &claudeRun{}
		s.runs[runID] = st
	}
	fn(st)
}

// view returns a copy of the run's state (zero when there is none).
func (s *claudeSet) view(runID string) claudeRun {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st := s.runs[runID]; st != nil {
		return *st
	}
	return claudeRun{}
}

// takeEnd returns the end asked for, once.
func (s *claudeSet) takeEnd(runID string) *string {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.runs[runID]
	if st == nil || st.end == nil {
		return nil
	}
	end := st.end
	st.end = nil
	return end
}

// drop forgets the run.
func (s *claudeSet) drop(runID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.runs, runID)
}

// size is how many runs are remembered (for tests: none after End).
func (s *claudeSet) size() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.runs)
}

// claudeName is the Claude Code name of a host tool.
func (s *claudeSet) claudeName(host string) string {
	if name, ok := s.opts.toClaude[host]; ok {
		return name
	}
	return host
}

// isUserTurn reports whether req is a user's turn: its last message is
// the user's, and not the one a Stop continuation just sent.
func (s *claudeSet) isUserTurn(c *Context, req ModelRequest) (string, bool) {
	if len(req.Messages) == 0 {
		return "", false
	}
	last := req.Messages[len(req.Messages)-1]
	if last.Role != "user" {
		return "", false
	}
	st := s.view(c.RunID())
	if st.continuation != "" && last.Text == st.continuation && c.ModelCalls() == st.continuedAt {
		return "", false
	}
	return last.Text, true
}
