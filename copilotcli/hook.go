package copilotcli

import (
	"encoding/json"
	"fmt"

	"github.com/rienda/hooks"
)

// set is what the hooks of one Hooks call share.
type set struct{ opts options }

// hook runs the entries of one event of one file.
type hook struct {
	name    string
	ev      event
	entries []*entry
	set     *set
}

// Name is "<prefix><event>".
func (h *hook) Name() string { return h.name }

// DefaultPolicy is Report: an entry's failure is a diagnostic the hook
// makes itself, and what refuses a call (a deny, a preToolUse entry that
// errored, output too large to read) the hook decides itself.
func (h *hook) DefaultPolicy() hooks.Policy { return hooks.Report }

// Handles reports the event's point, and BeforeModelRequest for a
// permissionRequest hook (an "interrupt" ends the run there).
func (h *hook) Handles(p hooks.Point) bool {
	return p == h.ev.point || (p == hooks.BeforeModelRequest && h.ev.kind == kPermissionRequest)
}

// runState is what a hook keeps across a run's points (in the snapshot).
type runState struct {
	Prompted int    `json:"prompted,omitempty"` // messages in the request when userPromptSubmitted last fired
	End      string `json:"end,omitempty"`      // an interrupt's reason: the run ends at the next model request
}

// load is the hook's state for the run.
func load(c *hooks.Context) runState {
	switch v := c.State().(type) {
	case runState:
		return v
	case nil:
		return runState{}
	default: // after Resume: JSON values
		var st runState
		if data, err := json.Marshal(v); err == nil {
			_ = json.Unmarshal(data, &st)
		}
		return st
	}
}

// copilotName is the Copilot CLI name of a host tool.
func (s *set) copilotName(host string) string {
	if name, ok := s.opts.toCopilot[host]; ok {
		return name
	}
	return host
}

// BeforeRun runs sessionStart entries (output ignored, as in Copilot CLI).
func (h *hook) BeforeRun(c *hooks.Context, start hooks.RunStart) (*hooks.RunPatch, error) {
	p := h.payload(c)
	p["source"] = "new"
	if start.Resumed {
		p["source"] = "resume"
	}
	if start.Input != "" {
		p[h.key("initialPrompt", "initial_prompt")] = start.Input
	}
	return nil, h.observe(c, p, nil)
}

// AfterRun runs sessionEnd entries, and errorOccurred entries for a run
// that failed.
func (h *hook) AfterRun(c *hooks.Context, end hooks.RunEnd) error {
	p := h.payload(c)
	switch h.ev.kind {
	case kSessionEnd:
		p["reason"] = endReason(end.Outcome)
	case kErrorOccurred:
		if end.Outcome != hooks.Failed {
			return nil
		}
		msg := end.Reason
		if end.Err != nil {
			msg = end.Err.Error()
		}
		p["error"] = map[string]any{"message": msg, "name": "Error"}
		p[h.key("errorContext", "error_context")] = "system"
		p["recoverable"] = false
	}
	return h.observe(c, p, nil)
}

// endReason is Copilot CLI's sessionEnd reason for an outcome.
func endReason(o hooks.Outcome) string {
	switch o {
	case hooks.Completed:
		return "complete"
	case hooks.Failed:
		return "error"
	}
	return "abort" // interrupted, suspended
}

// BeforeModelRequest runs userPromptSubmitted entries once per prompt of
// the user (not for a continuation), and ends the run an interrupt asked
// to end.
func (h *hook) BeforeModelRequest(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
	st := load(c)
	if h.ev.kind == kPermissionRequest {
		if st.End == "" {
			return nil, nil
		}
		reason := st.End
		st.End = ""
		c.SetState(st)
		return &hooks.ModelRequestPatch{End: &hooks.End{Output: reason}}, nil
	}
	n := len(req.Messages)
	if n == 0 || req.Messages[n-1].Role != "user" || c.Continuations() > 0 || st.Prompted == n {
		return nil, nil
	}
	st.Prompted = n
	c.SetState(st)
	p := h.payload(c)
	p["prompt"] = req.Messages[n-1].Text
	return nil, h.observe(c, p, nil)
}

// observe runs every entry with p on stdin; their output is not read
// (Copilot CLI ignores it), their failures are diagnostics. each, when
// set, is given every entry's run.
func (h *hook) observe(c *hooks.Context, p map[string]any, each func(*entry, ran)) error {
	for _, e := range h.entries {
		if e.cannot != "" {
			continue
		}
		r, err := e.run(c, p)
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
