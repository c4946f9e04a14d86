package hooks

import (
	"encoding/json"
	"fmt"
	"maps"
	"strings"
)

// toolInput is a call's tool_name, tool_input and tool_use_id, or why the
// call cannot be sent exactly (see encodeArguments).
func (h *claudeHook) toolInput(call ToolCall, args map[string]any) (claudeInput, error) {
	text, err := encodeArguments(args)
	if err != nil {
		return claudeInput{}, err
	}
	return claudeInput{HookEventName: h.event, ToolName: h.set.claudeName(call.Name),
		ToolInput: json.RawMessage(text), ToolUseID: call.ID}, nil
}

// BeforeToolExecute runs PreToolUse handlers in the file's order, each
// seeing the arguments as rewritten by those before it. The first deny
// (exit 2, "permissionDecision": "deny", a legacy "decision": "block", or
// "continue": false) refuses the call; "ask" asks a person through
// Host.Confirm once every handler has run without a deny; updatedInput
// replaces the arguments.
func (h *claudeHook) BeforeToolExecute(c *Context, call ToolCall) (*ToolCallPatch, error) {
	name := h.set.claudeName(call.Name)
	args, rewritten := call.Arguments, false
	var asks []string
	for _, hd := range h.handlers {
		if !hd.matcher.matches(name, call.Name) {
			continue
		}
		in, err := h.toolInput(call, args)
		r := claudeResult{err: err}
		if err == nil {
			if r, err = hd.run(c, in); err != nil {
				return nil, err
			}
		} else {
			r.err = &claudeFailure{hd.where, hd.argv, err}
		}
		if r.err != nil {
			if hd.failClosed {
				c.diagnose(h.point, r.err)
				return Refuse(fmt.Sprintf("Tool call blocked: Claude Code hook %s failed", hd.where)), nil
			}
			h.settle(c, &r)
			continue
		}
		r.notify(c, h.event)
		if reason, stop := r.stops(hd.where); stop {
			h.set.update(c.RunID(), func(st *claudeRun) { st.end = &reason })
			return Refuse(reason), nil
		}
		decision, reason := r.permission(hd.where)
		switch decision {
		case "deny":
			return Refuse(reason), nil
		case "ask":
			asks = append(asks, reason)
		}
		if r.out != nil && r.out.HookSpecificOutput.UpdatedInput != nil {
			args, rewritten = r.out.HookSpecificOutput.UpdatedInput, true
		}
	}
	if len(asks) > 0 {
		shown, _ := encodeArguments(args)
		if !c.Confirm(Prompt{Title: "Allow " + name + "?", Body: strings.Join(asks, "\n") + "\n\n" + name + " " + shown}) {
			return Refuse("The user declined this " + name + " call: " + strings.Join(asks, "; ")), nil
		}
	}
	if rewritten {
		return &ToolCallPatch{Arguments: maps.Clone(args)}, nil
	}
	return nil, nil
}

// permission reads a PreToolUse decision: "deny", "ask", or "" (allow or
// no opinion), with its reason.
func (r *claudeResult) permission(where string) (decision, reason string) {
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
	return decision, reason
}

// AfterToolExecute runs PostToolUse handlers on a result that is not an
// error, PostToolUseFailure handlers on one that is, in the file's order:
// updatedToolOutput replaces the result the next handler and the model
// see; a block (exit 2, "decision": "block") and additionalContext are
// added to the result for the model to read; "continue": false ends the
// run at the next model request.
func (h *claudeHook) AfterToolExecute(c *Context, call ToolCall, res ToolResult) (*ToolResultPatch, error) {
	if res.IsError != (h.event == "PostToolUseFailure") {
		return nil, nil
	}
	name, changed := h.set.claudeName(call.Name), false
	for _, hd := range h.handlers {
		if !hd.matcher.matches(name, call.Name) {
			continue
		}
		in, err := h.toolInput(call, call.Arguments)
		if err != nil {
			c.diagnose(h.point, &claudeFailure{hd.where, hd.argv, err})
			continue
		}
		in.ToolResponse = res.Value
		if res.Value == nil {
			in.ToolResponse = res.Text
		}
		if res.IsError {
			in.Error = &res.Text
		}
		r, err := hd.run(c, in)
		if err != nil {
			return nil, err
		}
		if !h.settle(c, &r) {
			continue
		}
		if reason, stop := r.stops(hd.where); stop {
			h.set.update(c.RunID(), func(st *claudeRun) { st.end = &reason })
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
	return &ToolResultPatch{Text: &res.Text, Value: res.Value}, nil
}

// replaceResult applies updatedToolOutput (or updatedMCPToolOutput): a
// string replaces the text; any other JSON value becomes the value, and
// its JSON the text.
func (r *claudeResult) replaceResult(res *ToolResult) bool {
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
func (r *claudeResult) feedback(where string) []string {
	var out []string
	if reason, block := r.blocks(where); block {
		out = append(out, "PostToolUse hook feedback: "+reason)
	}
	if r.out != nil && r.out.HookSpecificOutput.AdditionalContext != "" {
		out = append(out, r.out.HookSpecificOutput.AdditionalContext)
	}
	return out
}
