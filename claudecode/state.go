package claudecode

import (
	"sync"
	"sync/atomic"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/dialect"
)

// set is what the hooks of one Hooks call share: the options, and the
// notes its Stop hook leaves for its UserPromptSubmit hook. Everything a
// run must keep is in each hook's run state (runState), never here.
type set struct {
	opts *dialect.Options
	// transcriptDir is TranscriptDir's ("": a temporary directory per run).
	transcriptDir string
	hasStop       bool
	// timed: the set has PostToolUse or PostToolUseFailure handlers, which
	// read duration_ms; started holds when each call of a run went to its
	// tool (time.Time, by run id and call id), from the set's last hook's
	// BeforeToolExecute to its AfterToolExecute (see duration).
	timed   bool
	started sync.Map
	// matchers are the set's tool events' matchers, and toolsChecked
	// whether they were checked against a run's tools (names.go).
	matchers     []matcher
	toolsChecked atomic.Bool
	foldNoted    atomic.Bool           // a ToolNames key mapped a tool only with case set aside, and said so
	fired        map[string][]*handler // the handlers of the events a host fires (Fire), by event
	// notes holds, by run id, the model call a Stop hook last sent the
	// run on at, from the Stop's AfterModelResponse to the
	// UserPromptSubmit's, which runs after it in the same walk (reverse
	// list order) and keeps it in its own state. Each run has at most one
	// entry, dropped by the Stop at AfterRun.
	notes sync.Map
	// transcripts holds each run's transcript (*transcript), by run id,
	// from its first use to the run's end. It is made again from the
	// next request's messages after a snapshot is restored.
	transcripts sync.Map
	// agents holds each subagent's (child run's) agent_type, by run id,
	// from its SubagentStart to its end (see AgentType).
	agents sync.Map
	// asyncs holds each run's async handlers (*background), by run id,
	// from the first to the run's end.
	asyncs sync.Map
	// mu serialises a read-modify-write of a hook's run state by parallel
	// tool calls, which would otherwise lose one of two updates.
	mu sync.Mutex
}

// update applies fn to the running hook's run state, saved after.
func (s *set) update(c *hooks.Context, fn func(*runState)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := load(c)
	fn(&st)
	save(c, st)
}

// addPending keeps text for the System of the next model request.
func (s *set) addPending(c *hooks.Context, text string) {
	if text == "" {
		return
	}
	s.update(c, func(st *runState) { st.Pending = joinSystem(st.Pending, text) })
}

// runState is a hook's per-run state, kept by the chain as the hook's
// Context state: Run.Snapshot saves it as JSON, Chain.Resume and
// Chain.Rehydrate restore it, so nothing of a run is lost on a hop.
type runState struct {
	// Context is what SessionStart handlers add to every request's System.
	Context string `json:"context,omitempty"`
	// AgentContext is what SubagentStart handlers add to every request's
	// System of a subagent (a child run).
	AgentContext string `json:"agentContext,omitempty"`
	// AgentType is a subagent's agent_type (AgentType), kept by every
	// hook of the set so that a resumed or rehydrated child keeps it:
	// its SubagentStop matchers are not disarmed by a hop.
	AgentType string `json:"agentType,omitempty"`
	// Pending is the additionalContext of PreToolUse handlers, and of
	// Stop handlers that did not send the run on, for the System of the
	// next model request only (Claude Code adds it to the model's context
	// next time it is called).
	Pending string `json:"pending,omitempty"`
	// Fired lists the "once" handlers that ran in this run, one a line.
	Fired string `json:"fired,omitempty"`
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

// load returns the running hook's state for this run (dialect.Load: a
// restored state that does not decode is a diagnostic, and the run goes
// on from the zero state).
func load(c *hooks.Context) runState { return dialect.Load[runState](c, "Claude Code hook") }

// save makes st the running hook's state for this run; the zero state is
// kept as nil, so that a snapshot holds only hooks with something to say.
func save(c *hooks.Context, st runState) { dialect.Save(c, st) }

// claudeName is the Claude Code name of a host tool. A ToolNames key in
// another case than the host's tool ("Shell" for "shell") maps it, as
// meant, when every such key maps to the same name (see names.go: the
// run says so).
func (s *set) claudeName(host string) string { return s.opts.Tools.Dialect(host) }

// userTurn reports whether req is a user's turn: its last message is the
// user's, and it is not a request that carries a continuation: the run's
// (c.Continuations), or this set's Stop's (st is the running hook's
// state, ContinuedAt kept current), which a snapshot keeps. Once
// Run.Snapshot carries the run's streak, the set's note can go.
func userTurn(c *hooks.Context, req hooks.ModelRequest, st runState) (string, bool) {
	if len(req.Messages) == 0 {
		return "", false
	}
	last := req.Messages[len(req.Messages)-1]
	if last.Role != "user" {
		return "", false
	}
	if c.Continuations() > 0 { // any hook's continuation, of any set
		return "", false
	}
	if st.ContinuedAt != nil && *st.ContinuedAt == c.ModelCalls() {
		return "", false // this set's, when a snapshot lost the run's streak
	}
	return last.Text, true
}
