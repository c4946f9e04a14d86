package claudecode

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/dialect"
)

// advise reports an exit 2 of an event that cannot block: Claude Code
// shows its stderr to the user, here it is a diagnostic.
func (h *hook) advise(c *hooks.Context, hd *handler, r *result) {
	if r.blocked {
		c.Diagnose(fmt.Errorf("the Claude Code hook %s exited 2, which %s cannot act on: %s", hd.where, h.event, r.reason))
	}
}

// stops reports whether the output asks to end the run ("continue":
// false), and with what reason.
func (r *result) stops(where string) (string, bool) {
	if r.out == nil || r.out.Continue == nil || *r.out.Continue {
		return "", false
	}
	if r.out.StopReason != "" {
		return cut(r.out.StopReason), true
	}
	return "stopped by Claude Code hook " + where, true
}

// context is the text the handler adds to the model's context:
// additionalContext, or plain stdout.
func (r *result) context() string {
	if r.out != nil {
		return cut(r.out.HookSpecificOutput.AdditionalContext)
	}
	return cut(strings.TrimSpace(r.text))
}

// blocks reports an exit 2 or a "decision": "block", with the reason.
func (r *result) blocks(where string) (string, bool) {
	switch {
	case r.blocked:
		return r.reason, true
	case r.out != nil && r.out.Decision == "block":
		if r.out.Reason != "" {
			return cut(r.out.Reason), true
		}
		return "blocked by Claude Code hook " + where, true
	}
	return "", false
}

// BeforeRun runs SessionStart handlers: what they add (additionalContext,
// or plain stdout) goes to the System of every model request of the run.
func (h *hook) BeforeRun(c *hooks.Context, start hooks.RunStart) (*hooks.RunPatch, error) {
	if h.first {
		h.set.join(c)
	}
	if c.ParentRunID() != "" { // a subagent: SubagentStart, never SessionStart
		h.keepAgentType(c, start)
		if h.first {
			h.subagentStart(c, start)
		}
		return nil, nil
	}
	if h.event != "SessionStart" {
		return nil, nil
	}
	source := "startup"
	if start.Resumed {
		source = "resume"
	}
	st := load(c)
	var added []string
	for _, hd := range h.handlers {
		if !h.takes(c, hd, "start:"+source, nil, source) {
			continue
		}
		in := input{HookEventName: h.event, Source: source}
		if hd.async {
			h.spawn(c, hd, in)
			continue
		}
		r, err := hd.run(c, in)
		if err != nil {
			return nil, err
		}
		if !h.settle(c, &r) {
			continue
		}
		h.advise(c, hd, &r)
		if reason, stop := r.stops(hd.where); stop {
			st.End = &reason
		}
		if text := r.context(); text != "" && !r.blocked {
			added = append(added, text)
		}
	}
	st.Context = strings.Join(added, "\n\n")
	save(c, st)
	return nil, nil
}

// BeforeModelRequest ends the run when a handler of this hook asked to
// ("continue": false from an event that cannot end it itself), adds
// SessionStart's context, runs UserPromptSubmit handlers on a user's
// turn, and lets Stop know that a user's turn began.
func (h *hook) BeforeModelRequest(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
	dialect.CheckOnce(c, &h.set.toolsChecked, req.Tools, h.set.toolProblems)
	if h.first {
		h.set.fromRequest(c, req)
	}
	var async string
	if h.first {
		async = h.set.drain(c)
	}
	h.set.mu.Lock()
	st := load(c)
	pending := joinSystem(st.Pending, async)
	st.Pending = ""
	save(c, st)
	h.set.mu.Unlock()
	if st.End != nil {
		h.set.update(c, func(st *runState) { st.End = nil })
		return &hooks.ModelRequestPatch{End: &hooks.End{Output: *st.End}}, nil
	}
	orig := req.System
	req.System = joinSystem(req.System, pending)
	system := req.System
	var patch *hooks.ModelRequestPatch
	if h.first && st.AgentContext != "" {
		system = joinSystem(system, st.AgentContext)
	}
	switch event := h.event; {
	case c.ParentRunID() != "": // a subagent has no session start, user's turn or Stop of its own
	case event == "SessionStart":
		if st.Context != "" {
			system = joinSystem(system, st.Context)
		}
	case event == "UserPromptSubmit":
		if prompt, ok := userTurn(c, req, st); ok {
			var err error
			if patch, err = h.userPrompt(c, req, prompt); err != nil || patch != nil {
				return patch, err
			}
		}
	case event == "Stop":
		if _, ok := userTurn(c, req, st); ok && (st.StopActive || st.Continuations > 0) {
			h.set.update(c, func(st *runState) { st.StopActive, st.Continuations = false, 0 })
		}
	}
	if system == orig {
		return nil, nil
	}
	return &hooks.ModelRequestPatch{System: &system}, nil
}

// joinSystem adds text to a system prompt, after a blank line.
func joinSystem(system, text string) string {
	if text == "" {
		return system
	}
	if system == "" {
		return text
	}
	return system + "\n\n" + text
}

// userPrompt runs UserPromptSubmit handlers: a block ends the run with
// the reason; what they add goes to this request's System. A handler
// whose output is too large to read ends the run too: the prompt it was
// there to check was not checked.
func (h *hook) userPrompt(c *hooks.Context, req hooks.ModelRequest, prompt string) (*hooks.ModelRequestPatch, error) {
	var added []string
	suppress := ""
	for _, hd := range h.handlers {
		if !h.takes(c, hd, fmt.Sprint("model:", c.ModelCalls(), "\x00", prompt), nil) {
			continue
		}
		in := input{HookEventName: h.event, Prompt: &prompt}
		if hd.async {
			h.spawn(c, hd, in)
			continue
		}
		r, err := hd.run(c, in)
		if err != nil {
			return nil, err
		}
		if r.tooMuch {
			r.err.(*failure).then = "the run ends: the prompt was not checked"
			c.Diagnose(r.err)
			return &hooks.ModelRequestPatch{End: &hooks.End{Output: "The prompt was not sent: Claude Code hook " + hd.where +
				" printed more than can be read, so it could not check it."}}, nil
		}
		if f, ok := r.err.(*failure); ok && hd.failClosed {
			// onFailure "block" (failClosed): the prompt it was there to
			// check is not sent, as Claude Code blocks the action.
			f.then = "the run ends: the prompt was not checked"
			c.Diagnose(f)
			return &hooks.ModelRequestPatch{End: &hooks.End{Output: "The prompt was not sent: Claude Code hook " + hd.where + " failed, so it could not check it."}}, nil
		}
		if !h.settle(c, &r) {
			continue
		}
		if reason, stop := r.stops(hd.where); stop {
			return &hooks.ModelRequestPatch{End: &hooks.End{Output: reason}}, nil
		}
		if reason, block := r.blocks(hd.where); block {
			return &hooks.ModelRequestPatch{End: &hooks.End{Output: reason}}, nil
		}
		if text := r.context(); text != "" {
			added = append(added, text)
		}
		if r.out != nil && r.out.HookSpecificOutput.SuppressOriginalPrompt && suppress == "" {
			suppress = hd.where
		}
	}
	if suppress != "" {
		return suppressPrompt(req, suppress, added), nil
	}
	if len(added) == 0 {
		return nil, nil
	}
	system := joinSystem(req.System, strings.Join(added, "\n\n"))
	return &hooks.ModelRequestPatch{System: &system}, nil
}

// suppressPrompt is the request without the user's prompt
// (suppressOriginalPrompt): what the handlers added takes its place as
// the user's message; with nothing added, no model call is made.
func suppressPrompt(req hooks.ModelRequest, where string, added []string) *hooks.ModelRequestPatch {
	if len(added) == 0 {
		return &hooks.ModelRequestPatch{End: &hooks.End{Output: "The prompt was not sent: Claude Code hook " + where + " suppressed it."}}
	}
	msgs := slices.Clone(req.Messages)
	msgs[len(msgs)-1] = hooks.Message{Role: "user", Text: strings.Join(added, "\n\n")}
	return &hooks.ModelRequestPatch{Messages: msgs}
}

// AfterModelResponse runs Stop handlers on a reply without tool calls: a
// block sends the run on with the reason, at most the configured number
// of times in a row; "continue": false ends the run. The UserPromptSubmit
// hook of the same settings runs here after the Stop (reverse list order)
// only to keep, in its own run state, that the Stop sent the run on.
func (h *hook) AfterModelResponse(c *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
	if h.last {
		h.set.record(c, func(_ *transcript, b *builder) { b.assistant(resp.Text, resp.ToolCalls, "") })
	}
	if c.ParentRunID() != "" { // a subagent: SubagentStop, never Stop
		if h.last && len(resp.ToolCalls) == 0 {
			return h.subagentStop(c, resp)
		}
		return nil, nil
	}
	if h.event == "UserPromptSubmit" {
		if at, ok := h.set.notes.Load(c.RunID()); ok && at.(int) == c.ModelCalls() {
			st := load(c)
			st.ContinuedAt = new(at.(int))
			save(c, st)
		}
		return nil, nil
	}
	if h.event != "Stop" || len(resp.ToolCalls) > 0 {
		return nil, nil
	}
	return h.stop(c, resp, nil)
}

// stop runs the hook's Stop (or, in a subagent, SubagentStop) handlers on
// a reply without tool calls, the matchers matching subjects.
func (h *hook) stop(c *hooks.Context, resp hooks.ModelResponse, subjects []string) (*hooks.ModelResponsePatch, error) {
	st := load(c)
	// stop_hook_active is run-wide, as in Claude Code: this reply answers
	// a continuation, whichever hook sent the run on (c.Continuations);
	// the set's own note keeps it across a snapshot taken in between.
	active, text := st.StopActive || c.Continuations() > 0, resp.Text
	var reasons, added []string
	for _, hd := range h.handlers {
		if !h.takes(c, hd, fmt.Sprint("model:", c.ModelCalls()), nil, subjects...) {
			continue
		}
		in := input{HookEventName: h.event, StopHookActive: &active, LastAssistantMessage: &text}
		if hd.async {
			h.spawn(c, hd, in)
			continue
		}
		r, err := hd.run(c, in)
		if err != nil {
			return nil, err
		}
		if !h.settle(c, &r) {
			continue
		}
		if reason, stop := r.stops(hd.where); stop {
			return &hooks.ModelResponsePatch{End: &hooks.End{Output: reason}}, nil
		}
		if reason, block := r.blocks(hd.where); block {
			reasons = append(reasons, reason)
		}
		if r.out != nil && r.out.HookSpecificOutput.AdditionalContext != "" {
			added = append(added, cut(r.out.HookSpecificOutput.AdditionalContext))
		}
	}
	patch := h.stopOutcome(c, st, reasons, added)
	if patch == nil {
		h.set.addPending(c, strings.Join(added, "\n\n"))
	}
	return patch, nil
}

// stopOutcome sends the run on with the Stop handlers' reasons, unless
// there is none or the run has been sent on the most times in a row it
// may. The streak is the run's (c.Continuations: every settings set, and
// any other hook that continues, counts the same one, so sets that take
// turns blocking cannot loop a run), or this set's own count when that is
// larger (it survives a snapshot taken between two steps).
func (h *hook) stopOutcome(c *hooks.Context, st runState, reasons, added []string) *hooks.ModelResponsePatch {
	streak := max(c.Continuations(), st.Continuations)
	if len(reasons) == 0 || streak >= h.set.opts.Continuations {
		if len(reasons) > 0 {
			c.Diagnose(fmt.Errorf("the run was sent on %d times in a row, the most the Stop handlers may: this reply stands as final (%s)",
				streak, strings.Join(reasons, "; ")))
		}
		if st.StopActive || st.Continuations > 0 {
			st.StopActive, st.Continuations = false, 0
			save(c, st)
		}
		return nil
	}
	next := strings.Join(reasons, "\n")
	if len(added) > 0 {
		next += "\n\n" + strings.Join(added, "\n\n")
	}
	calls := c.ModelCalls()
	st.StopActive, st.ContinuedAt = true, &calls
	st.Continuations = streak + 1
	save(c, st)
	h.set.notes.Store(c.RunID(), calls)
	return &hooks.ModelResponsePatch{Continue: &next}
}

// AfterRun runs SessionEnd handlers, concurrently (they cannot change
// anything), with the outcome as the reason; the Stop hook forgets the
// note it left for UserPromptSubmit.
func (h *hook) AfterRun(c *hooks.Context, end hooks.RunEnd) error {
	if h.first {
		defer h.set.forget(c)
		defer h.set.leave(c)
		defer h.set.endBackground(c)
	}
	if h.first {
		h.set.agents.Delete(c.RunID())
		if h.set.timed {
			h.set.forgetClocks(c)
		}
	}
	if h.event != "SessionEnd" || c.ParentRunID() != "" { // a subagent's end is no session's
		h.set.notes.Delete(c.RunID())
		return nil
	}
	reason := string(end.Outcome)
	results := make([]result, len(h.handlers))
	errs := make([]error, len(h.handlers))
	var wg sync.WaitGroup
	for i, hd := range h.handlers {
		if h.takes(c, hd, "end", nil, reason) { // async or not: they run at once, and the run waits for them
			wg.Go(func() { results[i], errs[i] = hd.run(c, input{HookEventName: h.event, Reason: reason}) })
		}
	}
	wg.Wait()
	for i, hd := range h.handlers {
		if errs[i] == nil && h.settle(c, &results[i]) {
			h.advise(c, hd, &results[i])
		}
	}
	return nil
}
