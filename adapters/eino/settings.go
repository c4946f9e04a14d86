package eino

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
	"github.com/rienda/hooks"
)

// callFields are the tool choice and settings of one call, as eino's common
// options give them (nil: no option says).
type callFields struct {
	choice   *hooks.ToolChoice
	settings *hooks.ModelSettings
}

func newCallFields(o *model.Options) callFields {
	var f callFields
	if o.ToolChoice != nil {
		f.choice = &hooks.ToolChoice{Mode: choiceMode(*o.ToolChoice)}
		if *o.ToolChoice == schema.ToolChoiceForced && len(o.AllowedToolNames) == 1 {
			f.choice.Name = o.AllowedToolNames[0]
		}
	}
	s := hooks.ModelSettings{Temperature: widen(o.Temperature), TopP: widen(o.TopP), Stop: slices.Clone(o.Stop)}
	if o.MaxTokens != nil {
		n := *o.MaxTokens
		s.MaxTokens = &n
	}
	if s.Temperature != nil || s.TopP != nil || s.MaxTokens != nil || s.Stop != nil {
		f.settings = &s
	}
	return f
}

// choiceMode is eino's tool choice in the hooks' words; another keeps its
// own (a hook reading it does not mistake it for auto).
func choiceMode(c schema.ToolChoice) string {
	switch c {
	case schema.ToolChoiceForbidden:
		return hooks.ToolChoiceNone
	case schema.ToolChoiceAllowed:
		return hooks.ToolChoiceAuto
	case schema.ToolChoiceForced:
		return hooks.ToolChoiceRequired
	}
	return string(c)
}

// widen is a float32 option as the float64 it was written as (0.7, not
// 0.699999988079071).
func widen(f *float32) *float64 {
	if f == nil {
		return nil
	}
	v, _ := strconv.ParseFloat(strconv.FormatFloat(float64(*f), 'g', -1, 32), 64)
	return &v
}

// options are the eino options that make the call's tool choice and
// settings what the hooks left: none for what they did not change. What
// eino's options cannot say (unsetting a setting, provider options, an
// unknown mode) is an error naming it, not a call made otherwise.
func (f callFields) options(req hooks.ModelRequest) ([]model.Option, error) {
	var opts []model.Option
	if !sameChoice(f.choice, req.ToolChoice) {
		o, err := choiceOption(req.ToolChoice, req.Tools)
		if err != nil {
			return nil, err
		}
		opts = append(opts, o)
	}
	var was, is hooks.ModelSettings
	if f.settings != nil {
		was = *f.settings
	}
	if req.Settings != nil {
		is = *req.Settings
	}
	if len(is.Provider) > 0 {
		return nil, errors.New("settings: eino's common options carry no provider options: a hook's Settings.Provider cannot be sent")
	}
	opts, err := floatOption(opts, "temperature", was.Temperature, is.Temperature, model.WithTemperature)
	if err != nil {
		return nil, err
	}
	if opts, err = floatOption(opts, "topP", was.TopP, is.TopP, model.WithTopP); err != nil {
		return nil, err
	}
	switch {
	case is.MaxTokens == nil && was.MaxTokens != nil:
		return nil, errors.New("settings: maxTokens: eino's options cannot unset it (set a value instead)")
	case is.MaxTokens != nil && (was.MaxTokens == nil || *was.MaxTokens != *is.MaxTokens):
		if *is.MaxTokens <= 0 {
			return nil, fmt.Errorf("settings: maxTokens %d is not positive", *is.MaxTokens)
		}
		opts = append(opts, model.WithMaxTokens(*is.MaxTokens))
	}
	if !slices.Equal(was.Stop, is.Stop) {
		opts = append(opts, model.WithStop(slices.Clone(is.Stop)))
	}
	return opts, nil
}

// floatOption appends the option for a float setting the hooks changed.
func floatOption(opts []model.Option, name string, was, is *float64, with func(float32) model.Option) ([]model.Option, error) {
	switch {
	case is == nil && was != nil:
		return nil, fmt.Errorf("settings: %s: eino's options cannot unset it (set a value instead)", name)
	case is == nil || (was != nil && *was == *is):
		return opts, nil
	case math.IsNaN(*is) || math.IsInf(*is, 0) || *is < 0 || *is > math.MaxFloat32:
		return nil, fmt.Errorf("settings: %s %v is out of range", name, *is)
	}
	return append(opts, with(float32(*is))), nil
}

func sameChoice(a, b *hooks.ToolChoice) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// choiceOption is the eino option for the hooks' tool choice: nil is auto
// (eino's options cannot unset a choice), a Name is a forced call allowed
// only that tool, which must be offered.
func choiceOption(c *hooks.ToolChoice, tools []hooks.ToolSpec) (model.Option, error) {
	if c == nil {
		return model.WithToolChoice(schema.ToolChoiceAllowed), nil
	}
	if c.Name != "" {
		if c.Mode != "" && c.Mode != hooks.ToolChoiceRequired {
			return model.Option{}, fmt.Errorf("tool choice: mode %q with tool %q: a named tool is a required call", c.Mode, c.Name)
		}
		if !slices.ContainsFunc(tools, func(t hooks.ToolSpec) bool { return t.Name == c.Name }) {
			return model.Option{}, fmt.Errorf("tool choice: tool %q is not among the tools offered", c.Name)
		}
		return model.WithToolChoice(schema.ToolChoiceForced, c.Name), nil
	}
	switch c.Mode {
	case hooks.ToolChoiceAuto, "":
		return model.WithToolChoice(schema.ToolChoiceAllowed), nil
	case hooks.ToolChoiceNone:
		return model.WithToolChoice(schema.ToolChoiceForbidden), nil
	case hooks.ToolChoiceRequired:
		return model.WithToolChoice(schema.ToolChoiceForced), nil
	}
	return model.Option{}, fmt.Errorf("tool choice: unknown mode %q (auto, none or required)", c.Mode)
}
