package geminicli

import (
	"errors"
	"fmt"
	"slices"

	"github.com/rienda/hooks"
)

// sessionStart runs SessionStart handlers (source "startup", or "resume"
// for a resumed run, matched exactly): what they add (additionalContext)
// is prepended to the first user message of every request of the run, in
// <hook_context> tags, as Gemini CLI prepends it to a non-interactive
// prompt. Their decisions are ignored, as Gemini CLI ignores them.
func (h *hook) sessionStart(c *hooks.Context, start hooks.RunStart) error {
	source := "startup"
	if start.Resumed {
		source = "resume"
	}
	results, err := h.fire(c, input{Source: source}, nil, source)
	if err != nil {
		return err
	}
	st := load(c)
	st.Contexts = nil
	if m := mergeOr(outputs(results)); m != nil {
		if ctx := m.additionalContext(); ctx != "" {
			st.Contexts = []addedContext{{At: -1, Text: ctx}}
		}
	}
	save(c, st)
	return nil
}

// sessionEnd runs SessionEnd handlers with reason "exit" (a run's end is
// the end of its session), matched exactly; they change nothing.
func (h *hook) sessionEnd(c *hooks.Context, _ hooks.RunEnd) error {
	_, err := h.fire(c, input{Reason: "exit"}, nil, "exit")
	return err
}

// withContexts adds the contexts a hook's handlers gave to req's
// messages: SessionStart's before the first user message's text,
// BeforeAgent's after the text of the message it was given for, when that
// message still says what it said.
func withContexts(req hooks.ModelRequest, st runState) *hooks.ModelRequestPatch {
	if len(st.Contexts) == 0 {
		return nil
	}
	msgs := slices.Clone(req.Messages)
	changed := false
	for _, ac := range st.Contexts {
		tagged := "<hook_context>" + ac.Text + "</hook_context>"
		if ac.At < 0 {
			if i := slices.IndexFunc(msgs, func(m hooks.Message) bool { return m.Role == "user" }); i >= 0 {
				msgs[i].Text, changed = tagged+"\n\n"+msgs[i].Text, true
			}
			continue
		}
		if ac.At < len(msgs) && msgs[ac.At].Role == "user" && msgs[ac.At].Text == ac.Prompt {
			msgs[ac.At].Text, changed = msgs[ac.At].Text+tagged, true
		}
	}
	if !changed {
		return nil
	}
	return &hooks.ModelRequestPatch{Messages: msgs}
}

// lastUser is the index and text of req's last message when it is the
// user's.
func lastUser(req hooks.ModelRequest) (int, string, bool) {
	n := len(req.Messages)
	if n == 0 || req.Messages[n-1].Role != "user" {
		return 0, "", false
	}
	return n - 1, req.Messages[n-1].Text, true
}

// beforeAgent runs BeforeAgent handlers once for each user message that
// ends a request (a new prompt, or the message an AfterAgent retry sent):
// "continue": false or a deny ends the run with the reason; what they add
// (additionalContext) joins that message in <hook_context> tags, in this
// request and every later one, as it stays in Gemini CLI's history.
func (h *hook) beforeAgent(c *hooks.Context, req hooks.ModelRequest, st runState) (*hooks.ModelRequestPatch, error) {
	at, prompt, ok := lastUser(req)
	if !ok || st.Prompted != nil && st.Prompted.At == at && st.Prompted.Prompt == prompt {
		return withContexts(req, st), nil
	}
	fold := func(in *input, o *output) {
		if s, ok := isString(o.spec.AdditionalContext); ok {
			p := *in.Prompt + "\n\n" + s
			in.Prompt = &p
		}
	}
	results, err := h.fire(c, input{Prompt: &prompt}, fold)
	if err != nil {
		return nil, err
	}
	st.Prompted = &addedContext{At: at, Prompt: prompt}
	m := mergeOr(outputs(results))
	switch {
	case m == nil:
	case m.stops(), m.blocking():
		save(c, st)
		return &hooks.ModelRequestPatch{End: &hooks.End{Output: m.effectiveReason()}}, nil
	default:
		if ctx := m.additionalContext(); ctx != "" {
			st.Contexts = append(st.Contexts, addedContext{At: at, Prompt: prompt, Text: ctx})
		}
	}
	save(c, st)
	return withContexts(req, st), nil
}

// afterAgentTurn notes, at each request, the start of a user's turn: its
// prompt, unless the request carries this hook's own retry.
func (h *hook) afterAgentTurn(c *hooks.Context, req hooks.ModelRequest, st runState) {
	_, prompt, ok := lastUser(req)
	if !ok {
		return
	}
	if t := st.Turn; t != nil && t.RetriedAt != nil && *t.RetriedAt == c.ModelCalls() {
		return // the retry: the same turn goes on
	}
	st.Turn = &turn{Prompt: prompt}
	save(c, st)
}

// afterAgent gathers the text of every reply of the turn, and runs
// AfterAgent handlers on a reply without tool calls (the turn's end) with
// the turn's prompt, its replies' text and stop_hook_active: "continue":
// false ends the run; a deny sends the run on with the reason as the
// user's next message (at most AfterAgentRetries times in a row).
func (h *hook) afterAgent(c *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
	st := load(c)
	t := st.Turn
	if t == nil {
		t = &turn{}
	}
	if resp.Text != "" {
		if t.Response != "" {
			t.Response += "\n"
		}
		t.Response += resp.Text
	}
	st.Turn = t
	if len(resp.ToolCalls) > 0 {
		save(c, st)
		return nil, nil
	}
	said := t.Response
	if said == "" {
		said = "[no response text]"
	}
	active := t.Active
	results, err := h.fire(c, input{Prompt: &t.Prompt, PromptResponse: &said, StopHookActive: &active}, nil)
	if err != nil {
		return nil, err
	}
	m := mergeOr(outputs(results))
	if m != nil && is(m.spec.ClearContext, "true") {
		c.Diagnose(errors.New("a Gemini CLI AfterAgent hook asked to clear the context (clearContext), which this library cannot do: the host keeps the conversation"))
	}
	switch {
	case m == nil:
	case m.stops():
		st.Turn = nil
		save(c, st)
		return &hooks.ModelResponsePatch{End: &hooks.End{Output: m.effectiveReason()}}, nil
	case m.blocking():
		reason := m.effectiveReason()
		// The run's streak counts too: sets that take turns sending a run on
		// bound one streak (Context.Continuations).
		if streak := max(t.Retries, c.Continuations()); streak < h.set.opts.Continuations {
			calls := c.ModelCalls()
			t.Active, t.Retries, t.RetriedAt = true, t.Retries+1, &calls
			save(c, st)
			return &hooks.ModelResponsePatch{Continue: &reason}, nil
		}
		c.Diagnose(fmt.Errorf("the run was sent on %d times in a row, the most the AfterAgent hooks allow: this reply stands as final (%s)", max(t.Retries, c.Continuations()), reason))
	}
	st.Turn = nil
	save(c, st)
	return nil, nil
}
