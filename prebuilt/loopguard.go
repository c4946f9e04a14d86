package prebuilt

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/rienda/hooks"
)

// LoopGuardConfig configures LoopGuard.
type LoopGuardConfig struct {
	Name string // "": "loopGuard"
	// Repeats is the count at which a repetition is refused; 0: 3. With
	// 3, the third call in a row of one tool with the same arguments is
	// refused (two are let through), and so is the call that completes
	// the third round of a cycle of two calls (A B A B A B).
	Repeats int
	OnLoop  Action // Refuse (default), EndRun or ErrorRun
	// AcrossChildren makes a run and its child runs (hooks.Run.Child) one
	// sequence of calls. Without it each run, a child too, is watched on
	// its own: a loop is one agent's repetition, and the calls of
	// subagents working side by side, interleaved, would look like loops
	// they are not. A model that starts the same subagent again and again
	// is caught by the parent's own window: the tool call that starts it
	// repeats.
	AcrossChildren bool
}

func (cfg LoopGuardConfig) check() error {
	if cfg.Repeats < 0 || cfg.Repeats == 1 {
		return fmt.Errorf("field Repeats is %d: it must be at least 2 (0 means 3)", cfg.Repeats)
	}
	if cfg.Repeats > maxRepeats { // the window is 2*Repeats calls
		return fmt.Errorf("field Repeats is %d: it must be at most %d", cfg.Repeats, maxRepeats)
	}
	return cfg.OnLoop.check("OnLoop")
}

// maxRepeats bounds Repeats: far past any loop worth a guard, and small
// enough that the window (2*Repeats) neither overflows nor grows without
// bound.
const maxRepeats = 1 << 20

// LoopGuard returns a hook that refuses a tool call that makes Repeats
// identical calls (tool and arguments) in a row, or Repeats rounds of a
// cycle of two calls (A B A B …), with a hint the
// model can act on; with OnLoop EndRun the run then ends at its next model
// request, and with ErrorRun the call fails with a *LoopError (and the run
// ends at its next model request, whatever the hook's policy did). The recent calls are the run state (digests, a few bytes each),
// kept across Snapshot and Resume; parallel calls are taken in the order
// they reach the hook.
func LoopGuard(cfg LoopGuardConfig) hooks.Hook {
	mustValid("LoopGuard", cfg.check())
	n := cfg.Repeats
	if n == 0 {
		n = 3
	}
	h := &loopGuard{name: orName(cfg.Name, "loopGuard"), repeats: n, onLoop: cfg.OnLoop}
	h.state.apart = !cfg.AcrossChildren
	return h
}

type loopGuard struct {
	name    string
	repeats int
	onLoop  Action
	state   keeper[recentCalls]
}

// recentCalls is LoopGuard's run state: the digests of the last calls,
// oldest first.
type recentCalls struct {
	Calls []string `json:"calls,omitempty"`
	End   string   `json:"end,omitempty"`
}

func (h *loopGuard) Name() string { return h.name }

// Handles says BeforeModelRequest only when the hook may end the run there.
func (h *loopGuard) Handles(p hooks.Point) bool {
	return p == hooks.BeforeToolExecute || (p == hooks.BeforeModelRequest && h.onLoop != Refuse)
}

func (h *loopGuard) BeforeToolExecute(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
	s, err := h.state.get(c)
	if err != nil {
		return nil, err
	}
	d := loopDigest(call)
	s.mu.Lock()
	defer s.mu.Unlock()
	// The last 2*Repeats calls are all a loop of period 1 or 2 needs; the
	// window slides in place, so a long run costs no allocation a call.
	calls, keep := s.v.Calls, 2*h.repeats
	if len(calls) >= keep {
		calls = calls[len(calls)-keep+1:]
		copy(s.v.Calls, calls)
		calls = s.v.Calls[:keep-1]
	}
	calls = append(calls, d)
	s.v.Calls = calls
	var reason string
	period := 1
	switch {
	case repeats(calls, 1, h.repeats):
		reason = fmt.Sprintf("Loop detected: %q has been called %d times in a row with the same arguments. Do not call it again with these arguments; change course or answer with what you have.", call.Name, h.repeats)
	case repeats(calls, 2, h.repeats) && calls[len(calls)-1] != calls[len(calls)-2]:
		period = 2
		reason = fmt.Sprintf("Loop detected: the same two tool calls have alternated %d times (this call of %q among them). Stop repeating them; change course or answer with what you have.", h.repeats, call.Name)
	}
	if reason == "" {
		return nil, nil
	}
	if h.onLoop != Refuse && s.v.End == "" {
		s.v.End = "Run ended: " + reason
	}
	if h.onLoop == ErrorRun {
		return nil, &LoopError{Hook: h.name, Tool: call.Name, Period: period, Repeats: h.repeats}
	}
	return hooks.Refuse(reason), nil
}

// LoopError is LoopGuard's error with OnLoop ErrorRun: the tool whose call
// completed the loop, and the loop's shape.
type LoopError struct {
	Hook    string // the hook's name
	Tool    string // the tool called
	Period  int    // 1: one call repeated; 2: two calls alternating
	Repeats int    // the repeats that trip the guard
}

// Error reads "loopGuard: loop detected: "search" called 3 times in a row
// with the same arguments".
func (e *LoopError) Error() string {
	if e.Period == 1 {
		return fmt.Sprintf("%s: loop detected: %q called %d times in a row with the same arguments", e.Hook, e.Tool, e.Repeats)
	}
	return fmt.Sprintf("%s: loop detected: two tool calls alternated %d times (the last of %q)", e.Hook, e.Repeats, e.Tool)
}

// repeats reports whether the last n*period calls are one block of period
// calls repeated n times.
func repeats(calls []string, period, n int) bool {
	w := period * n
	if len(calls) < w {
		return false
	}
	tail := calls[len(calls)-w:]
	for i := period; i < w; i++ {
		if tail[i] != tail[i-period] {
			return false
		}
	}
	return true
}

func (h *loopGuard) BeforeModelRequest(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
	return endIfMarked(c, &h.state, func(v *recentCalls) string { return v.End })
}

// loopDigest is a call's digest as its tool reads it: the tool's name and
// the argument keys, at every depth, in lower case (a tool decoding with
// encoding/json reads "Query" as "query"), so that a model cannot step
// around the guard by respelling one call. Keys that differ only in case
// within one object stay apart.
func loopDigest(call hooks.ToolCall) string {
	data, _ := json.Marshal(foldKeys(call.Arguments, 0))
	sum := sha256.Sum256(append([]byte(strings.ToLower(call.Name)+"\x00"), data...))
	return hex.EncodeToString(sum[:8])
}

// foldKeys returns v with its objects' keys in lower case, to a depth
// past which the value is taken as it is (a value that contains itself
// ends there too).
func foldKeys(v any, depth int) any {
	if depth > 64 {
		return v
	}
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out := make(map[string]any, len(t))
		for _, k := range keys {
			low := strings.ToLower(k)
			if _, taken := out[low]; taken {
				low = k // two keys of one spelling: each kept
			}
			out[low] = foldKeys(t[k], depth+1)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = foldKeys(e, depth+1)
		}
		return out
	}
	return v
}
