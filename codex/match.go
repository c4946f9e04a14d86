package codex

import (
	"fmt"
	"regexp"
	"strings"
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
	re, err := regexp.Compile(s)
	if err != nil {
		return nil, fmt.Errorf("invalid regular expression %q: %v", s, err)
	}
	return &matcher{re: re}, nil
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

// matcherAliases are the other names Codex matches a tool by
// (PreToolUseRequest.matcher_aliases): an apply_patch edit is matched by
// "Edit" and "Write" matchers too, as Claude Code's file tools.
var matcherAliases = map[string][]string{"apply_patch": {"Edit", "Write"}}
