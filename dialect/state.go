package dialect

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/rienda/hooks"
)

// Load returns the running hook's run state as a T: the zero T at first,
// the value Save set, or, after a snapshot was restored (Run.Snapshot,
// Chain.Resume, Chain.Rehydrate), its JSON decoded into a T. A restored
// state that does not decode is a diagnostic naming what (a "Codex
// hook"), and the run goes on from the zero T.
func Load[T any](c *hooks.Context, what string) T {
	var zero T
	switch v := c.State().(type) {
	case nil:
		return zero
	case T:
		return v
	default:
		var st T
		raw, err := json.Marshal(v)
		if err == nil {
			err = json.Unmarshal(raw, &st)
		}
		if err != nil {
			c.Diagnose(fmt.Errorf("the run state of this %s cannot be read (%v): it starts again from nothing", what, err))
			return zero
		}
		return st
	}
}

// Save makes st the running hook's run state (it must marshal to JSON);
// the zero T is kept as nil, so that a snapshot holds only hooks with
// something to say.
func Save[T any](c *hooks.Context, st T) {
	if reflect.ValueOf(&st).Elem().IsZero() {
		if c.State() != nil {
			c.SetState(nil)
		}
		return
	}
	c.SetState(st)
}

// MayContinue reports whether a hook bounded to limit continuations in a
// row may send the run on once more: the run's streak
// (hooks.Context.Continuations), whichever hook made it, is below limit.
// Two settings sets that take turns read one streak, so they cannot keep
// a run going between them.
func MayContinue(c *hooks.Context, limit int) bool {
	return c.Continuations() < limit
}

// UserTurn reports whether req is a user's turn, and its prompt: its last
// message is the user's and the run was not sent on by a hook
// (hooks.Context.Continuations is 0).
func UserTurn(c *hooks.Context, req hooks.ModelRequest) (string, bool) {
	if len(req.Messages) == 0 || c.Continuations() > 0 {
		return "", false
	}
	last := req.Messages[len(req.Messages)-1]
	if last.Role != "user" {
		return "", false
	}
	return last.Text, true
}

// JoinSystem is a system prompt with text added after a blank line.
func JoinSystem(system, text string) string {
	switch {
	case text == "":
		return system
	case system == "":
		return text
	}
	return system + "\n\n" + text
}
