package main

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/internal/suggest"
)

// Name checks: a setting that names a tool the host never has is a guard
// that never runs (a matcher "Shell" for the tool "shell") or a limit that
// limits nothing. lint checks each against the tools there are: an agent
// file's tools:, or -tools.

// toolList is the tools a file's names are checked against: an agent
// file's tools:, or -tools.
type toolList struct {
	host []string
}

// where says which tools the names were checked against.
func (t toolList) where() string {
	return "tools: " + strings.Join(t.host, ", ")
}

// miss is the report of a name that matches no tool, with the closest one.
func (t toolList) miss(what, name string) string {
	hint := ""
	if like, ok := suggest.Closest(name, t.host); ok {
		hint = fmt.Sprintf(" (did you mean %q?)", like)
	}
	return fmt.Sprintf("%s %q matches no tool (%s)%s", what, name, t.where(), hint)
}

// lintMatchers reports what the settings file's own dialect finds wrong
// with its names against the tools (claudecode.CheckToolNames,
// geminicli.CheckToolNames, hooks.CheckCommandToolNames): each matcher of
// a tool event that takes no tool as written, and each -toolnames key
// that is no tool. The rules live in the dialects, once; a file that does
// not load was reported already (lintSettings), so its error is not said
// twice.
func (c checker) lintMatchers(file string, data []byte, k kind, tools toolList, report func(format string, args ...any)) {
	var problems []error
	var err error
	switch d, ok := settingsDialects[k]; {
	case k == kindCommand:
		problems, err = hooks.CheckCommandToolNames(data, tools.host)
	case ok && d.checkNames != nil:
		problems, err = d.checkNames(data, tools.host, c.toolNames)
	}
	if err != nil {
		return
	}
	for _, p := range problems {
		report("%s: %v", file, p)
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
