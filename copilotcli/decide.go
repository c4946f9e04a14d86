package copilotcli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/dialect"
)

// preOutput is what a preToolUse entry may print: Copilot CLI's top-level
// fields, and the hookSpecificOutput of the VS Code format (read for its
// decision; its updatedInput Copilot CLI ignores, and so does this
// package).
type preOutput struct {
	PermissionDecision       *string         `json:"permissionDecision"`
	PermissionDecisionReason *string         `json:"permissionDecisionReason"`
	ModifiedArgs             json.RawMessage `json:"modifiedArgs"`
	AdditionalContext        *string         `json:"additionalContext"`
	SuppressOutput           *bool           `json:"suppressOutput"`
	HookSpecificOutput       *struct {
		HookEventName            *string         `json:"hookEventName"`
		PermissionDecision       *string         `json:"permissionDecision"`
		PermissionDecisionReason *string         `json:"permissionDecisionReason"`
		UpdatedInput             json.RawMessage `json:"updatedInput"`
		AdditionalContext        *string         `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

var preKeys = []string{"permissionDecision", "permissionDecisionReason", "modifiedArgs", "additionalContext", "suppressOutput",
	"hookSpecificOutput", "hookSpecificOutput.hookEventName", "hookSpecificOutput.permissionDecision",
	"hookSpecificOutput.permissionDecisionReason", "hookSpecificOutput.updatedInput", "hookSpecificOutput.additionalContext"}

// errored is what the model reads when a preToolUse entry errors, as
// Copilot CLI words it.
const errored = "Denied by preToolUse hook (hook errored)"

// who names an entry in diagnostics.
func who(r *dialect.Result) string { return "Copilot CLI hook " + r.Handler.Where }

// object reads the JSON object a handler printed, with exact names; blank
// output is none (ok false). Keys no field took are diagnosed.
func object(c *hooks.Context, r *dialect.Result, v any, known []string) (ok bool, err error) {
	text := bytes.TrimSpace(r.Stdout)
	if len(text) == 0 {
		return false, nil
	}
	if text[0] != '{' {
		return false, fmt.Errorf("the output is not a JSON object: %.80q", text)
	}
	unknown, err := dialect.Decode(text, v)
	if err != nil {
		return false, err
	}
	dialect.Unknown(c, who(r), unknown, known)
	return true, nil
}

// decidePre reads a preToolUse entry: any non-zero exit refuses (Copilot
// CLI fails closed on an errored preToolUse hook since 1.0.57; a timeout,
// which the kit reports before Decide, still fails open); "deny" refuses
// with its reason; "ask" asks the host's person; modifiedArgs (an object,
// or a JSON string of one, as older builds wrote it) replaces the
// arguments, and any other modifiedArgs refuses: the call the hook meant
// cannot be known.
func decidePre(c *hooks.Context, at *dialect.At, r *dialect.Result) (dialect.Decision, error) {
	if r.ExitCode != 0 {
		c.Diagnose(fmt.Errorf("%s exited %d (%s): the call is refused, as Copilot CLI refuses it", who(r), r.ExitCode, orDefault(r.Stderr, "no stderr")))
		return dialect.Decision{Block: true, Reason: errored}, nil
	}
	var o preOutput
	ok, err := object(c, r, &o, preKeys)
	if !ok || err != nil {
		return dialect.Decision{}, err
	}
	decision, reason := o.PermissionDecision, o.PermissionDecisionReason
	if hs := o.HookSpecificOutput; hs != nil {
		// Of the two decisions, the stricter decides: an "ask" beside an
		// "allow" asks, whichever format holds which.
		if hs.PermissionDecision != nil && strictness(deref(hs.PermissionDecision)) > strictness(deref(decision)) {
			decision, reason = hs.PermissionDecision, hs.PermissionDecisionReason
		}
		if len(hs.UpdatedInput) > 0 {
			c.Diagnose(fmt.Errorf("%s printed hookSpecificOutput.updatedInput, which Copilot CLI does not read, and neither does this library: use modifiedArgs", who(r)))
		}
	}
	d := dialect.Decision{Reason: orDefault(deref(reason), "Denied by preToolUse hook")}
	switch v := deref(decision); v {
	case "deny":
		d.Block = true
		return d, nil
	case "ask":
		d.Ask, d.Reason = orDefault(deref(reason), "Allow "+at.Tool+"?"), "" // the kit asks; a no refuses
	case "", "allow":
	default:
		// A decision the guard meant but did not spell as Copilot CLI
		// reads it cannot be understood: the call is refused, never run
		// on a guess.
		c.Diagnose(fmt.Errorf("%s: permissionDecision %q is none of allow, deny, ask%s: the call is refused", who(r), v, dialect.DidYouMean(v, []string{"allow", "deny", "ask"})))
		return dialect.Decision{Block: true, Reason: fmt.Sprintf("Copilot CLI hook %s printed a permissionDecision that is none of allow, deny, ask", r.Handler.Where)}, nil
	}
	args, ok := modifiedArgs(o.ModifiedArgs)
	if !ok {
		return dialect.Decision{Block: true, Reason: fmt.Sprintf("Copilot CLI hook %s printed modifiedArgs that are not an object of arguments", r.Handler.Where)}, nil
	}
	d.Arguments = args
	return d, nil
}

// strictness orders decisions: allow and none, then ask, then anything
// else (deny, or a value that is none of them, which refuses).
func strictness(decision string) int {
	switch decision {
	case "", "allow":
		return 0
	case "ask":
		return 1
	}
	return 2
}

// modifiedArgs reads modifiedArgs: an object, or a string holding one.
func modifiedArgs(raw json.RawMessage) (map[string]any, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, true
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil, false
		}
		raw = []byte(strings.TrimSpace(s))
	}
	var m map[string]any
	if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &m) != nil || m == nil {
		return nil, false
	}
	return m, true
}

// permOutput is what a permissionRequest entry may print.
type permOutput struct {
	Behavior  *string `json:"behavior"`
	Message   *string `json:"message"`
	Interrupt *bool   `json:"interrupt"`
}

var permKeys = []string{"behavior", "message", "interrupt"}

// decidePermission reads a permissionRequest entry: "deny", or exit 2
// (its JSON merged over a deny), refuses; other failures are
// diagnostics, as Copilot CLI logs and skips them (the kit still refuses
// what evidently refuses). interrupt is not done: the call is refused and
// the run goes on, with a diagnostic.
func decidePermission(c *hooks.Context, at *dialect.At, r *dialect.Result) (dialect.Decision, error) {
	if r.ExitCode != 0 && r.ExitCode != 2 {
		return dialect.Decision{}, nil // the kit diagnoses the exit
	}
	var o permOutput
	_, err := object(c, r, &o, permKeys)
	if err != nil && r.ExitCode != 2 {
		return dialect.Decision{}, err
	}
	behavior := deref(o.Behavior)
	if r.ExitCode == 2 {
		behavior = "deny"
	}
	switch behavior {
	case "deny":
		if o.Interrupt != nil && *o.Interrupt {
			c.Diagnose(fmt.Errorf("%s asked to interrupt the agent: the call is refused; stopping the run from a permission hook is not done here", who(r)))
		}
		return dialect.Decision{Block: true, Reason: orDefault(deref(o.Message), "Denied by permissionRequest hook")}, nil
	case "", "allow":
		return dialect.Decision{}, nil
	}
	return dialect.Decision{}, fmt.Errorf("behavior %q is neither allow nor deny%s", behavior, dialect.DidYouMean(behavior, []string{"allow", "deny"}))
}

// stopOutput is what an agentStop entry may print.
type stopOutput struct {
	Decision *string `json:"decision"`
	Reason   *string `json:"reason"`
}

// decideStop reads an agentStop entry: "decision": "block" sends the run
// on with the reason as the next prompt (the kit bounds how often). Exit 2
// is a warning there, not a block (Copilot CLI logs it and stops).
func decideStop(c *hooks.Context, at *dialect.At, r *dialect.Result) (dialect.Decision, error) {
	if r.ExitCode != 0 {
		return dialect.Decision{}, nil
	}
	var o stopOutput
	ok, err := object(c, r, &o, []string{"decision", "reason"})
	if !ok || err != nil {
		return dialect.Decision{}, err
	}
	switch d := deref(o.Decision); d {
	case "", "allow":
		return dialect.Decision{}, nil
	case "block":
		reason := strings.TrimSpace(deref(o.Reason))
		if reason == "" {
			return dialect.Decision{}, fmt.Errorf(`"decision": "block" without a reason: there is no prompt to send; the reply stands`)
		}
		return dialect.Decision{Block: true, Reason: reason}, nil
	default:
		return dialect.Decision{}, fmt.Errorf("decision %q is neither block nor allow%s", d, dialect.DidYouMean(d, []string{"block", "allow"}))
	}
}

// decideFailure reads a postToolUseFailure entry: exit 2 returns its
// stderr to the model as recovery guidance, and so does additionalContext;
// both are added to the error result the model reads.
func decideFailure(c *hooks.Context, at *dialect.At, r *dialect.Result) (dialect.Decision, error) {
	var guidance string
	switch r.ExitCode {
	case 2:
		guidance = r.Stderr
	case 0:
		var o struct {
			AdditionalContext *string `json:"additionalContext"`
		}
		if _, err := object(c, r, &o, []string{"additionalContext"}); err != nil {
			return dialect.Decision{}, err
		}
		guidance = deref(o.AdditionalContext)
	}
	if strings.TrimSpace(guidance) == "" {
		return dialect.Decision{}, nil
	}
	text := at.Result.Text + "\n\n" + guidance
	return dialect.Decision{Text: &text}, nil
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func orDefault(s, d string) string {
	if strings.TrimSpace(s) == "" {
		return d
	}
	return s
}
