package prebuilt

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/rienda/hooks"
)

// live is a hook's state for one run, shared by the run's parallel calls:
// they update it under mu, so no update is lost. It is the value the hook
// keeps in its run state (Context.State), and marshals as v, so a snapshot
// carries it.
type live[T any] struct {
	mu sync.Mutex
	v  T
}

// MarshalJSON writes the state as the run's snapshot keeps it.
func (s *live[T]) MarshalJSON() ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return json.Marshal(s.v)
}

// keeper finds, or makes, a hook's live state in a run. The run state is
// one value per hook and run with last-writer-wins updates, so the state is
// made once (under mu, shared by the hook's runs but held only the first
// time a run asks) and then updated in place.
//
// A child run (hooks.Run.Child) shares its root run's state unless apart
// is set: the hook's state is then the root's, found through
// hooks.Context.Parent, so that a subagent adds to its parent's counts
// instead of starting its own.
type keeper[T any] struct {
	mu    sync.Mutex
	apart bool // each run, a child too, keeps its own state
}

// get returns the run's live state. A state restored from a snapshot (JSON
// types) is read back into T the first time; one that does not read is an
// error naming the hook.
func (k *keeper[T]) get(c *hooks.Context) (*live[T], error) {
	if !k.apart {
		c = rootOf(c)
	}
	if s, ok := c.State().(*live[T]); ok {
		return s, nil
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	cur := c.State()
	if s, ok := cur.(*live[T]); ok { // another call of the run made it meanwhile
		return s, nil
	}
	s := &live[T]{}
	if cur != nil {
		data, err := json.Marshal(cur)
		if err == nil {
			err = json.Unmarshal(data, &s.v)
		}
		if v, ok := any(&s.v).(interface{ valid() error }); ok && err == nil {
			err = v.valid() // a count below zero would give calls back
		}
		if err != nil {
			return nil, fmt.Errorf("prebuilt: hook %q: its run state (from a snapshot) does not read back: %w", c.Hook(), err)
		}
	}
	c.SetState(s)
	return s, nil
}

// Action is what a limit or guard does when it trips.
type Action int

const (
	// Refuse refuses the tool call with a reason the model reads, and the
	// run goes on: the model may change course.
	Refuse Action = iota
	// EndRun refuses the tool call, then ends the run at its next model
	// request, with the reason as the run's output (a tool point cannot end
	// a run itself; ending before the next model call spends nothing more).
	EndRun
	// ErrorRun fails the call with a *LimitError (or, for LoopGuard, an
	// error naming the loop): the hook's error, which its policy handles
	// (the default for Go hooks, FailRun, fails the run, and a tool
	// point's error is the tool call's). So that no policy turns it into
	// an allow that keeps spending, the run also ends at its next model
	// request, as with EndRun.
	ErrorRun
)

// String returns the action's name as settings spell it.
func (a Action) String() string {
	switch a {
	case Refuse:
		return "refuse"
	case EndRun:
		return "end"
	case ErrorRun:
		return "error"
	}
	return fmt.Sprintf("Action(%d)", int(a))
}

func (a Action) check(field string) error {
	if a != Refuse && a != EndRun && a != ErrorRun {
		return fmt.Errorf("%s: unknown action %d (want Refuse, EndRun or ErrorRun)", field, int(a))
	}
	return nil
}

// mustValid panics with err, naming the constructor, when a config cannot
// work: see the package doc.
func mustValid(constructor string, err error) {
	if err != nil {
		panic(fmt.Sprintf("prebuilt.%s: %v", constructor, err))
	}
}

// orName returns name, or def when it is empty.
func orName(name, def string) string {
	if name == "" {
		return def
	}
	return name
}

// checkNames refuses, in a list of tool names, a name no tool can have
// (empty, spaces around it, a pattern, a look-alike: see toolNameProblem).
func checkNames(field string, names []string) error {
	for i, n := range names {
		if n == "" {
			return fmt.Errorf("field %s[%d] is empty: no tool has that name", field, i)
		}
		if p := toolNameProblem(n); p != "" {
			return fmt.Errorf("field %s[%d] is %q: %s", field, i, n, p)
		}
	}
	return nil
}

// rootOf returns the Context the running hook has in the root of c's run
// tree: c itself in a root run.
func rootOf(c *hooks.Context) *hooks.Context {
	for p := c.Parent(); p != nil; p = p.Parent() {
		c = p
	}
	return c
}
