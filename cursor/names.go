package cursor

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/dialect"
)

// CheckToolNames is, for a linter, each name of a tool event's matcher
// that names no tool of tools (by host or Cursor name), with a
// did-you-mean, and each ToolNames key that is no tool: a guard whose
// matcher names no tool never runs.
func CheckToolNames(settings []byte, tools []string, opts ...Option) ([]error, error) {
	o, err := newOptions(append(opts, Diagnostics(func(hooks.Diagnostic) {})))
	if err != nil {
		return nil, err
	}
	events, err := parse(dialect.NewSettings("cursor: Cursor hooks.json", o.File, settings, o.Diagnostics), settings)
	if err != nil {
		return nil, err
	}
	subjects := o.Tools.Subjects(tools)
	var out []error
	for _, ev := range eventOrder {
		if ev.matchOn != "tool" {
			continue
		}
		for _, e := range events[ev.name] {
			if e.matcher == nil {
				continue
			}
			// A pattern that matches no tool ("Shel.l") is a guard that
			// never runs, as much as a name that names none.
			if m := e.matcher; m.re != nil && !slices.ContainsFunc(subjects, func(s string) bool { ok, _ := m.match(s); return ok }) {
				out = append(out, fmt.Errorf("cursor: %s.matcher: %q matches no tool of this run, so the entry never runs; the tools are %s", e.where, m.text, strings.Join(subjects, ", ")))
			}
			for _, n := range e.matcher.plain {
				if slices.Contains(subjects, n) {
					continue
				}
				if i := slices.IndexFunc(subjects, func(s string) bool { return strings.EqualFold(s, n) }); i >= 0 {
					out = append(out, fmt.Errorf("cursor: %s.matcher: %q names tool %q in another case: it runs for it here, with a diagnostic; write %q", e.where, n, subjects[i], subjects[i]))
					continue
				}
				out = append(out, fmt.Errorf("cursor: %s.matcher: %q names no tool%s, so the entry never runs for it", e.where, n, dialect.DidYouMean(n, subjects)))
			}
		}
	}
	for _, key := range o.Tools.Keys() {
		if !slices.Contains(tools, key) {
			out = append(out, fmt.Errorf("cursor: ToolNames: %q is no tool%s", key, dialect.DidYouMean(key, tools)))
		}
	}
	return out, nil
}
