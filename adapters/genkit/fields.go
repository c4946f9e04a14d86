package genkit

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"

	"github.com/firebase/genkit/go/ai"
	"github.com/rienda/hooks"
)

// The keys of genkit's common config in a config given as a map (JSON).
const (
	keyTemperature = "temperature"
	keyTopP        = "topP"
	keyMaxTokens   = "maxOutputTokens"
	keyStop        = "stopSequences"
)

// fillFields shows the hooks the request's tool choice and settings:
// genkit's common config (ai.GenerationCommonConfig, or a map with its
// keys); another config type is not read (nil Settings).
func fillFields(hr *hooks.ModelRequest, req *ai.ModelRequest) {
	if req.ToolChoice != "" {
		hr.ToolChoice = &hooks.ToolChoice{Mode: string(req.ToolChoice)}
	}
	hr.Settings = readConfig(req.Config)
}

func readConfig(config any) *hooks.ModelSettings {
	var s hooks.ModelSettings
	switch c := config.(type) {
	case *ai.GenerationCommonConfig:
		if c == nil {
			return nil
		}
		s = commonSettings(*c)
	case ai.GenerationCommonConfig:
		s = commonSettings(c)
	case map[string]any:
		s.Temperature, s.TopP = mapFloat(c, keyTemperature), mapFloat(c, keyTopP)
		if f := mapFloat(c, keyMaxTokens); f != nil && *f == float64(int(*f)) {
			n := int(*f)
			s.MaxTokens = &n
		}
		s.Stop = mapStrings(c[keyStop])
	default:
		return nil
	}
	if reflect.ValueOf(s).IsZero() {
		return nil
	}
	return &s
}

func commonSettings(c ai.GenerationCommonConfig) hooks.ModelSettings {
	var s hooks.ModelSettings
	if c.Temperature != 0 {
		s.Temperature = &c.Temperature
	}
	if c.TopP != 0 {
		s.TopP = &c.TopP
	}
	if c.MaxOutputTokens != 0 {
		s.MaxTokens = &c.MaxOutputTokens
	}
	s.Stop = slices.Clone(c.StopSequences)
	return s
}

func mapFloat(m map[string]any, key string) *float64 {
	switch v := m[key].(type) {
	case float64:
		return &v
	case int:
		f := float64(v)
		return &f
	}
	return nil
}

func mapStrings(v any) []string {
	switch s := v.(type) {
	case []string:
		return slices.Clone(s)
	case []any:
		out := make([]string, 0, len(s))
		for _, x := range s {
			if str, ok := x.(string); ok {
				out = append(out, str)
			}
		}
		return out
	}
	return nil
}

// applyFields makes sent's tool choice and config what the hooks left
// (was: what they were shown). A named tool is a required call with only
// that tool offered (genkit's choice names no tool). What genkit's config
// cannot say is an error naming it, not a call made otherwise.
func applyFields(sent *ai.ModelRequest, was, is hooks.ModelRequest) error {
	if !reflect.DeepEqual(was.ToolChoice, is.ToolChoice) {
		if err := applyChoice(sent, is.ToolChoice); err != nil {
			return fmt.Errorf("tool choice: %w", err)
		}
	}
	if reflect.DeepEqual(was.Settings, is.Settings) {
		return nil
	}
	config, err := writeConfig(sent.Config, is.Settings)
	if err != nil {
		return fmt.Errorf("settings: %w", err)
	}
	sent.Config = config
	return nil
}

func applyChoice(sent *ai.ModelRequest, c *hooks.ToolChoice) error {
	if c == nil {
		sent.ToolChoice = ""
		return nil
	}
	switch c.Mode {
	case hooks.ToolChoiceAuto, hooks.ToolChoiceNone, hooks.ToolChoiceRequired, "":
	default:
		return fmt.Errorf("unknown mode %q (auto, none or required)", c.Mode)
	}
	if c.Name == "" {
		sent.ToolChoice = ai.ToolChoice(c.Mode)
		return nil
	}
	if c.Mode != "" && c.Mode != hooks.ToolChoiceRequired {
		return fmt.Errorf("mode %q with tool %q: a named tool is a required call", c.Mode, c.Name)
	}
	i := slices.IndexFunc(sent.Tools, func(t *ai.ToolDefinition) bool { return t != nil && t.Name == c.Name })
	if i < 0 {
		return fmt.Errorf("tool %q is not among the tools offered", c.Name)
	}
	sent.Tools = []*ai.ToolDefinition{sent.Tools[i]}
	sent.ToolChoice = ai.ToolChoiceRequired
	return nil
}

// writeConfig is config with the hooks' settings: a copy, never genkit's
// own value changed.
func writeConfig(config any, s *hooks.ModelSettings) (any, error) {
	if s == nil {
		s = &hooks.ModelSettings{}
	}
	if err := checkSettings(s); err != nil {
		return nil, err
	}
	switch c := config.(type) {
	case nil:
		out := ai.GenerationCommonConfig{}
		return commonConfig(&out, s)
	case *ai.GenerationCommonConfig:
		out := ai.GenerationCommonConfig{}
		if c != nil {
			out = *c
		}
		return commonConfig(&out, s)
	case ai.GenerationCommonConfig:
		return commonConfig(&c, s)
	case map[string]any:
		out := maps.Clone(c)
		setOrDelete(out, keyTemperature, s.Temperature)
		setOrDelete(out, keyTopP, s.TopP)
		setOrDelete(out, keyMaxTokens, s.MaxTokens)
		delete(out, keyStop)
		if s.Stop != nil {
			out[keyStop] = slices.Clone(s.Stop)
		}
		maps.Copy(out, s.Provider)
		return out, nil
	}
	return nil, fmt.Errorf("the request's config is a %T, which the adapter cannot write (use ai.GenerationCommonConfig or a map)", config)
}

func commonConfig(out *ai.GenerationCommonConfig, s *hooks.ModelSettings) (any, error) {
	if len(s.Provider) > 0 {
		return nil, errors.New("provider options: ai.GenerationCommonConfig has no place for them (give the config as a map)")
	}
	if s.Temperature != nil && *s.Temperature == 0 || s.TopP != nil && *s.TopP == 0 || s.MaxTokens != nil && *s.MaxTokens == 0 {
		return nil, errors.New("a zero setting: ai.GenerationCommonConfig reads 0 as unset (give the config as a map)")
	}
	out.Temperature, out.TopP, out.MaxOutputTokens = deref(s.Temperature), deref(s.TopP), deref(s.MaxTokens)
	out.StopSequences = slices.Clone(s.Stop)
	return out, nil
}

func checkSettings(s *hooks.ModelSettings) error {
	for name, f := range map[string]*float64{keyTemperature: s.Temperature, keyTopP: s.TopP} {
		if f != nil && (math.IsNaN(*f) || *f < 0 || *f > 1e6) {
			return fmt.Errorf("%s %v is out of range", name, *f)
		}
	}
	if s.MaxTokens != nil && *s.MaxTokens < 0 {
		return fmt.Errorf("maxTokens %d is negative", *s.MaxTokens)
	}
	return nil
}

func setOrDelete[T any](m map[string]any, key string, v *T) {
	if v == nil {
		delete(m, key)
		return
	}
	m[key] = *v
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
