package cursor

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/dialect"
)

// kindOf is the Cursor family of a host tool.
func (s *set) kindOf(tool string) toolKind { return s.opts.kinds[tool] }

// cursorName is the name Cursor's scripts see for a host tool.
func (s *set) cursorName(host string) string { return s.opts.Tools.Dialect(host) }

// fires reports whether the event fires for a call of the tool.
func (h *hook) fires(tool string) bool {
	k := h.set.kindOf(tool)
	switch h.ev.kind {
	case kPreToolUse, kPostToolUse, kPostToolUseFailure:
		return true
	case kBeforeShell, kAfterShell:
		return k == kindShell
	case kBeforeMCP, kAfterMCP:
		return k == kindMCP
	case kBeforeRead:
		return k == kindRead
	case kAfterEdit:
		return k == kindEdit
	}
	return false
}

// selected reports whether e runs for subject (a tool name, or a shell
// command), with a diagnostic when only case set aside made it.
func (h *hook) selected(c *hooks.Context, e *entry, subject string) bool {
	ok, folded := e.matcher.match(subject)
	if folded {
		c.Diagnose(fmt.Errorf("cursor: %s.matcher %q names %q in another case: it runs for it", e.where, e.matcher.text, subject))
	}
	return ok
}

// subject is what the event's matcher is tested against for a call.
func (h *hook) subject(call hooks.ToolCall) string {
	if h.ev.matchOn == "command" {
		s, _ := call.Arguments["command"].(string)
		return s
	}
	return h.set.cursorName(call.Name)
}

// BeforeToolExecute runs the guard's entries one after another: the first
// that refuses decides, and no later one runs. The entries before the
// last one that rewrote the call run again on the call as rewritten: a
// later entry's updated_input never carries a call past an earlier
// guard, and a rewrite to yet another call refuses (the rewrites do not
// settle).
func (h *hook) BeforeToolExecute(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
	if !h.fires(call.Name) {
		return nil, nil
	}
	current, last := call.Arguments, -1
	for i, e := range h.entries {
		next, patch, err := h.guard(c, call, e, current)
		if patch != nil || err != nil {
			return patch, err
		}
		if next != nil {
			current, last = next, i
		}
	}
	if last < 0 {
		return nil, nil
	}
	for _, e := range h.entries[:last] {
		next, patch, err := h.guard(c, call, e, current)
		if patch != nil || err != nil {
			return patch, err
		}
		if next != nil && !reflect.DeepEqual(next, current) {
			return hooks.Refuse(fmt.Sprintf("Cursor hook %s rewrites the call %s rewrote: the rewrites do not settle on one call", e.where, h.entries[last].where)), nil
		}
	}
	return &hooks.ToolCallPatch{Arguments: current}, nil
}

// guard runs one entry on the call with args: a refusal is a patch (or a
// FailClosed error); next is the arguments an updated_input sets.
func (h *hook) guard(c *hooks.Context, call hooks.ToolCall, e *entry, args map[string]any) (next map[string]any, refuse *hooks.ToolCallPatch, err error) {
	if !h.selected(c, e, h.subject(hooks.ToolCall{Name: call.Name, Arguments: args})) {
		return nil, nil, nil
	}
	p, why := h.guardPayload(c, call, args)
	if why != "" {
		return nil, hooks.Refuse(why), nil
	}
	r, err := h.run(c, e, p)
	if err != nil {
		return nil, nil, err
	}
	v := h.verdict(c, e, r)
	switch {
	case v.failClosed != nil:
		return nil, nil, hooks.FailClosed(v.failClosed)
	case v.deny:
		return nil, hooks.Refuse(dialect.Cut(v.reason)), nil
	case v.ask:
		if !c.Confirm(hooks.Prompt{Title: "Allow " + h.set.cursorName(call.Name) + "?", Body: v.reason}) {
			return nil, hooks.Refuse(dialect.Cut(orDefault(v.reason, "Blocked by Cursor hook "+e.where))), nil
		}
	}
	if v.input == nil {
		return nil, nil, nil
	}
	next, err = h.applyInput(args, v.input)
	if err != nil {
		return nil, nil, hooks.FailClosed(&failure{e.where, err})
	}
	return next, nil, nil
}

// guardPayload is the event's input for a call with these arguments;
// refuse, when set, is why the call is refused without running a hook:
// what the hook would judge cannot be shown to it.
func (h *hook) guardPayload(c *hooks.Context, call hooks.ToolCall, args map[string]any) (map[string]any, string) {
	p := h.payload(c)
	name := h.set.cursorName(call.Name)
	switch h.ev.kind {
	case kPreToolUse:
		p["tool_name"], p["tool_input"], p["tool_use_id"], p["cwd"] = name, orEmpty(args), call.ID, workdir(c)
	case kBeforeShell:
		cmd, ok := args["command"].(string)
		if !ok {
			return nil, fmt.Sprintf("the %q argument of %s is not a string: beforeShellExecution hooks cannot see the command", "command", call.Name)
		}
		p["command"], p["cwd"] = cmd, shellCwd(c, args)
	case kBeforeMCP:
		data, _ := dialect.EncodeJSON(orEmpty(args))
		p["tool_name"], p["tool_input"] = name, string(data)
	case kBeforeRead:
		path, ok := filePath(c, args)
		if !ok {
			return nil, fmt.Sprintf("%s names no file beforeReadFile hooks can be shown (no file_path or path, or a file: URL of another host)", call.Name)
		}
		content, why := readContent(path)
		if why != "" {
			return nil, why
		}
		p["file_path"], p["content"], p["attachments"] = path, content, []any{}
	}
	return p, ""
}

// applyInput applies an updated_input: preToolUse's replaces the
// arguments; beforeShellExecution's "command" replaces the command.
func (h *hook) applyInput(args, input map[string]any) (map[string]any, error) {
	if h.ev.kind == kPreToolUse {
		return input, nil
	}
	cmd, ok := input["command"].(string)
	if !ok || len(input) != 1 {
		return nil, errors.New(`updated_input of beforeShellExecution must be {"command": "<text>"}`)
	}
	next := make(map[string]any, len(args))
	for k, v := range args {
		next[k] = v
	}
	next["command"] = cmd
	return next, nil
}

// verdict is what one guard entry decided.
type verdict struct {
	deny, ask  bool
	reason     string
	input      map[string]any // updated_input
	failClosed error
}

// verdict reads a guard entry's run as Cursor does: exit 0 with JSON
// decides; exit 2 denies; any other end is a failure, which lets the call
// run unless the entry says failClosed. Output too large to read refuses,
// and so does output that evidently refuses (a deny a quote broke, a deny
// printed before a crash or a timeout): the model can make a guard's
// output say deny, never stop saying it.
func (h *hook) verdict(c *hooks.Context, e *entry, r ran) verdict {
	def := "Blocked by Cursor hook " + e.where
	var o guardOutput
	present, unknown, derr := decode(r.stdout, &o, guardKeys)
	switch {
	case r.tooBig:
		return verdict{failClosed: r.err}
	case r.err == nil && r.code == 2:
		reason := ""
		if derr == nil {
			reason = o.agentReason()
		}
		return verdict{deny: true, reason: orDefault(orDefault(reason, r.stderr), def)}
	case r.err != nil || r.code != 0:
		return h.failed(c, e, r, r.err)
	case derr != nil:
		return h.failed(c, e, r, &failure{e.where, fmt.Errorf("its output cannot be read: %w", derr)})
	case !present:
		return verdict{}
	}
	h.unknown(c, e, unknown)
	v := verdict{reason: orDefault(o.agentReason(), def)}
	switch perm := o.permission(); perm {
	case "deny":
		v.deny = true
		return v
	case "ask":
		v.ask = h.ev.kind != kBeforeRead // beforeReadFile has no ask
	case "", "allow":
	default:
		// A permission the guard meant but did not spell as Cursor reads
		// it cannot be understood: the call is refused, never run on a
		// guess.
		c.Diagnose(fmt.Errorf("cursor: %s: permission %.80q is none of allow, deny, ask: denied", e.where, perm))
		v.deny, v.reason = true, orDefault(o.agentReason(), def+": its permission is none of allow, deny, ask")
		return v
	}
	if o.Continue != nil && !*o.Continue {
		v.deny = true
		return v
	}
	if what, ok := dialect.Evident(r.stdout); ok {
		c.Diagnose(fmt.Errorf("cursor: %s printed no deny Cursor reads, but its output evidently refuses (%s): denied", e.where, what))
		return verdict{deny: true, reason: def}
	}
	input, ok := object(o.UpdatedInput)
	if !ok {
		return verdict{failClosed: &failure{e.where, fmt.Errorf("updated_input %.80s is not an object of arguments", o.UpdatedInput)}}
	}
	if input != nil && h.ev.kind != kPreToolUse && h.ev.kind != kBeforeShell {
		c.Diagnose(fmt.Errorf("cursor: %s: updated_input is not read for %s", e.where, h.ev.name))
		input = nil
	}
	v.input = input
	return v
}

// failed is the verdict of an entry that failed: a refusal its output
// evidently holds denies; else failClosed refuses; else a diagnostic.
func (h *hook) failed(c *hooks.Context, e *entry, r ran, err error) verdict {
	if err == nil {
		err = &failure{e.where, fmt.Errorf("exited %d: %s", r.code, r.stderr)}
	}
	if what, ok := dialect.Evident(r.stdout); ok {
		c.Diagnose(fmt.Errorf("cursor: %s: %v, but its output evidently refuses (%s): denied", e.where, err, what))
		return verdict{deny: true, reason: "Blocked by Cursor hook " + e.where}
	}
	if e.failClosed {
		return verdict{failClosed: err}
	}
	c.Diagnose(err)
	return verdict{}
}

// AfterToolExecute runs the after-events' entries; they observe (their
// output is not read).
func (h *hook) AfterToolExecute(c *hooks.Context, call hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
	if !h.fires(call.Name) || (h.ev.kind == kPostToolUse && res.IsError) || (h.ev.kind == kPostToolUseFailure && !res.IsError) {
		return nil, nil
	}
	p := h.payload(c)
	name := h.set.cursorName(call.Name)
	switch h.ev.kind {
	case kPostToolUse, kPostToolUseFailure:
		p["tool_name"], p["tool_input"], p["tool_use_id"], p["cwd"], p["duration"] = name, orEmpty(call.Arguments), call.ID, workdir(c), 0
		if res.IsError {
			p["error_message"], p["failure_type"] = res.Text, "error"
		} else {
			p["tool_output"] = res.Text
		}
	case kAfterShell:
		cmd, _ := call.Arguments["command"].(string)
		p["command"], p["output"], p["duration"] = cmd, res.Text, 0
	case kAfterMCP:
		in, _ := dialect.EncodeJSON(orEmpty(call.Arguments))
		out, _ := dialect.EncodeJSON(map[string]any{"content": []any{map[string]any{"type": "text", "text": res.Text}}, "isError": res.IsError})
		p["tool_name"], p["tool_input"], p["result_json"], p["duration"] = name, string(in), string(out), 0
	case kAfterEdit:
		path, _ := filePath(c, call.Arguments)
		p["file_path"], p["edits"] = path, edits(call.Arguments)
	}
	for _, e := range h.entries {
		if !h.selected(c, e, h.subject(call)) {
			continue
		}
		r, err := h.run(c, e, p)
		if err != nil {
			return nil, err
		}
		h.report(c, e, r)
	}
	return nil, nil
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
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
