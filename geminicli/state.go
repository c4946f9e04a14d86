package geminicli

import (
	"encoding/json"
	"slices"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/dialect"
)

// runState is a hook's per-run state, kept by the chain as the hook's
// Context state: Run.Snapshot saves it as JSON, Chain.Resume and
// Chain.Rehydrate restore it.
type runState struct {
	// End is an end a tool event asked for ("continue": false), taken at
	// the next model request.
	End *string `json:"end,omitempty"`
	// Contexts are the additional contexts SessionStart and BeforeAgent
	// handlers gave, each kept in the conversation as Gemini CLI keeps it
	// in its history: re-added to every later request of the run.
	Contexts []addedContext `json:"contexts,omitempty"`
	// Prompted is, for BeforeAgent, the user message it last ran for.
	Prompted *addedContext `json:"prompted,omitempty"`
	// Turn is AfterAgent's view of the user's turn.
	Turn *turn `json:"turn,omitempty"`
	// Request is, for AfterModel, the request as it went to the model
	// (its llm_request view), from BeforeModelRequest to the reply.
	Request json.RawMessage `json:"request,omitempty"`
}

// addedContext is one <hook_context> added to the conversation.
type addedContext struct {
	// At is the index of the user message it joins; -1: the first user
	// message, whichever it is (SessionStart's, prepended).
	At int `json:"at"`
	// Prompt is what that message said, so that a transcript the host
	// changed never gets it on another message.
	Prompt string `json:"prompt,omitempty"`
	Text   string `json:"text"`
}

// turn is what AfterAgent knows of the turn under way.
type turn struct {
	Prompt    string `json:"prompt"`              // the user's request that began it
	Response  string `json:"response"`            // every reply's text, joined with newlines
	Active    bool   `json:"active,omitempty"`    // the turn goes on because AfterAgent sent it on
	Retries   int    `json:"retries,omitempty"`   // times in a row AfterAgent sent it on
	RetriedAt *int   `json:"retriedAt,omitempty"` // ModelCalls of the reply it sent the run on after; the retry's request has the same
}

// load returns the running hook's state for this run (dialect.Load: a
// restored state that does not decode is a diagnostic, and the run goes
// on from the zero state).
func load(c *hooks.Context) runState { return dialect.Load[runState](c, "Gemini CLI hook") }

// save makes st the running hook's state for this run; the zero state is
// kept as nil, so that a snapshot holds only hooks with something to say.
func save(c *hooks.Context, st runState) {
	if len(st.Contexts) == 0 {
		st.Contexts = nil
	}
	st.Contexts = slices.Clone(st.Contexts)
	if len(st.Request) == 0 {
		st.Request = nil
	}
	dialect.Save(c, st)
}

// askEnd keeps an end for the next model request.
func askEnd(c *hooks.Context, reason string) {
	st := load(c)
	st.End = &reason
	save(c, st)
}
