package codex

import (
	"fmt"
	"strings"
	"sync"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/dialect"
)

// eventOrder is the order of the hooks Hooks returns.
var eventOrder = []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"}

// unsupported says why an event of Codex's is not run here.
var unsupported = map[string]string{
	"PermissionRequest": "it answers Codex's own approval prompt, which a host of this library does not have (a PreToolUse guard, or Host.Confirm, is where a call is approved)",
	"PreCompact":        "there is no compaction point in this library",
	"PostCompact":       "there is no compaction point in this library",
	"SubagentStart":     "there are no subagents in this library",
	"SubagentStop":      "there are no subagents in this library",
	"StopFailure":       "a failed model call is the host's error, not a point",
	"Interrupt":         "an interrupted call ends with its context's error, not at a point",
}

// set is what the hooks of one settings file share.
type set struct {
	opts options
	mu   sync.Mutex // a run state's read-modify-write (parallel tool calls)
	// keysChecker is the hook that diagnoses ToolNames keys that are no
	// tool of the run: the first tool event's, so that it is said once.
	keysChecker string
}

// base is what every event's hook has.
type base struct {
	name     string
	event    string
	handlers []*handler
	set      *set
}

// Name is "<prefix><event>".
func (b *base) Name() string { return b.name }

// DefaultPolicy is Report: a handler's failure is a diagnostic and the
// run goes on, as in Codex (failClosed, a key of this library, refuses
// a tool call instead).
func (b *base) DefaultPolicy() hooks.Policy { return hooks.Report }

// build turns a parsed file into hooks.
func build(f *file, o options) ([]hooks.Hook, error) {
	s := &set{opts: o}
	diag := func(event, format string, args ...any) {
		o.Diagnostics(hooks.Diagnostic{Hook: o.Prefix + event, Err: fmt.Errorf("codex: %s: "+format, append([]any{f.name}, args...)...)})
	}
	for _, n := range f.notes {
		diag("settings", "%s", n)
	}
	var out []hooks.Hook
	for _, ev := range knownEvents {
		hs := f.events[ev]
		if len(hs) == 0 {
			continue
		}
		if why, ok := unsupported[ev]; ok {
			diag(ev, "%d handler(s) of %s are not run: %s", len(hs), ev, why)
			continue
		}
	}
	for _, ev := range eventOrder {
		var run []*handler
		for _, hd := range f.events[ev] {
			if keep(f, o, hd, diag) {
				hd.set = s
				run = append(run, hd)
			}
		}
		if len(run) == 0 {
			continue
		}
		b := &base{name: o.Prefix + ev, event: ev, handlers: run, set: s}
		if s.keysChecker == "" && (ev == "PreToolUse" || ev == "PostToolUse") {
			s.keysChecker = b.name
		}
		switch ev {
		case "SessionStart":
			out = append(out, &sessionStartHook{b})
		case "UserPromptSubmit":
			out = append(out, &promptHook{b})
		case "PreToolUse":
			out = append(out, &preToolHook{b})
		case "PostToolUse":
			out = append(out, &postToolHook{b})
		case "Stop":
			out = append(out, &stopHook{b})
		case "SessionEnd":
			out = append(out, &sessionEndHook{b})
		}
	}
	return out, nil
}

// keep reports whether hd runs: a command handler that [hooks.state]
// does not disable and that Trusted (when given) trusts.
func keep(f *file, o options, hd *handler, diag func(string, string, ...any)) bool {
	if hd.typ != "command" {
		diag(hd.event, "%s: a %q handler is not run (Codex skips it too: only command hooks run)", hd.where, hd.typ)
		return false
	}
	key := hookKey(f.name, hd)
	if st, ok := f.state[key]; ok && st.Enabled != nil && !*st.Enabled {
		diag(hd.event, "%s is disabled in [hooks.state] (%s)", hd.where, key)
		return false
	}
	if o.trusted != nil {
		hash := hd.hash()
		switch trusted, ok := o.trusted[key]; {
		case !ok:
			diag(hd.event, "%s is not run: it was never trusted (key %s, hash %s)", hd.where, key, hash)
			return false
		case trusted != hash:
			diag(hd.event, "%s is not run: it changed since it was trusted (key %s, hash %s, trusted %s)", hd.where, key, hash, trusted)
			return false
		}
	}
	if hd.async {
		diag(hd.event, "%s: async is not run in the background here: it runs with the call, and its decision counts", hd.where)
	}
	return true
}

// runState is what a hook keeps for a run (Context.State), so that a
// snapshot carries it.
type runState struct {
	Model   string   `json:"model,omitempty"`   // the model of the last request, sent as "model"
	Context string   `json:"context,omitempty"` // SessionStart's, added to every request
	Pending []string `json:"pending,omitempty"` // context for the next request only
	End     *string  `json:"end,omitempty"`     // a continue:false: the run ends at the next request
	Checked bool     `json:"checked,omitempty"` // the matchers were checked against the run's tools
}

func load(c *hooks.Context) runState { return dialect.Load[runState](c, "Codex hook") }

// update changes the run state under the set's lock.
func (b *base) update(c *hooks.Context, fn func(*runState)) {
	b.set.mu.Lock()
	defer b.set.mu.Unlock()
	st := load(c)
	fn(&st)
	st.Pending = append([]string(nil), st.Pending...)
	dialect.Save(c, st)
}

// BeforeModelRequest records the request's model (sent as "model" to
// later handlers), ends the run when a handler asked to (continue:false
// from an event that cannot end it itself), and adds what handlers gave
// for the model's context: SessionStart's to every request, the others'
// to the next one.
func (b *base) BeforeModelRequest(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
	var st runState
	check := (b.event == "PreToolUse" || b.event == "PostToolUse") && len(req.Tools) > 0
	b.update(c, func(s *runState) {
		st = *s
		if req.Model != "" {
			s.Model = req.Model
		}
		s.Pending, s.End = nil, nil
		s.Checked = s.Checked || check
	})
	if check && !st.Checked {
		b.checkTools(c, req.Tools)
	}
	if st.End != nil {
		return &hooks.ModelRequestPatch{End: &hooks.End{Output: *st.End}}, nil
	}
	system := req.System
	if st.Context != "" {
		system = joinSystem(system, st.Context)
	}
	for _, p := range st.Pending {
		system = joinSystem(system, p)
	}
	if system == req.System {
		return nil, nil
	}
	return &hooks.ModelRequestPatch{System: &system}, nil
}

// joinSystem adds text to a system prompt, after a blank line.
func joinSystem(system, text string) string { return dialect.JoinSystem(system, text) }

// notify sends an output's systemMessage to the host (Codex shows it as
// a warning).
func (b *base) notify(c *hooks.Context, o *output) {
	if o != nil && o.systemMessage != nil && *o.systemMessage != "" {
		c.Notify(hooks.Notice{Title: "Codex hook (" + b.event + ")", Body: cut(*o.systemMessage)})
	}
}

// model is the model the run last asked, for "model" on stdin.
func model(c *hooks.Context) string { return load(c).Model }

func turnID(c *hooks.Context) *string {
	id := c.RunID()
	return &id
}

// names are the subjects a tool call is matched by: its Codex name, the
// host's name, and Codex's aliases of the Codex name.
func (s *set) names(host string) (string, []string) {
	cx := s.opts.Tools.Dialect(host)
	subjects := append([]string{cx, host}, matcherAliases[cx]...)
	return cx, subjects
}

// selected is the handlers whose matcher takes any of the subjects, or
// names one of them in another case (with a diagnostic).
func (b *base) selected(c *hooks.Context, subjects ...string) []*handler {
	var out []*handler
	for _, hd := range b.handlers {
		switch {
		case hd.match.matches(subjects...):
			out = append(out, hd)
		case hd.match.folded(subjects...) != "":
			c.Diagnose(fmt.Errorf("the Codex hook %s: matcher name %q is %q only once case is set aside: Codex would not run it; it runs here",
				hd.where, hd.match.folded(subjects...), subjects[0]))
			out = append(out, hd)
		}
	}
	return out
}

// contextOf is what a handler adds to the model's context: its
// additionalContext, or (SessionStart, UserPromptSubmit) its plain text.
func contextOf(r result, plain bool) string {
	if r.out != nil && r.out.spec != nil && r.out.spec.additionalContext != nil {
		return cut(*r.out.spec.additionalContext)
	}
	if plain {
		return cut(r.text)
	}
	return ""
}

// stopText is the reason of a continue:false.
func stopText(r result, event string) string {
	if r.out != nil && trimmed(r.out.stopReason) != "" {
		return cut(trimmed(r.out.stopReason))
	}
	return event + " hook stopped execution (Codex hook " + r.hd.where + ")"
}

func joinNonEmpty(parts []string) string {
	var keep []string
	for _, p := range parts {
		if p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, "\n\n")
}
