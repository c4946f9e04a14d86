package geminicli

import (
	"fmt"
	"strings"
	"time"

	"github.com/dlclark/regexp2"

	"github.com/rienda/hooks/dialect"
)

// matchTimeout bounds one regular-expression match: a matcher that
// backtracks without end must not hold a tool call.
const matchTimeout = 100 * time.Millisecond

// matcher is a group's matcher, by Gemini CLI's runner (hookPlanner): for
// tool events an unanchored JavaScript regular expression tested against
// the tool name (one that does not compile is an exact name); for
// SessionStart and SessionEnd an exact source or reason; for the other
// events none (the runner matches them all). Absent, "" or "*" (spaces
// trimmed) match everything.
type matcher struct {
	all   bool
	src   string             // as written, spaces trimmed
	path  string             // "hooks.BeforeTool[0].matcher", for messages
	note  *dialect.MatchNote // what it has said (names.go), shared by the group's handlers
	exact string
	re    *regexp2.Regexp
}

// compileMatcher reads the matcher of a group of event ev; note is what a
// load-time diagnostic should say about it ("" when nothing).
func compileMatcher(ev string, s *string) (m matcher, note string) {
	if s == nil {
		return matcher{all: true}, ""
	}
	text := strings.TrimSpace(*s)
	if text == "" || text == "*" {
		return matcher{all: true}, ""
	}
	switch ev {
	case evBeforeTool, evAfterTool:
		re, err := regexp2.Compile(text, regexp2.ECMAScript)
		if err != nil { // the runner's fallback: an exact name
			return matcher{exact: text}, fmt.Sprintf("%q is not a regular expression (%v): it matches only the tool of that exact name, as in Gemini CLI", text, err)
		}
		re.MatchTimeout = matchTimeout
		return matcher{re: re}, ""
	case evSessionStart, evSessionEnd:
		return matcher{exact: text}, ""
	}
	return matcher{all: true}, fmt.Sprintf("%q is ignored: a matcher applies only to BeforeTool and AfterTool (tool names), SessionStart (source) and SessionEnd (reason); Gemini CLI runs these hooks for every %s, and so does this library", text, ev)
}

// matches reports whether any of subjects matches. A match that runs out
// of time counts as a match: a guard that runs too often is safer than one
// that never runs.
func (m matcher) matches(subjects ...string) bool {
	if m.all {
		return true
	}
	for _, s := range subjects {
		if m.re != nil {
			if ok, err := m.re.MatchString(s); ok || err != nil {
				return true
			}
			continue
		}
		if m.exact == s {
			return true
		}
	}
	return false
}
