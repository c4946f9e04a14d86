package prebuilt

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rienda/hooks"
)

// toolNames is a setting that names tools (ToolCallLimit's PerTool,
// ToolRetry's and ToolErrors' Tools), matched against a run's calls as the
// user meant it. Names match exactly; a call whose name matches none but
// is, under case folding, the one configured name of that spelling
// ("Shell" set, "shell" called) gets that name's setting, with a
// Diagnostic once per run: a limit written "Shell" must not leave "shell"
// unlimited. A configured name that no tool of the run has (the agent's
// tools, or the tools a model request offers) is a Diagnostic with the
// closest tool's name, once per run.
type toolNames struct {
	setting string              // the setting, as the config spells it: "PerTool"
	names   []string            // the configured names, sorted
	exact   map[string]bool     // the configured names
	folded  map[string]string   // lower case → the configured name, when exactly one folds to it
	twice   map[string][]string // lower case → the configured names, when several fold to it
}

func newToolNames(setting string, names []string) *toolNames {
	if len(names) == 0 {
		return nil
	}
	t := &toolNames{setting: setting, exact: make(map[string]bool, len(names)), folded: make(map[string]string, len(names))}
	twice := map[string]bool{}
	for _, n := range names {
		if t.exact[n] {
			continue
		}
		t.exact[n] = true
		t.names = append(t.names, n)
		low := strings.ToLower(n)
		if _, dup := t.folded[low]; dup {
			twice[low] = true
		}
		t.folded[low] = n
	}
	for low := range twice { // "Shell" and "shell" both set: each means its own tool
		delete(t.folded, low)
	}
	for _, n := range t.names {
		if low := strings.ToLower(n); twice[low] {
			if t.twice == nil {
				t.twice = map[string][]string{}
			}
			t.twice[low] = append(t.twice[low], n)
		}
	}
	slices.Sort(t.names)
	return t
}

// match returns the configured name whose setting applies to the tool
// called, and whether there is one. A match by case folding is reported
// (once per run and name) through c.
func (t *toolNames) match(c *hooks.Context, tool string) (string, bool) {
	if t == nil {
		return "", false
	}
	if t.exact[tool] {
		return tool, true
	}
	name, ok := t.folded[strings.ToLower(tool)]
	if !ok || (c.Agent != nil && slices.Contains(c.Agent.Tools, name)) {
		// No spelling of it, or the agent has a tool of the configured
		// spelling too: then the two are different tools. Several
		// spellings of it are ambiguous's to say.
		if t.twice[strings.ToLower(tool)] == nil {
			t.nearMiss(c, tool)
		}
		return "", false
	}
	t.once(c, "fold:"+name+"\x00"+tool, func() error {
		return fmt.Errorf("setting %s names %q, but the tool called is %q: applying it to %q (names match exactly; spell it %q)",
			t.setting, name, tool, tool, tool)
	})
	return name, true
}

// applies reports whether a hook limited to these tools (nil: every tool)
// applies to the tool called.
func (t *toolNames) applies(c *hooks.Context, tool string) bool {
	if t == nil {
		return true
	}
	t.checkCall(c)
	_, ok := t.match(c, tool)
	return ok
}

// nearMiss reports a configured name within a typo of the tool called, a
// name that would have matched but for a slip ("write-file" for
// "write_file"): it is not applied (only case is forgiven), but it is said.
func (t *toolNames) nearMiss(c *hooks.Context, tool string) {
	for _, n := range t.names {
		if c.Agent != nil && slices.Contains(c.Agent.Tools, n) {
			continue // a tool of its own, not a slip
		}
		if d := didYouMean(n, []string{tool}); d != "" {
			t.once(c, "near:"+n+"\x00"+tool, func() error {
				return fmt.Errorf("setting %s names %q, which matches no tool called so far; the tool %q was called%s", t.setting, n, tool, d)
			})
		}
	}
}

// check reports each configured name that no tool of the run has, given
// the names the run's tools have (the agent's, or a model request's).
func (t *toolNames) check(c *hooks.Context, tools []string) {
	if t == nil || len(tools) == 0 {
		return
	}
	for _, n := range t.names {
		if slices.Contains(tools, n) {
			continue
		}
		t.once(c, "none:"+n, func() error {
			hint := didYouMean(n, tools)
			if i := slices.IndexFunc(tools, func(k string) bool { return strings.EqualFold(k, n) }); i >= 0 && t.folded[strings.ToLower(n)] == n {
				hint = fmt.Sprintf(`; it is applied to %q, the tool of that name in another case`, tools[i])
			}
			return fmt.Errorf("setting %s names %q, which no tool of this run is (tools: %s)%s", t.setting, n, listSome(tools, 20), hint)
		})
	}
}

// checkRequest checks the names against the tools a model request
// offers and the agent's tools, together (a request may offer fewer).
func (t *toolNames) checkRequest(c *hooks.Context, req hooks.ModelRequest) {
	if t == nil {
		return
	}
	var names []string
	if c.Agent != nil {
		names = append(names, c.Agent.Tools...)
	}
	for _, s := range req.Tools {
		if !slices.Contains(names, s.Name) {
			names = append(names, s.Name)
		}
	}
	t.check(c, names)
}

// checkCall checks the names against the agent's tools, at a tool call:
// for a host that runs no model request through the chain.
func (t *toolNames) checkCall(c *hooks.Context) {
	if t != nil && c.Agent != nil {
		t.check(c, c.Agent.Tools)
	}
}

// once reports err as a Diagnostic once per run, hook and key (Memo is
// per hook).
func (t *toolNames) once(c *hooks.Context, key string, err func() error) {
	_, _ = c.Memo("prebuilt.toolNames:"+t.setting+":"+key, func() (any, error) {
		c.Diagnose(err())
		return true, nil
	})
}

// listSome joins the first n names, and says how many more there are: a
// run may offer hundreds of tools.
func listSome(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:n], ", "), len(names)-n)
}

// toolNameProblem says why name cannot be the name of a tool a run calls,
// or "": a setting naming it would match nothing, a limit or a retry
// silently disarmed. Tool names are words (providers allow letters,
// digits and _ - . :), so these are slips: spaces or invisible characters
// around or inside it, a pattern (names match exactly), and letters of
// two scripts that look alike (a Cyrillic "ѕ" in "ѕhell").
func toolNameProblem(name string) string {
	if t := strings.TrimSpace(name); t != name {
		return fmt.Sprintf("a tool's name has no space around it (did you mean %q?)", t)
	}
	if strings.ContainsAny(name, "*?[") {
		return "names match exactly, not as patterns: name each tool"
	}
	latin, other := false, rune(0)
	for _, r := range name {
		switch {
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || (unicode.IsSpace(r) && r != ' '):
			return fmt.Sprintf("it holds the invisible character %U", r)
		case r >= 0xFF01 && r <= 0xFF5E:
			return fmt.Sprintf("it holds the full-width %q, a look-alike of %q", r, r-0xFF01+'!')
		case r < utf8.RuneSelf && unicode.IsLetter(r):
			latin = true
		case r >= utf8.RuneSelf && foldsToASCII(r):
			return fmt.Sprintf("it holds %q (%U), which folds to a Latin letter: a look-alike", r, r)
		case unicode.In(r, unicode.Cyrillic, unicode.Greek, unicode.Armenian) && unicode.IsLetter(r):
			other = r
		}
	}
	if latin && other != 0 {
		return fmt.Sprintf("it mixes Latin letters with %q (%U), a look-alike of a Latin letter", other, other)
	}
	return ""
}

// foldsToASCII reports whether r is a non-ASCII rune that case folding
// makes an ASCII letter (the long s "ſ", the Kelvin sign "K").
func foldsToASCII(r rune) bool {
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f < utf8.RuneSelf {
			return true
		}
	}
	return false
}

// ambiguous returns the configured names a call's tool is, once case is
// set aside, when it is none of them as written and several fold to it
// ("Shell" and "shell" set, "SHELL" called), unless the agent has a tool
// of that spelling: which of them the host runs cannot be known, so a
// limit takes the strictest.
func (t *toolNames) ambiguous(c *hooks.Context, tool string) []string {
	if t == nil || t.exact[tool] || (c.Agent != nil && slices.Contains(c.Agent.Tools, tool)) {
		return nil
	}
	names := t.twice[strings.ToLower(tool)]
	if len(names) > 0 {
		t.once(c, "twice:"+tool, func() error {
			return fmt.Errorf("setting %s names %s, and the tool called is %q, none of them as written: applying the strictest (names match exactly; one entry per tool)",
				t.setting, strings.Join(quoteAll(names), " and "), tool)
		})
	}
	return names
}

func quoteAll(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = fmt.Sprintf("%q", n)
	}
	return out
}
