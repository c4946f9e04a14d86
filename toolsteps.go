package hooks

import "sync"

// ToolSteps keeps each tool call's ToolStep between a framework's before-
// and after-callbacks, by call ID, for hosts that cannot carry the step
// across themselves (adk-go's BeforeToolCallback and AfterToolCallback).
// The zero value is ready; it is safe for concurrent use, so parallel tool
// calls of one run may share it.
//
//	step, err := run.BeforeToolExecute(ctx, call)
//	steps.Put(step)
//	…
//	step, ok := steps.Take(call.ID)
//	if !ok { // no before-callback kept one: every hook counts as entered
//		step.Call = call
//	}
//	res, err = run.AfterToolExecute(ctx, step, res)
type ToolSteps struct {
	mu    sync.Mutex
	steps map[string]ToolStep
}

// Put keeps step under step.Call.ID, replacing any step kept for that ID.
func (s *ToolSteps) Put(step ToolStep) {
	s.mu.Lock()
	if s.steps == nil {
		s.steps = map[string]ToolStep{}
	}
	s.steps[step.Call.ID] = step
	s.mu.Unlock()
}

// Take returns the step kept for a call's ID and forgets it.
func (s *ToolSteps) Take(id string) (ToolStep, bool) {
	s.mu.Lock()
	step, ok := s.steps[id]
	delete(s.steps, id)
	s.mu.Unlock()
	return step, ok
}

// Len returns how many steps are kept: calls whose after-callback has not
// come (yet).
func (s *ToolSteps) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.steps)
}
