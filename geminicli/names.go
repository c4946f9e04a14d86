package geminicli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/dialect"
)

// A matcher that names a tool the run never has disarms a guard
// silently: "write-file" never matches write_file, and the .env write
// runs. So, for BeforeTool and AfterTool:
//   - a matcher written as a plain name (letters, digits, '_', '-') that
//     takes a tool only once case is set aside takes it (what the user
//     meant is unambiguous), with a diagnostic, once per group; one that
//     misses a tool it is a typo of is a diagnostic with a did-you-mean at
//     that call (it does not run: a typo may name another tool);
//   - at load, a plain matcher that takes none of Gemini CLI's tools and
//     of ToolNames' names, but is one of them in another case or a typo of
//     one, is a load-time diagnostic;
//   - at the first model request that lists the run's tools, a matcher
//     that takes none of them, and a ToolNames key that is none of them,
//     is a diagnostic with a did-you-mean, once per settings set;
//   - CheckToolNames makes that check on a settings file, for a linter.

// geminiTools are the names of Gemini CLI's own tools.
var geminiTools = []string{"glob", "google_web_search", "grep_search", "list_directory", "read_file", "read_many_files",
	"replace", "run_shell_command", "save_memory", "search_file_content", "web_fetch", "write_file", "write_todos"}

// plainName reports whether a matcher is written as a tool name.
func plainName(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-')
	}) < 0
}

// alternatives are the names of a matcher written as plain names joined
// by '|' ("run_shell_command|write_file", a regular expression that takes
// either), or the one plain name it is; nil for any other expression.
func alternatives(src string) []string {
	names := strings.Split(src, "|")
	for _, n := range names {
		if !plainName(n) {
			return nil
		}
	}
	return names
}

// takesFolded reports whether m, plain names, takes one of subjects once
// case is set aside, and says so once; else it says, once, when m is a
// typo of one.
func (m matcher) takesFolded(c *hooks.Context, subjects ...string) bool {
	names := alternatives(m.src)
	if m.note == nil || names == nil {
		return false
	}
	for _, s := range subjects {
		if slices.ContainsFunc(names, func(n string) bool { return strings.Contains(strings.ToLower(s), strings.ToLower(n)) }) {
			if m.note.Folded() {
				c.Diagnose(fmt.Errorf("geminicli: Gemini CLI settings: %s: %q does not match the tool %q as written (a matcher is a regular expression, case included): it runs for it, as meant; write %q",
					m.path, m.src, s, s))
			}
			return true
		}
	}
	if m.note.FirstMiss(subjects) && !m.note.TypoSaid() {
		if like, ok := dialect.Closest(m.src, subjects); ok && m.note.Typo() {
			c.Diagnose(fmt.Errorf("geminicli: Gemini CLI settings: %s: %q does not match the tool %q (did you mean %q?): its hooks did not run for it",
				m.path, m.src, like, like))
		}
	}
	return false
}

// toolMatchers are the distinct matchers of BeforeTool and AfterTool.
func toolMatchers(events map[string][]*handler) []matcher {
	var out []matcher
	seen := map[string]bool{}
	for _, ev := range []string{evBeforeTool, evAfterTool} {
		for _, hd := range events[ev] {
			if m := hd.matcher; !m.all && !seen[m.path] {
				seen[m.path] = true
				out = append(out, m)
			}
		}
	}
	return out
}

// loadNames diagnoses, at load, the plain matchers that take none of
// Gemini CLI's tools and ToolNames' names but are one of them in another
// case or a typo of one; any other name may be a host tool's, which only
// a run can tell.
func loadNames(ms []matcher, mapped []string, diag loadDiag) {
	known := slices.Concat(geminiTools, mapped)
	for _, m := range ms {
		if !plainName(m.src) || slices.ContainsFunc(known, func(k string) bool { return m.matches(k) }) {
			continue
		}
		if i := slices.IndexFunc(known, func(k string) bool { return strings.Contains(strings.ToLower(k), strings.ToLower(m.src)) }); i >= 0 {
			diag("%s: %q does not match the tool %q as written (case included): it runs for it, as meant; write %q", m.path, m.src, known[i], known[i])
		} else if like, ok := dialect.Closest(m.src, known); ok {
			diag("%s: %q matches no Gemini CLI tool and no tool of ToolNames (did you mean %q?): it runs only for a host tool it matches", m.path, m.src, like)
		}
	}
}

// toolProblems are the set's tool matchers that take none of the host
// tools (by their name or their Gemini CLI name), and the ToolNames keys
// that are none of them.
func (s *set) toolProblems(host []string) []error {
	var subjects []string
	for _, h := range host {
		subjects = append(subjects, h)
		if g := s.geminiName(h); g != h {
			subjects = append(subjects, g)
		}
	}
	list := strings.Join(subjects, ", ")
	var out []error
	for _, m := range s.matchers {
		if names := alternatives(m.src); len(names) > 1 {
			out = append(out, alternativeProblems(m, names, subjects)...)
			continue
		}
		if slices.ContainsFunc(subjects, func(x string) bool { return m.matches(x) }) {
			continue
		}
		if i := slices.IndexFunc(subjects, func(x string) bool {
			return plainName(m.src) && strings.Contains(strings.ToLower(x), strings.ToLower(m.src))
		}); i >= 0 {
			out = append(out, fmt.Errorf("geminicli: Gemini CLI settings: %s: %q takes the tool %q only when case is set aside: it runs for it, as meant; write %q",
				m.path, m.src, subjects[i], subjects[i]))
			continue
		}
		hint := ""
		if like, ok := dialect.Closest(m.src, subjects); ok {
			hint = fmt.Sprintf(" (did you mean %q?)", like)
		}
		out = append(out, fmt.Errorf("geminicli: Gemini CLI settings: %s: %q matches no tool of this run%s, so its hooks never run; the tools are %s",
			m.path, m.src, hint, list))
	}
	return append(out, s.opts.Tools.KeyProblems("geminicli: ToolNames", host, false)...)
}

// alternativeProblems are the names of m, a list of names joined by '|',
// that take no tool of subjects as written: each disarms the guard meant
// for its tool, however well the others match.
func alternativeProblems(m matcher, names, subjects []string) []error {
	var out []error
	for _, n := range names {
		if slices.ContainsFunc(subjects, func(x string) bool { return strings.Contains(x, n) }) {
			continue
		}
		if i := slices.IndexFunc(subjects, func(x string) bool { return strings.Contains(strings.ToLower(x), strings.ToLower(n)) }); i >= 0 {
			out = append(out, fmt.Errorf("geminicli: Gemini CLI settings: %s: %q of %q takes the tool %q only when case is set aside: it runs for it, as meant; write %q",
				m.path, n, m.src, subjects[i], subjects[i]))
			continue
		}
		hint := ""
		if like, ok := dialect.Closest(n, subjects); ok {
			hint = fmt.Sprintf(" (did you mean %q?)", like)
		}
		out = append(out, fmt.Errorf("geminicli: Gemini CLI settings: %s: %q of %q matches no tool of this run%s, so its hooks never run for the tool it was meant for; the tools are %s",
			m.path, n, m.src, hint, strings.Join(subjects, ", ")))
	}
	return out
}

// CheckToolNames checks a Gemini CLI settings file against the tool names
// a run offers (the host's names; opts' ToolNames maps them as Hooks
// does): one problem per BeforeTool or AfterTool matcher that takes none
// of them as written, with a did-you-mean, and per ToolNames key that is
// none of them. A run makes the same check at its first model request
// that lists its tools (a diagnostic); this is for a linter (hookcheck
// lint --tools) to make it before any run. The error is the settings' or
// the options' own, as Hooks returns it.
func CheckToolNames(settings []byte, tools []string, opts ...Option) ([]error, error) {
	opts = append(slices.Clone(opts), Diagnostics(func(hooks.Diagnostic) {}))
	s, _, err := loadSet(settings, opts...)
	if err != nil {
		return nil, err
	}
	return s.toolProblems(tools), nil
}
