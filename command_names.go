package hooks

import (
	"fmt"
	"strings"

	"github.com/rienda/hooks/internal/suggest"
)

// A command hook's matcher that names no tool of the run disarms its
// guard silently: "Shell" for the tool "shell" never matches, and
// `rm -rf /` runs. So a matcher that takes a tool name only when case is
// set aside takes it, with a diagnostic (what the user meant is
// unambiguous); a matcher that misses a tool it is a typo of
// ("write-file" for write_file) is a diagnostic with a did-you-mean at
// that call (it does not run: a typo may name another tool); and
// CheckCommandToolNames checks a settings file against the run's tools
// for a linter. Each diagnostic is said once per hook. (A command hook
// does not see the tools the model is offered: it handles only its own
// point, so that a trace shows it where it acts.)

// toolEvent reports whether the hook's subject is a tool name.
func (h *commandHook) toolEvent() bool {
	return h.point == BeforeToolExecute || h.point == AfterToolExecute
}

// matchFolded reports whether the matcher takes subject once case and
// the spaces around it are set aside (it did not take it as written: a
// " shell" pasted with a space), and says so once.
func (h *commandHook) matchFolded(c *Context, subject string) bool {
	if !foldedMatch(h.cfg.Matcher, subject) {
		return false
	}
	if h.foldNoted.CompareAndSwap(false, true) {
		c.Diagnose(fmt.Errorf(`matcher %q does not match the tool %q as written (a matcher is compared case included): it runs for it, as meant; write %q`,
			h.cfg.Matcher, subject, subject))
	}
	return true
}

// foldedMatch reports whether matcher takes tool once case and the spaces
// around the matcher are set aside.
func foldedMatch(matcher, tool string) bool {
	folded := strings.ToLower(strings.TrimSpace(matcher))
	return folded != "" && strings.Contains(strings.ToLower(tool), folded)
}

// missedTypo says, once, when the matcher did not take subject but is
// a typo of it.
func (h *commandHook) missedTypo(c *Context, subject string) {
	if h.cfg.Matcher == "" || h.typoNoted.Load() {
		return
	}
	if _, seen := h.missed.LoadOrStore(subject, struct{}{}); seen {
		return // compared once per tool
	}
	if _, ok := suggest.Closest(h.cfg.Matcher, []string{subject}); ok && h.typoNoted.CompareAndSwap(false, true) {
		c.Diagnose(fmt.Errorf(`matcher %q does not take the tool %q (did you mean %q?): the hook did not run for it`,
			h.cfg.Matcher, subject, subject))
	}
}

// commandMatcherProblem is what is wrong with a tool event's matcher
// against the run's tool names: nil when it takes one of them as written.
func commandMatcherProblem(matcher string, tools []string) error {
	folded := ""
	for _, t := range tools {
		if strings.Contains(t, matcher) {
			return nil
		}
		if folded == "" && foldedMatch(matcher, t) {
			folded = t
		}
	}
	if folded != "" {
		return fmt.Errorf(`matcher %q takes the tool %q only when case is set aside, or the spaces around it: it runs for it, as meant; write %q`, matcher, folded, folded)
	}
	hint := ""
	if like, ok := suggest.Closest(matcher, tools); ok {
		hint = fmt.Sprintf(" (did you mean %q?)", like)
	}
	return fmt.Errorf("matcher %q names no tool of this run%s, so the hook never runs; the tools are %s",
		matcher, hint, strings.Join(tools, ", "))
}

// CheckCommandToolNames checks the matchers of a command hooks settings
// file's tool events (pre_tool_call, post_tool_call) against the tool
// names a run offers: one problem per matcher that takes none of them as
// written, with a did-you-mean (a matcher that takes one only when case
// is set aside runs for it, and is a problem too). The error is the
// settings' own (ParseCommandSettings). It is for a linter (hookcheck
// lint --tools): a run itself cannot see which tools it will be offered.
func CheckCommandToolNames(settings []byte, tools []string) ([]error, error) {
	cfgs, err := ParseCommandSettings(settings)
	if err != nil {
		return nil, err
	}
	var problems []error
	for i, cfg := range cfgs {
		if cfg.Matcher == "" || (cfg.Event != "pre_tool_call" && cfg.Event != "post_tool_call") {
			continue
		}
		if err := commandMatcherProblem(cfg.Matcher, tools); err != nil {
			problems = append(problems, fmt.Errorf("hooks[%d] (%s): %w", i, cfg.Event, err))
		}
	}
	return problems, nil
}
