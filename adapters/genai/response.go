package genai

import (
	"encoding/json"
	"errors"
	"fmt"

	sdk "google.golang.org/genai"

	"github.com/rienda/hooks"
)

// Response converts a GenerateContent response into the response the
// hooks see: the first candidate's text (thoughts left out) and its
// function calls, their args re-read by hooks.ParseArguments; the text of
// its thought parts (includeThoughts) is Reasoning. Usage is
// the response's usage metadata; StopReason its finish reason in the
// hooks' words (SAFETY, RECITATION, BLOCKLIST, PROHIBITED_CONTENT, SPII:
// content_filter; STOP with calls: tool_use). A prompt blocked before any
// candidate is an empty response with content_filter.
func Response(r *sdk.GenerateContentResponse) (hooks.ModelResponse, error) {
	if r == nil {
		return hooks.ModelResponse{}, errors.New("genai: no response")
	}
	resp := hooks.ModelResponse{Usage: usage(r.UsageMetadata)}
	if len(r.Candidates) == 0 || r.Candidates[0] == nil {
		if r.PromptFeedback != nil && r.PromptFeedback.BlockReason != "" {
			resp.StopReason = hooks.StopContentFilter
			return resp, nil
		}
		return resp, errors.New("genai: the response has no candidate")
	}
	cand := r.Candidates[0]
	if cand.Content != nil {
		m := assistantMessage(cand.Content.Parts)
		resp.Text, resp.ToolCalls, resp.Reasoning = m.Text, m.ToolCalls, thoughts(cand.Content.Parts)
	}
	resp.StopReason = stopReason(cand.FinishReason, len(resp.ToolCalls) > 0)
	return resp, nil
}

// AssistantMessage is the content that records a reply in the
// conversation: the model's own content (thoughts and thought signatures
// kept, as Gemini asks) carrying the hooks' text and tool calls when a
// hook changed them. r is nil when a hook answered instead of the model:
// the content is then made from resp alone. When a hook changed or
// dropped the reasoning, the thought parts are left out (the hook's text
// is not sent as a thought); signatures on the other parts stay.
func AssistantMessage(r *sdk.GenerateContentResponse, resp hooks.ModelResponse) (*sdk.Content, error) {
	now := hooks.Message{Role: "assistant"}
	if c := candidateContent(r); c != nil {
		now = split(&sdk.Content{Role: sdk.RoleModel, Parts: c.Parts})[0]
	}
	now.Text, now.ToolCalls = resp.Text, resp.ToolCalls
	parts, err := hooks.RebuildMessages([]hooks.Message{now}, func(m hooks.Message) (part, error) { return buildPart(m, nil) })
	if err != nil {
		return nil, fmt.Errorf("genai: %w", err)
	}
	c := assemble(parts)[0]
	if orig := candidateContent(r); orig != nil && resp.Reasoning != thoughts(orig.Parts) {
		c = withoutThoughts(c)
	}
	return c, nil
}

// candidateContent is r's first candidate's content; nil when it has
// none.
func candidateContent(r *sdk.GenerateContentResponse) *sdk.Content {
	if r == nil || len(r.Candidates) == 0 || r.Candidates[0] == nil {
		return nil
	}
	return r.Candidates[0].Content
}

// FunctionResponsePart is the functionResponse part that answers the
// call (its ID and name) with res. The model reads {"output": res.Text},
// or {"output": res.Value} when Text is empty (Value is not sent beside a
// Text: a hook that redacts must redact Text); an error result (a
// refusal, a failed tool) is {"error": ...} instead.
func FunctionResponsePart(call hooks.ToolCall, res hooks.ToolResult) (*sdk.Part, error) {
	var out any = res.Text
	if res.Text == "" && res.Value != nil {
		b, err := json.Marshal(res.Value)
		if err != nil {
			return nil, fmt.Errorf("genai: result of tool call %q: the value does not encode as JSON: %w", call.ID, err)
		}
		if err := json.Unmarshal(b, &out); err != nil {
			return nil, fmt.Errorf("genai: result of tool call %q: %w", call.ID, err)
		}
	}
	key := "output"
	if res.IsError {
		key = "error"
	}
	return &sdk.Part{FunctionResponse: &sdk.FunctionResponse{ID: call.ID, Name: call.Name, Response: map[string]any{key: out}}}, nil
}
