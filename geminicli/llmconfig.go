package geminicli

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/rienda/hooks"
)

// LLMRequest.config and toolConfig, both ways: a hook reads the request's
// sampling settings (ModelRequest.Settings) as Gemini CLI's stable
// LLMRequest.config shows them, and its tool choice (ModelRequest.ToolChoice)
// as toolConfig; what a BeforeModel hook sets in llm_request.config, and a
// BeforeToolSelection hook in toolConfig, patches them.

// configKeys are the keys of LLMRequest.config that have a ModelSettings
// field.
var configKeys = []string{"temperature", "topP", "maxOutputTokens", "stopSequences"}

// hookConfig is s as LLMRequest.config: its fields that are set.
func hookConfig(s *hooks.ModelSettings) map[string]any {
	cfg := map[string]any{}
	if s == nil {
		return cfg
	}
	if s.Temperature != nil {
		cfg["temperature"] = *s.Temperature
	}
	if s.TopP != nil {
		cfg["topP"] = *s.TopP
	}
	if s.MaxTokens != nil {
		cfg["maxOutputTokens"] = *s.MaxTokens
	}
	if s.Stop != nil {
		cfg["stopSequences"] = s.Stop
	}
	return cfg
}

// configChange reads a hook's llm_request.config against cur: each of
// configKeys with a value of its type replaces that setting (null keeps
// it); a value of another type, and a key with no ModelSettings field, is
// a diagnostic and changes nothing. nil: nothing changed.
func configChange(c *hooks.Context, cfg map[string]json.RawMessage, cur *hooks.ModelSettings) *hooks.ModelSettings {
	next := hooks.ModelSettings{}
	if cur != nil {
		next = *cur
		next.Stop = slices.Clone(cur.Stop)
	}
	changed := false
	bad := func(k string, v json.RawMessage, want string) {
		c.Diagnose(fmt.Errorf("a Gemini CLI BeforeModel hook set llm_request.config.%s to %s, not %s: the setting is kept", k, v, want))
	}
	for _, k := range sortedRawKeys(cfg) {
		v := cfg[k]
		if string(v) == "null" {
			continue
		}
		switch k {
		case "temperature", "topP":
			var f float64
			if json.Unmarshal(v, &f) != nil || f < 0 {
				bad(k, v, "a number of 0 or more")
				continue
			}
			if k == "temperature" {
				next.Temperature = &f
			} else {
				next.TopP = &f
			}
		case "maxOutputTokens":
			var f float64
			if json.Unmarshal(v, &f) != nil || f < 1 || f != math.Trunc(f) || f > math.MaxInt32 {
				bad(k, v, "a whole number of 1 or more")
				continue
			}
			n := int(f)
			next.MaxTokens = &n
		case "stopSequences":
			var stop []string
			if json.Unmarshal(v, &stop) != nil || stop == nil {
				bad(k, v, "a list of strings")
				continue
			}
			next.Stop = stop
		default:
			c.Diagnose(fmt.Errorf("a Gemini CLI BeforeModel hook set llm_request.config.%s, which this library cannot apply: a ModelRequest's settings hold %v", k, configKeys))
			continue
		}
		changed = true
	}
	if !changed {
		return nil
	}
	return &next
}

// sortedRawKeys are m's keys, sorted.
func sortedRawKeys(m map[string]json.RawMessage) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// Gemini's function-calling modes.
const (
	modeAuto = "AUTO"
	modeAny  = "ANY"
	modeNone = "NONE"
)

// hookToolConfig is a tool choice as LLMRequest.toolConfig; nil when the
// host set none.
func (s *set) hookToolConfig(tc *hooks.ToolChoice) *toolConfig {
	if tc == nil {
		return nil
	}
	out := &toolConfig{Mode: modeAuto}
	switch {
	case tc.Name != "":
		out.Mode, out.AllowedFunctionNames = modeAny, []string{s.geminiName(tc.Name)}
	case tc.Mode == hooks.ToolChoiceRequired:
		out.Mode = modeAny
	case tc.Mode == hooks.ToolChoiceNone:
		out.Mode = modeNone
	}
	return out
}

// toolChoice is the merged toolConfig of BeforeToolSelection hooks as a
// patch of req, as Gemini CLI's aggregator merges them: any "NONE" calls
// no tool (and offers none); otherwise "ANY" over "AUTO", and the union of
// every allowedFunctionNames narrows the tools offered. "ANY" with one
// name makes the model call that tool (ToolChoice.Name); with several, one
// of them (the tools narrowed, ToolChoice "required"). names are Gemini
// names, read back as the host's.
func (h *hook) toolChoice(c *hooks.Context, req hooks.ModelRequest, mode string, names map[string]bool) *hooks.ModelRequestPatch {
	switch mode {
	case modeNone:
		return &hooks.ModelRequestPatch{Tools: []hooks.ToolSpec{}, ToolChoice: &hooks.ToolChoice{Mode: hooks.ToolChoiceNone}}
	case "":
		if len(names) == 0 {
			return nil
		}
	}
	p := &hooks.ModelRequestPatch{}
	if len(names) > 0 {
		p.Tools = h.narrow(c, req, names)
	}
	switch {
	case mode == modeAuto:
		p.ToolChoice = &hooks.ToolChoice{Mode: hooks.ToolChoiceAuto}
	case mode == modeAny && p.Tools != nil && len(p.Tools) == 0:
		c.Diagnose(fmt.Errorf(`the Gemini CLI BeforeToolSelection hooks set mode "ANY" but allow only %v, none of the tools offered: no tool is offered, and none is called`, sortedKeys(names)))
		p.ToolChoice = &hooks.ToolChoice{Mode: hooks.ToolChoiceNone}
	case mode == modeAny && len(names) == 1:
		name := h.set.opts.Tools.Host(sortedKeys(names)[0])
		p.ToolChoice = &hooks.ToolChoice{Mode: hooks.ToolChoiceRequired, Name: name}
	case mode == modeAny:
		p.ToolChoice = &hooks.ToolChoice{Mode: hooks.ToolChoiceRequired}
	}
	if p.Tools == nil && p.ToolChoice == nil {
		return nil
	}
	return p
}

// narrow is req's tools that names allow (by their Gemini name); nil when
// that is all of them, or when the host gave no tools to narrow (a
// diagnostic says so).
func (h *hook) narrow(c *hooks.Context, req hooks.ModelRequest, names map[string]bool) []hooks.ToolSpec {
	if req.Tools == nil {
		c.Diagnose(fmt.Errorf("the Gemini CLI BeforeToolSelection hooks allow only %v, but the host gave no ModelRequest.Tools to narrow", sortedKeys(names)))
		return nil
	}
	kept := slices.DeleteFunc(slices.Clone(req.Tools), func(t hooks.ToolSpec) bool { return !names[h.set.geminiName(t.Name)] })
	if len(kept) == len(req.Tools) {
		return nil
	}
	if kept == nil {
		kept = []hooks.ToolSpec{}
	}
	return kept
}
