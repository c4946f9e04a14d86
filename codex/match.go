package codex

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/dialect"
)

// matcher is Codex's rule (codex-rs/hooks/src/events/common.rs
// matches_matcher): absent, "" or "*" match everything; a matcher of only
// ASCII letters, digits, '_' and '|' is a list of exact names split on
// '|' (case included: "bash" does not match Bash); anything else is an
// unanchored regular expression (Rust's regex crate; Go's regexp reads
// the same syntax for what a matcher holds: classes, groups,
// alternation, anchors, repetition, (?i)), so "Bash" matches only Bash
// but "^Bash" matches BashOutput too.
type matcher struct {
	all   bool
	names []string
	re    *regexp.Regexp
}

// compileMatcher reads s; a regular expression that does not compile is
// an error (Codex skips such a group with a warning: its guard would be
// silently off).
func compileMatcher(s string) (*matcher, error) {
	if s == "" || s == "*" {
		return &matcher{all: true}, nil
	}
	if exactMatcher(s) {
		return &matcher{names: strings.Split(s, "|")}, nil
	}
	if namesWritten(s) {
		// "Bash, Write" or " Bash": Codex reads it as a regular expression
		// that takes no tool of those names: a guard that never runs.
		fields := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '|' })
		return nil, fmt.Errorf("%q is read by Codex as a regular expression that takes no tool of those names "+
			"(names are split on '|' only, with no spaces): write %q", s, strings.Join(fields, "|"))
	}
	re, err := regexp.Compile(s)
	if err != nil {
		return nil, fmt.Errorf("invalid regular expression %q: %v", s, err)
	}
	return &matcher{re: re}, nil
}

// namesWritten reports whether s is tool names joined by commas or
// spaces, or padded with spaces: only letters, digits, '_', '|', ',' and
// spaces, with a comma or a space.
func namesWritten(s string) bool {
	if !strings.ContainsAny(s, ", ") || strings.Trim(s, ", |") == "" {
		return false
	}
	return exactMatcher(strings.NewReplacer(",", "", " ", "").Replace(s))
}

func exactMatcher(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '|') {
			return false
		}
	}
	return true
}

// matches reports whether m takes any of the subjects (a tool's Codex
// name, its host name, Codex's aliases for it). A nil matcher (absent)
// takes everything.
func (m *matcher) matches(subjects ...string) bool {
	if m == nil || m.all {
		return true
	}
	for _, s := range subjects {
		if s == "" {
			continue
		}
		if m.re != nil {
			if m.re.MatchString(s) {
				return true
			}
			continue
		}
		for _, n := range m.names {
			if n == s {
				return true
			}
		}
	}
	return false
}

// folded is the name of m's list that equals a subject only once case
// is set aside ("bash" for Bash): Codex would not run the handler, a
// guard disarmed by a capital; here it runs, with a diagnostic.
func (m *matcher) folded(subjects ...string) string {
	if m == nil || m.all || m.re != nil {
		return ""
	}
	for _, s := range subjects {
		for _, n := range m.names {
			if s != "" && n != s && strings.EqualFold(n, s) {
				return n
			}
		}
	}
	return ""
}

// matcherAliases are the other names Codex matches a tool by
// (PreToolUseRequest.matcher_aliases): an apply_patch edit is matched by
// "Edit" and "Write" matchers too, as Claude Code's file tools.
var matcherAliases = map[string][]string{"apply_patch": {"Edit", "Write"}}

// checkTools diagnoses, once per run, a matcher of a tool event that
// takes no tool the run offers the model, and each name of a '|' list
// that names none: Codex would silently never run that guard.
func (b *base) checkTools(c *hooks.Context, tools []hooks.ToolSpec) {
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	problems := toolProblems(b.set, b.handlers, names)
	if b.name == b.set.keysChecker {
		problems = append(b.set.opts.Tools.KeyProblems("codex: ToolNames", names, true), problems...)
	}
	for _, err := range problems {
		c.Diagnose(err)
	}
}

// toolProblems are the matchers of hs (a tool event's handlers) that
// take none of the tools (host names), and the names of a '|' list that
// name none, with a did-you-mean.
func toolProblems(s *set, hs []*handler, tools []string) []error {
	var all []string
	for _, t := range tools {
		_, subjects := s.names(t)
		for _, n := range subjects {
			if !slices.Contains(all, n) {
				all = append(all, n)
			}
		}
	}
	var out []error
	seen := map[string]bool{}
	for _, hd := range hs {
		group := fmt.Sprintf("%s[%d]", hd.event, hd.group)
		m := hd.match
		if seen[group] || m == nil || m.all {
			continue
		}
		seen[group] = true
		if m.re != nil {
			if !m.matches(all...) {
				out = append(out, fmt.Errorf("the Codex hook %s: matcher %q takes no tool of this run (%s): its handlers never run", group, *hd.matcher, strings.Join(all, ", ")))
			}
			continue
		}
		for _, n := range m.names {
			one := &matcher{names: []string{n}}
			if one.matches(all...) || one.folded(all...) != "" {
				continue
			}
			msg := fmt.Sprintf("the Codex hook %s: matcher name %q is no tool of this run (%s)", group, n, strings.Join(all, ", "))
			if s, ok := dialect.Closest(n, all); ok {
				msg += fmt.Sprintf("; did you mean %q?", s)
			}
			out = append(out, errors.New(msg))
		}
	}
	return out
}
