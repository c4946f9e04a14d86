package claudecode

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/rienda/hooks"
)

// toolInput is the input of a handler of a tool event: tool_name,
// tool_input and tool_use_id, or why the call cannot be sent exactly
// (see encodeArguments).
func (h *hook) toolInput(call hooks.ToolCall, args map[string]any) (input, error) {
	text, err := encodeArguments(args)
	if err != nil {
		return input{}, err
	}
	return input{HookEventName: h.event, ToolName: h.set.claudeName(call.Name),
		ToolInput: json.RawMessage(text), ToolUseID: call.ID}, nil
}

// BeforeToolExecute runs PreToolUse handlers in the file's order, each
// seeing the arguments as rewritten by those before it; a rewrite is seen
// by every handler, those before the one that made it too (see guard).
// The first deny (exit 2, "permissionDecision": "deny", a legacy
// "decision": "block", or "continue": false) refuses the call; "ask" (and
// "defer") asks, once every handler has run without a deny: first the
// set's PermissionRequest handlers, then a person (Context.Review), whose
// verdict applies (see ask); updatedInput replaces the arguments. A
// handler whose decision cannot be read because it printed too much
// refuses the call, as a failClosed handler's failure does
// (hooks.FailClosed).
func (h *hook) BeforeToolExecute(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
	if h.event != "PreToolUse" {
		h.set.started.Store(startKey(c, call), time.Now()) // the set's last hook: the tool is about to run
		return nil, nil
	}
	h.set.noteToolName(c, call.Name)
	var added []string
	defer func() { h.set.addPending(c, strings.Join(added, "\n\n")) }()
	args := call.Arguments
	asks, patch, err := h.guard(c, call, &args, nil, &added)
	if patch != nil || err != nil {
		return patch, err
	}
	if len(asks) > 0 {
		if patch, err := h.ask(c, call, &args, asks, &added); patch != nil || err != nil {
			return patch, err
		}
	}
	if !sameArguments(args, call.Arguments) {
		if refuse := refuseTwoSpellings(h.set.claudeName(call.Name), args); refuse != nil {
			return refuse, nil // a rewrite no handler judged after it made
		}
		return &hooks.ToolCallPatch{Arguments: maps.Clone(args)}, nil
	}
	return nil, nil
}

// maxGuardPasses bounds how many times the PreToolUse handlers are run
// again on a call their rewrites keep changing.
const maxGuardPasses = 4

// guard runs the PreToolUse handlers on *args until every handler that
// decides has seen the arguments that will run: a handler's updatedInput
// is seen by the handlers after it at once, and the handlers before it
// (which judged the call before the rewrite) run again on it, so that no
// rewrite takes a call past a guard listed earlier. approved, when
// non-nil, are arguments a person or a PermissionRequest handler has
// approved: a rewrite of them refuses the call (the call approved would
// not be the call that runs), and an ask about them is answered. It
// returns the asks' reasons, or the patch that refuses the call.
func (h *hook) guard(c *hooks.Context, call hooks.ToolCall, args *map[string]any, approved map[string]any, added *[]string) ([]string, *hooks.ToolCallPatch, error) {
	name := h.set.claudeName(call.Name)
	// seen[i] is the arguments handler i accepts (argumentsKey): those it
	// judged without a rewrite, or its own rewrite. A handler is run again
	// whenever the arguments are no longer those: a rewrite that a handler
	// before it undoes is judged again by the handler that made it.
	seen := make([]string, len(h.handlers))
	for i := range seen {
		seen[i] = "\x00unseen"
	}
	judged := make([]bool, len(h.handlers)) // ran on this call: a "once" guard judges a rewrite of it again
	var asks []string
	for pass := 0; ; pass++ {
		cur := argumentsKey(*args)
		if !slices.ContainsFunc(seen, func(s string) bool { return s != cur }) {
			return asks, nil, nil
		}
		if pass == maxGuardPasses {
			return nil, hooks.Refuse("Claude Code's PreToolUse hooks kept rewriting this " + name + " call: it was not run"), nil
		}
		for i, hd := range h.handlers {
			if seen[i] == cur {
				continue
			}
			seen[i] = cur
			before := reflect.ValueOf(*args).Pointer() // a rewrite is a new map: encode again only then
			ask, ran, patch, err := h.judge(c, call, hd, args, judged[i], added)
			judged[i] = judged[i] || ran
			if patch != nil || err != nil {
				return nil, patch, err
			}
			if reflect.ValueOf(*args).Pointer() != before {
				if next := argumentsKey(*args); next != cur {
					if approved != nil {
						return nil, hooks.Refuse("Claude Code hook " + hd.where + " rewrote this " + name +
							" call after it was approved: the call approved is not the call that would run"), nil
					}
					cur, seen[i] = next, next
				}
			}
			if ask != "" && approved == nil && !slices.Contains(asks, ask) {
				asks = append(asks, ask)
			}
		}
	}
}

// judge runs one PreToolUse handler on *args: its ask's reason, whether
// it ran, or the patch that refuses the call; its updatedInput replaces
// *args. again: it judged this call before a rewrite, so a "once"
// handler runs again.
func (h *hook) judge(c *hooks.Context, call hooks.ToolCall, hd *handler, args *map[string]any, again bool, added *[]string) (ask string, ran bool, patch *hooks.ToolCallPatch, err error) {
	name := h.set.claudeName(call.Name)
	if !h.take(c, hd, callKey(c, call, *args), *args, hd.once && !again, name, call.Name) {
		return "", false, nil, nil
	}
	ask, patch, err = h.judged(c, call, hd, args, added)
	return ask, true, patch, err
}

// judged is judge for a handler that takes the call.
func (h *hook) judged(c *hooks.Context, call hooks.ToolCall, hd *handler, args *map[string]any, added *[]string) (string, *hooks.ToolCallPatch, error) {
	if refuse := refuseTwoSpellings(h.set.claudeName(call.Name), *args); refuse != nil {
		return "", refuse, nil
	}
	var r result
	if in, err := h.toolInput(call, *args); err != nil {
		r.err = hd.fail(err)
	} else if hd.async {
		h.spawn(c, hd, in)
		return "", nil, nil
	} else if r, err = hd.run(c, in); err != nil {
		return "", nil, err
	}
	if f, ok := r.err.(*failure); ok && (hd.failClosed || r.tooMuch) {
		f.then = "the tool call is refused"
		return "", nil, hooks.FailClosed(f)
	}
	if reason, diag, ok := hd.refusal(&r); ok {
		h.settleRefusal(c, &r, diag)
		return "", hooks.Refuse(reason), nil
	}
	if !h.settle(c, &r) {
		return "", nil, nil
	}
	if r.out != nil && r.out.HookSpecificOutput.AdditionalContext != "" {
		if text := cut(r.out.HookSpecificOutput.AdditionalContext); !slices.Contains(*added, text) {
			*added = append(*added, text)
		}
	}
	if reason, stop := r.stops(hd.where); stop {
		h.askEnd(c, reason)
		return "", hooks.Refuse(reason), nil
	}
	decision, reason := r.permission(hd.where)
	if decision == "deny" {
		return "", hooks.Refuse(reason), nil
	}
	if r.out != nil && r.out.HookSpecificOutput.UpdatedInput != nil {
		*args = r.out.HookSpecificOutput.UpdatedInput
	}
	if decision == "ask" {
		return reason, nil, nil
	}
	return "", nil, nil
}

// argumentsKey is args as a handler is sent them, or why they cannot be
// sent: arguments that encode alike are the same call.
func argumentsKey(args map[string]any) string {
	text, err := encodeArguments(args)
	if err != nil {
		return "\x01" + err.Error()
	}
	return text
}

// sameArguments reports whether a and b are the same call's arguments.
func sameArguments(a, b map[string]any) bool {
	return argumentsKey(a) == argumentsKey(b)
}

// callKey names one tool call of a run as a handler sees it, for
// deduplication (see set.firstOf): its id, name and the arguments the
// handler is sent (args: rewritten by the handlers before it), at the
// model call that asked for it.
func callKey(c *hooks.Context, call hooks.ToolCall, args map[string]any) string {
	text, _ := encodeArguments(args)
	return fmt.Sprintf("tool:%d/%s/%s/%s", c.ModelCalls(), call.ID, call.Name, text)
}

// askEnd keeps an end a handler asked for ("continue": false) in the
// hook's run state, for its next BeforeModelRequest: a snapshot between
// the two carries it.
func (h *hook) askEnd(c *hooks.Context, reason string) {
	h.set.update(c, func(st *runState) { st.End = &reason })
}

// permission reads a PreToolUse decision: "deny", "ask", or "" (allow or
// no opinion), with its reason, cut to maxReason.
func (r *result) permission(where string) (decision, reason string) {
	if r.blocked {
		return "deny", r.reason
	}
	if r.out == nil {
		return "", ""
	}
	spec := r.out.HookSpecificOutput
	decision, reason = spec.PermissionDecision, spec.PermissionDecisionReason
	if decision == "" { // the legacy form
		switch r.out.Decision {
		case "block":
			decision = "deny"
		case "approve", "allow", "":
			decision = "allow"
		default:
			decision = r.out.Decision
		}
	}
	if reason == "" {
		reason = r.out.Reason
	}
	switch decision {
	case "deny":
		if reason == "" {
			reason = "refused by Claude Code hook " + where
		}
	case "defer":
		// Claude Code v2.1.89: in a headless session, "defer" pauses the
		// session at the call for the caller to ask a person, and resumes
		// with the hook run again. Here a person is asked at once, as for
		// "ask" (a host that must pause ends the call from its Review and
		// resumes the run later): a call deferred is never a call allowed.
		decision = "ask"
		if reason == "" {
			reason = "Claude Code hook " + where + " defers the decision to a person"
		}
	case "ask":
		if reason == "" {
			reason = "Claude Code hook " + where + " asks"
		}
	case "allow", "":
		return "", ""
	default:
		// A decision that is none of Claude Code's ("Ask", "maybe", a
		// number) is not read as no opinion, which would run the call: it
		// asks, as Claude Code's permission dialog follows a hook whose
		// output fails its schema.
		reason = fmt.Sprintf("Claude Code hook %s answered the decision %q, which is not allow, deny, ask or defer: a person decides", where, decision)
		decision = "ask"
	}
	return decision, cut(reason)
}

// AfterToolExecute runs PostToolUse handlers on a result that is not an
// error, PostToolUseFailure handlers on one that is, in the file's order:
// updatedToolOutput replaces the result the next handler and the model
// see; a block (exit 2, "decision": "block") and additionalContext are
// added to the result for the model to read; "continue": false ends the
// run at the next model request. A handler whose output is too large to
// read withholds the result: it may have been there to redact it.
func (h *hook) AfterToolExecute(c *hooks.Context, call hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
	if h.last {
		h.set.record(c, func(_ *transcript, b *builder) { b.toolResult(call.ID, res.Text, res.IsError, "") })
		if h.set.timed {
			h.set.stopClock(c, call)
		}
	}
	if h.event != "PostToolUse" && h.event != "PostToolUseFailure" || res.IsError != (h.event == "PostToolUseFailure") {
		return nil, nil
	}
	name, changed := h.set.claudeName(call.Name), false
	ms := h.set.duration(c, call)
	for _, hd := range h.handlers {
		if !h.takes(c, hd, callKey(c, call, call.Arguments), call.Arguments, name, call.Name) {
			continue
		}
		in, err := h.toolInput(call, call.Arguments)
		if err != nil {
			c.Diagnose(hd.fail(err))
			continue
		}
		in.ToolResponse = res.Value
		if res.Value == nil {
			in.ToolResponse = res.Text
		}
		if res.IsError {
			in.Error = &res.Text
		}
		in.DurationMS = ms
		if hd.async {
			h.spawn(c, hd, in)
			continue
		}
		r, err := hd.run(c, in)
		if err != nil {
			return nil, err
		}
		if r.tooMuch {
			r.err.(*failure).then = "the result is withheld from the model"
			c.Diagnose(r.err)
			text := "The result was withheld: Claude Code hook " + hd.where + " printed more than can be read."
			return &hooks.ToolResultPatch{Text: &text, IsError: new(true), Value: text}, nil
		}
		if !h.settle(c, &r) {
			continue
		}
		if reason, stop := r.stops(hd.where); stop {
			h.askEnd(c, reason)
		}
		if r.replaceResult(&res) {
			changed = true
		}
		for _, note := range r.feedback(hd.where) {
			res.Text, changed = joinSystem(res.Text, note), true
		}
	}
	if !changed {
		return nil, nil
	}
	return &hooks.ToolResultPatch{Text: &res.Text, Value: res.Value}, nil
}

// replaceResult applies updatedToolOutput (or updatedMCPToolOutput): a
// string replaces the text; any other JSON value becomes the value, and
// its JSON the text.
func (r *result) replaceResult(res *hooks.ToolResult) bool {
	if r.out == nil {
		return false
	}
	raw := r.out.HookSpecificOutput.UpdatedToolOutput
	if len(raw) == 0 {
		raw = r.out.HookSpecificOutput.UpdatedMCPToolOutput
	}
	if len(raw) == 0 || string(raw) == "null" {
		return false
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return false
	}
	if s, ok := v.(string); ok {
		res.Text, res.Value = s, s
		return true
	}
	res.Text, res.Value = string(raw), v
	return true
}

// feedback is what the model reads after the result: a block's reason
// and additionalContext.
func (r *result) feedback(where string) []string {
	var out []string
	if reason, block := r.blocks(where); block {
		out = append(out, "PostToolUse hook feedback: "+reason)
	}
	if r.out != nil && r.out.HookSpecificOutput.AdditionalContext != "" {
		out = append(out, cut(r.out.HookSpecificOutput.AdditionalContext))
	}
	return out
}
