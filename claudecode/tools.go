package claudecode

import (
	"encoding/json"
	"fmt"
	"maps"
	"strings"

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
// seeing the arguments as rewritten by those before it. The first deny
// (exit 2, "permissionDecision": "deny", a legacy "decision": "block", or
// "continue": false) refuses the call; "ask" asks a person through
// Host.Confirm once every handler has run without a deny; updatedInput
// replaces the arguments. A handler whose decision cannot be read because
// it printed too much refuses the call, as a failClosed handler's failure
// does (hooks.FailClosed).
func (h *hook) BeforeToolExecute(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
	h.set.noteToolName(c, call.Name)
	name := h.set.claudeName(call.Name)
	args, rewritten := call.Arguments, false
	var asks, added []string
	defer func() { h.set.addPending(c, strings.Join(added, "\n\n")) }()
	for _, hd := range h.handlers {
		if !h.takes(c, hd, callKey(c, call, args), args, name, call.Name) {
			continue
		}
		var r result
		if in, err := h.toolInput(call, args); err != nil {
			r.err = hd.fail(err)
		} else if hd.async {
			h.spawn(c, hd, in)
			continue
		} else if r, err = hd.run(c, in); err != nil {
			return nil, err
		}
		if f, ok := r.err.(*failure); ok && (hd.failClosed || r.tooMuch) {
			f.then = "the tool call is refused"
			return nil, hooks.FailClosed(f)
		}
		if reason, diag, ok := hd.refusal(&r); ok {
			h.settleRefusal(c, &r, diag)
			return hooks.Refuse(reason), nil
		}
		if !h.settle(c, &r) {
			continue
		}
		if r.out != nil && r.out.HookSpecificOutput.AdditionalContext != "" {
			added = append(added, cut(r.out.HookSpecificOutput.AdditionalContext))
		}
		if reason, stop := r.stops(hd.where); stop {
			h.askEnd(c, reason)
			return hooks.Refuse(reason), nil
		}
		decision, reason := r.permission(hd.where)
		switch decision {
		case "deny":
			return hooks.Refuse(reason), nil
		case "ask":
			asks = append(asks, reason)
		}
		if r.out != nil && r.out.HookSpecificOutput.UpdatedInput != nil {
			args, rewritten = r.out.HookSpecificOutput.UpdatedInput, true
		}
	}
	if len(asks) > 0 {
		shown, _ := encodeArguments(args)
		if !c.Confirm(hooks.Prompt{Title: "Allow " + name + "?", Body: strings.Join(asks, "\n") + "\n\n" + name + " " + cut(shown)}) {
			return hooks.Refuse("The user declined this " + name + " call: " + strings.Join(asks, "; ")), nil
		}
	}
	if rewritten {
		return &hooks.ToolCallPatch{Arguments: maps.Clone(args)}, nil
	}
	return nil, nil
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
		case "approve":
			decision = "allow"
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
	case "ask":
		if reason == "" {
			reason = "Claude Code hook " + where + " asks"
		}
	default:
		return "", ""
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
	}
	if h.event != "PostToolUse" && h.event != "PostToolUseFailure" || res.IsError != (h.event == "PostToolUseFailure") {
		return nil, nil
	}
	name, changed := h.set.claudeName(call.Name), false
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
