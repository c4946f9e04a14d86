package copilotcli

import (
	"fmt"
	"strings"

	"github.com/rienda/hooks"
)

// toolPayload is the payload of a tool event: the tool's Copilot name and
// its arguments (toolArgs: an object, or a JSON string of it with
// ToolArgsAsString; tool_input: an object).
func (h *hook) toolPayload(c *hooks.Context, name string, arguments map[string]any) map[string]any {
	p := h.payload(c)
	p[h.key("toolName", "tool_name")] = name
	if arguments == nil {
		arguments = map[string]any{}
	}
	var a any = arguments
	if !h.ev.pascal && h.set.opts.argsAsString {
		data, _ := encodeJSON(arguments)
		a = string(data)
	}
	p[h.key("toolArgs", "tool_input")] = a
	return p
}

// selected reports whether e runs for the tool, with a diagnostic when it
// does only because case was set aside.
func (h *hook) selected(c *hooks.Context, e *entry, name string) bool {
	ok, folded := e.matcher.match(name)
	if folded {
		c.Diagnose(fmt.Errorf("copilotcli: %s.matcher %q names tool %q in another case: Copilot CLI would not run it; it runs here", e.where, e.matcher.text, name))
	}
	return ok
}

// BeforeToolExecute runs preToolUse or permissionRequest entries, one
// after another: the first that refuses decides, and no later one runs.
func (h *hook) BeforeToolExecute(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
	name := h.set.copilotName(call.Name)
	current, changed := call.Arguments, false
	for _, e := range h.entries {
		if !h.selected(c, e, name) {
			continue
		}
		if e.cannot != "" {
			return hooks.Refuse(fmt.Sprintf("Copilot CLI hook %s cannot run here: it %s", e.where, e.cannot)), nil
		}
		r, err := e.run(c, h.toolPayload(c, name, current))
		if err != nil {
			return nil, err
		}
		var v verdict
		if h.ev.kind == kPreToolUse {
			v = h.preVerdict(c, e, r)
		} else {
			v = h.permVerdict(c, e, r)
		}
		switch {
		case v.failClosed != nil:
			return nil, hooks.FailClosed(v.failClosed)
		case v.deny:
			if v.end != "" {
				st := load(c)
				st.End = v.end
				c.SetState(st)
			}
			return hooks.Refuse(v.reason), nil
		case v.ask:
			if !c.Confirm(hooks.Prompt{Title: "Allow " + name + "?", Body: v.reason}) {
				return hooks.Refuse(orDefault(v.reason, "Denied by preToolUse hook")), nil
			}
		}
		if v.args != nil {
			current, changed = v.args, true
		}
	}
	if changed {
		return &hooks.ToolCallPatch{Arguments: current}, nil
	}
	return nil, nil
}

// verdict is what one guard entry decided.
type verdict struct {
	deny, ask  bool
	reason     string
	end        string         // deny with interrupt: the run ends
	args       map[string]any // modifiedArgs
	failClosed error          // refuse as a failure: "Tool call blocked: ..."
}

// evident denies when the output evidently refuses though Copilot CLI
// would not read a deny in it (a deny a quote broke, "Deny", a deny
// printed before a timeout): the model can make a guard's output say
// deny, never stop saying it.
func evident(c *hooks.Context, e *entry, out []byte, why string) (verdict, bool) {
	what, ok := hooks.EvidentRefusal(out)
	if !ok {
		return verdict{}, false
	}
	c.Diagnose(fmt.Errorf("copilotcli: %s: %s, but its output evidently refuses (%s): denied", e.where, why, what))
	return verdict{deny: true, reason: "Denied by preToolUse hook " + e.where}, true
}

// preVerdict reads a preToolUse entry's run: any non-zero exit, a start
// failure, output too large refuse (Copilot CLI fails closed on an
// errored preToolUse hook since 1.0.57); a timeout fails open, as there,
// unless what it printed first evidently refuses.
func (h *hook) preVerdict(c *hooks.Context, e *entry, r ran) verdict {
	switch {
	case r.tooBig:
		return verdict{failClosed: r.err}
	case r.timedOut:
		if v, ok := evident(c, e, r.stdout, "it timed out"); ok {
			return v
		}
		c.Diagnose(r.err)
		return verdict{}
	case r.err != nil:
		return verdict{failClosed: r.err}
	case r.code != 0:
		return verdict{failClosed: &failure{e.where, fmt.Errorf("exited %d: %s", r.code, r.stderr)}}
	}
	var o preOutput
	present, unknown, err := decode(r.stdout, &o, preKeys)
	if !present {
		return verdict{}
	}
	if err != nil {
		if v, ok := evident(c, e, r.stdout, "its output cannot be read"); ok {
			return v
		}
		c.Diagnose(&failure{e.where, fmt.Errorf("no decision: %w", err)})
		return verdict{}
	}
	for _, k := range unknown {
		c.Diagnose(fmt.Errorf("copilotcli: %s printed %s", e.where, k))
	}
	decision, reason := o.PermissionDecision, o.PermissionDecisionReason
	if hs := o.HookSpecificOutput; hs != nil && (decision == nil || *decision != "deny") && hs.PermissionDecision != nil {
		decision, reason = hs.PermissionDecision, hs.PermissionDecisionReason
		if len(hs.UpdatedInput) > 0 {
			c.Diagnose(fmt.Errorf("copilotcli: %s: hookSpecificOutput.updatedInput is not read (Copilot CLI ignores it): use modifiedArgs", e.where))
		}
	}
	v := verdict{reason: orDefault(deref(reason), "Denied by preToolUse hook")}
	switch d := deref(decision); d {
	case "deny":
		v.deny = true
		return v
	case "ask":
		v.ask = true
	case "", "allow":
	default:
		if ev, ok := evident(c, e, r.stdout, fmt.Sprintf("permissionDecision %q is none of allow, deny, ask", d)); ok {
			return ev
		}
		c.Diagnose(fmt.Errorf("copilotcli: %s: permissionDecision %q is none of allow, deny, ask: no decision", e.where, d))
	}
	if ev, ok := evident(c, e, r.stdout, "it printed no deny Copilot CLI reads"); ok {
		return ev
	}
	a, ok := args(o.ModifiedArgs)
	if !ok {
		return verdict{failClosed: &failure{e.where, fmt.Errorf("modifiedArgs %.80s is not an object of arguments", o.ModifiedArgs)}}
	}
	v.args = a
	return v
}

// permVerdict reads a permissionRequest entry's run: exit 2 denies (its
// JSON merged over a deny); other failures are diagnostics, as Copilot CLI
// logs and skips them, unless the output evidently refuses.
func (h *hook) permVerdict(c *hooks.Context, e *entry, r ran) verdict {
	switch {
	case r.tooBig:
		return verdict{failClosed: r.err}
	case r.err != nil || (r.code != 0 && r.code != 2):
		if v, ok := evident(c, e, r.stdout, "it failed"); ok {
			return v
		}
		h.report(c, e, r)
		return verdict{}
	}
	var o permOutput
	_, unknown, err := decode(r.stdout, &o, permKeys)
	if err != nil {
		if v, ok := evident(c, e, r.stdout, "its output cannot be read"); ok {
			return v
		}
		if r.code != 2 {
			c.Diagnose(&failure{e.where, fmt.Errorf("no decision: %w", err)})
			return verdict{}
		}
		o = permOutput{}
	}
	for _, k := range unknown {
		c.Diagnose(fmt.Errorf("copilotcli: %s printed %s", e.where, k))
	}
	behavior := deref(o.Behavior)
	if r.code == 2 {
		behavior = "deny"
	}
	v := verdict{reason: orDefault(deref(o.Message), "Denied by permissionRequest hook")}
	switch behavior {
	case "deny":
		v.deny = true
		if o.Interrupt != nil && *o.Interrupt {
			v.end = v.reason
		}
		return v
	case "", "allow":
	default:
		c.Diagnose(fmt.Errorf("copilotcli: %s: behavior %q is neither allow nor deny: no decision", e.where, behavior))
	}
	if ev, ok := evident(c, e, r.stdout, "it printed no deny Copilot CLI reads"); ok {
		return ev
	}
	return v
}

// AfterToolExecute runs postToolUse entries for a result, or
// postToolUseFailure entries for an error result. A failure entry that
// exits 2 (its stderr) or prints additionalContext gives the model
// recovery guidance, appended to the result.
func (h *hook) AfterToolExecute(c *hooks.Context, call hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
	if (h.ev.kind == kPostToolUseFailure) != res.IsError {
		return nil, nil
	}
	name := h.set.copilotName(call.Name)
	p := h.toolPayload(c, name, call.Arguments)
	if res.IsError {
		p["error"] = res.Text
	} else {
		p[h.key("toolResult", "tool_result")] = map[string]any{
			h.key("resultType", "result_type"): "success", h.key("textResultForLlm", "text_result_for_llm"): res.Text}
	}
	var guidance []string
	for _, e := range h.entries {
		if !h.selected(c, e, name) || e.cannot != "" {
			continue
		}
		r, err := e.run(c, p)
		if err != nil {
			return nil, err
		}
		if h.ev.kind != kPostToolUseFailure {
			h.report(c, e, r)
			continue
		}
		switch {
		case r.err == nil && r.code == 2 && r.stderr != "":
			guidance = append(guidance, r.stderr)
		case r.err == nil && r.code == 0:
			var o failureOutput
			if _, _, err := decode(r.stdout, &o, []string{"additionalContext"}); err == nil && deref(o.AdditionalContext) != "" {
				guidance = append(guidance, *o.AdditionalContext)
			}
		default:
			h.report(c, e, r)
		}
	}
	if len(guidance) == 0 {
		return nil, nil
	}
	text := res.Text + "\n\n" + strings.Join(guidance, "\n")
	return &hooks.ToolResultPatch{Text: &text}, nil
}

// AfterModelResponse runs agentStop entries when the reply ends the
// agent's turn (no tool calls): "decision": "block" sends the run on with
// the reason as the next prompt, at most StopContinuations times in a row.
func (h *hook) AfterModelResponse(c *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
	if len(resp.ToolCalls) > 0 {
		return nil, nil
	}
	p := h.payload(c)
	p[h.key("transcriptPath", "transcript_path")] = ""
	p[h.key("stopReason", "stop_reason")] = "end_turn"
	for _, e := range h.entries {
		if e.cannot != "" {
			continue
		}
		r, err := e.run(c, p)
		if err != nil {
			return nil, err
		}
		if r.err != nil || r.code != 0 {
			h.report(c, e, r) // exit 2 is a warning for agentStop, not a block
			continue
		}
		var o stopOutput
		_, unknown, err := decode(r.stdout, &o, stopKeys)
		if err != nil {
			c.Diagnose(&failure{e.where, fmt.Errorf("no decision: %w", err)})
			continue
		}
		for _, k := range unknown {
			c.Diagnose(fmt.Errorf("copilotcli: %s printed %s", e.where, k))
		}
		if deref(o.Decision) != "block" {
			continue
		}
		reason := strings.TrimSpace(deref(o.Reason))
		if reason == "" {
			c.Diagnose(fmt.Errorf("copilotcli: %s: decision block without a reason: there is no prompt to send, the reply stands", e.where))
			continue
		}
		if c.Continuations() >= h.set.opts.continuations {
			c.Diagnose(fmt.Errorf("copilotcli: %s: the run was sent on %d times in a row: the reply stands", e.where, c.Continuations()))
			return nil, nil
		}
		return &hooks.ModelResponsePatch{Continue: &reason}, nil
	}
	return nil, nil
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
