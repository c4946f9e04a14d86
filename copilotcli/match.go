package copilotcli

import (
	"fmt"
	"regexp"
	"strings"
)

// matcher is an entry's matcher: a regular expression that must match the
// whole Copilot tool name (Copilot CLI anchors it as ^(?:pattern)$; case
// counts). plain holds its alternatives when each is a plain name.
type matcher struct {
	text  string
	re    *regexp.Regexp
	plain []string
}

// plainName is a tool name with no regular-expression syntax.
var plainName = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// newMatcher compiles a matcher; "" and "*" match every tool (as in the
// other dialects). A pattern that does not compile is an error: a guard
// whose matcher cannot be read would run for no tool.
func newMatcher(text string) (*matcher, error) {
	m := &matcher{text: text}
	t := strings.TrimSpace(text)
	if t == "" || t == "*" {
		return m, nil
	}
	re, err := regexp.Compile(`^(?:` + t + `)$`)
	if err != nil {
		return nil, fmt.Errorf("%q is not a regular expression this library can read: %v", text, err)
	}
	m.re = re
	parts := strings.Split(t, "|")
	for _, p := range parts {
		if !plainName.MatchString(p) {
			return m, nil
		}
	}
	m.plain = parts
	return m, nil
}

// match reports whether the matcher takes a call of the tool; folded is
// true when it takes it only once case is set aside (a plain name in
// another case: "Bash" for bash), which Copilot CLI would not run. A
// guard that names its tool in another case still guards it here.
func (m *matcher) match(tool string) (ok, folded bool) {
	if m == nil || m.re == nil {
		return true, false
	}
	if m.re.MatchString(tool) {
		return true, false
	}
	for _, p := range m.plain {
		if strings.EqualFold(p, tool) {
			return true, true
		}
	}
	return false, false
}
