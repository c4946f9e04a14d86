package cursor

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/dlclark/regexp2"
	"github.com/rienda/hooks/dialect"
)

// matcher is an entry's matcher. For tool events, a plain name or names
// joined by "|" match the tool's name exactly (case set aside, with a
// diagnostic, so a guard never goes quiet over case); anything else is a
// regular expression, unanchored, as JavaScript's RegExp.test reads it.
// For shell events it is a regular expression the command is tested
// against.
type matcher struct {
	text  string
	re    *regexp2.Regexp
	plain []string
}

var plainName = regexp.MustCompile(`^[A-Za-z0-9_:-]+$`)

// newMatcher compiles a matcher; "" and "*" match everything. A pattern
// that does not compile is an error: a guard whose matcher cannot be read
// would run for nothing. Patterns are read as JavaScript's RegExp reads
// them (regexp2, ECMAScript), bounded by dialect.MatchTimeout.
func newMatcher(text string, names bool) (*matcher, error) {
	m := &matcher{text: text}
	t := strings.TrimSpace(text)
	if t == "" || t == "*" {
		return m, nil
	}
	if names {
		parts := strings.Split(t, "|")
		plain := true
		for i, p := range parts {
			parts[i] = strings.TrimSpace(p)
			plain = plain && plainName.MatchString(parts[i])
		}
		if plain {
			m.plain = parts
			return m, nil
		}
	}
	re, err := regexp2.Compile(t, regexp2.ECMAScript)
	if err != nil {
		return nil, fmt.Errorf("%q is not a regular expression: %v", text, err)
	}
	re.MatchTimeout = dialect.MatchTimeout
	m.re = re
	return m, nil
}

// match reports whether the matcher takes subject; folded is true when a
// plain name takes it only once case is set aside.
func (m *matcher) match(subject string) (ok, folded bool) {
	switch {
	case m == nil || (m.re == nil && m.plain == nil):
		return true, false
	case m.re != nil:
		ok, err := m.re.MatchString(subject)
		return ok || err != nil, false // out of time: it takes the subject
	}
	for _, p := range m.plain {
		if p == subject {
			return true, false
		}
	}
	for _, p := range m.plain {
		if strings.EqualFold(p, subject) {
			return true, true
		}
	}
	return false, false
}
