package main

import (
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/dlclark/regexp2"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/internal/suggest"
)

// Name checks: a setting that names a tool the host never has is a guard
// that never runs (a matcher "Shell" for the tool "shell") or a limit that
// limits nothing. lint checks each against the tools there are: an agent
// file's tools:, or -tools.

// toolList is the tools a file's names are checked against, and each
// tool's name in a dialect (-toolnames): a dialect's matcher matches a call
// when it matches either name, as packages claudecode and geminicli do.
type toolList struct {
	host    []string
	dialect map[string]string // host name → the dialect's name
}

// names is every name a matcher may be tested against: the host's and
// the dialect's.
func (t toolList) names() []string {
	out := slices.Clone(t.host)
	for _, h := range t.host {
		if d, ok := t.dialect[h]; ok && !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

// where says which tools the names were checked against.
func (t toolList) where() string {
	return "tools: " + strings.Join(t.host, ", ")
}

// miss is the report of a name that matches no tool, with the closest one.
func (t toolList) miss(what, name string) string {
	hint := ""
	if like, ok := suggest.Closest(name, t.names()); ok {
		hint = fmt.Sprintf(" (did you mean %q?)", like)
	}
	return fmt.Sprintf("%s %q matches no tool (%s)%s", what, name, t.where(), hint)
}

// checkToolNames reports -toolnames host names that are not tools, once.
func (c checker) checkToolNames(tools toolList, report func(format string, args ...any)) {
	for _, host := range sortedKeys(c.toolNames) {
		if !slices.Contains(tools.host, host) {
			report("-toolnames: %s", tools.miss("host name", host))
		}
	}
}

// The events of each dialect whose matcher is tested against tool names.
var toolEvents = map[kind][]string{
	kindCommand: {"pre_tool_call", "post_tool_call"},
	kindClaude:  {"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest"},
	kindGemini:  {"BeforeTool", "AfterTool"},
}

// settingsMatcher is one matcher of a settings file, where it is.
type settingsMatcher struct {
	at, event, text string
}

// matchersOf reads the tool events' matchers of a settings file. A file
// that does not read is left to the dialect's own reader, which says why.
func matchersOf(data []byte, k kind) []settingsMatcher {
	var out []settingsMatcher
	if k == kindCommand {
		var doc struct {
			Hooks []struct {
				Event   string `json:"event"`
				Matcher string `json:"matcher"`
			} `json:"hooks"`
		}
		if json.Unmarshal(data, &doc) != nil {
			return nil
		}
		for i, h := range doc.Hooks {
			if h.Matcher != "" && slices.Contains(toolEvents[k], h.Event) {
				out = append(out, settingsMatcher{fmt.Sprintf("hooks[%d]", i), h.Event, h.Matcher})
			}
		}
		return out
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return nil
	}
	events, prefix := top, ""
	if raw, ok := top["hooks"]; ok {
		events, prefix = nil, "hooks."
		if json.Unmarshal(raw, &events) != nil {
			return nil
		}
	}
	for _, ev := range toolEvents[k] {
		var groups []struct {
			Matcher *string `json:"matcher"`
		}
		if json.Unmarshal(events[ev], &groups) != nil {
			continue
		}
		for i, g := range groups {
			if g.Matcher != nil {
				out = append(out, settingsMatcher{fmt.Sprintf("%s%s[%d].matcher", prefix, ev, i), ev, *g.Matcher})
			}
		}
	}
	return out
}

// matchesAny reports whether matcher m of dialect k takes any of names.
// What cannot be read is taken as matching: the dialect's reader reports
// a bad expression, and lint must not add a second, wrong problem.
func matchesAny(k kind, m string, names []string) bool {
	text := strings.TrimSpace(m)
	if text == "" || text == "*" {
		return true
	}
	switch k {
	case kindCommand: // a part of the tool's name
		return slices.ContainsFunc(names, func(n string) bool { return strings.Contains(n, m) })
	case kindClaude:
		if plainNames.MatchString(m) { // exact names split on | or ,
			for _, name := range strings.FieldsFunc(m, func(r rune) bool { return r == '|' || r == ',' }) {
				if slices.Contains(names, strings.TrimSpace(name)) {
					return true
				}
			}
			return false
		}
	}
	re, err := regexp2.Compile(text, regexp2.ECMAScript)
	if err != nil {
		return k != kindGemini || slices.Contains(names, text) // Gemini CLI: an exact name then
	}
	re.MatchTimeout = 100 * time.Millisecond
	for _, n := range names {
		if ok, err := re.MatchString(n); ok || err != nil {
			return true
		}
	}
	return false
}

// plainNames is a Claude Code matcher that is a list of exact names.
var plainNames = regexp.MustCompile(`^[A-Za-z0-9_\-|, ]+$`)

// lintMatchers reports each tool-event matcher of a settings file that
// matches no tool.
func (c checker) lintMatchers(file string, data []byte, k kind, tools toolList, report func(format string, args ...any)) {
	names := tools.names()
	for _, m := range matchersOf(data, k) {
		if !matchesAny(k, m.text, names) {
			report("%s: %s: %s", file, m.at, tools.miss(m.event+" matcher", m.text))
		}
	}
}

// lintSpecNames reports each tool name of an agent file's prebuilt entries
// that is no tool: perTool's keys, tools, shellTools, and approval rules'
// tool patterns.
func lintSpecNames(file string, agent *hooks.Agent, tools toolList, report func(format string, args ...any)) {
	for _, i := range sortedKeys(agent.Specs) {
		spec := agent.Specs[i]
		at := fmt.Sprintf("%s: line %d: prebuilt %s", file, spec.Line, spec.Prebuilt)
		for _, n := range specToolNames(spec.With) {
			if n.glob {
				if !slices.ContainsFunc(tools.host, func(t string) bool { ok, _ := path.Match(n.name, t); return ok }) {
					report("%s: %s", at, tools.miss(n.setting, n.name))
				}
				continue
			}
			if !slices.Contains(tools.host, n.name) {
				report("%s: %s", at, tools.miss(n.setting, n.name))
			}
		}
	}
}

// lintPrices reports a budget entry whose prices leave the agent's model
// out: its calls would count as free against maxCost.
func lintPrices(file string, agent *hooks.Agent, report func(format string, args ...any)) {
	if agent.Model == "" {
		return
	}
	for _, i := range sortedKeys(agent.Specs) {
		spec := agent.Specs[i]
		prices, _ := spec.With["prices"].(map[string]any)
		if spec.Prebuilt != "budget" || spec.With["maxCost"] == nil || len(prices) == 0 {
			continue
		}
		keys := sortedKeys(prices)
		if slices.ContainsFunc(keys, func(k string) bool { return k != "" && strings.HasPrefix(agent.Model, k) }) {
			continue
		}
		hint := ""
		// A price is a prefix of the model's name: the name meant may be
		// close to one of its prefixes ("gpt4o" for "gpt-4o-mini").
		for cut := len(agent.Model); cut > 0 && hint == ""; cut = strings.LastIndexAny(agent.Model[:cut], "-.:@") {
			if like, ok := suggest.Closest(agent.Model[:cut], keys); ok {
				hint = fmt.Sprintf(" (did you mean %q?)", like)
			}
		}
		report("%s: line %d: prebuilt budget: prices has no price for the agent's model %q, whose calls would count as free against maxCost%s",
			file, spec.Line, agent.Model, hint)
	}
}

// specName is a tool name in a prebuilt entry's settings.
type specName struct {
	setting, name string
	glob          bool // a path.Match pattern (approval rules)
}

// specToolNames finds the tool names of one entry's settings, by the
// settings that hold them; a value of the wrong shape is FromSpec's to
// report.
func specToolNames(with map[string]any) []specName {
	var out []specName
	if m, ok := with["perTool"].(map[string]any); ok {
		for _, k := range sortedKeys(m) {
			out = append(out, specName{"perTool", k, false})
		}
	}
	for _, key := range []string{"tools", "shellTools"} {
		if list, ok := with[key].([]any); ok {
			for _, e := range list {
				if s, ok := e.(string); ok {
					out = append(out, specName{key, s, false})
				}
			}
		}
	}
	for _, key := range []string{"require", "allow"} {
		list, _ := with[key].([]any)
		for i, r := range list {
			if m, ok := r.(map[string]any); ok {
				if s, ok := m["tool"].(string); ok && s != "" {
					out = append(out, specName{fmt.Sprintf("%s[%d].tool", key, i), s, true})
				}
			}
		}
	}
	return out
}

func sortedKeys[K interface{ ~int | ~string }, V any](m map[K]V) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
