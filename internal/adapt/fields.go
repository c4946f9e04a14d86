package adapt

import (
	"fmt"
	"maps"
	"reflect"
	"strings"
	"unicode"

	"github.com/rienda/hooks"
)

// Settings is the hooks' settings of a request, or nil when it sets none:
// a request that names no setting reads as the provider's defaults.
func Settings(temperature, topP *float64, maxTokens *int, stop []string, provider map[string]any) *hooks.ModelSettings {
	if temperature == nil && topP == nil && maxTokens == nil && len(stop) == 0 && len(provider) == 0 {
		return nil
	}
	s := &hooks.ModelSettings{Temperature: temperature, TopP: topP, MaxTokens: maxTokens}
	if len(stop) > 0 {
		s.Stop = append([]string(nil), stop...)
	}
	if len(provider) > 0 {
		s.Provider = maps.Clone(provider)
	}
	return s
}

// SameSettings reports whether the hooks left the settings as the host's
// request had them (was is what the adapter read): then the host's own
// values are sent, byte for byte. nil and a ModelSettings with no field set
// are the same (the provider's defaults).
func SameSettings(was, now *hooks.ModelSettings) bool {
	empty := func(s *hooks.ModelSettings) bool {
		return s == nil || (s.Temperature == nil && s.TopP == nil && s.MaxTokens == nil && len(s.Stop) == 0 && len(s.Provider) == 0)
	}
	if empty(was) || empty(now) {
		return empty(was) && empty(now)
	}
	return reflect.DeepEqual(was, now)
}

// CheckSettings says what of s no provider can be sent, by the core's
// rule (hooks.ModelSettings.Check). adapter starts the error. nil is
// valid (the provider's defaults).
func CheckSettings(adapter string, s *hooks.ModelSettings) error {
	if s == nil {
		return nil
	}
	if err := s.Check(); err != nil {
		return fmt.Errorf("%s: %w", adapter, err)
	}
	return nil
}

// SameToolChoice reports whether the hooks left the tool choice as the
// host's request had it. nil and the default mode (auto, no name) differ:
// a hook that says auto is sent as auto.
func SameToolChoice(was, now *hooks.ToolChoice) bool {
	if was == nil || now == nil {
		return was == nil && now == nil
	}
	return *was == *now
}

// CheckToolChoice says what is wrong with a tool choice, by the core's
// rule (hooks.ToolChoice.Check), for a request offering the tools named
// offered. adapter starts the error. nil is valid (the provider's
// default).
func CheckToolChoice(adapter string, c *hooks.ToolChoice, offered []string) error {
	if c == nil {
		return nil
	}
	tools := make([]hooks.ToolSpec, len(offered)) // never nil: the adapter knows what it offers
	for i, name := range offered {
		tools[i].Name = name
	}
	if err := c.Check(tools); err != nil {
		return fmt.Errorf("%s: %w", adapter, err)
	}
	return nil
}

// Ptr is a pointer to a copy of v, for filling the hooks' settings from an
// SDK's optional values.
func Ptr[T any](v T) *T { return &v }

// CheckProvider says which key of a hook's Settings.Provider would
// override what the request's own fields say (reserved: the wire names
// the adapter fills from the hooks' request: model, messages, tools, tool
// choice, the settings): a later hook could otherwise send what an earlier
// guard read and allowed under another name. Keys compare as servers may
// read them: case-insensitively, and with _ and - ignored (Gemini reads
// generation_config and generationConfig alike; Go servers fold case).
func CheckProvider(adapter string, provider map[string]any, reserved ...string) error {
	if len(provider) == 0 {
		return nil
	}
	taken := make(map[string]string, len(reserved))
	for _, r := range reserved {
		taken[foldKey(r)] = r
	}
	for key := range provider {
		if r, ok := taken[foldKey(key)]; ok {
			return fmt.Errorf("%s: Settings.Provider key %q sets %s, which the request's own fields say", adapter, key, r)
		}
	}
	return nil
}

// foldKey is key as a lenient server matches it.
func foldKey(key string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' {
			return -1
		}
		return unicode.ToLower(r)
	}, key)
}
