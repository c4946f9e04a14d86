package claudecode

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/rienda/hooks"
)

// set is what the hooks of one Hooks call share: the options, and the
// notes its Stop hook leaves for its UserPromptSubmit hook. Everything a
// run must keep is in each hook's run state (runState), never here.
type set struct {
	opts    options
	hasStop bool
	// notes holds, by run id, the model call a Stop hook last sent the
	// run on at, from the Stop's AfterModelResponse to the
	// UserPromptSubmit's, which runs after it in the same walk (reverse
	// list order) and keeps it in its own state. Each run has at most one
	// entry, dropped by the Stop at AfterRun.
	notes sync.Map
}

// runState is a hook's per-run state, kept by the chain as the hook's
// Context state: Run.Snapshot saves it as JSON, Chain.Resume and
// Chain.Rehydrate restore it, so nothing of a run is lost on a hop.
type runState struct {
	// Context is what SessionStart handlers add to every request's System.
	Context string `json:"context,omitempty"`
	// End is an end a handler asked for ("continue": false) from an event
	// that cannot end the run itself, taken at the next model request.
	End *string `json:"end,omitempty"`
	// StopActive: the run goes on because this set's Stop sent it on
	// (stop_hook_active).
	StopActive bool `json:"stopHookActive,omitempty"`
	// Continuations is how many times in a row this set's Stop sent the
	// run on.
	Continuations int `json:"continuations,omitempty"`
	// ContinuedAt is the model-call count (Context.ModelCalls) of the
	// reply this set's Stop last sent the run on after; the request that
	// carries the continuation has the same count. Nil: none yet.
	ContinuedAt *int `json:"continuedAt,omitempty"`
}

// load returns the running hook's state for this run: the zero state at
// first, the value save set, or, after a snapshot was restored, its JSON
// decoded. A restored state that does not decode is a diagnostic, and
// the run goes on from the zero state.
func load(c *hooks.Context) runState {
	switch v := c.State().(type) {
	case nil:
		return runState{}
	case runState:
		return v
	default:
		var st runState
		raw, err := json.Marshal(v)
		if err == nil {
			err = json.Unmarshal(raw, &st)
		}
		if err != nil {
			c.Diagnose(fmt.Errorf("the run state of this Claude Code hook cannot be read (%v): it starts again from nothing", err))
			return runState{}
		}
		return st
	}
}

// save makes st the running hook's state for this run; the zero state is
// kept as nil, so that a snapshot holds only hooks with something to say.
func save(c *hooks.Context, st runState) {
	if st == (runState{}) {
		if c.State() != nil {
			c.SetState(nil)
		}
		return
	}
	c.SetState(st)
}

// claudeName is the Claude Code name of a host tool.
func (s *set) claudeName(host string) string {
	if name, ok := s.opts.toClaude[host]; ok {
		return name
	}
	return host
}

// userTurn reports whether req is a user's turn: its last message is the
// user's, and it is not the request that carries this set's Stop
// continuation (st is the running hook's state, ContinuedAt kept current).
func userTurn(c *hooks.Context, req hooks.ModelRequest, st runState) (string, bool) {
	if len(req.Messages) == 0 {
		return "", false
	}
	last := req.Messages[len(req.Messages)-1]
	if last.Role != "user" {
		return "", false
	}
	if st.ContinuedAt != nil && *st.ContinuedAt == c.ModelCalls() {
		return "", false
	}
	return last.Text, true
}
