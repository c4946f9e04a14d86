package claudecode

import (
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dlclark/regexp2"

	"github.com/rienda/hooks/dialect"
)

// matchTimeout bounds one ECMAScript-only match (see matcher): a matcher
// that backtracks without end must not hold a tool call.
const matchTimeout = 100 * time.Millisecond

// matcher is a group's matcher, by Claude Code's rule: absent, "" or "*"
// match everything; only letters, digits, '_', '-', '|', ',' and spaces
// are exact names split on '|' or ','; anything else is an unanchored
// ECMAScript regular expression.
//
// An expression is read by regexp2 in ECMAScript mode (its validity, and
// the answer of reference). It is run by Go's regexp (RE2: linear time,
// no goroutine) whenever that gives regexp2's answer: the expression uses
// only syntax both read alike (commonSyntax), and the subject has no
// character on which their classes differ (sameInRE2). Otherwise regexp2
// runs it with a match timeout, whose clock goroutine outlives the match
// by about a second: only for lookaround, backreferences, \p{…}, (?i) and
// the like, or for a subject with \r, \v or a Unicode space.
type matcher struct {
	all   bool
	src   string             // as written
	path  string             // "hooks.PreToolUse[0].matcher", for messages
	note  *dialect.MatchNote // what it has said (names.go), shared by the group's handlers
	names []string
	re2   *regexp.Regexp  // nil: the expression needs regexp2
	es    *regexp2.Regexp // the expression, as ECMAScript reads it
}

// compileMatcher reads a matcher; an invalid expression is an error.
func compileMatcher(s string) (matcher, error) {
	if strings.TrimSpace(s) == "" || s == "*" {
		return matcher{all: true}, nil
	}
	if plainMatcher(s) {
		var m matcher
		for name := range strings.FieldsFuncSeq(s, func(r rune) bool { return r == '|' || r == ',' }) {
			if name = strings.TrimSpace(name); name != "" {
				m.names = append(m.names, name)
			}
		}
		return m, nil
	}
	es, err := regexp2.Compile(s, regexp2.ECMAScript)
	if err != nil {
		return matcher{}, fmt.Errorf("invalid regular expression %q: %v", s, err)
	}
	es.MatchTimeout = matchTimeout
	m := matcher{es: es}
	if commonSyntax(s) {
		m.re2, _ = regexp.Compile(s) // nil when RE2 cannot read it: regexp2 runs it
	}
	return m, nil
}

// plainMatcher reports whether s holds only the characters of a list of
// exact names.
func plainMatcher(s string) bool {
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

// commonSyntax reports whether s uses only syntax that ECMAScript (without
// flags) and RE2 read alike: no group other than (?:…), and no escape but
// the shared classes (\d \D \w \W \s \S \b \B), control characters
// (\t \n \r \f \v), \x with two hex digits, and escaped punctuation. RE2
// reads \p{…}, \A, \z, \Q…\E and (?i) as operators where ECMAScript reads
// letters or refuses them.
func commonSyntax(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			if i+1 < len(s) && s[i+1] == '?' && (i+2 >= len(s) || s[i+2] != ':') {
				return false
			}
		case '\\':
			if i+1 >= len(s) {
				return false
			}
			i++
			c := s[i]
			switch {
			case strings.IndexByte("dDwWsSbBtnrfv", c) >= 0:
			case c == 'x' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			case c < utf8.RuneSelf && strings.IndexByte(`.*+?()[]{}|^$\/-`, c) >= 0:
			default:
				return false
			}
		}
	}
	return true
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// sameInRE2 reports whether an expression of common syntax gives the
// same answer on subject under RE2 as under regexp2's ECMAScript mode:
// subject is UTF-8 without \r (which regexp2's "." refuses and RE2's
// takes) or a space that regexp2's \s takes and RE2's does not (\v and
// Unicode's spaces). Both engines read a subject by code point; their
// other classes agree on every code point.
func sameInRE2(subject string) bool {
	for _, r := range subject {
		switch {
		case r < 0x80:
			if r == '\r' || r == '\v' {
				return false
			}
		case r == utf8.RuneError, r == 0xA0, r == 0x1680, r >= 0x2000 && r <= 0x200A, r == 0x2028, r == 0x2029,
			r == 0x202F, r == 0x205F, r == 0x3000, r == 0xFEFF:
			return false
		}
	}
	return true
}

// matches reports whether any of subjects matches. A match that runs out
// of time counts as a match: a guard that runs too often is safer than one
// that never runs.
func (m matcher) matches(subjects ...string) bool {
	if m.all {
		return true
	}
	for _, s := range subjects {
		if s == "" {
			continue
		}
		if m.es != nil {
			if m.re2 != nil && sameInRE2(s) {
				if m.re2.MatchString(s) {
					return true
				}
				continue
			}
			if ok, err := m.es.MatchString(s); ok || err != nil {
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
