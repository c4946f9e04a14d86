package hooks

import "encoding/json"

// ModelRequest is what is sent to the model for one call.
//
// Model and Tools are filled by the host or adapter when it knows them (""
// and nil when it does not): a hook that sets them through its patch
// changes the model called and the tools offered.
type ModelRequest struct {
	System   string     `json:"system"`
	Messages []Message  `json:"messages"`
	Model    string     `json:"model,omitempty"` // the model's name, as the provider spells it
	Tools    []ToolSpec `json:"tools,omitempty"` // the tools offered to the model, in order

	// ToolChoice is whether and which tool the model must call; nil: the
	// provider's default (auto).
	ToolChoice *ToolChoice `json:"toolChoice,omitempty"`
	// Settings are the call's sampling settings; nil: the provider's
	// defaults.
	Settings *ModelSettings `json:"settings,omitempty"`
}

// The modes of a ToolChoice.
const (
	ToolChoiceAuto     = "auto"     // the model decides (the default)
	ToolChoiceNone     = "none"     // the model calls no tool
	ToolChoiceRequired = "required" // the model calls some tool (Gemini's ANY, Anthropic's any)
)

// ToolChoice says whether the model must call a tool: Mode is one of
// ToolChoiceAuto, ToolChoiceNone and ToolChoiceRequired; a Name makes the
// model call that one tool (Mode is then "required" or empty).
type ToolChoice struct {
	Mode string `json:"mode,omitempty"`
	Name string `json:"name,omitempty"`
}

// ModelSettings are the sampling settings of one model call. A nil field is
// the provider's default. Provider carries provider options an adapter
// passes through as they are (keys as the provider spells them).
type ModelSettings struct {
	Temperature *float64       `json:"temperature,omitempty"`
	TopP        *float64       `json:"topP,omitempty"`
	MaxTokens   *int           `json:"maxTokens,omitempty"`
	Stop        []string       `json:"stop,omitempty"`
	Provider    map[string]any `json:"provider,omitempty"`
}

// ToolSpec is a tool offered to the model.
type ToolSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Schema      json.RawMessage `json:"schema,omitempty"` // the JSON Schema of its arguments, as the host sends it
}

// ModelResponse is the model's reply to one call.
//
// Usage and StopReason are filled by the host or adapter when the provider
// reports them (zero when it does not).
type ModelResponse struct {
	Text       string     `json:"text"`
	ToolCalls  []ToolCall `json:"toolCalls"`
	Usage      Usage      `json:"usage,omitzero"`
	StopReason StopReason `json:"stopReason,omitempty"`
	// Reasoning is the model's reasoning ("thinking") text, when the
	// provider returns it; "" when it does not.
	Reasoning string `json:"reasoning,omitempty"`
}

// Usage is what one model call cost, in tokens, as the provider reported
// it. InputTokens counts every input token, CachedInputTokens included.
type Usage struct {
	InputTokens       int64 `json:"inputTokens"`
	OutputTokens      int64 `json:"outputTokens"`
	CachedInputTokens int64 `json:"cachedInputTokens,omitempty"`
}

// Add returns the sum of u and v, for hooks that total a run's usage.
func (u Usage) Add(v Usage) Usage {
	return Usage{InputTokens: u.InputTokens + v.InputTokens, OutputTokens: u.OutputTokens + v.OutputTokens,
		CachedInputTokens: u.CachedInputTokens + v.CachedInputTokens}
}

// StopReason is why the model stopped. Adapters map their provider's word
// onto these; a reason none of them fits keeps the provider's own word.
type StopReason string

// The stop reasons adapters report.
const (
	StopEndTurn       StopReason = "end_turn"       // the reply is complete (OpenAI "stop")
	StopToolUse       StopReason = "tool_use"       // the reply asks for tool calls (OpenAI "tool_calls")
	StopMaxTokens     StopReason = "max_tokens"     // cut at the output limit (OpenAI "length")
	StopContentFilter StopReason = "content_filter" // cut by the provider's filter (Anthropic "refusal")
	StopPauseTurn     StopReason = "pause_turn"     // the provider paused a long turn; send it back to go on
)
