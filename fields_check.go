package hooks

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"unicode/utf8"
)

// A hook's ToolChoice and Settings reach a provider as the adapter spells
// them; a value the provider cannot understand (a mode it has no word for,
// a tool it was not offered, a NaN temperature) would either fail the call
// far from the hook that caused it or, worse, be read as something else
// (an unknown mode as "auto"). So the core checks them where the hook
// answers: a value that cannot be understood is that hook's error, named
// with the hook and the point, and is never applied.

// checkToolChoice reports what is wrong with tc for a request offering
// tools (nil: the tools are not known, so a Name cannot be checked), and
// returns its canonical form: a Name always with Mode "required".
func checkToolChoice(tc ToolChoice, tools []ToolSpec) (ToolChoice, error) {
	switch tc.Mode {
	case ToolChoiceAuto, ToolChoiceNone, ToolChoiceRequired:
	case "":
		if tc.Name == "" {
			return tc, fmt.Errorf("toolChoice has neither a mode (%q, %q or %q) nor a tool name", ToolChoiceAuto, ToolChoiceNone, ToolChoiceRequired)
		}
		tc.Mode = ToolChoiceRequired
	default:
		return tc, fmt.Errorf("toolChoice mode %q is not one of %q, %q, %q (exact spelling)", tc.Mode, ToolChoiceAuto, ToolChoiceNone, ToolChoiceRequired)
	}
	if !utf8.ValidString(tc.Name) {
		return tc, fmt.Errorf("toolChoice name %q is not UTF-8: a provider would read another name", tc.Name)
	}
	if tc.Name != "" && tc.Mode != ToolChoiceRequired {
		return tc, fmt.Errorf("toolChoice names tool %q with mode %q: a named tool is a required call (mode %q or none)", tc.Name, tc.Mode, ToolChoiceRequired)
	}
	if tools == nil || tc.Mode != ToolChoiceRequired {
		return tc, nil
	}
	if len(tools) == 0 {
		return tc, fmt.Errorf("toolChoice requires a tool call but the request offers no tools")
	}
	if tc.Name != "" && !offers(tools, tc.Name) {
		return tc, fmt.Errorf("toolChoice names tool %q, which the request does not offer (names match exactly: offered %s)", tc.Name, toolNames(tools))
	}
	return tc, nil
}

// Check reports what no provider can be sent in c, for a request offering
// tools (nil: the tools are not known, so a Name cannot be checked): a
// mode not spelt exactly, a Name with a mode other than required, a Name
// not offered byte for byte, a required call with no tool offered. It is
// the rule the core applies to a hook's ToolChoice; an adapter applies it
// to a request it is handed.
func (c ToolChoice) Check(tools []ToolSpec) error {
	_, err := checkToolChoice(c, tools)
	return err
}

// Check reports what no provider can be sent in s: a temperature or top-p
// that is not a finite number at least 0 (top-p at most 1), a MaxTokens
// below 1, an empty or non-UTF-8 stop sequence, provider options JSON
// cannot say exactly. It is the rule the core applies to a hook's
// Settings; an adapter applies it to a request it is handed.
func (s ModelSettings) Check() error {
	_, err := checkModelSettings(s)
	return err
}

// offers reports whether tools has one named name, byte for byte: a tool
// name in another case or a look-alike is another tool.
func offers(tools []ToolSpec, name string) bool {
	for _, t := range tools {
		if t.Name == name {
			return true
		}
	}
	return false
}

// toolNames lists the tools' names for an error, at most ten.
func toolNames(tools []ToolSpec) string {
	names := make([]string, 0, min(len(tools), 10))
	for _, t := range tools[:min(len(tools), 10)] {
		names = append(names, t.Name)
	}
	s := fmt.Sprintf("%q", names)
	if len(tools) > 10 {
		s += fmt.Sprintf(" and %d more", len(tools)-10)
	}
	return s
}

// checkModelSettings reports what is wrong with s, and returns a copy of it the
// hook no longer holds (its Stop and Provider are copied: a hook that
// keeps and later changes its value changes nothing that was checked).
func checkModelSettings(s ModelSettings) (*ModelSettings, error) {
	if err := checkUnit("temperature", s.Temperature, math.Inf(1)); err != nil {
		return nil, err
	}
	if err := checkUnit("topP", s.TopP, 1); err != nil {
		return nil, err
	}
	if s.MaxTokens != nil && *s.MaxTokens < 1 {
		return nil, fmt.Errorf("settings maxTokens %d: must be at least 1", *s.MaxTokens)
	}
	for i, stop := range s.Stop {
		if stop == "" {
			return nil, fmt.Errorf("settings stop[%d] is empty: a stop sequence has at least one character", i)
		}
		if !utf8.ValidString(stop) {
			return nil, fmt.Errorf("settings stop[%d] %q is not UTF-8: a provider would stop on another text", i, stop)
		}
	}
	provider, err := providerJSON(s.Provider)
	if err != nil {
		return nil, err
	}
	out := s
	out.Temperature, out.TopP, out.MaxTokens = clonePtr(s.Temperature), clonePtr(s.TopP), clonePtr(s.MaxTokens)
	out.Stop = slices.Clone(s.Stop)
	out.Provider = provider
	return &out, nil
}

// maxProviderJSON caps the provider options' JSON: options are a few
// flags and numbers; megabytes of them are a hook's mistake (or a model's
// text pasted in) that every later hook and the provider would carry.
const maxProviderJSON = 1 << 20

// providerJSON is p as the JSON a provider receives, decoded again: the
// request keeps that, not p. A value whose JSON differs between reads (a
// json.Marshaler), a nested map the hook keeps and changes later, a Go
// type a later hook cannot read as the provider will: each would let a
// guard judge one value and the provider receive another. So would a
// string that is not UTF-8 (JSON sends U+FFFD) and two keys that differ
// only in case (a provider decoding into a struct reads either): those,
// and values JSON cannot say at all, are refused.
func providerJSON(p map[string]any) (map[string]any, error) {
	if p == nil {
		return nil, nil
	}
	text, err := EncodeArguments(p)
	if err != nil {
		return nil, fmt.Errorf("settings provider options do not encode as JSON exactly (what a provider receives): %w", err)
	}
	if len(text) > maxProviderJSON {
		return nil, fmt.Errorf("settings provider options are %d bytes of JSON: at most %d", len(text), maxProviderJSON)
	}
	out, err := ParseArguments([]byte(text))
	if err != nil {
		return nil, fmt.Errorf("settings provider options: %w", errors.Unwrap(err))
	}
	// Numbers decode as float64, as every JSON reader here reads them: an
	// integer past 2^53 would reach the provider rounded, so it is refused
	// rather than changed (it encodes again to another text).
	if again, err := EncodeArguments(out); err != nil || again != text {
		return nil, errors.New("settings provider options hold a number JSON readers round (an integer past 2^53): pass it as a string")
	}
	return out, nil
}

// checkUnit checks a sampling number: finite, at least 0, at most hi.
func checkUnit(name string, v *float64, hi float64) error {
	switch {
	case v == nil:
		return nil
	case math.IsNaN(*v) || math.IsInf(*v, 0):
		return fmt.Errorf("settings %s is %v: must be a finite number", name, *v)
	case *v < 0:
		return fmt.Errorf("settings %s %v: must not be negative", name, *v)
	case *v > hi:
		return fmt.Errorf("settings %s %v: must be at most %v", name, *v, hi)
	}
	return nil
}

// clonePtr is a new pointer to *p's value, or nil.
func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// checkRequestPatch checks the ToolChoice and Settings of p against the
// request as p leaves it (its Tools, or req's), and returns them as they
// apply: canonical, copied. Nothing of p applies when it fails.
func checkRequestPatch(p *ModelRequestPatch, req *ModelRequest) (*ToolChoice, *ModelSettings, error) {
	var tc *ToolChoice
	var st *ModelSettings
	tools := req.Tools
	if p.Tools != nil {
		tools = p.Tools
	}
	if p.ToolChoice != nil {
		c, err := checkToolChoice(*p.ToolChoice, tools)
		if err != nil {
			return nil, nil, err
		}
		tc = &c
	}
	if p.Settings != nil {
		s, err := checkModelSettings(*p.Settings)
		if err != nil {
			return nil, nil, err
		}
		st = s
	}
	return tc, st, nil
}

// wrapVet returns the check of the request a wrap hook passes to next:
// its ToolChoice and Settings are checked as a BeforeModelRequest
// patch's are, since a wrap is a hook, and a value no provider
// understands (or a choice of a tool the tools it passes leave out: a
// guard's narrowing kept) must not reach the model. Values equal to the
// request the wraps were given (the host's, as the before-hooks left it)
// are not judged again: the host's own values go as it gave them. So the
// choice is checked when it or the tools differ from those, and the
// settings when they differ, replaced or changed in place (compared with
// a copy taken before any wrap ran).
func wrapVet(given ModelRequest) func(in, out ModelRequest) (ModelRequest, error) {
	var settings *ModelSettings
	if given.Settings != nil {
		s := *given.Settings
		s.Temperature, s.TopP, s.MaxTokens = clonePtr(s.Temperature), clonePtr(s.TopP), clonePtr(s.MaxTokens)
		s.Stop = slices.Clone(s.Stop)
		s.Provider = deepClone(s.Provider)
		settings = &s
	}
	choice := clonePtr(given.ToolChoice)
	tools := toolNameList(given.Tools)
	return func(_, out ModelRequest) (ModelRequest, error) {
		toolsChanged := given.Tools == nil != (out.Tools == nil) || !slices.Equal(tools, toolNameList(out.Tools))
		if out.ToolChoice != nil && (toolsChanged || choice == nil || *choice != *out.ToolChoice) {
			tc, err := checkToolChoice(*out.ToolChoice, out.Tools)
			if err != nil {
				return out, fmt.Errorf("the request it passed to next: %w", err)
			}
			out.ToolChoice = &tc
		}
		if out.Settings != nil && !sameSettings(settings, out.Settings) {
			st, err := checkModelSettings(*out.Settings)
			if err != nil {
				return out, fmt.Errorf("the request it passed to next: %w", err)
			}
			out.Settings = st
		}
		return out, nil
	}
}

// toolNameList is the tools' names, in order.
func toolNameList(tools []ToolSpec) []string {
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	return names
}

// sameSettings reports whether b has a's values (a NaN equals a NaN: the
// host's own value, passed on, is not judged).
func sameSettings(a, b *ModelSettings) bool {
	if a == nil || b == nil {
		return a == b
	}
	return sameNumber(a.Temperature, b.Temperature) && sameNumber(a.TopP, b.TopP) &&
		(a.MaxTokens == nil) == (b.MaxTokens == nil) && (a.MaxTokens == nil || *a.MaxTokens == *b.MaxTokens) &&
		slices.Equal(a.Stop, b.Stop) && reflect.DeepEqual(a.Provider, b.Provider)
}

// sameNumber compares two optional numbers bit for bit.
func sameNumber(a, b *float64) bool {
	if a == nil || b == nil {
		return a == b
	}
	return math.Float64bits(*a) == math.Float64bits(*b)
}

// deepClone copies the maps and lists of a JSON-shaped value, so that a
// change made in place later shows as a change.
func deepClone(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = deepCloneValue(v)
	}
	return out
}

// deepCloneValue is deepClone for one value.
func deepCloneValue(v any) any {
	switch v := v.(type) {
	case map[string]any:
		return deepClone(v)
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = deepCloneValue(e)
		}
		return out
	}
	return v
}
