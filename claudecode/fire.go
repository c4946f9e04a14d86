package claudecode

import (
	"fmt"
	"maps"
	"strings"
	"sync/atomic"

	"github.com/rienda/hooks"
)

// The events a host fires (Fire): they have no point of their own in a
// hooks chain, because they happen in the host (a permission dialog, a
// notification, a compaction, a subagent).
var (
	firedOrder  = []string{"PermissionRequest", "Notification", "PreCompact", "PostCompact", "SubagentStart", "SubagentStop", "StopFailure"}
	firedEvents = map[string]bool{"PermissionRequest": true, "Notification": true, "PreCompact": true,
		"PostCompact": true, "SubagentStart": true, "SubagentStop": true, "StopFailure": true}
)

// Event is an event a host fires with Fire.
type Event struct {
	// Name is the Claude Code event: PermissionRequest, Notification,
	// PreCompact, PostCompact, SubagentStart, SubagentStop or StopFailure
	// (a turn that ended on a model API error: the host fires it where its
	// model call failed; its output is advisory).
	Name string
	// Subject is what the groups' matchers match, as Claude Code matches
	// it: the tool name (PermissionRequest: the Claude name, or the
	// host's, which ToolNames maps), notification_type (Notification),
	// trigger, "manual" or "auto" (PreCompact, PostCompact), agent_type
	// (SubagentStart, SubagentStop), the error's type (StopFailure:
	// "rate_limit", …).
	Subject string
	// Input holds the event's own fields, as Claude Code sends them
	// (snake_case: "tool_name", "tool_input", "message",
	// "notification_type", "trigger", "custom_instructions", "agent_id",
	// "agent_type", "agent_transcript_path", "stop_hook_active",
	// "last_assistant_message", …); session_id, transcript_path, cwd,
	// permission_mode and hook_event_name are added.
	Input map[string]any
}

// Outcome is what the handlers of a fired event decided, for the host to
// act on as Claude Code does.
type Outcome struct {
	// Block: a handler exited 2, answered "decision": "block", or, for
	// PermissionRequest, "behavior": "deny". The host should refuse (a
	// permission), or send the subagent on (SubagentStop) with Reason.
	Block bool
	// Allow: a PermissionRequest handler answered "behavior": "allow"
	// (and none denied): the host grants the permission without asking.
	Allow bool
	// Reason is the block's reason (stderr, "reason", or the deny's
	// "message").
	Reason string
	// UpdatedInput is a PermissionRequest allow's new tool input, nil
	// when none.
	UpdatedInput map[string]any
	// Interrupt: a PermissionRequest deny asked to stop the agent.
	Interrupt bool
	// Context is what handlers add to the model's context
	// (additionalContext, as SubagentStart gives it), joined.
	Context string
	// Stop is the reason of a handler's "continue": false (the agent
	// should stop), nil when none asked.
	Stop *string
	// Result is a person's answer in place of the tool (a PermissionRequest
	// no handler decided, asked through Context.Review): the host gives
	// it to the model as the call's result and does not run the tool.
	Result *hooks.ToolResult
}

// fires numbers each Fire call, so that the same handler of two settings
// sets runs once per call (see set.firstOf).
var fires atomic.Int64

// Fire runs the handlers of an event that has no point of its own, with
// the same handlers, matchers, handler fields and outputs as Claude Code,
// over every settings set among hs (what Hooks returned, possibly from
// several settings files, among other hooks), in list order: a handler
// listed by two sets runs once. The first block or deny stops the
// handlers after it; "continue": false stops them too. c is the Context
// of a tool or model call, or of a hook, in which the host fires it (its
// run's transcript, session, workdir and environment; a Context made
// outside a run gives no transcript). Failures of handlers are
// diagnostics (c.Diagnose) and the event goes on, unless a handler sets
// "failClosed" or its answer is too large to read: then a
// PermissionRequest is denied. The error is c's cancellation, or an
// unknown event name.
func Fire(c *hooks.Context, hs []hooks.Hook, ev Event) (Outcome, error) {
	if !firedEvents[ev.Name] {
		return Outcome{}, fmt.Errorf("claudecode: Fire: %q is not an event a host fires (%s)", ev.Name, strings.Join(firedOrder, ", "))
	}
	inv := fmt.Sprintf("fire:%d", fires.Add(1))
	var out Outcome
	var added []string
	seen := map[*set]bool{}
	for _, h := range hs {
		ch, ok := h.(*hook)
		if !ok || seen[ch.set] {
			continue
		}
		seen[ch.set] = true
		done, err := ch.fire(c, ev, inv, &out, &added)
		if err != nil || done {
			out.Context = strings.Join(added, "\n\n")
			return out, err
		}
	}
	out.Context = strings.Join(added, "\n\n")
	if ev.Name == "PermissionRequest" && !out.Allow && !out.Block && out.Stop == nil && c.Interactive() {
		return review(c, ev, out)
	}
	return out, nil
}

// review asks a person about a PermissionRequest no handler decided, as
// Claude Code shows its dialog, through Context.Review with the call
// (tool_name, or the Subject, and tool_input), and puts their verdict in
// the outcome: an approval is Allow (with the person's arguments as
// UpdatedInput when they edited the call), a rejection is Block with the
// person's message, an answer is Result. A verdict that contradicts
// itself (an answer and an edit, an edit of a rejected call) and a failed
// ask are a rejection. The error is c's cancellation.
func review(c *hooks.Context, ev Event, out Outcome) (Outcome, error) {
	name, _ := ev.Input["tool_name"].(string)
	if name == "" {
		name = ev.Subject
	}
	args, _ := ev.Input["tool_input"].(map[string]any)
	id, _ := ev.Input["tool_use_id"].(string)
	shown, _ := encodeArguments(args)
	v, err := c.Review(hooks.Review{Prompt: hooks.Prompt{Title: "Allow " + name + "?", Body: name + " " + cut(shown)},
		Call: &hooks.ToolCall{ID: id, Name: name, Arguments: maps.Clone(args)}})
	if err != nil && c.Err() != nil {
		return out, c.Err()
	}
	switch patch := v.Patch(); { // the core's one reading of a verdict (a failed ask is a rejection)
	case patch == nil:
		out.Allow = true
	case patch.Result != nil:
		out.Result = patch.Result
	case patch.Arguments != nil:
		out.Allow, out.UpdatedInput = true, patch.Arguments
	default:
		out.Block, out.Reason = true, *patch.Reason
	}
	return out, nil
}

// fire runs one set's handlers of ev; done when one decided for all.
func (h *hook) fire(c *hooks.Context, ev Event, inv string, out *Outcome, added *[]string) (done bool, err error) {
	subjects := []string{ev.Subject}
	if ev.Name == "PermissionRequest" {
		subjects = []string{h.set.claudeName(ev.Subject), ev.Subject}
	}
	args, _ := ev.Input["tool_input"].(map[string]any)
	scope := &hook{Base: h.Base, event: ev.Name, set: h.set}
	for _, hd := range h.set.fired[ev.Name] {
		if !scope.takes(c, hd, inv, args, subjects...) {
			continue
		}
		extra := map[string]any{}
		for k, v := range ev.Input {
			extra[k] = v
		}
		in := input{HookEventName: ev.Name, Extra: extra}
		if hd.async {
			scope.spawn(c, hd, in)
			continue
		}
		r, err := hd.run(c, in)
		if err != nil {
			return true, err
		}
		if f, ok := r.err.(*failure); ok && ev.Name == "PermissionRequest" && (hd.failClosed || r.tooMuch) {
			f.then = "the permission is denied"
			c.Diagnose(f)
			out.Block, out.Allow, out.Reason = true, false, f.BlockMessage()
			return true, nil
		}
		if reason, diag, ok := hd.refusal(&r); ok && ev.Name == "PermissionRequest" {
			scope.settleRefusal(c, &r, diag)
			out.Block, out.Allow, out.Reason = true, false, reason
			return true, nil
		}
		if !scope.settle(c, &r) {
			continue
		}
		if r.out != nil && r.out.HookSpecificOutput.AdditionalContext != "" {
			*added = append(*added, cut(r.out.HookSpecificOutput.AdditionalContext))
		}
		if reason, stop := r.stops(hd.where); stop {
			out.Stop = &reason
			return true, nil
		}
		if reason, block := r.blocks(hd.where); block {
			out.Block, out.Allow, out.Reason = true, false, reason
			return true, nil
		}
		if r.out != nil && ev.Name == "PermissionRequest" {
			if permission(out, r.out.HookSpecificOutput.Decision, hd.where) {
				return true, nil
			}
		}
	}
	return false, nil
}

// permission applies a PermissionRequest decision; true for a deny.
func permission(out *Outcome, d permissionDecision, where string) bool {
	switch d.Behavior {
	case "deny":
		out.Block, out.Allow, out.Interrupt = true, false, d.Interrupt
		out.Reason = cut(d.Message)
		if out.Reason == "" {
			out.Reason = "denied by Claude Code hook " + where
		}
		return true
	case "allow":
		out.Allow = true
		if d.UpdatedInput != nil {
			out.UpdatedInput = d.UpdatedInput
		}
	}
	return false
}
