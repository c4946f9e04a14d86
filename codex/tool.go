package codex

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/dialect"
)

// preToolHook runs PreToolUse handlers before each tool call.
type preToolHook struct{ *base }

// postToolHook runs PostToolUse handlers after each tool call.
type postToolHook struct{ *base }

// toolInput is a call's arguments as tool_input; nil when they cannot be
// sent as JSON (a value JSON cannot carry): then no handler sees the
// call, and a guard refuses it rather than let it run unseen.
func toolInput(call hooks.ToolCall) json.RawMessage {
	args := call.Arguments
	if args == nil {
		args = map[string]any{}
	}
	b, err := dialect.EncodeJSON(args)
	if err != nil {
		return nil
	}
	return b
}

// verdict gathers what the PreToolUse handlers of one call decided, in
// the file's order.
type verdict struct {
	block    string     // the first refusal's reason
	closed   error      // a failure that refuses (output too large, failClosed)
	asks     []string   // permissionDecision "ask" reasons
	rewrites []*handler // handlers that rewrote the input
	inputs   []json.RawMessage
	contexts []string
}

// BeforeToolExecute runs the matching handlers at once, as Codex does,
// and decides once all have ended: a refusal by any of them refuses (the
// first in the file gives the reason); then a handler that asks asks the
// person; then a rewrite replaces the arguments, unless two handlers
// rewrote them differently, which refuses (docs/codex.md: Codex keeps
// whichever finished last). A rewrite is shown to the file's other
// matching handlers before it runs (Codex runs them on the call before
// the rewrite): their refusal refuses it.
func (h *preToolHook) BeforeToolExecute(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
	cx, subjects := h.set.names(call.Name)
	hs := h.selected(c, subjects...)
	if len(hs) == 0 {
		return nil, nil
	}
	patch, v, err := h.round(c, cx, hs, call, true)
	if err != nil || patch == nil || patch.Arguments == nil {
		return patch, err
	}
	var others []*handler
	for _, hd := range hs {
		if !slices.Contains(v.rewrites, hd) {
			others = append(others, hd)
		}
	}
	if len(others) == 0 {
		return patch, nil
	}
	rewritten := call
	rewritten.Arguments = patch.Arguments
	again, v2, err := h.round(c, cx, others, rewritten, false)
	switch {
	case err != nil:
		return nil, err
	case again != nil && again.Allow != nil && !*again.Allow:
		return again, nil
	case len(v2.inputs) > 0 && !bytes.Equal(canonical(v2.inputs[0]), canonical(v.inputs[0])):
		return hooks.Refuse(fmt.Sprintf("Codex hook %s rewrote the call that %s had rewritten: the rewrites do not settle, so the call does not run",
			v2.rewrites[0].where, v.rewrites[0].where)), nil
	}
	return patch, nil
}

// round runs hs at once on call and decides on all their results; the
// first round's additionalContext goes to the next request (a second
// round's would repeat it).
func (h *preToolHook) round(c *hooks.Context, cx string, hs []*handler, call hooks.ToolCall, first bool) (*hooks.ToolCallPatch, verdict, error) {
	var v verdict
	args := toolInput(call)
	if args == nil {
		c.Diagnose(fmt.Errorf("the call's arguments cannot be sent as JSON to the Codex PreToolUse hooks: the call is refused"))
		return hooks.Refuse("refused: the call cannot be shown to its Codex PreToolUse hooks"), v, nil
	}
	in := input{HookEventName: "PreToolUse", TurnID: turnID(c), Model: model(c),
		ToolName: cx, ToolInput: args, ToolUseID: call.ID}
	rs, err := runAll(c, hs, in)
	if err != nil {
		return nil, v, err
	}
	for _, r := range rs {
		h.judge(c, r, &v)
	}
	if len(v.contexts) > 0 && first {
		h.update(c, func(st *runState) { st.Pending = append(st.Pending, v.contexts...) })
	}
	switch {
	case v.block != "":
		return hooks.Refuse(v.block), v, nil
	case v.closed != nil:
		return nil, v, v.closed
	}
	for _, reason := range v.asks {
		body := fmt.Sprintf("A Codex hook asks before the %s call runs.", cx)
		if reason != "" {
			body += " " + reason
		}
		if !c.Confirm(hooks.Prompt{Title: "Codex hook PreToolUse", Body: body}) {
			return hooks.Refuse(fmt.Sprintf("Codex hook PreToolUse asked, and the call was not approved: %s", reason)), v, nil
		}
	}
	patch, err := h.rewrite(v)
	return patch, v, err
}

// rewrite is the patch of the handlers' rewrites: none, one, or the same
// one from several; different ones refuse the call.
func (h *preToolHook) rewrite(v verdict) (*hooks.ToolCallPatch, error) {
	if len(v.inputs) == 0 {
		return nil, nil
	}
	first := canonical(v.inputs[0])
	for i := 1; i < len(v.inputs); i++ {
		if !bytes.Equal(canonical(v.inputs[i]), first) {
			return hooks.Refuse(fmt.Sprintf("Codex hooks %s and %s rewrote the call's input differently; "+
				"which one Codex runs depends on which finished last, so neither runs here",
				v.rewrites[0].where, v.rewrites[i].where)), nil
		}
	}
	var args map[string]any
	if err := json.Unmarshal(v.inputs[0], &args); err != nil || args == nil {
		return hooks.Refuse("Codex hook " + v.rewrites[0].where + " rewrote the call's input to something that is not an object"), nil
	}
	return &hooks.ToolCallPatch{Arguments: args}, nil
}

// canonical is a JSON value re-encoded with sorted keys, to compare two
// rewrites by meaning.
func canonical(raw json.RawMessage) []byte {
	var x any
	if json.Unmarshal(raw, &x) != nil {
		return raw
	}
	b, _ := json.Marshal(x)
	return b
}

// judge adds one handler's result to v. Whatever Codex's reading of
// it, output that evidently refuses (dialect.Evident: a deny in malformed
// JSON, in another case, beside an unknown key, printed before a crash)
// refuses, as the kit's rule for every dialect's tool guard: the model
// can make a guard's output say refuse, never stop saying it.
func (h *preToolHook) judge(c *hooks.Context, r result, v *verdict) {
	hd := r.hd
	refused, err := h.read(c, r, v)
	if !refused && !r.exit2 && !r.tooMuch && len(bytes.TrimSpace(r.stdout)) > 0 {
		if what, ok := dialect.Evident(r.stdout); ok {
			how := "however Codex reads it"
			if err != nil {
				how = fmt.Sprintf("though %v (Codex would run the call)", err)
			}
			c.Diagnose(fmt.Errorf("the Codex hook %s: its output evidently refuses (%s), %s: the call is refused", hd.where, what, how))
			if v.block == "" {
				v.block = "refused by Codex hook " + hd.where
			}
			return
		}
	}
	switch {
	case err == nil:
	case hd.failClosed:
		if v.closed == nil {
			v.closed = hooks.FailClosed(hd.fail(err, "failClosed: the call is refused"))
		}
	default:
		c.Diagnose(hd.fail(err, "the call goes on"))
	}
}

// read adds what Codex reads of one handler's result to v: whether it
// refuses, and the failure (a handler that decided nothing) for judge.
func (h *preToolHook) read(c *hooks.Context, r result, v *verdict) (refused bool, failed error) {
	hd := r.hd
	refuse := func(reason string) {
		refused = true
		if v.block == "" {
			v.block = reason
		}
	}
	switch {
	case r.unsent:
		c.Diagnose(hd.fail(r.err.(*failure).err, "the call is refused: its guard never saw it"))
		refuse("refused: Codex hook " + hd.where + " could not be shown the call")
	case r.tooMuch:
		if v.closed == nil {
			v.closed = hooks.FailClosed(hd.fail(r.err.(*failure).err, "the call is refused: its decision is unknown"))
		}
	case r.exit2:
		if r.stderr == "" {
			c.Diagnose(fmt.Errorf("the Codex hook %s exited 2 with nothing on stderr: Codex reads that as a failed hook and runs the call; here exit 2 refuses it", hd.where))
			refuse("blocked by Codex hook " + hd.where + " (exit 2)")
			return refused, nil
		}
		refuse(r.stderr)
	case r.err != nil:
		return false, r.err.(*failure).err
	case r.bad != nil:
		return false, r.bad
	case r.out != nil:
		h.notify(c, r.out)
		p := readPreToolUse(r.out)
		if p.context != "" {
			v.contexts = append(v.contexts, cut(p.context))
		}
		switch {
		case p.ask != "" || p.invalid == "PreToolUse hook returned unsupported permissionDecision:ask":
			c.Diagnose(fmt.Errorf("the Codex hook %s asked (permissionDecision: ask): Codex reads that as a failed hook and runs the call; here the person is asked", hd.where))
			v.asks = append(v.asks, cut(p.ask))
		case p.invalid != "":
			return false, errors.New(p.invalid)
		case p.block != "":
			refuse(cut(p.block))
		case p.rewrite != nil:
			v.rewrites = append(v.rewrites, hd)
			v.inputs = append(v.inputs, p.rewrite)
		}
	}
	return refused, nil
}

// AfterToolExecute runs the matching handlers at once, then: a result
// too large to read withholds the result; a block's reason (or exit 2's
// stderr, or a continue:false) replaces the result the model reads, as
// Codex's feedback does; an updatedToolOutput (or updatedMCPToolOutput)
// replaces it; additionalContext follows it. continue:false also ends the
// run at the next model request.
func (h *postToolHook) AfterToolExecute(c *hooks.Context, call hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
	cx, subjects := h.set.names(call.Name)
	hs := h.selected(c, subjects...)
	if len(hs) == 0 {
		return nil, nil
	}
	var response any = res.Text
	if res.Value != nil {
		response = res.Value
	}
	in := input{HookEventName: "PostToolUse", TurnID: turnID(c), Model: model(c),
		ToolName: cx, ToolInput: toolInput(call), ToolResponse: response, ToolUseID: call.ID}
	if in.ToolInput == nil {
		in.ToolInput = json.RawMessage("null")
	}
	rs, err := runAll(c, hs, in)
	if err != nil {
		return nil, err
	}
	g, withheld := h.gather(c, rs)
	if withheld != nil {
		return withheld, nil
	}
	if g.stop != nil {
		h.update(c, func(st *runState) { st.End = g.stop })
	}
	return postPatch(c, res, g.feedback, g.contexts, g.updated)
}

// gathered is what the PostToolUse handlers of one result asked for.
type gathered struct {
	feedback, contexts []string
	updated            []json.RawMessage
	stop               *string
}

// gather reads the handlers' results in the file's order; a result too
// large to read withholds the tool's result (the patch returned).
func (h *postToolHook) gather(c *hooks.Context, rs []result) (gathered, *hooks.ToolResultPatch) {
	var g gathered
	for _, r := range rs {
		hd := r.hd
		switch {
		case r.tooMuch:
			c.Diagnose(hd.fail(r.err.(*failure).err, "the result is withheld from the model"))
			text := "The tool's result is withheld: Codex hook " + hd.where + " printed more than can be read."
			isErr := true
			return g, &hooks.ToolResultPatch{Text: &text, IsError: &isErr, Value: text}
		case r.exit2 && r.stderr != "":
			g.feedback = append(g.feedback, r.stderr)
		case r.exit2:
			c.Diagnose(fmt.Errorf("the Codex hook %s: PostToolUse hook exited with code 2 but did not write feedback to stderr", hd.where))
		case r.err != nil:
			c.Diagnose(hd.fail(r.err.(*failure).err, "the result goes on"))
		case r.bad != nil:
			c.Diagnose(hd.fail(r.bad, "the result goes on"))
		case r.out != nil:
			h.notify(c, r.out)
			b := readBlock("PostToolUse", r.out)
			switch {
			case b.stop:
				s := stopText(r, "PostToolUse")
				if g.stop == nil {
					g.stop = &s
				}
				fb := trimmed(r.out.reason) // Codex: the reason, else the stop text
				if fb == "" {
					fb = s
				}
				g.feedback = append(g.feedback, cut(fb))
			case b.invalid != "":
				c.Diagnose(hd.fail(fmt.Errorf("%s", b.invalid), "the result goes on"))
				continue
			case b.block != "":
				g.feedback = append(g.feedback, cut(b.block))
			}
			if b.context != "" {
				g.contexts = append(g.contexts, cut(b.context))
			}
			if b.updated != nil {
				g.updated = append(g.updated, b.updated)
			}
		}
	}
	return g, nil
}

// postPatch is the result the model reads after the handlers.
func postPatch(c *hooks.Context, res hooks.ToolResult, feedback, contexts []string, updated []json.RawMessage) (*hooks.ToolResultPatch, error) {
	if len(feedback) == 0 && len(contexts) == 0 && len(updated) == 0 {
		return nil, nil
	}
	text, value := res.Text, res.Value
	switch {
	case len(feedback) > 0:
		text = joinNonEmpty(feedback)
		value = nil
	case len(updated) > 0:
		for _, u := range updated[1:] {
			if !bytes.Equal(canonical(u), canonical(updated[0])) {
				c.Diagnose(fmt.Errorf("the Codex PostToolUse hooks replaced the result differently: it is withheld"))
				t := "The tool's result is withheld: two Codex hooks replaced it differently."
				isErr := true
				return &hooks.ToolResultPatch{Text: &t, IsError: &isErr, Value: t}, nil
			}
		}
		var s string
		if json.Unmarshal(updated[0], &s) == nil {
			text, value = s, nil
		} else {
			var x any
			_ = json.Unmarshal(updated[0], &x)
			text, value = string(canonical(updated[0])), x
		}
	}
	if len(contexts) > 0 {
		text = joinNonEmpty(append([]string{text}, contexts...))
	}
	patch := &hooks.ToolResultPatch{Text: &text, Value: value}
	if value == nil && res.Value != nil {
		patch.Value = text // a nil Value would keep the old one: the model must read the new text
	}
	return patch, nil
}
