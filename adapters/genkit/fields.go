package genkit

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"

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
// keys); another config type is shown as its JSON in Settings.Provider.
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
		s = mapSettings(c)
	case nil:
		return nil
	default:
		// A plugin's own config type: the hooks see it as its JSON in
		// Provider (a policy is not told "default" for what it was not
		// shown); changing settings on it is an error (writeConfig).
		b, err := json.Marshal(c)
		if err != nil {
			return nil
		}
		var m map[string]any
		if json.Unmarshal(b, &m) != nil || len(m) == 0 {
			return nil
		}
		s.Provider = m
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

// mapSettings reads a map config: the common keys it understands as the
// fields, every other key (and a common key of a type it does not read)
// in Provider, so that the hooks see all of it and a policy is not told
// "default" for a value it was not shown.
func mapSettings(m map[string]any) hooks.ModelSettings {
	var s hooks.ModelSettings
	for k, v := range m {
		ok := true
		switch k {
		case keyTemperature:
			s.Temperature, ok = number(v)
		case keyTopP:
			s.TopP, ok = number(v)
		case keyMaxTokens:
			var f *float64
			if f, ok = number(v); ok && *f == math.Trunc(*f) && math.Abs(*f) < 1<<31 {
				n := int(*f)
				s.MaxTokens = &n
			} else {
				ok = false
			}
		case keyStop:
			s.Stop, ok = stringList(v)
		default:
			ok = false
		}
		if !ok {
			if s.Provider == nil {
				s.Provider = map[string]any{}
			}
			s.Provider[k] = v
		}
	}
	return s
}

func number(v any) (*float64, bool) {
	var f float64
	switch n := v.(type) {
	case float64:
		f = n
	case float32:
		f, _ = strconv.ParseFloat(strconv.FormatFloat(float64(n), 'g', -1, 32), 64)
	case int:
		f = float64(n)
	case int64:
		f = float64(n)
	case json.Number:
		var err error
		if f, err = n.Float64(); err != nil {
			return nil, false
		}
	default:
		return nil, false
	}
	return &f, true
}

func stringList(v any) ([]string, bool) {
	switch s := v.(type) {
	case []string:
		return slices.Clone(s), true
	case []any:
		out := make([]string, 0, len(s))
		for _, x := range s {
			str, ok := x.(string)
			if !ok {
				return nil, false
			}
			out = append(out, str)
		}
		return out, true
	}
	return nil, false
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
		return mapConfig(s)
	}
	return nil, fmt.Errorf("the request's config is a %T, which the adapter cannot write (use ai.GenerationCommonConfig or a map)", config)
}

// mapConfig is a map config saying s: the hooks saw every key (Provider
// holds the others), so what they left is all of it.
func mapConfig(s *hooks.ModelSettings) (any, error) {
	out := map[string]any{}
	setOrDelete(out, keyTemperature, s.Temperature)
	setOrDelete(out, keyTopP, s.TopP)
	setOrDelete(out, keyMaxTokens, s.MaxTokens)
	if s.Stop != nil {
		out[keyStop] = slices.Clone(s.Stop)
	}
	for k, v := range s.Provider {
		if _, set := out[k]; set {
			return nil, fmt.Errorf("provider option %q: the setting of that name says it already", k)
		}
		out[k] = v
	}
	return out, nil
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
