package hooks

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/dop251/goja"

	"github.com/rienda/hooks/internal/jsrt"
)

// JavaScript's view of the request fields #35 added, and the reading of a
// returned toolChoice, settings and reasoning. The objects are read as the
// JSON they are (exact names); a name inside them that is not one of the
// object's is the hook's error, not a diagnostic: a misspelt "Name" beside
// mode "required" would otherwise force any tool instead of the one meant.

// The names of a returned toolChoice's and settings' fields.
var (
	toolChoiceNames = []string{"mode", "name"}
	settingsNames   = []string{"temperature", "topP", "maxTokens", "stop", "provider"}
)

// setRequestFieldsJS gives request o its toolChoice and settings: null when
// the request has none, else a plain object (a copy: a hook may change it
// and return it), settings made when first read.
func (in *jsInstance) setRequestFieldsJS(o *goja.Object, req ModelRequest) {
	if req.ToolChoice == nil {
		_ = o.Set("toolChoice", goja.Null())
	} else {
		tc := in.rt.NewObject()
		_ = tc.Set("mode", req.ToolChoice.Mode)
		_ = tc.Set("name", req.ToolChoice.Name)
		_ = o.Set("toolChoice", tc)
	}
	if req.Settings == nil {
		_ = o.Set("settings", goja.Null())
		return
	}
	s := req.Settings
	in.lazyField(o, "settings", func() (goja.Value, error) {
		m := map[string]any{}
		if s.Temperature != nil {
			m["temperature"] = *s.Temperature
		}
		if s.TopP != nil {
			m["topP"] = *s.TopP
		}
		if s.MaxTokens != nil {
			m["maxTokens"] = *s.MaxTokens
		}
		if s.Stop != nil {
			m["stop"] = s.Stop
		}
		if s.Provider != nil {
			m["provider"] = s.Provider
		}
		return jsrt.ToJS(in.cur.base(), in.rt, m, nil)
	})
}

// setReasoningJS gives response o its reasoning: a long one is made when
// first read, as a long tool result's text is.
func (in *jsInstance) setReasoningJS(o *goja.Object, reasoning string) {
	if len(reasoning) < lazyTextBytes {
		_ = o.Set("reasoning", reasoning)
		return
	}
	in.lazyField(o, "reasoning", func() (goja.Value, error) { return in.rt.ToValue(reasoning), nil })
}

// strictObject reads field k as an object whose names are only names; an
// unknown one is an error naming it, with the name it is a typo of.
func (r *returned) strictObject(k string, names []string) *returned {
	o := r.object(k)
	if o == nil {
		return nil
	}
	var unknown []string
	for name := range o.m {
		if !slices.Contains(names, name) {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		hint := ""
		for _, n := range names {
			if strings.EqualFold(n, unknown[0]) {
				hint = fmt.Sprintf(" (did you mean %q? names match exactly)", n)
			}
		}
		r.keep(fmt.Errorf("returned %s%s.%s: not a field of %s%s; the fields are %s", r.path, k, unknown[0], k, hint, strings.Join(names, ", ")))
		return nil
	}
	return o
}

// toolChoice reads toolChoice: {mode, name}; the core checks the values.
func (r *returned) toolChoice(k string) *ToolChoice {
	o := r.strictObject(k, toolChoiceNames)
	if o == nil {
		return nil
	}
	var tc ToolChoice
	if m := o.str("mode"); m != nil {
		tc.Mode = *m
	}
	if n := o.str("name"); n != nil {
		tc.Name = *n
	}
	if o.err != nil {
		r.keep(o.err)
		return nil
	}
	return &tc
}

// settings reads settings: {temperature, topP, maxTokens, stop, provider};
// a field absent or null is the provider's default. The core checks the
// values (a NaN reaches it as null, as JSON.stringify writes it).
func (r *returned) settings(k string) *ModelSettings {
	o := r.strictObject(k, settingsNames)
	if o == nil {
		return nil
	}
	s := &ModelSettings{Temperature: o.number("temperature"), TopP: o.number("topP")}
	if n := o.number("maxTokens"); n != nil {
		if *n != math.Trunc(*n) || *n > 1<<53 || *n < -(1<<53) {
			o.wrong("maxTokens", "a whole number of tokens", *n)
		} else {
			s.MaxTokens = new(int(*n))
		}
	}
	if v := o.field("stop"); v != nil {
		list, ok := v.([]any)
		if !ok {
			o.wrong("stop", "an array of strings", v)
		}
		for i, e := range list {
			str, ok := e.(string)
			if !ok {
				o.wrong(fmt.Sprintf("stop[%d]", i), "a string", e)
				break
			}
			s.Stop = append(s.Stop, str)
		}
		if ok && s.Stop == nil {
			s.Stop = []string{}
		}
	}
	if p := typed[map[string]any](o, "provider", "an object of provider options"); p != nil {
		s.Provider = *p
	}
	if o.err != nil {
		r.keep(o.err)
		return nil
	}
	return s
}

// number returns field k when it is a number, nil when absent.
func (r *returned) number(k string) *float64 { return typed[float64](r, k, "a number") }
