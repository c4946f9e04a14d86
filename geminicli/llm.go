package geminicli

import (
	"encoding/json"
	"strings"

	"github.com/rienda/hooks"
)

// llmMessage is one message of Gemini CLI's stable LLMRequest.
type llmMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// llmRequest is Gemini CLI's stable LLMRequest, as its hooks read it.
type llmRequest struct {
	Model      string         `json:"model"`
	Messages   []llmMessage   `json:"messages"`
	Config     map[string]any `json:"config"`
	ToolConfig *toolConfig    `json:"toolConfig,omitempty"`
}

// hookRequest is req as Gemini CLI shows it to hooks: its messages with
// text, roles "user", "model" and "system" (tool results and the system
// prompt, which Gemini CLI keeps outside its contents, are left out, as
// its translator leaves non-text parts out), and the index in
// req.Messages of each.
func hookRequest(req hooks.ModelRequest) (llmRequest, []int) {
	out := llmRequest{Model: req.Model, Messages: []llmMessage{}, Config: hookConfig(req.Settings)}
	var at []int
	for i, m := range req.Messages {
		role := ""
		switch m.Role {
		case "assistant":
			role = "model"
		case "system":
			role = "system"
		case "tool":
			continue
		default:
			role = "user"
		}
		if m.Text == "" {
			continue
		}
		out.Messages = append(out.Messages, llmMessage{Role: role, Content: m.Text})
		at = append(at, i)
	}
	return out, at
}

// requestChange reads hookSpecificOutput.llm_request against req as the
// runner's translator does: "model", when a non-empty string, replaces
// the model; "messages", when a list, replaces the text of the messages
// the hook was shown, in order (a message it was not shown, and any
// tool calls, stay as they are; messages past those shown are added).
// "config" patches the request's settings (configChange).
func requestChange(c *hooks.Context, raw json.RawMessage, req hooks.ModelRequest) (model *string, msgs []hooks.Message, settings *hooks.ModelSettings) {
	var fields map[string]json.RawMessage
	if json.Unmarshal(raw, &fields) != nil || fields == nil {
		return nil, nil, nil
	}
	if s, ok := isString(fields["model"]); ok && s != "" && s != req.Model {
		model = &s
	}
	var given []json.RawMessage
	if json.Unmarshal(fields["messages"], &given) == nil && given != nil {
		msgs = mergeMessages(req.Messages, given)
	}
	var cfg map[string]json.RawMessage
	if json.Unmarshal(fields["config"], &cfg) == nil && cfg != nil {
		settings = configChange(c, cfg, req.Settings)
	}
	return model, msgs, settings
}

// mergeMessages puts the hook's messages back into base, in the places of
// the messages it was shown.
func mergeMessages(base []hooks.Message, given []json.RawMessage) []hooks.Message {
	_, at := hookRequest(hooks.ModelRequest{Messages: base})
	out := make([]hooks.Message, len(base), len(base)+len(given))
	copy(out, base)
	next := 0
	for _, i := range at {
		if next == len(given) {
			break
		}
		role, text := readMessage(given[next])
		next++
		out[i].Role, out[i].Text = role, text
	}
	for ; next < len(given); next++ {
		role, text := readMessage(given[next])
		out = append(out, hooks.Message{Role: role, Text: text})
	}
	return out
}

// readMessage reads one {role, content} a hook gave: "model" is the
// assistant, "system" the system, anything else the user; content is
// shown as JavaScript's String() shows it.
func readMessage(raw json.RawMessage) (role, text string) {
	var m map[string]json.RawMessage
	_ = json.Unmarshal(raw, &m)
	switch r, _ := isString(m["role"]); r {
	case "model":
		role = "assistant"
	case "system":
		role = "system"
	default:
		role = "user"
	}
	return role, str(m["content"])
}

// llmCandidate is one candidate of Gemini CLI's stable LLMResponse.
type llmCandidate struct {
	Content struct {
		Role  string   `json:"role"`
		Parts []string `json:"parts"`
	} `json:"content"`
	FinishReason string `json:"finishReason,omitempty"`
}

// llmResponse is Gemini CLI's stable LLMResponse.
type llmResponse struct {
	Text          string         `json:"text,omitempty"`
	Candidates    []llmCandidate `json:"candidates"`
	UsageMetadata *llmUsage      `json:"usageMetadata,omitempty"`
}

// llmUsage is an LLMResponse's usageMetadata.
type llmUsage struct {
	PromptTokenCount     int64 `json:"promptTokenCount"`
	CandidatesTokenCount int64 `json:"candidatesTokenCount"`
	TotalTokenCount      int64 `json:"totalTokenCount"`
}

// finishReasons maps this library's stop reasons to Gemini's.
var finishReasons = map[hooks.StopReason]string{
	hooks.StopEndTurn: "STOP", hooks.StopToolUse: "STOP", hooks.StopMaxTokens: "MAX_TOKENS",
	hooks.StopContentFilter: "SAFETY",
}

// hookResponse is resp as Gemini CLI shows it to hooks: one candidate
// whose parts are the reply's text (tool calls, not text, are left out).
func hookResponse(resp hooks.ModelResponse) llmResponse {
	cand := llmCandidate{}
	cand.Content.Role, cand.Content.Parts = "model", []string{}
	if resp.Text != "" {
		cand.Content.Parts = append(cand.Content.Parts, resp.Text)
	}
	if resp.StopReason != "" {
		cand.FinishReason = finishReasons[resp.StopReason]
		if cand.FinishReason == "" {
			cand.FinishReason = "OTHER"
		}
	}
	out := llmResponse{Text: resp.Text, Candidates: []llmCandidate{cand}}
	if u := resp.Usage; u != (hooks.Usage{}) {
		out.UsageMetadata = &llmUsage{PromptTokenCount: u.InputTokens, CandidatesTokenCount: u.OutputTokens,
			TotalTokenCount: u.InputTokens + u.OutputTokens}
	}
	return out
}

// readResponse reads an llm_response a hook gave: the text of its first
// candidate's parts, its finish reason and usage. ok is false when it has
// no list of candidates, or (nonEmpty) when the first has no part: the
// runner ignores those.
func readResponse(raw json.RawMessage, nonEmpty bool) (resp hooks.ModelResponse, ok bool) {
	var r struct {
		Candidates []struct {
			Content struct {
				Parts []json.RawMessage `json:"parts"`
			} `json:"content"`
			FinishReason string `json:"finishReason"`
		} `json:"candidates"`
		UsageMetadata *llmUsage `json:"usageMetadata"`
	}
	if json.Unmarshal(raw, &r) != nil || r.Candidates == nil {
		return resp, false
	}
	if len(r.Candidates) == 0 || len(r.Candidates[0].Content.Parts) == 0 {
		return resp, !nonEmpty
	}
	var text strings.Builder
	for _, p := range r.Candidates[0].Content.Parts {
		text.WriteString(str(p))
	}
	resp.Text = text.String()
	switch r.Candidates[0].FinishReason {
	case "STOP", "":
		resp.StopReason = hooks.StopEndTurn
	case "MAX_TOKENS":
		resp.StopReason = hooks.StopMaxTokens
	case "SAFETY", "RECITATION":
		resp.StopReason = hooks.StopContentFilter
	default:
		resp.StopReason = hooks.StopReason(r.Candidates[0].FinishReason)
	}
	if u := r.UsageMetadata; u != nil {
		resp.Usage = hooks.Usage{InputTokens: u.PromptTokenCount, OutputTokens: u.CandidatesTokenCount}
	}
	return resp, true
}
