package hooks

import (
	"fmt"
	"strings"
	"sync"
)

// settle reports a handler's failure (a diagnostic) and sends its
// systemMessage on; it reports whether the result holds a decision.
func (h *claudeHook) settle(c *Context, r *claudeResult) bool {
	if r.err != nil {
		c.diagnose(h.point, r.err)
		return false
	}
	r.notify(c, h.event)
	return true
}

// advise reports an exit 2 of an event that cannot block: Claude Code
// shows its stderr to the user, here it is a diagnostic.
func (h *claudeHook) advise(c *Context, hd *claudeHandler, r *claudeResult) {
	if r.blocked {
		c.diagnose(h.point, fmt.Errorf("the Claude Code hook %s exited 2, which %s cannot act on: %s", hd.where, h.event, r.reason))
	}
}

// BeforeRun runs SessionStart handlers: what they add (additionalContext,
// or plain stdout) goes to the System of every model request of the run.
func (h *claudeHook) BeforeRun(c *Context, start RunStart) (*RunPatch, error) {
	source := "startup"
	if start.Resumed {
		source = "resume"
	}
	var added []string
	for _, hd := range h.handlers {
		if !hd.matcher.matches(source) {
			continue
		}
		r, err := hd.run(c, claudeInput{HookEventName: h.event, Source: source})
		if err != nil {
			return nil, err
		}
		if !h.settle(c, &r) {
			continue
		}
		h.advise(c, hd, &r)
		if reason, stop := r.stops(hd.where); stop {
			h.set.update(c.RunID(), func(st *claudeRun) { st.end = &reason })
		}
		if text := r.context(); text != "" && !r.blocked {
			added = append(added, text)
		}
	}
	h.set.update(c.RunID(), func(st *claudeRun) { st.context = strings.Join(added, "\n\n") })
	return nil, nil
}

// BeforeModelRequest ends the run when a handler asked to ("continue":
// false from an event that cannot end it itself), adds SessionStart's
// context, runs UserPromptSubmit handlers on a user's turn, and lets Stop
// know that a user's turn began.
func (h *claudeHook) BeforeModelRequest(c *Context, req ModelRequest) (*ModelRequestPatch, error) {
	if end := h.set.takeEnd(c.RunID()); end != nil {
		return &ModelRequestPatch{End: &End{Output: *end}}, nil
	}
	switch h.event {
	case "SessionStart":
		if added := h.set.view(c.RunID()).context; added != "" {
			system := joinSystem(req.System, added)
			return &ModelRequestPatch{System: &system}, nil
		}
	case "UserPromptSubmit":
		if prompt, ok := h.set.isUserTurn(c, req); ok {
			return h.userPrompt(c, req, prompt)
		}
	case "Stop":
		if _, ok := h.set.isUserTurn(c, req); ok {
			h.set.update(c.RunID(), func(st *claudeRun) { st.stopActive, st.continuations, st.continuation = false, 0, "" })
		}
	}
	return nil, nil
}

// joinSystem adds text to a system prompt, after a blank line.
func joinSystem(system, text string) string {
	if system == "" {
		return text
	}
	return system + "\n\n" + text
}

// userPrompt runs UserPromptSubmit handlers: a block ends the run with
// the reason; what they add goes to this request's System.
func (h *claudeHook) userPrompt(c *Context, req ModelRequest, prompt string) (*ModelRequestPatch, error) {
	var added []string
	for _, hd := range h.handlers {
		r, err := hd.run(c, claudeInput{HookEventName: h.event, Prompt: &prompt})
		if err != nil {
			return nil, err
		}
		if !h.settle(c, &r) {
			continue
		}
		if reason, stop := r.stops(hd.where); stop {
			return &ModelRequestPatch{End: &End{Output: reason}}, nil
		}
		if reason, block := r.blocks(hd.where); block {
			return &ModelRequestPatch{End: &End{Output: reason}}, nil
		}
		if text := r.context(); text != "" {
			added = append(added, text)
		}
	}
	if len(added) == 0 {
		return nil, nil
	}
	system := joinSystem(req.System, strings.Join(added, "\n\n"))
	return &ModelRequestPatch{System: &system}, nil
}

// blocks reports an exit 2 or a "decision": "block", with the reason.
func (r *claudeResult) blocks(where string) (string, bool) {
	switch {
	case r.blocked:
		return r.reason, true
	case r.out != nil && r.out.Decision == "block":
		if r.out.Reason != "" {
			return r.out.Reason, true
		}
		return "blocked by Claude Code hook " + where, true
	}
	return "", false
}

// AfterModelResponse runs Stop handlers on a reply without tool calls: a
// block sends the run on with the reason, at most the configured number
// of times in a row; "continue": false ends the run.
func (h *claudeHook) AfterModelResponse(c *Context, resp ModelResponse) (*ModelResponsePatch, error) {
	if len(resp.ToolCalls) > 0 {
		return nil, nil
	}
	st := h.set.view(c.RunID())
	active, text := st.stopActive, resp.Text
	var reasons []string
	for _, hd := range h.handlers {
		r, err := hd.run(c, claudeInput{HookEventName: h.event, StopHookActive: &active, LastAssistantMessage: &text})
		if err != nil {
			return nil, err
		}
		if !h.settle(c, &r) {
			continue
		}
		if reason, stop := r.stops(hd.where); stop {
			return &ModelResponsePatch{End: &End{Output: reason}}, nil
		}
		if reason, block := r.blocks(hd.where); block {
			reasons = append(reasons, reason)
		}
	}
	if len(reasons) == 0 || st.continuations >= h.set.opts.continuations {
		if len(reasons) > 0 {
			c.diagnose(h.point, fmt.Errorf("the Stop handlers sent the run on %d times in a row, the most allowed: this reply stands as final (%s)",
				st.continuations, strings.Join(reasons, "; ")))
		}
		h.set.update(c.RunID(), func(st *claudeRun) { st.stopActive, st.continuations, st.continuation = false, 0, "" })
		return nil, nil
	}
	next := strings.Join(reasons, "\n")
	calls := c.ModelCalls()
	h.set.update(c.RunID(), func(st *claudeRun) {
		st.stopActive, st.continuation, st.continuedAt = true, next, calls
		st.continuations++
	})
	return &ModelResponsePatch{Continue: &next}, nil
}

// AfterRun runs SessionEnd handlers, concurrently (they cannot change
// anything), with the outcome as the reason; every hook of the set then
// forgets the run.
func (h *claudeHook) AfterRun(c *Context, end RunEnd) error {
	defer h.set.drop(c.RunID())
	if h.event != "SessionEnd" {
		return nil
	}
	reason := string(end.Outcome)
	results := make([]claudeResult, len(h.handlers))
	errs := make([]error, len(h.handlers))
	var wg sync.WaitGroup
	for i, hd := range h.handlers {
		if hd.matcher.matches(reason) {
			wg.Go(func() { results[i], errs[i] = hd.run(c, claudeInput{HookEventName: h.event, Reason: reason}) })
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
