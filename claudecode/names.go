package claudecode

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/dialect"
)

// A matcher or a ToolNames entry that names a tool the run never has
// disarms a guard silently: "matcher": "bash" never matches Bash, and
// `git push --force` runs. So:
//   - a matcher name equal to a tool's name once case is set aside
//     matches it (what the user meant is unambiguous), with a
//     diagnostic, once per group;
//   - at load, a matcher name that is a Claude Code tool's in another
//     case, or a typo of one or of a ToolNames name, is a load-time
//     diagnostic with a did-you-mean;
//   - at the first model request that lists the run's tools, a matcher
//     that takes none of them, and a ToolNames key that is none of them,
//     is a diagnostic with a did-you-mean, once per settings set;
//   - CheckToolNames makes that check on a settings file, for a linter.

// claudeTools are the names of Claude Code's own tools, as its matchers
// name them.
var claudeTools = []string{"Agent", "AskUserQuestion", "Bash", "BashOutput", "Edit", "ExitPlanMode", "Glob", "Grep",
	"KillShell", "LS", "MultiEdit", "NotebookEdit", "NotebookRead", "Read", "SlashCommand", "Skill", "Task",
	"TodoWrite", "WebFetch", "WebSearch", "Write"}

// takesFolded reports whether a name of m equals one of subjects once
// case is set aside (m did not take them as written), and says so once.
func (m matcher) takesFolded(c *hooks.Context, subjects ...string) bool {
	for _, name := range m.names {
		for _, s := range subjects {
			if s == "" || !strings.EqualFold(name, s) {
				continue
			}
			if m.note != nil && m.note.Folded() {
				c.Diagnose(fmt.Errorf("hooks: Claude Code settings: %s: %q is not the tool %q as written (Claude Code compares names case included): it runs for it, as meant; write %q",
					m.path, name, s, s))
			}
			return true
		}
	}
	if m.note != nil && !m.note.TypoSaid() && m.note.FirstMiss(subjects) {
		for _, name := range m.names {
			if like, ok := dialect.Closest(name, subjects); ok && m.note.Typo() {
				c.Diagnose(fmt.Errorf("hooks: Claude Code settings: %s: %q does not take the tool %q (did you mean %q?): its handlers did not run for it",
					m.path, name, like, like))
				break
			}
		}
	}
	return false
}

// loadNames diagnoses, at load, the names of a tool event's matcher that
// are a Claude Code tool's in another case, or a typo of one or of a
// ToolNames name: a name that is none of them may be a host tool's,
// which only a run can tell.
func (l loader) loadNames(path string, m matcher) {
	known := slices.Concat(claudeTools, l.mapped)
	for _, name := range m.names {
		if slices.Contains(known, name) || strings.HasPrefix(name, "mcp__") {
			continue
		}
		for _, k := range known {
			if strings.EqualFold(k, name) {
				l.skip(path, "%q is not the tool %q as written (Claude Code compares names case included): it runs for %q, as meant; write %q", name, k, k, k)
				goto next
			}
		}
		if like, ok := dialect.Closest(name, known); ok {
			l.skip(path, "%q names no Claude Code tool and no tool of ToolNames (did you mean %q?): it runs only for a host tool of that exact name", name, like)
		}
	next:
	}
}

// toolMatchers are the distinct matchers of the set's tool events.
func (s *set) toolMatchers(events map[string][]*handler) []matcher {
	var out []matcher
	seen := map[string]bool{}
	for _, ev := range append(slices.Clone(eventOrder), firedOrder...) {
		if !toolEvents[ev] {
			continue
		}
		for _, hd := range events[ev] {
			if m := hd.matcher; !m.all && !seen[m.path] {
				seen[m.path] = true
				out = append(out, m)
			}
		}
	}
	return out
}

// toolProblems are the set's matchers that take none of the host tools
// (by their name or their Claude Code name), and the ToolNames keys that
// are none of them.
func (s *set) toolProblems(host []string) []error {
	var subjects []string
	for _, h := range host {
		subjects = append(subjects, h)
		if cn := s.claudeName(h); cn != h {
			subjects = append(subjects, cn)
		}
	}
	var out []error
	for _, m := range s.matchers {
		if err := m.problem(subjects); err != nil {
			out = append(out, err)
		}
	}
	return append(out, s.opts.Tools.KeyProblems("claudecode: ToolNames", host, true)...)
}

// problem is what is wrong with m against the run's tool names (host and
// Claude Code names): nil when it takes one as written and, for a list of
// names ("Bash|Wirte"), when each of its names takes one: a name of the
// list that takes none disarms the guard for the tool it was meant for,
// however well the others match.
func (m matcher) problem(subjects []string) error {
	list := strings.Join(subjects, ", ")
	if m.es != nil || m.all {
		for _, s := range subjects {
			if m.matches(s) {
				return nil
			}
		}
		return fmt.Errorf("hooks: Claude Code settings: %s: %q matches no tool of this run, so its handlers never run; the tools are %s", m.path, m.src, list)
	}
	var missed []string
	for _, name := range m.names {
		if slices.Contains(subjects, name) {
			continue
		}
		if i := slices.IndexFunc(subjects, func(s string) bool { return strings.EqualFold(name, s) }); i >= 0 {
			missed = append(missed, fmt.Sprintf("%q takes the tool %q only when case is set aside: it runs for it, as meant; write %q", name, subjects[i], subjects[i]))
			continue
		}
		hint := ""
		if like, ok := dialect.Closest(name, subjects); ok {
			hint = fmt.Sprintf(" (did you mean %q?)", like)
		}
		what := fmt.Sprintf("%q names no tool of this run%s, so its handlers never run", name, hint)
		if len(m.names) > 1 {
			what += fmt.Sprintf(" for the tool it was meant for (a name of the list %q)", m.src)
		}
		missed = append(missed, what)
	}
	if len(missed) == 0 {
		return nil
	}
	return fmt.Errorf("hooks: Claude Code settings: %s: %s; the tools are %s", m.path, strings.Join(missed, "; "), list)
}

// CheckToolNames checks a Claude Code settings file against the tool
// names a run offers (the host's names; opts' ToolNames maps them as
// Hooks does): one problem per matcher of a tool event (PreToolUse,
// PostToolUse, PostToolUseFailure, PermissionRequest) that takes none of
// them as written, with a did-you-mean, and per ToolNames key that is
// none of them. A run makes the same check at its first model request
// that lists its tools (a diagnostic); this is for a linter (hookcheck
// lint --tools) to make it before any run. The error is the settings' or
// the options' own, as Hooks returns it.
func CheckToolNames(settings []byte, tools []string, opts ...Option) ([]error, error) {
	opts = append(slices.Clone(opts), Diagnostics(func(hooks.Diagnostic) {}))
	hs, err := Hooks(settings, opts...)
	if err != nil {
		return nil, err
	}
	if len(hs) == 0 {
		return nil, nil
	}
	return hs[0].(*hook).set.toolProblems(tools), nil
}

// noteToolName says, once per set, that a tool call's name is mapped by
// a ToolNames key only once case is set aside: a host that never lists
// its tools in a model request hears it here.
func (s *set) noteToolName(c *hooks.Context, host string) {
	if s.foldNoted.Load() {
		return
	}
	if name, key, ok := s.opts.Tools.Folded(host); ok && s.foldNoted.CompareAndSwap(false, true) {
		c.Diagnose(fmt.Errorf("claudecode: ToolNames: %q is not the tool %q as written: it maps %q to %q, as meant; write %q", key, host, host, name, host))
	}
}
