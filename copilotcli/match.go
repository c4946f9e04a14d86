package copilotcli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dlclark/regexp2"
	"github.com/rienda/hooks/dialect"
)

// copilotTools are Copilot CLI's built-in tool names, from its hooks
// reference ("Tool names for hook matching").
var copilotTools = []string{"ask_user", "bash", "create", "edit", "glob", "grep", "powershell", "task", "view", "web_fetch"}

// matcher is an entry's matcher: a regular expression that must match the
// whole tool name (Copilot CLI anchors it as ^(?:pattern)$; case counts).
// plain holds its names when it is plain names joined by "|": a name in
// another case than the tool's ("Bash" for bash), which Copilot CLI would
// not run, still guards its tool here (a load diagnostic says so).
type matcher struct {
	path, src string
	re        *regexp2.Regexp
	plain     []string
}

// newMatcher compiles a matcher as JavaScript's RegExp reads it
// (regexp2 in ECMAScript mode, bounded by dialect.MatchTimeout); "" and
// "*" match every tool. A pattern that does not compile is an error: a
// guard whose matcher cannot be read would run for no tool.
func newMatcher(path, src string) (*matcher, error) {
	m := &matcher{path: path, src: strings.TrimSpace(src)}
	if m.src == "" || m.src == "*" {
		return m, nil
	}
	re, err := regexp2.Compile(`^(?:`+m.src+`)$`, regexp2.ECMAScript)
	if err != nil {
		return nil, fmt.Errorf("%q is not a regular expression: %v", src, err)
	}
	re.MatchTimeout = dialect.MatchTimeout
	m.re = re
	if names := dialect.PlainNames(m.src); names != nil {
		m.plain = names
	}
	return m, nil
}

// Match reports whether the matcher takes a call of the tool; a match
// that runs out of time takes it (a guard that runs too often is safer
// than one that never runs).
func (m *matcher) Match(tool string) bool {
	if m == nil || m.re == nil {
		return true
	}
	if ok, err := m.re.MatchString(tool); ok || err != nil {
		return true
	}
	return slices.ContainsFunc(m.plain, func(p string) bool { return strings.EqualFold(p, tool) })
}

// problems are the matcher names that name no tool of subjects, exactly.
func (l *loaded) problems(subjects []string) []error {
	var out []error
	for _, m := range l.matchers {
		for _, n := range m.plain {
			if slices.Contains(subjects, n) {
				continue
			}
			if like, ok := dialect.Closest(n, subjects); ok && strings.EqualFold(like, n) {
				out = append(out, fmt.Errorf("copilotcli: %s: %q names tool %q in another case: Copilot CLI would not run it for %q; it runs here", m.path, n, like, like))
				continue
			}
			out = append(out, fmt.Errorf("copilotcli: %s: %q names no tool%s, so its entry never runs", m.path, n, dialect.DidYouMean(n, subjects)))
		}
	}
	return out
}

// patternProblems are the matchers, other than plain names, that match
// no tool of subjects ("bas.h", "bash\u0000"): a guard that never runs,
// which nothing else would say. Only a linter that knows the run's tools
// can tell; at load, a pattern may be meant for a tool of the host's.
func (l *loaded) patternProblems(subjects []string) []error {
	var out []error
	for _, m := range l.matchers {
		if m.re == nil || m.plain != nil || slices.ContainsFunc(subjects, m.Match) {
			continue
		}
		out = append(out, fmt.Errorf("copilotcli: %s: %q matches no tool of this run, so its entry never runs; the tools are %s", m.path, m.src, strings.Join(subjects, ", ")))
	}
	return out
}

// checkNames diagnoses, at load, matcher names that are none of Copilot
// CLI's tools nor a ToolNames name.
func (l *loaded) checkNames(s *dialect.Settings, o *dialect.Options) {
	known := append(append([]string(nil), copilotTools...), o.Tools.Names()...)
	for _, err := range l.problems(known) {
		s.Warnf("", "%v", strings.TrimPrefix(err.Error(), "copilotcli: "))
	}
}
