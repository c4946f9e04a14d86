package cursor

import (
	"encoding/json"
	"fmt"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/dialect"
)

// set is what the hooks of one Hooks call share.
type set struct{ opts options }

// hook runs the entries of one event of one hooks.json.
type hook struct {
	name    string
	ev      event
	entries []*entry
	set     *set
}

// Name is "<prefix><event>".
func (h *hook) Name() string { return h.name }

// DefaultPolicy is Report: an entry's failure is a diagnostic the hook
// makes itself, and what refuses a call (a deny, exit 2, a failClosed
// entry's failure, output too large to read) the hook decides itself.
func (h *hook) DefaultPolicy() hooks.Policy { return hooks.Report }

// Handles reports the event's point; stop also handles AfterRun (a run
// that failed or was interrupted ends the agent loop with status error or
// aborted).
func (h *hook) Handles(p hooks.Point) bool {
	return p == h.ev.point || (p == hooks.AfterRun && h.ev.kind == kStop)
}

// promptState is what beforeSubmitPrompt keeps across a run's requests.
type promptState struct {
	Submitted int `json:"submitted"` // messages in the request when it last fired
}

// BeforeRun runs sessionStart entries; their output (env,
// additional_context) is not read here: a diagnostic says so.
func (h *hook) BeforeRun(c *hooks.Context, start hooks.RunStart) (*hooks.RunPatch, error) {
	p := h.payload(c)
	p["session_id"] = c.Session.ID
	p["is_background_agent"] = false
	p["composer_mode"] = "agent"
	return nil, h.observe(c, p, func(e *entry, r ran) {
		if len(r.stdout) > 0 && r.err == nil && r.code == 0 {
			var o map[string]json.RawMessage
			if json.Unmarshal(r.stdout, &o) == nil && len(o) > 0 {
				c.Diagnose(fmt.Errorf("cursor: %s: sessionStart output (env, additional_context) is not applied here: the host owns the run's environment and context", e.where))
			}
		}
	})
}

// AfterRun runs sessionEnd entries, and stop entries for a run that
// failed or was interrupted (their follow-up cannot be sent).
func (h *hook) AfterRun(c *hooks.Context, end hooks.RunEnd) error {
	p := h.payload(c)
	if h.ev.kind == kStop {
		status := "error"
		switch end.Outcome {
		case hooks.Failed:
		case hooks.Interrupted, hooks.Suspended:
			status = "aborted"
		default:
			return nil // completed: stop ran at the last reply
		}
		p["status"], p["loop_count"] = status, c.Continuations()
		return h.observe(c, p, nil)
	}
	p["session_id"] = c.Session.ID
	p["reason"] = map[hooks.Outcome]string{hooks.Completed: "completed", hooks.Failed: "error"}[end.Outcome]
	if p["reason"] == "" {
		p["reason"] = "aborted"
	}
	return h.observe(c, p, nil)
}

// BeforeModelRequest runs beforeSubmitPrompt entries once per prompt of
// the user (not for a follow-up a stop hook sent): continue false, or
// exit 2, ends the run with the user_message.
func (h *hook) BeforeModelRequest(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
	n := len(req.Messages)
	var st promptState
	if v := c.State(); v != nil {
		data, _ := json.Marshal(v)
		_ = json.Unmarshal(data, &st)
	}
	if n == 0 || req.Messages[n-1].Role != "user" || c.Continuations() > 0 || st.Submitted == n {
		return nil, nil
	}
	c.SetState(promptState{Submitted: n})
	p := h.payload(c)
	p["prompt"] = req.Messages[n-1].Text
	p["attachments"] = []any{}
	for _, e := range h.entries {
		r, err := h.run(c, e, p)
		if err != nil {
			return nil, err
		}
		blocked, msg := false, ""
		switch {
		case r.err == nil && r.code == 2:
			blocked, msg = true, r.stderr
		case r.err != nil || r.code != 0:
			h.report(c, e, r)
			blocked = e.failClosed || r.tooBig
		default:
			var o promptOutput
			_, unknown, err := decode(r.stdout, &o, promptKeys)
			if err != nil {
				h.report(c, e, ran{err: &failure{e.where, err}})
				blocked = e.failClosed
				break
			}
			h.unknown(c, e, unknown)
			blocked, msg = o.Continue != nil && !*o.Continue, deref(o.UserMessage)
		}
		if blocked {
			return &hooks.ModelRequestPatch{End: &hooks.End{Output: dialect.Cut(orDefault(msg, "Prompt blocked by Cursor hook "+e.where))}}, nil
		}
	}
	return nil, nil
}

// AfterModelResponse runs stop entries at a reply that ends the agent's
// turn (no tool calls): the first followup_message is sent as the next
// user message, while loop_count (the run's follow-ups in a row) is
// under the entry's loop_limit; and afterAgentResponse and
// afterAgentThought entries, which only observe.
func (h *hook) AfterModelResponse(c *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
	p := h.payload(c)
	switch h.ev.kind {
	case kAfterResponse:
		p["text"] = resp.Text
		return nil, h.observe(c, p, nil)
	case kAfterThought:
		if resp.Reasoning == "" {
			return nil, nil
		}
		p["text"] = resp.Reasoning
		return nil, h.observe(c, p, nil)
	}
	if len(resp.ToolCalls) > 0 {
		return nil, nil
	}
	count := c.Continuations()
	p["status"], p["loop_count"] = "completed", count
	for _, e := range h.entries {
		r, err := h.run(c, e, p)
		if err != nil {
			return nil, err
		}
		if r.err != nil || r.code != 0 {
			h.report(c, e, r)
			continue
		}
		var o stopOutput
		if _, unknown, err := decode(r.stdout, &o, stopKeys); err != nil {
			h.report(c, e, ran{err: &failure{e.where, err}})
			continue
		} else {
			h.unknown(c, e, unknown)
		}
		msg := deref(o.FollowupMessage)
		if msg == "" {
			continue
		}
		if e.loopLimit >= 0 && count >= e.loopLimit {
			c.Diagnose(fmt.Errorf("cursor: %s: loop_limit %d reached: the follow-up is not sent", e.where, e.loopLimit))
			continue
		}
		return &hooks.ModelResponsePatch{Continue: &msg}, nil
	}
	return nil, nil
}

// observe runs every entry with p on stdin; their failures are
// diagnostics. each, when set, sees every run.
func (h *hook) observe(c *hooks.Context, p map[string]any, each func(*entry, ran)) error {
	for _, e := range h.entries {
		r, err := h.run(c, e, p)
		if err != nil {
			return err
		}
		h.report(c, e, r)
		if each != nil {
			each(e, r)
		}
	}
	return nil
}

// report diagnoses an entry that did not end well.
func (h *hook) report(c *hooks.Context, e *entry, r ran) {
	switch {
	case r.err != nil:
		c.Diagnose(r.err)
	case r.code != 0:
		c.Diagnose(&failure{e.where, fmt.Errorf("exited %d: %s", r.code, r.stderr)})
	}
}

// unknown diagnoses the keys of an output that no field took.
func (h *hook) unknown(c *hooks.Context, e *entry, keys []string) {
	for _, k := range keys {
		c.Diagnose(fmt.Errorf("cursor: %s printed %s", e.where, k))
	}
}
