package dialect

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dlclark/regexp2"

	"github.com/rienda/hooks"
)

// MatchMode is how a dialect reads a matcher's text.
type MatchMode int

// The ways agent CLIs read a matcher. In each, "" and "*" take every tool.
const (
	// NamesOrPattern: names of letters, digits, '_' and '-', alone or
	// joined by '|', are exact names ("Bash|Write"); other text is a
	// regular expression that must match the whole name (Claude Code).
	NamesOrPattern MatchMode = iota + 1
	// NamesOrSearch: names as in NamesOrPattern are exact; other text is
	// a regular expression found anywhere in the name (Codex CLI).
	NamesOrSearch
	// Search: a regular expression found anywhere in the name (Gemini CLI).
	Search
	// Whole: a regular expression that must match the whole name
	// (Copilot CLI).
	Whole
)

// ToolMatcher is a matcher as settings wrote it. Its Match reads it as
// its mode says; the name checks (ToolCheck) read its names.
type ToolMatcher struct {
	Path  string // the entry, for messages ("hooks.PreToolUse[0].matcher")
	Src   string // as written, trimmed
	all   bool
	names []string // the exact names, or nil
	re    *regexp2.Regexp
	note  MatchNote // what it said at a call (a name taken with case set aside)
}

// NewMatcher reads src, at path, as mode says. A regular expression that
// does not compile is an error naming path (a matcher that matched
// nothing would disarm its guard silently).
func NewMatcher(path, src string, mode MatchMode) (*ToolMatcher, error) {
	src = strings.TrimSpace(src)
	m := &ToolMatcher{Path: path, Src: src}
	if src == "" || src == "*" {
		m.all = true
		return m, nil
	}
	if names := PlainNames(src); names != nil && (mode == NamesOrPattern || mode == NamesOrSearch) {
		m.names = names
		return m, nil
	}
	expr := src
	if mode == NamesOrPattern || mode == Whole {
		expr = "^(?:" + src + ")$"
	}
	re, err := regexp2.Compile(expr, regexp2.ECMAScript)
	if err != nil {
		return nil, fmt.Errorf("%s: %q is not a regular expression: %v", path, src, err)
	}
	re.MatchTimeout = MatchTimeout
	m.re = re
	return m, nil
}

// PlainNames are the names of src when it is plain names joined by '|'
// (letters, digits, '_', '-'), else nil.
func PlainNames(src string) []string {
	names := strings.Split(src, "|")
	for _, n := range names {
		if n == "" || strings.IndexFunc(n, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-')
		}) >= 0 {
			return nil
		}
	}
	return names
}

// MatchTimeout bounds one pattern match: a pattern that backtracks
// without end must not hold a tool call. A match that runs out of time
// counts as a match: a guard that runs too often is safer than one that
// never runs.
const MatchTimeout = 100 * time.Millisecond

// Match reports whether the matcher takes tool, as written, case
// included. Patterns are JavaScript's (ECMAScript), as the agent CLIs
// written in it read them.
func (m *ToolMatcher) Match(tool string) bool {
	switch {
	case m.all:
		return true
	case m.names != nil:
		return slices.Contains(m.names, tool)
	}
	ok, err := m.re.MatchString(tool)
	return ok || err != nil
}

// All reports whether it takes every tool.
func (m *ToolMatcher) All() bool { return m.all }

// ToolCheck finds the matchers and ToolNames keys that name no tool of a
// run: a guard whose matcher says "bash" for the tool "Bash" never runs,
// silently. A run makes the check once, at its first model request that
// lists the tools (Check); a linter makes it before (Problems).
type ToolCheck struct {
	// Label starts every message ("codex: Codex settings").
	Label string
	// Option starts the messages about ToolNames ("codex: ToolNames").
	Option   string
	Tools    ToolMap
	Matchers []*ToolMatcher
	checked  atomic.Bool
}

// Check reports Problems once per settings set, as diagnostics of the
// running hook, when tools is not empty.
func (t *ToolCheck) Check(c *hooks.Context, tools []hooks.ToolSpec) {
	CheckOnce(c, &t.checked, tools, t.Problems)
}

// CheckOnce reports problems(the tools' names) as diagnostics of the
// running hook, the first time it is called with tools for done: a
// dialect with its own name rules (its own Problems) checks once per
// settings set, at the first model request that lists the run's tools.
func CheckOnce(c *hooks.Context, done *atomic.Bool, tools []hooks.ToolSpec, problems func(host []string) []error) {
	if len(tools) == 0 || !done.CompareAndSwap(false, true) {
		return
	}
	names := make([]string, len(tools))
	for i, s := range tools {
		names[i] = s.Name
	}
	for _, err := range problems(names) {
		c.Diagnose(err)
	}
}

// KeyProblems are the ToolNames keys that are no tool of host: a key
// equal to a host tool once case is set aside maps it, as meant (when
// the map folds: ToolMap.Dialect), and says so; any other is a problem
// with a did-you-mean. option starts each message ("codex: ToolNames").
func (m ToolMap) KeyProblems(option string, host []string, folds bool) []error {
	var out []error
	for _, key := range m.Keys() {
		if slices.Contains(host, key) {
			continue
		}
		if h, ok := m.foldedKey(key, host); ok && folds {
			out = append(out, fmt.Errorf("%s: %q is not the tool %q as written: it maps %q to %q, as meant; write %q", option, key, h, h, m.Dialect(h), h))
			continue
		}
		out = append(out, fmt.Errorf("%s: %q is no tool of this run%s, so no call is named %q for the settings' matchers and scripts; the tools are %s",
			option, key, DidYouMean(key, host), m.Exact(key), strings.Join(host, ", ")))
	}
	return out
}

// foldedKey is the host tool that key maps once case is set aside.
func (m ToolMap) foldedKey(key string, host []string) (string, bool) {
	for _, h := range host {
		if m.Mapped(h) {
			continue
		}
		if _, k, ok := m.Folded(h); ok && strings.EqualFold(k, key) {
			return h, true
		}
	}
	return "", false
}

// Problems are, against the host's tool names: each matcher that takes
// none of them (by host or dialect name), and each name of a list that
// takes none (it disarms the guard meant for its tool, however well the
// others match), with a did-you-mean; and each ToolNames key that is no
// tool.
func (t *ToolCheck) Problems(host []string) []error {
	subjects := t.Tools.Subjects(host)
	list := strings.Join(subjects, ", ")
	var out []error
	for _, m := range t.Matchers {
		if m.all {
			continue
		}
		if m.names == nil {
			if !slices.ContainsFunc(subjects, m.Match) {
				out = append(out, fmt.Errorf("%s: %s: %q matches no tool of this run%s, so its handlers never run; the tools are %s",
					t.Label, m.Path, m.Src, DidYouMean(m.Src, subjects), list))
			}
			continue
		}
		for _, n := range m.names {
			if slices.Contains(subjects, n) {
				continue
			}
			what := fmt.Sprintf("%q names no tool of this run%s, so its handlers never run", n, DidYouMean(n, subjects))
			if len(m.names) > 1 {
				what += fmt.Sprintf(" for the tool it was meant for (a name of the list %q)", m.Src)
			}
			out = append(out, fmt.Errorf("%s: %s: %s; the tools are %s", t.Label, m.Path, what, list))
		}
	}
	return append(out, t.Tools.KeyProblems(t.Option, host, true)...)
}

// MatchNote is what a matcher group has said about names, shared by its
// handlers, so that each thing is said once per group, not once per call:
// that it took a tool only with case set aside (Folded), and that it
// missed a tool it is a typo of (Typo, after FirstMiss).
type MatchNote struct {
	folded atomic.Bool
	typo   atomic.Bool
	missed sync.Map // the subjects compared for a typo already, joined
}

// Folded reports whether this is the first time the group says it took
// a tool with case set aside.
func (n *MatchNote) Folded() bool { return n.folded.CompareAndSwap(false, true) }

// Typo reports whether this is the first time the group says it missed a
// tool it is a typo of.
func (n *MatchNote) Typo() bool { return n.typo.CompareAndSwap(false, true) }

// TypoSaid reports whether the group said it already.
func (n *MatchNote) TypoSaid() bool { return n.typo.Load() }

// FirstMiss reports whether subjects (a call's tool names) were not
// compared for a typo before, and records them: a tool is compared once.
func (n *MatchNote) FirstMiss(subjects []string) bool {
	_, seen := n.missed.LoadOrStore(strings.Join(subjects, "\x00"), struct{}{})
	return !seen
}
