package claudecode

import (
	"fmt"

	"github.com/rienda/hooks"
)

// A guard's output is often built from the call it judges (a deny whose
// reason quotes the command, pasted into the JSON as text), so the model
// shapes it: a quote in the command breaks the JSON, which Claude Code
// then reads as plain text (no decision), and a command that makes the
// script crash after it printed its deny ends it with exit 1, whose
// stdout Claude Code does not read. Neither may turn the guard's refusal
// into an allow (the library's rule: a refusal never becomes an allow by
// accident). So, for the events that guard a tool (PreToolUse, and a
// fired PermissionRequest), what a handler printed is read twice: as
// Claude Code reads it, and for an evident refusal (hooks.EvidentRefusal:
// a decision key, or a key within a typo of it, in any case, holding a
// refusal word, in malformed JSON too). An evident refusal refuses, with
// a diagnostic saying how Claude Code would have read it; so does a deny
// printed before a failure (an exit other than 0 and 2, a timeout, an
// http error status). A refusal word in the text of a valid JSON string
// (a reason that quotes "echo deny") never refuses.

// guards reports whether h's event guards a tool call.
func (h *handler) guards() bool {
	return h.event == "PreToolUse" || h.event == "PermissionRequest"
}

// readEvident notes, in r, an evident refusal in out that the exact
// reading of r does not already hold, for a handler that guards a tool.
func (h *handler) readEvident(out []byte, r *result) {
	if !h.guards() || r.denies(h.event) {
		return
	}
	if what, ok := hooks.EvidentRefusal(out); ok {
		r.evident = what
	}
}

// denies reports whether r's exact reading refuses at event, as Claude
// Code reads it: exit 2, "continue": false; at PreToolUse a deny or a
// legacy block, at PermissionRequest a block or "behavior": "deny".
func (r *result) denies(event string) bool {
	if r.blocked {
		return true
	}
	if r.out == nil {
		return false
	}
	if _, stop := r.stops(""); stop {
		return true
	}
	if event == "PermissionRequest" {
		return r.out.Decision == "block" || r.out.HookSpecificOutput.Decision.Behavior == "deny"
	}
	d, _ := r.permission("")
	return d == "deny"
}

// refusal is the reason r, h's result, refuses a guarded call although Claude Code
// would not read a refusal in it: a readable deny printed before a
// failure, or an evident refusal; the diagnostic says which. ok is false
// when neither: r goes its way (a failure follows its policy).
func (h *handler) refusal(r *result) (reason string, diag error, ok bool) {
	where := h.where
	switch {
	case !h.guards():
		return "", nil, false
	case r.err != nil && r.denies(h.event):
		reason = r.denyReason(where)
		diag = fmt.Errorf("%w; it printed a refusal first, which refuses", r.err)
	case r.evident != "":
		reason = r.denyReason(where)
		diag = fmt.Errorf("the Claude Code hook %s printed output that evidently refuses (%s), which Claude Code would not read as a deny: it refuses; print the decision as valid JSON (json.dumps, jq --arg), its names as Claude Code reads them", where, r.evident)
		if r.err != nil {
			diag = fmt.Errorf("%w; also %w", diag, r.err)
		}
	default:
		return "", nil, false
	}
	return reason, diag, true
}

// denyReason is the reason of a refusal r holds, as far as it can be
// read: its deny's, stop's or block's reason, else a fixed text.
func (r *result) denyReason(where string) string {
	if r.blocked && r.reason != "" {
		return r.reason
	}
	if r.out != nil {
		if _, reason := r.permission(where); reason != "" {
			return reason
		}
		if reason, stop := r.stops(where); stop {
			return reason
		}
		if m := r.out.HookSpecificOutput.Decision.Message; m != "" {
			return cut(m)
		}
		if r.out.Reason != "" {
			return cut(r.out.Reason)
		}
	}
	return "refused by Claude Code hook " + where
}

// settleRefusal reports what refusal found (diag) and what else the
// output held (settle: ignored keys, a systemMessage), for a result that
// refuses through refusal.
func (h *hook) settleRefusal(c *hooks.Context, r *result, diag error) {
	c.Diagnose(diag)
	r.err = nil
	h.settle(c, r)
}
