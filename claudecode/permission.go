package claudecode

import (
	"fmt"
	"maps"
	"strings"

	"github.com/rienda/hooks"
)

// ask settles a call a PreToolUse handler asked (or deferred) about, as
// Claude Code's permission dialog does: the set's PermissionRequest
// handlers run first (their allow, with updatedInput, or deny, with its
// message, decides); when none decides, a person is asked through
// Context.Review with the call, and their verdict applies: an approval
// runs the call, an edit runs it with the person's arguments, a rejection
// refuses it with the person's message, an answer is the call's result
// and the tool does not run. Arguments a PermissionRequest handler or the
// person changed are judged again by every PreToolUse handler (guard): a
// deny still refuses the call, and a rewrite of the approved call refuses
// it. It returns nil when the call goes on with *args.
func (h *hook) ask(c *hooks.Context, call hooks.ToolCall, args *map[string]any, asks []string, added *[]string) (*hooks.ToolCallPatch, error) {
	name := h.set.claudeName(call.Name)
	out, err := h.permissionHandlers(c, call, *args, added)
	if err != nil {
		return nil, err
	}
	switch {
	case out.Stop != nil:
		h.askEnd(c, *out.Stop)
		return hooks.Refuse(*out.Stop), nil
	case out.Block:
		return hooks.Refuse(out.Reason), nil
	case out.Allow:
		if out.UpdatedInput == nil {
			return nil, nil
		}
		return h.recheck(c, call, args, out.UpdatedInput, added)
	}
	shown, _ := encodeArguments(*args)
	edited := maps.Clone(*args)
	v, err := c.Review(hooks.Review{Prompt: hooks.Prompt{Title: "Allow " + name + "?",
		Body: strings.Join(asks, "\n") + "\n\n" + name + " " + cut(shown)},
		Call: &hooks.ToolCall{ID: call.ID, Name: call.Name, Arguments: edited}})
	if err != nil && c.Err() != nil {
		return nil, c.Err()
	}
	patch := v.Patch() // the core's one reading of a verdict (a failed ask is a rejection)
	if patch != nil && patch.Allow != nil && !*patch.Allow && v.Message == "" {
		// A no without words: the model reads what the handlers asked about.
		return hooks.Refuse("The user declined this " + name + " call: " + strings.Join(asks, "; ")), nil
	}
	if patch == nil || patch.Arguments == nil {
		return patch, nil
	}
	if patch, err := h.recheck(c, call, args, patch.Arguments, added); patch != nil || err != nil {
		return patch, err
	}
	return &hooks.ToolCallPatch{Arguments: maps.Clone(*args)}, nil
}

// recheck runs the PreToolUse handlers again on arguments approved with
// edits, which become *args when no handler refuses or rewrites them.
func (h *hook) recheck(c *hooks.Context, call hooks.ToolCall, args *map[string]any, edited map[string]any, added *[]string) (*hooks.ToolCallPatch, error) {
	if sameArguments(edited, *args) {
		return nil, nil
	}
	next := maps.Clone(edited)
	if _, patch, err := h.guard(c, call, &next, edited, added); patch != nil || err != nil {
		return patch, err
	}
	*args = next
	return nil, nil
}

// permissionHandlers runs the set's PermissionRequest handlers on a call
// a PreToolUse handler asked about, as Fire runs them.
func (h *hook) permissionHandlers(c *hooks.Context, call hooks.ToolCall, args map[string]any, added *[]string) (Outcome, error) {
	var out Outcome
	if len(h.set.fired["PermissionRequest"]) == 0 {
		return out, nil
	}
	ev := Event{Name: "PermissionRequest", Subject: call.Name,
		Input: map[string]any{"tool_name": h.set.claudeName(call.Name), "tool_input": args, "tool_use_id": call.ID}}
	_, err := h.fire(c, ev, fmt.Sprint("ask:", callKey(c, call, args)), &out, added)
	return out, err
}
