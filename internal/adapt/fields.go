package adapt

import (
	"errors"
	"fmt"
	"maps"
	"math"
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

// CheckSettings says what of s no provider can be sent: a temperature or
// top_p that is not a finite number, a max tokens below 1, an empty stop
// sequence. adapter starts the error.
func CheckSettings(adapter string, s *hooks.ModelSettings) error {
	if s == nil {
		return nil
	}
	for _, f := range []struct {
		name string
		v    *float64
	}{{"Temperature", s.Temperature}, {"TopP", s.TopP}} {
		if f.v != nil && (math.IsNaN(*f.v) || math.IsInf(*f.v, 0) || *f.v < 0) {
			return fmt.Errorf("%s: Settings.%s is %v, not a finite number >= 0", adapter, f.name, *f.v)
		}
	}
	if s.MaxTokens != nil && *s.MaxTokens < 1 {
		return fmt.Errorf("%s: Settings.MaxTokens is %d, below 1", adapter, *s.MaxTokens)
	}
	for i, stop := range s.Stop {
		if stop == "" {
			return fmt.Errorf("%s: Settings.Stop[%d] is empty", adapter, i)
		}
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

// errNoChoice is the error of a tool choice nothing can send.
var errNoChoice = errors.New("tool choice")

// CheckToolChoice says what is wrong with a tool choice a hook set: a mode
// that is not auto, none or required, a name with a mode other than
// required, or a name no tool offered has (offered: the names of the
// tools the request offers; the model could not call it). adapter starts
// the error. nil is valid (the provider's default).
func CheckToolChoice(adapter string, c *hooks.ToolChoice, offered []string) error {
	if c == nil {
		return nil
	}
	switch c.Mode {
	case hooks.ToolChoiceAuto, hooks.ToolChoiceNone, hooks.ToolChoiceRequired:
	case "":
		if c.Name == "" {
			return fmt.Errorf("%s: %w has neither a Mode nor a Name", adapter, errNoChoice)
		}
	default:
		return fmt.Errorf("%s: %w mode %q is not auto, none or required", adapter, errNoChoice, c.Mode)
	}
	if c.Mode == hooks.ToolChoiceRequired && len(offered) == 0 {
		return fmt.Errorf("%s: %w requires a tool call, and the request offers no tool", adapter, errNoChoice)
	}
	if c.Name == "" {
		return nil
	}
	if c.Mode != "" && c.Mode != hooks.ToolChoiceRequired {
		return fmt.Errorf("%s: %w names tool %q with mode %q (a named tool is required)", adapter, errNoChoice, c.Name, c.Mode)
	}
	for _, name := range offered {
		if name == c.Name {
			return nil
		}
	}
	return fmt.Errorf("%s: %w names tool %q, which the request does not offer", adapter, errNoChoice, c.Name)
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
