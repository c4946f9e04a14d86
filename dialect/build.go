package dialect

import (
	"fmt"
	"reflect"
	"sync"

	"github.com/rienda/hooks"
)

// Build returns the hooks of one settings file: one per event of the
// table that has handlers, named Options.Prefix + event, in the table's
// order. handlers are each event's handlers, in settings order.
//
// Each hook runs its handlers one after another, in settings order, with
// the event's Input on stdin (Exec: process group, output cap, timeout),
// and applies each Decision at its point (see Decision). At a ToolCall
// event the first Block refuses the call and no later handler runs; a
// handler's Arguments are the next handler's call. A failure (timeout,
// start, an exit Decide did not read as a Block, output Decide cannot
// read) is a diagnostic, and refuses the call when the event or the
// handler fails closed; output too large to read, and output that
// evidently refuses (Evident) however Decide read it, always refuse.
//
// A hook's per-run state (added context, an end asked for) is its
// hooks.Context state, so Run.Snapshot carries it.
func Build(spec *Spec, opts *Options, handlers map[string][]*Handler) []hooks.Hook {
	check := NewToolCheck(spec, opts, handlers)
	var out []hooks.Hook
	for i := range spec.Events {
		ev := &spec.Events[i]
		if hs := handlers[ev.Name]; len(hs) > 0 {
			out = append(out, &hook{name: opts.Prefix + ev.Name, spec: spec, event: ev, opts: opts, handlers: hs, check: check})
		}
	}
	return out
}

// NewToolCheck is the name check of the ToolMatchers of spec's tool events
// and of opts' ToolNames; Build makes it at each run's first model request
// that lists tools, and a dialect's CheckToolNames returns its Problems.
func NewToolCheck(spec *Spec, opts *Options, handlers map[string][]*Handler) *ToolCheck {
	check := &ToolCheck{Label: spec.pkg() + ": " + spec.Name + " settings", Option: spec.pkg() + ": ToolNames", Tools: opts.Tools}
	seen := map[*ToolMatcher]bool{}
	for _, ev := range spec.Events {
		if !ev.When.tool() {
			continue
		}
		for _, hd := range handlers[ev.Name] {
			if m, ok := hd.Matcher.(*ToolMatcher); ok && !seen[m] {
				seen[m] = true
				check.Matchers = append(check.Matchers, m)
			}
		}
	}
	return check
}

// hook runs the handlers of one event of one settings file.
type hook struct {
	name     string
	spec     *Spec
	event    *Event
	opts     *Options
	handlers []*Handler
	check    *ToolCheck
	mu       sync.Mutex // serialises keep's read-modify-write by parallel tool calls
}

// state is a hook's per-run state.
type state struct {
	// Context is what RunStart handlers add to every request.
	Context string `json:"context,omitempty"`
	// Pending is added to the next request only.
	Pending string `json:"pending,omitempty"`
	// End is an end asked for where the point cannot end the run.
	End *string `json:"end,omitempty"`
}

// Name is Options.Prefix + the event.
func (h *hook) Name() string { return h.name }

// DefaultPolicy is Report: a handler's failure is a diagnostic the hook
// makes itself; a refusal on failure is hooks.FailClosed, whatever the
// policy.
func (h *hook) DefaultPolicy() hooks.Policy { return hooks.Report }

// Handles reports the event's point, and BeforeModelRequest, where the
// context and an end the handlers asked for are taken.
func (h *hook) Handles(p hooks.Point) bool {
	return p == h.event.When.point() || p == hooks.BeforeModelRequest && h.event.When != RunEnd
}

// at is the base of an At for this hook.
func (h *hook) at(c *hooks.Context) *At {
	return &At{Event: h.event, Spec: h.spec, Workdir: Workdir(c), Active: c.Continuations() > 0}
}

// BeforeRun runs RunStart handlers.
func (h *hook) BeforeRun(c *hooks.Context, start hooks.RunStart) (*hooks.RunPatch, error) {
	if h.event.When != RunStart {
		return nil, nil
	}
	at := h.at(c)
	at.Start = &start
	st := Load[state](c, h.spec.Name+" hook")
	var added string
	_, err := h.each(c, at, func(d Decision) bool {
		added = JoinSystem(added, d.Context)
		if d.Stop != nil {
			st.End = d.Stop
		}
		return false
	})
	if added != "" { // a resumed run's handlers give its context afresh; when they give none, the snapshot's stays
		st.Context = added
	}
	Save(c, st)
	return nil, err
}

// AfterRun runs RunEnd handlers.
func (h *hook) AfterRun(c *hooks.Context, end hooks.RunEnd) error {
	if h.event.When != RunEnd {
		return nil
	}
	at := h.at(c)
	at.End = &end
	_, err := h.each(c, at, func(Decision) bool { return false })
	return err
}

// BeforeModelRequest takes an end asked for and the context to add, then
// runs UserPrompt or ModelRequest handlers.
func (h *hook) BeforeModelRequest(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
	h.check.Check(c, req.Tools)
	st := Load[state](c, h.spec.Name+" hook")
	if st.End != nil {
		end := *st.End
		st.End = nil
		Save(c, st)
		return &hooks.ModelRequestPatch{End: &hooks.End{Output: end}}, nil
	}
	system := JoinSystem(JoinSystem(req.System, st.Context), st.Pending)
	if st.Pending != "" {
		st.Pending = ""
		Save(c, st)
	}
	at := h.at(c)
	at.Request = &req
	run := h.event.When == ModelRequest
	if h.event.When == UserPrompt {
		at.Prompt, run = UserTurn(c, req)
	}
	var end *string
	if run {
		_, err := h.each(c, at, func(d Decision) bool {
			system = JoinSystem(system, d.Context)
			switch {
			case d.Block:
				r := d.Reason
				end = &r
			case d.Stop != nil:
				end = d.Stop
			}
			return end != nil
		})
		if err != nil {
			return nil, err
		}
	}
	var p *hooks.ModelRequestPatch
	if system != req.System {
		p = &hooks.ModelRequestPatch{System: &system}
	}
	if end != nil {
		p = &hooks.ModelRequestPatch{End: &hooks.End{Output: *end}}
	}
	return p, nil
}

// BeforeToolExecute runs ToolCall handlers.
func (h *hook) BeforeToolExecute(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
	at := h.at(c)
	at.Call, at.Tool = &call, h.opts.Tools.Dialect(call.Name)
	var p *hooks.ToolCallPatch
	var pending string
	var end *string
	var rewriter *Handler // the last handler that rewrote the call
	block, err := h.each(c, at, func(d Decision) bool {
		pending = JoinSystem(pending, d.Context)
		if d.Stop != nil {
			end = d.Stop
		}
		if d.Block {
			return true
		}
		if d.Arguments != nil {
			rewriter = at.Handler
			call.Arguments = d.Arguments
			if p == nil {
				p = &hooks.ToolCallPatch{}
			}
			p.Arguments = d.Arguments
		}
		return false
	})
	if err == nil && block == nil && rewriter != nil {
		block, err = h.recheck(c, at, rewriter)
	}
	h.keep(c, pending, end)
	if err != nil {
		return nil, err
	}
	if block != nil {
		return hooks.Refuse(block.Reason), nil
	}
	return p, nil
}

// recheck runs again, on the call as rewritten (at.Call), the handlers
// before rewriter, the last handler that rewrote it: they decided on an
// earlier call, and a guard never lets through a call it did not see (a
// later handler's rewrite would otherwise carry "rm -rf /" past an
// earlier handler that refuses it). A refusal refuses the call; a
// handler that would rewrite it again to something else refuses it too,
// since the handlers' rewrites do not settle on one call. What the
// handlers add as context the first time stands; this run's is not
// added again.
func (h *hook) recheck(c *hooks.Context, at *At, rewriter *Handler) (*Decision, error) {
	final := at.Call.Arguments
	var unsettled *Handler
	stop := false
	block, err := h.eachBefore(c, at, rewriter, func(d Decision) bool {
		if d.Arguments != nil && !reflect.DeepEqual(d.Arguments, final) {
			unsettled, stop = at.Handler, true
		}
		return stop
	})
	if err != nil || block != nil {
		return block, err
	}
	if unsettled != nil {
		return &Decision{Block: true, Reason: fmt.Sprintf("%s hook %s rewrites the call %s rewrote: the rewrites do not settle on one call", h.spec.Name, unsettled.Where, rewriter.Where)}, nil
	}
	return nil, nil
}

// AfterToolExecute runs ToolResult, ToolError and AnyToolResult handlers.
func (h *hook) AfterToolExecute(c *hooks.Context, call hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
	switch h.event.When {
	case ToolResult:
		if res.IsError {
			return nil, nil
		}
	case ToolError:
		if !res.IsError {
			return nil, nil
		}
	}
	at := h.at(c)
	at.Call, at.Tool, at.Result = &call, h.opts.Tools.Dialect(call.Name), &res
	var p *hooks.ToolResultPatch
	var pending string
	var end *string
	_, err := h.each(c, at, func(d Decision) bool {
		pending = JoinSystem(pending, d.Context)
		if d.Stop != nil {
			end = d.Stop
		}
		switch {
		case d.Block:
			isErr := true
			text := d.Reason
			p = &hooks.ToolResultPatch{Text: &text, IsError: &isErr}
			res.Text, res.IsError = text, true
		case d.Text != nil:
			text := *d.Text
			if p == nil {
				p = &hooks.ToolResultPatch{}
			}
			p.Text = &text
			res.Text = text
		}
		return false
	})
	h.keep(c, pending, end)
	return p, err
}

// AfterModelResponse runs ModelReply and FinalReply handlers.
func (h *hook) AfterModelResponse(c *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
	if h.event.When == FinalReply && len(resp.ToolCalls) > 0 {
		return nil, nil
	}
	at := h.at(c)
	at.Response = &resp
	var p hooks.ModelResponsePatch
	var pending string
	_, err := h.each(c, at, func(d Decision) bool {
		pending = JoinSystem(pending, d.Context)
		if d.Text != nil {
			text := *d.Text
			p.Text, resp.Text = &text, text
		}
		switch {
		case d.Stop != nil:
			p.End, p.Continue = &hooks.End{Output: *d.Stop}, nil
			return true
		case d.Block && h.event.When == ModelReply:
			p.End = &hooks.End{Output: d.Reason}
			return true
		case d.Block && MayContinue(c, h.opts.Continuations):
			reason := d.Reason
			p.Continue = &reason
			return true
		case d.Block:
			c.Diagnose(&handlerError{spec: h.spec, where: at.Handler.Where, msg: fmt.Sprintf("asked to send the run on past %d continuations in a row (Continuations); the reply stands as final", h.opts.Continuations)})
			return true
		}
		return false
	})
	h.keep(c, pending, nil)
	if p.Text == nil && p.End == nil && p.Continue == nil {
		return nil, err
	}
	return &p, err
}

// keep saves context for the next model request, and an end asked for.
func (h *hook) keep(c *hooks.Context, pending string, end *string) {
	if pending == "" && end == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	st := Load[state](c, h.spec.Name+" hook")
	st.Pending = JoinSystem(st.Pending, pending)
	if end != nil {
		st.End = end
	}
	Save(c, st)
}

// Base gives a dialect's own hook type its name and its default policy,
// Report: a handler's failure is a diagnostic the hook makes itself, so
// that the next handler still runs; a refusal on failure is returned as
// hooks.FailClosed, which refuses whatever the policy. Embed it.
type Base struct{ HookName string }

// Name is the hook's name ("<prefix><event>").
func (b *Base) Name() string { return b.HookName }

// DefaultPolicy is Report.
func (b *Base) DefaultPolicy() hooks.Policy { return hooks.Report }
