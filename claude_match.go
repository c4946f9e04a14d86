package hooks

import (
	"fmt"
	"strings"
	"time"

	"github.com/dlclark/regexp2"
)

// claudeMatchTimeout bounds one regular-expression match: a matcher that
// backtracks without end must not hold a tool call.
const claudeMatchTimeout = 100 * time.Millisecond

// claudeMatcher is a group's matcher, by Claude Code's rule: absent, "" or
// "*" match everything; only letters, digits, '_', '-', '|', ',' and
// spaces are exact names split on '|' or ','; anything else is an
// unanchored ECMAScript regular expression.
type claudeMatcher struct {
	all   bool
	names []string
	re    *regexp2.Regexp
}

// compileClaudeMatcher reads a matcher; an invalid expression is an error.
func compileClaudeMatcher(s string) (claudeMatcher, error) {
	if strings.TrimSpace(s) == "" || s == "*" {
		return claudeMatcher{all: true}, nil
	}
	if plainClaudeMatcher(s) {
		var m claudeMatcher
		for name := range strings.FieldsFuncSeq(s, func(r rune) bool { return r == '|' || r == ',' }) {
			if name = strings.TrimSpace(name); name != "" {
				m.names = append(m.names, name)
			}
		}
		return m, nil
	}
	re, err := regexp2.Compile(s, regexp2.ECMAScript)
	if err != nil {
		return claudeMatcher{}, fmt.Errorf("invalid regular expression %q: %v", s, err)
	}
	re.MatchTimeout = claudeMatchTimeout
	return claudeMatcher{re: re}, nil
}

// plainClaudeMatcher reports whether s holds only the characters of a list
// of exact names.
func plainClaudeMatcher(s string) bool {
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case strings.ContainsRune("_-|, ", r):
		default:
			return false
		}
	}
	return true
}

// matches reports whether any of subjects matches. A match that runs out
// of time counts as a match: a guard that runs too often is safer than one
// that never runs.
func (m claudeMatcher) matches(subjects ...string) bool {
	if m.all {
		return true
	}
	for _, s := range subjects {
		if s == "" {
			continue
		}
		if m.re != nil {
			if ok, err := m.re.MatchString(s); ok || err != nil {
				return true
			}
			continue
		}
		for _, name := range m.names {
			if name == s {
				return true
			}
		}
	}
	return false
}
