package openai

import (
	"encoding/json"
	"errors"
	"maps"

	oai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"
	"github.com/rienda/hooks"
	"github.com/rienda/hooks/internal/adapt"
)

// chatToolChoice is the hooks' tool choice of a chat request: auto, none
// or required, or one function or custom tool by name. An allowed_tools
// choice reads as its mode (the hooks do not see the allowed set; it is
// sent as it was unless a hook changes the choice).
func chatToolChoice(c oai.ChatCompletionToolChoiceOptionUnionParam) *hooks.ToolChoice {
	switch {
	case c.OfAuto.Valid():
		return &hooks.ToolChoice{Mode: c.OfAuto.Value}
	case c.OfFunctionToolChoice != nil, c.OfCustomToolChoice != nil:
		return &hooks.ToolChoice{Mode: hooks.ToolChoiceRequired, Name: chosenTool(c)}
	case c.OfAllowedTools != nil:
		return &hooks.ToolChoice{Mode: string(c.OfAllowedTools.AllowedTools.Mode)}
	}
	return nil
}

// chatSettings is the hooks' settings of a chat request. MaxTokens is
// max_completion_tokens, or the deprecated max_tokens when only it is set;
// Provider is the request's extra fields (SetExtraFields).
func chatSettings(p oai.ChatCompletionNewParams) *hooks.ModelSettings {
	var maxTokens *int
	switch {
	case p.MaxCompletionTokens.Valid():
		maxTokens = adapt.Ptr(int(p.MaxCompletionTokens.Value))
	case p.MaxTokens.Valid():
		maxTokens = adapt.Ptr(int(p.MaxTokens.Value))
	}
	stop := p.Stop.OfStringArray
	if p.Stop.OfString.Valid() {
		stop = []string{p.Stop.OfString.Value}
	}
	return adapt.Settings(optFloat(p.Temperature), optFloat(p.TopP), maxTokens, stop, p.ExtraFields())
}

// optFloat is an SDK optional number as the hooks' pointer.
func optFloat(o param.Opt[float64]) *float64 {
	if !o.Valid() {
		return nil
	}
	return adapt.Ptr(o.Value)
}

// floatOpt is the hooks' number as an SDK optional (nil: omitted).
func floatOpt(f *float64) param.Opt[float64] {
	if f == nil {
		return param.Opt[float64]{}
	}
	return param.NewOpt(*f)
}

// intOpt is the hooks' count as an SDK optional (nil: omitted).
func intOpt(n *int) param.Opt[int64] {
	if n == nil {
		return param.Opt[int64]{}
	}
	return param.NewOpt(int64(*n))
}

// withChoice gives out the tool choice and settings the hooks left: what
// they did not change is out's own; a change replaces it (a nil field is
// omitted, the provider's default).
func withChoice(out *oai.ChatCompletionNewParams, base oai.ChatCompletionNewParams, req hooks.ModelRequest) error {
	if !adapt.SameToolChoice(chatToolChoice(base.ToolChoice), req.ToolChoice) {
		offered := make([]string, 0, len(out.Tools))
		custom := map[string]bool{}
		for _, t := range out.Tools {
			offered = append(offered, toolSpec(t).Name)
			custom[toolSpec(t).Name] = t.OfCustom != nil
		}
		if err := adapt.CheckToolChoice("openai", req.ToolChoice, offered); err != nil {
			return err
		}
		out.ToolChoice = buildChatChoice(req.ToolChoice, custom)
	}
	if adapt.SameSettings(chatSettings(base), req.Settings) {
		return nil
	}
	s := req.Settings
	if err := adapt.CheckSettings("openai", s); err != nil {
		return err
	}
	if s == nil {
		s = &hooks.ModelSettings{}
	}
	if err := adapt.CheckProvider("openai", s.Provider, chatReserved...); err != nil {
		return err
	}
	out.Temperature, out.TopP = floatOpt(s.Temperature), floatOpt(s.TopP)
	// The API's spelling the host used: max_tokens only when it used
	// that one alone (older models and compatible servers).
	if base.MaxTokens.Valid() && !base.MaxCompletionTokens.Valid() {
		out.MaxTokens, out.MaxCompletionTokens = intOpt(s.MaxTokens), param.Opt[int64]{}
	} else {
		out.MaxTokens, out.MaxCompletionTokens = param.Opt[int64]{}, intOpt(s.MaxTokens)
	}
	out.Stop = oai.ChatCompletionNewParamsStopUnion{}
	if len(s.Stop) > 0 {
		out.Stop.OfStringArray = append([]string(nil), s.Stop...)
	}
	out.SetExtraFields(maps.Clone(s.Provider))
	return nil
}

// chatReserved and responsesReserved are the wire fields the hooks'
// request says: a hook's Provider may not set them under another name.
var (
	chatReserved = []string{"model", "messages", "tools", "tool_choice", "functions", "function_call",
		"temperature", "top_p", "max_tokens", "max_completion_tokens", "stop", "stream", "stream_options"}
	responsesReserved = []string{"model", "input", "instructions", "tools", "tool_choice", "temperature", "top_p",
		"max_output_tokens", "stream", "previous_response_id", "conversation", "prompt"}
)

// buildChatChoice is the SDK's tool choice for the hooks' (checked) one.
func buildChatChoice(c *hooks.ToolChoice, custom map[string]bool) oai.ChatCompletionToolChoiceOptionUnionParam {
	switch {
	case c == nil:
		return oai.ChatCompletionToolChoiceOptionUnionParam{}
	case c.Name == "":
		return oai.ChatCompletionToolChoiceOptionUnionParam{OfAuto: param.NewOpt(c.Mode)}
	case custom[c.Name]:
		return oai.ChatCompletionToolChoiceOptionUnionParam{OfCustomToolChoice: &oai.ChatCompletionNamedToolChoiceCustomParam{
			Custom: oai.ChatCompletionNamedToolChoiceCustomCustomParam{Name: c.Name}}}
	}
	return oai.ChatCompletionToolChoiceOptionUnionParam{OfFunctionToolChoice: &oai.ChatCompletionNamedToolChoiceParam{
		Function: oai.ChatCompletionNamedToolChoiceFunctionParam{Name: c.Name}}}
}

// reasoningFields are the fields OpenAI-compatible servers put a chat
// reply's reasoning in (DeepSeek, vLLM: reasoning_content; OpenRouter,
// Ollama: reasoning); the official API sends none.
var reasoningFields = []string{"reasoning_content", "reasoning"}

// extraReasoning is the reasoning text among a message's or delta's
// fields the SDK does not know, "" when there is none.
func extraReasoning[F interface{ Raw() string }](extra map[string]F) string {
	for _, key := range reasoningFields {
		f, ok := extra[key]
		if !ok {
			continue
		}
		var s string
		if json.Unmarshal([]byte(f.Raw()), &s) == nil && s != "" {
			return s
		}
	}
	return ""
}

// responsesToolChoice is the hooks' tool choice of a Responses API
// request: a mode, or one function or custom tool by name. A choice of
// another kind (a hosted, MCP or shell tool, an allowed set) reads as
// required or its mode, and is sent as it was unless a hook changes it.
func responsesToolChoice(c responses.ResponseNewParamsToolChoiceUnion) *hooks.ToolChoice {
	switch {
	case c.OfToolChoiceMode.Valid():
		return &hooks.ToolChoice{Mode: string(c.OfToolChoiceMode.Value)}
	case c.OfFunctionTool != nil:
		return &hooks.ToolChoice{Mode: hooks.ToolChoiceRequired, Name: c.OfFunctionTool.Name}
	case c.OfCustomTool != nil:
		return &hooks.ToolChoice{Mode: hooks.ToolChoiceRequired, Name: c.OfCustomTool.Name}
	case c.OfAllowedTools != nil:
		return &hooks.ToolChoice{Mode: string(c.OfAllowedTools.Mode)}
	case !param.IsOmitted(c):
		return &hooks.ToolChoice{Mode: hooks.ToolChoiceRequired}
	}
	return nil
}

// responsesSettings is the hooks' settings of a Responses API request:
// temperature, top_p, max_output_tokens and the extra fields as Provider
// (the API has no stop sequences).
func responsesSettings(p responses.ResponseNewParams) *hooks.ModelSettings {
	var maxTokens *int
	if p.MaxOutputTokens.Valid() {
		maxTokens = adapt.Ptr(int(p.MaxOutputTokens.Value))
	}
	return adapt.Settings(optFloat(p.Temperature), optFloat(p.TopP), maxTokens, nil, p.ExtraFields())
}

// withResponsesChoice gives out the tool choice and settings the hooks
// left, as withChoice does for chat. Stop sequences have no place in the
// Responses API: a hook that sets them fails the call rather than be
// ignored.
func withResponsesChoice(out *responses.ResponseNewParams, base responses.ResponseNewParams, req hooks.ModelRequest) error {
	if !adapt.SameToolChoice(responsesToolChoice(base.ToolChoice), req.ToolChoice) {
		var offered []string
		custom := map[string]bool{}
		for _, t := range base.Tools {
			switch {
			case t.OfFunction != nil:
				offered = append(offered, t.OfFunction.Name)
			case t.OfCustom != nil:
				offered = append(offered, t.OfCustom.Name)
				custom[t.OfCustom.Name] = true
			default:
				offered = append(offered, "") // a hosted tool: required can be met
			}
		}
		if err := adapt.CheckToolChoice("openai", req.ToolChoice, offered); err != nil {
			return err
		}
		out.ToolChoice = buildResponsesChoice(req.ToolChoice, custom)
	}
	if adapt.SameSettings(responsesSettings(base), req.Settings) {
		return nil
	}
	s := req.Settings
	if err := adapt.CheckSettings("openai", s); err != nil {
		return err
	}
	if s == nil {
		s = &hooks.ModelSettings{}
	}
	if len(s.Stop) > 0 {
		return errors.New("openai: a hook set Settings.Stop, and the Responses API has no stop sequences")
	}
	if err := adapt.CheckProvider("openai", s.Provider, responsesReserved...); err != nil {
		return err
	}
	out.Temperature, out.TopP, out.MaxOutputTokens = floatOpt(s.Temperature), floatOpt(s.TopP), intOpt(s.MaxTokens)
	out.SetExtraFields(maps.Clone(s.Provider))
	return nil
}

// buildResponsesChoice is the SDK's tool choice for the hooks' (checked)
// one.
func buildResponsesChoice(c *hooks.ToolChoice, custom map[string]bool) responses.ResponseNewParamsToolChoiceUnion {
	switch {
	case c == nil:
		return responses.ResponseNewParamsToolChoiceUnion{}
	case c.Name == "":
		return responses.ResponseNewParamsToolChoiceUnion{OfToolChoiceMode: param.NewOpt(responses.ToolChoiceOptions(c.Mode))}
	case custom[c.Name]:
		return responses.ResponseNewParamsToolChoiceUnion{OfCustomTool: &responses.ToolChoiceCustomParam{Name: c.Name}}
	}
	return responses.ResponseNewParamsToolChoiceUnion{OfFunctionTool: &responses.ToolChoiceFunctionParam{Name: c.Name}}
}
