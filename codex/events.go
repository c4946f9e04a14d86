package codex

import (
	"bytes"
	"fmt"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/dialect"
)

// sessionStartHook runs SessionStart handlers when a run starts.
type sessionStartHook struct{ *base }

// promptHook runs UserPromptSubmit handlers before a user's turn.
type promptHook struct{ *base }

// stopHook runs Stop handlers after a reply without tool calls.
type stopHook struct{ *base }

// sessionEndHook runs SessionEnd handlers when a run ends.
type sessionEndHook struct{ *base }

// BeforeRun runs SessionStart handlers whose matcher takes the source
// ("startup", or "resume" on Chain.Resume): what they add
// (additionalContext, or plain stdout) goes to the System of every model
// request of the run; a continue:false ends the run at its first request.
func (h *sessionStartHook) BeforeRun(c *hooks.Context, start hooks.RunStart) (*hooks.RunPatch, error) {
	source := "startup"
	if start.Resumed {
		source = "resume"
	}
	hs := h.selected(c, source)
	if len(hs) == 0 {
		return nil, nil
	}
	rs, err := runAll(c, hs, input{HookEventName: "SessionStart", Model: model(c), Source: source})
	if err != nil {
		return nil, err
	}
	var added []string
	var end *string
	for _, r := range rs {
		if !settle(c, r, "the run goes on") {
			continue
		}
		h.notify(c, r.out)
		if r.out != nil && !r.out.cont && end == nil {
			s := stopText(r, "SessionStart")
			end = &s
		}
		added = append(added, contextOf(r, true))
	}
	h.update(c, func(st *runState) {
		ctx := joinNonEmpty(added)
		if start.Resumed && st.Context != "" && ctx != st.Context {
			ctx = joinNonEmpty([]string{st.Context, ctx}) // what startup added stays, as in Codex's history
		}
		st.Context, st.End = ctx, end
	})
	return nil, nil
}

// settle reports a result that gives no decision (a failure, an output
// Codex refuses, an exit 2 of an event that cannot block) as a
// diagnostic, and reports whether r holds one.
func settle(c *hooks.Context, r result, then string) bool {
	switch {
	case r.err != nil:
		f := r.err.(*failure)
		f.then = then
		c.Diagnose(f)
		return false
	case r.bad != nil:
		c.Diagnose(r.hd.fail(r.bad, then))
		return false
	case r.exit2:
		c.Diagnose(fmt.Errorf("the Codex hook %s exited 2, which %s cannot act on: %s", r.hd.where, r.hd.event, r.stderr))
		return false
	}
	return true
}

// BeforeModelRequest runs UserPromptSubmit handlers on a user's turn (the
// last message is the user's and no hook sent the run on): a block or a
// continue:false ends the run with the reason (the prompt is not sent);
// what they add (additionalContext, or plain stdout) goes to this
// request's System. An output too large to read ends the run too: the
// prompt it was there to check was not checked.
func (h *promptHook) BeforeModelRequest(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
	patch, err := h.base.BeforeModelRequest(c, req)
	if err != nil || (patch != nil && patch.End != nil) {
		return patch, err
	}
	prompt, ok := dialect.UserTurn(c, req)
	if !ok {
		return patch, nil
	}
	rs, err := runAll(c, h.handlers, input{HookEventName: "UserPromptSubmit", TurnID: turnID(c), Model: req.Model, Prompt: &prompt})
	if err != nil {
		return nil, err
	}
	var added []string
	for _, r := range rs {
		if end := h.judge(c, r); end != "" {
			return &hooks.ModelRequestPatch{End: &hooks.End{Output: end}}, nil
		}
		if r.out != nil || r.text != "" {
			added = append(added, contextOf(r, true))
		}
	}
	text := joinNonEmpty(added)
	if text == "" {
		return patch, nil
	}
	system := req.System
	if patch != nil && patch.System != nil {
		system = *patch.System
	}
	system = joinSystem(system, text)
	return &hooks.ModelRequestPatch{System: &system}, nil
}

// judge reads one UserPromptSubmit result: the text the run ends with
// when it refuses the prompt, else "".
func (h *promptHook) judge(c *hooks.Context, r result) string {
	hd := r.hd
	switch {
	case r.tooMuch:
		c.Diagnose(hd.fail(r.err.(*failure).err, "the run ends: the prompt was not checked"))
		return "The prompt was not sent: Codex hook " + hd.where + " printed more than can be read, so it could not check it."
	case r.exit2 && r.stderr != "":
		return r.stderr
	case r.exit2:
		c.Diagnose(fmt.Errorf("the Codex hook %s exited 2 with nothing on stderr: Codex reads that as a failed hook and sends the prompt; here exit 2 refuses it", hd.where))
		return "The prompt was not sent: Codex hook " + hd.where + " refused it (exit 2)."
	case r.err != nil || r.bad != nil:
		if what, ok := dialect.Evident(r.stdout); ok && len(bytes.TrimSpace(r.stdout)) > 0 {
			c.Diagnose(fmt.Errorf("the Codex hook %s failed, and its output evidently refuses (%s): the prompt is not sent", hd.where, what))
			return "The prompt was not sent: Codex hook " + hd.where + " refused it."
		}
		settle(c, r, "the prompt is sent")
		return ""
	case r.out != nil:
		h.notify(c, r.out)
		b := readBlock("UserPromptSubmit", r.out)
		switch {
		case b.stop:
			return stopText(r, "UserPromptSubmit")
		case b.invalid != "":
			c.Diagnose(hd.fail(fmt.Errorf("%s", b.invalid), "the prompt is sent"))
		case b.block != "":
			return cut(b.block)
		}
	}
	return ""
}

// AfterModelResponse runs Stop handlers after a reply without tool
// calls: a continue:false lets the reply stand (Codex: it takes
// precedence); else a block (decision:block with its reason, or exit 2
// with stderr) sends the run on with the reasons as the user's next
// message, up to StopContinuations times in a row.
func (h *stopHook) AfterModelResponse(c *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
	if len(resp.ToolCalls) > 0 {
		return nil, nil
	}
	active := c.Continuations() > 0
	last := resp.Text
	rs, err := runAll(c, h.handlers, input{HookEventName: "Stop", TurnID: turnID(c), Model: model(c),
		StopHookActive: &active, LastAssistantMessage: &last})
	if err != nil {
		return nil, err
	}
	var reasons []string
	for _, r := range rs {
		switch {
		case r.exit2 && r.stderr != "":
			reasons = append(reasons, r.stderr)
			continue
		case r.exit2:
			c.Diagnose(fmt.Errorf("the Codex hook %s: Stop hook exited with code 2 but did not write a continuation reason to stderr", r.hd.where))
			continue
		}
		if !settle(c, r, "the reply stands") || r.out == nil {
			continue
		}
		h.notify(c, r.out)
		b := readBlock("Stop", r.out)
		switch {
		case b.stop:
			return nil, nil
		case b.invalid != "":
			c.Diagnose(r.hd.fail(fmt.Errorf("%s", b.invalid), "the reply stands"))
		case b.block != "":
			reasons = append(reasons, cut(b.block))
		}
	}
	if len(reasons) == 0 {
		return nil, nil
	}
	if !dialect.MayContinue(c, h.set.opts.Continuations) {
		c.Diagnose(fmt.Errorf("the Codex Stop hooks asked to go on after %d continuations in a row, the most allowed (StopContinuations): the reply stands", c.Continuations()))
		return nil, nil
	}
	next := joinNonEmpty(reasons)
	return &hooks.ModelResponsePatch{Continue: &next}, nil
}

// AfterRun runs SessionEnd handlers when the run ends, whatever the
// outcome ("reason" is the outcome); they are advisory.
func (h *sessionEndHook) AfterRun(c *hooks.Context, end hooks.RunEnd) error {
	rs, err := runAll(c, h.handlers, input{HookEventName: "SessionEnd", Model: model(c), Reason: string(end.Outcome)})
	if err != nil {
		return err
	}
	for _, r := range rs {
		if settle(c, r, "the run has ended") {
			h.notify(c, r.out)
		}
	}
	return nil
}
