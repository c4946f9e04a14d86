package genai

import (
	"maps"
	"strconv"
	"strings"

	sdk "google.golang.org/genai"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/internal/adapt"
)

// toolChoice is the hooks' tool choice of a config: its function calling
// mode (ANY: required; VALIDATED, where the model decides: auto), and the
// one function ANY allows when it allows exactly one. Several allowed
// functions read as required; they are sent as they were unless a hook
// changes the choice.
func toolChoice(cfg *sdk.GenerateContentConfig) *hooks.ToolChoice {
	if cfg == nil || cfg.ToolConfig == nil || cfg.ToolConfig.FunctionCallingConfig == nil {
		return nil
	}
	fc := cfg.ToolConfig.FunctionCallingConfig
	switch fc.Mode {
	case sdk.FunctionCallingConfigModeAny:
		if len(fc.AllowedFunctionNames) == 1 {
			return &hooks.ToolChoice{Mode: hooks.ToolChoiceRequired, Name: fc.AllowedFunctionNames[0]}
		}
		return &hooks.ToolChoice{Mode: hooks.ToolChoiceRequired}
	case sdk.FunctionCallingConfigModeNone:
		return &hooks.ToolChoice{Mode: hooks.ToolChoiceNone}
	case sdk.FunctionCallingConfigModeAuto, sdk.FunctionCallingConfigModeValidated:
		return &hooks.ToolChoice{Mode: hooks.ToolChoiceAuto}
	}
	return nil
}

// settings is the hooks' settings of a config: temperature, topP,
// maxOutputTokens, stopSequences, and HTTPOptions.ExtraBody (fields the
// SDK adds to the request body) as Provider.
func settings(cfg *sdk.GenerateContentConfig) *hooks.ModelSettings {
	if cfg == nil {
		return nil
	}
	var maxTokens *int
	if cfg.MaxOutputTokens > 0 {
		maxTokens = adapt.Ptr(int(cfg.MaxOutputTokens))
	}
	var extra map[string]any
	if cfg.HTTPOptions != nil {
		extra = cfg.HTTPOptions.ExtraBody
	}
	return adapt.Settings(float64Of(cfg.Temperature), float64Of(cfg.TopP), maxTokens, cfg.StopSequences, extra)
}

// float64Of is the SDK's float32 as the number it was written as (0.7,
// not 0.699999988079071), so that a hook reads what the host set.
func float64Of(f *float32) *float64 {
	if f == nil {
		return nil
	}
	v, _ := strconv.ParseFloat(strconv.FormatFloat(float64(*f), 'g', -1, 32), 64)
	return &v
}

func float32Of(f *float64) *float32 {
	if f == nil {
		return nil
	}
	return adapt.Ptr(float32(*f))
}

// withChoice gives cfg (a copy, whose pointers are base's) the tool choice
// and settings the hooks left: what they did not change is base's own; a
// change replaces it, keeping the rest of the tool and function calling
// config. Changed Settings replace the four settings (a nil field is
// omitted: the API's default) and ExtraBody.
func withChoice(cfg *sdk.GenerateContentConfig, base *sdk.GenerateContentConfig, req hooks.ModelRequest) error {
	if !adapt.SameToolChoice(toolChoice(base), req.ToolChoice) {
		var offered []string
		for _, t := range flatten(cfg.Tools) {
			if t.decl != nil {
				offered = append(offered, t.decl.Name)
			}
		}
		if err := adapt.CheckToolChoice("genai", req.ToolChoice, offered); err != nil {
			return err
		}
		cfg.ToolConfig = buildToolConfig(cfg.ToolConfig, req.ToolChoice)
	}
	if adapt.SameSettings(settings(base), req.Settings) {
		return nil
	}
	s := req.Settings
	if err := adapt.CheckSettings("genai", s); err != nil {
		return err
	}
	if s == nil {
		s = &hooks.ModelSettings{}
	}
	// ExtraBody is merged into the request body: its keys must not say
	// what the contents, tools or generation config say.
	if err := adapt.CheckProvider("genai", s.Provider, "model", "contents", "system_instruction", "tools",
		"tool_config", "generation_config", "safety_settings", "cached_content"); err != nil {
		return err
	}
	cfg.Temperature, cfg.TopP = float32Of(s.Temperature), float32Of(s.TopP)
	cfg.MaxOutputTokens = 0
	if s.MaxTokens != nil {
		cfg.MaxOutputTokens = int32(min(*s.MaxTokens, 1<<31-1))
	}
	cfg.StopSequences = nil
	if len(s.Stop) > 0 {
		cfg.StopSequences = append([]string(nil), s.Stop...)
	}
	if cfg.HTTPOptions != nil || len(s.Provider) > 0 {
		var opts sdk.HTTPOptions
		if cfg.HTTPOptions != nil {
			opts = *cfg.HTTPOptions
		}
		opts.ExtraBody = maps.Clone(s.Provider)
		cfg.HTTPOptions = &opts
	}
	return nil
}

// buildToolConfig is tc (not modified) with the function calling config of
// the hooks' (checked) choice: nil: none; a name: ANY with that one
// function allowed.
func buildToolConfig(tc *sdk.ToolConfig, c *hooks.ToolChoice) *sdk.ToolConfig {
	var out sdk.ToolConfig
	var fc sdk.FunctionCallingConfig
	if tc != nil {
		out = *tc
		if tc.FunctionCallingConfig != nil {
			fc = *tc.FunctionCallingConfig
		}
	}
	if c == nil {
		out.FunctionCallingConfig = nil
		return &out
	}
	fc.AllowedFunctionNames = nil
	switch {
	case c.Name != "":
		fc.Mode, fc.AllowedFunctionNames = sdk.FunctionCallingConfigModeAny, []string{c.Name}
	case c.Mode == hooks.ToolChoiceRequired:
		fc.Mode = sdk.FunctionCallingConfigModeAny
	case c.Mode == hooks.ToolChoiceNone:
		fc.Mode = sdk.FunctionCallingConfigModeNone
	default:
		fc.Mode = sdk.FunctionCallingConfigModeAuto
	}
	out.FunctionCallingConfig = &fc
	return &out
}

// thoughts is the text of parts' thought parts, joined as the stream
// sends them.
func thoughts(parts []*sdk.Part) string {
	var b strings.Builder
	for _, p := range parts {
		if p != nil && p.Thought {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// withoutThoughts is c without its thought parts: a hook changed or
// dropped the reasoning, and the model must not read what a hook took
// away. Signatures on other parts (a function call's, which Gemini 3
// requires) stay where they are. c is not modified.
func withoutThoughts(c *sdk.Content) *sdk.Content {
	out := &sdk.Content{Role: c.Role, Parts: make([]*sdk.Part, 0, len(c.Parts))}
	for _, p := range c.Parts {
		if p == nil || !p.Thought {
			out.Parts = append(out.Parts, p)
		}
	}
	return out
}
