package anthropic

import (
	"encoding/json"
	"maps"
	"strings"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"
	"github.com/rienda/hooks"
	"github.com/rienda/hooks/internal/adapt"
)

// toolChoice is the hooks' tool choice of a request: auto, any
// (required), none, or one tool by name.
func toolChoice(c sdk.ToolChoiceUnionParam) *hooks.ToolChoice {
	switch {
	case c.OfAuto != nil:
		return &hooks.ToolChoice{Mode: hooks.ToolChoiceAuto}
	case c.OfAny != nil:
		return &hooks.ToolChoice{Mode: hooks.ToolChoiceRequired}
	case c.OfNone != nil:
		return &hooks.ToolChoice{Mode: hooks.ToolChoiceNone}
	case c.OfTool != nil:
		return &hooks.ToolChoice{Mode: hooks.ToolChoiceRequired, Name: c.OfTool.Name}
	}
	return nil
}

// Sampling fields the SDK carries only as extra fields: the Messages API
// takes them, MessageNewParams has no field for them.
const (
	temperatureField = "temperature"
	topPField        = "top_p"
)

// settings is the hooks' settings of a request: max_tokens,
// stop_sequences, temperature and top_p (extra fields: the SDK has no
// field for them), and the other extra fields as Provider.
func settings(p sdk.MessageNewParams) *hooks.ModelSettings {
	extra := maps.Clone(p.ExtraFields())
	temperature, topP := takeNumber(extra, temperatureField), takeNumber(extra, topPField)
	var maxTokens *int
	if p.MaxTokens > 0 {
		maxTokens = adapt.Ptr(int(p.MaxTokens))
	}
	return adapt.Settings(temperature, topP, maxTokens, p.StopSequences, extra)
}

// takeNumber removes key from extra and returns it when it is a number; a
// value of another type stays in extra (Provider), sent as it was.
func takeNumber(extra map[string]any, key string) *float64 {
	var f float64
	switch v := extra[key].(type) {
	case float64:
		f = v
	case float32:
		f = float64(v)
	case int:
		f = float64(v)
	case int64:
		f = float64(v)
	case json.Number:
		n, err := v.Float64()
		if err != nil {
			return nil
		}
		f = n
	default:
		return nil
	}
	delete(extra, key)
	return &f
}

// withChoice gives out the tool choice and settings the hooks left: what
// they did not change is out's own; a change replaces it. A changed choice
// keeps base's disable_parallel_tool_use where the new kind has it.
// max_tokens is required: Settings.MaxTokens nil keeps base's.
func withChoice(out *sdk.MessageNewParams, base sdk.MessageNewParams, req hooks.ModelRequest) error {
	if !adapt.SameToolChoice(toolChoice(base.ToolChoice), req.ToolChoice) {
		names := make([]string, 0, len(out.Tools))
		for _, t := range out.Tools {
			names = append(names, toolSpec(t).Name)
		}
		if err := adapt.CheckToolChoice("anthropic", req.ToolChoice, names); err != nil {
			return err
		}
		out.ToolChoice = buildChoice(req.ToolChoice, base.ToolChoice.GetDisableParallelToolUse())
	}
	if adapt.SameSettings(settings(base), req.Settings) {
		return nil
	}
	s := req.Settings
	if err := adapt.CheckSettings("anthropic", s); err != nil {
		return err
	}
	if s == nil {
		s = &hooks.ModelSettings{}
	}
	if err := adapt.CheckProvider("anthropic", s.Provider, "model", "messages", "system", "tools", "tool_choice",
		"max_tokens", "stop_sequences", temperatureField, topPField, "stream"); err != nil {
		return err
	}
	if s.MaxTokens != nil {
		out.MaxTokens = int64(*s.MaxTokens)
	}
	out.StopSequences = nil
	if len(s.Stop) > 0 {
		out.StopSequences = append([]string(nil), s.Stop...)
	}
	extra := maps.Clone(s.Provider)
	for key, v := range map[string]*float64{temperatureField: s.Temperature, topPField: s.TopP} {
		if v != nil {
			if extra == nil {
				extra = map[string]any{}
			}
			extra[key] = *v
		}
	}
	out.SetExtraFields(extra)
	return nil
}

// buildChoice is the SDK's tool choice for the hooks' (checked) one.
func buildChoice(c *hooks.ToolChoice, disableParallel *bool) sdk.ToolChoiceUnionParam {
	var dp param.Opt[bool]
	if disableParallel != nil {
		dp = param.NewOpt(*disableParallel)
	}
	switch {
	case c == nil:
		return sdk.ToolChoiceUnionParam{}
	case c.Name != "":
		return sdk.ToolChoiceUnionParam{OfTool: &sdk.ToolChoiceToolParam{Name: c.Name, DisableParallelToolUse: dp}}
	case c.Mode == hooks.ToolChoiceRequired:
		return sdk.ToolChoiceUnionParam{OfAny: &sdk.ToolChoiceAnyParam{DisableParallelToolUse: dp}}
	case c.Mode == hooks.ToolChoiceNone:
		return sdk.ToolChoiceUnionParam{OfNone: &sdk.ToolChoiceNoneParam{}}
	}
	return sdk.ToolChoiceUnionParam{OfAuto: &sdk.ToolChoiceAutoParam{DisableParallelToolUse: dp}}
}

// thinking is the text of a message's thinking blocks, joined as the
// stream sends them (redacted_thinking is encrypted: it has none).
func thinking(msg *sdk.Message) string {
	if msg == nil {
		return ""
	}
	var b strings.Builder
	for _, c := range msg.Content {
		if c.Type == "thinking" {
			b.WriteString(c.Thinking)
		}
	}
	return b.String()
}

// withoutThinking is m without its thinking blocks: the blocks a hook's
// change of the reasoning made stale. Their signature signs the model's
// text, so an altered block would be refused (400) and an unsigned one
// cannot be made; redacted_thinking blocks, which no hook sees, stay.
func withoutThinking(m sdk.MessageParam) sdk.MessageParam {
	if m.OfAssistant == nil {
		return m
	}
	a := *m.OfAssistant // a copy: the blocks may be the model's message's own
	kept := make([]sdk.ContentBlockParamUnion, 0, len(a.Content))
	for _, b := range a.Content {
		if b.OfThinking == nil {
			kept = append(kept, b)
		}
	}
	a.Content = kept
	return sdk.MessageParam{OfAssistant: &a}
}
