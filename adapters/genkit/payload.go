package genkit

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/firebase/genkit/go/ai"
	"github.com/rienda/hooks"
	"github.com/rienda/hooks/internal/adapt"
)

// toolSpec is a genkit tool definition as the hooks see it.
func toolSpec(t *ai.ToolDefinition) hooks.ToolSpec {
	if t == nil {
		return hooks.ToolSpec{}
	}
	return hooks.ToolSpec{Name: t.Name, Description: t.Description, Schema: adapt.Schema(t.InputSchema)}
}

// buildTool makes the definition for a spec a hook wrote or changed, from
// orig (keeping its output schema and metadata) when it was offered.
func buildTool(orig **ai.ToolDefinition, s hooks.ToolSpec) (*ai.ToolDefinition, error) {
	var t ai.ToolDefinition
	if orig != nil && *orig != nil {
		t = **orig
	}
	t.Name, t.Description, t.InputSchema = s.Name, s.Description, nil
	if len(s.Schema) > 0 {
		if err := json.Unmarshal(s.Schema, &t.InputSchema); err != nil {
			return nil, fmt.Errorf("tool %q: the schema is not a JSON object: %w", s.Name, err)
		}
	}
	return &t, nil
}

// toResponse is genkit's reply as the hooks see it.
func toResponse(got *ai.ModelResponse) hooks.ModelResponse {
	var resp hooks.ModelResponse
	if got.Message != nil {
		resp.Text = got.Message.Text()
		resp.ToolCalls = toToolCalls(got.Message.Content)
		resp.Reasoning = reasoningText(got.Message.Content)
	}
	if u := got.Usage; u != nil {
		resp.Usage = hooks.Usage{InputTokens: int64(u.InputTokens), OutputTokens: int64(u.OutputTokens),
			CachedInputTokens: int64(u.CachedContentTokens)}
	}
	resp.StopReason = stopReason(got.FinishReason, len(resp.ToolCalls) > 0)
	return resp
}

// stopReason maps genkit's finish reason onto the hooks' words. genkit
// has no word for a reply asking for tools (its OpenAI plugin says
// "stop"): a reply with tool requests is tool_use.
func stopReason(r ai.FinishReason, calls bool) hooks.StopReason {
	switch {
	case calls && (r == ai.FinishReasonStop || r == "" || r == ai.FinishReasonOther):
		return hooks.StopToolUse
	case r == ai.FinishReasonStop:
		return hooks.StopEndTurn
	case r == ai.FinishReasonLength:
		return hooks.StopMaxTokens
	case r == ai.FinishReasonBlocked:
		return hooks.StopContentFilter
	}
	return hooks.StopReason(r)
}

// finishReason maps the hooks' stop reason back onto genkit's words, for a
// reply a hook made.
func finishReason(r hooks.StopReason) ai.FinishReason {
	switch r {
	case hooks.StopEndTurn, hooks.StopToolUse, "":
		return ai.FinishReasonStop
	case hooks.StopMaxTokens:
		return ai.FinishReasonLength
	case hooks.StopContentFilter:
		return ai.FinishReasonBlocked
	}
	return ai.FinishReason(r)
}

// usage is the hooks' usage as genkit's; nil when zero.
func usage(u hooks.Usage) *ai.GenerationUsage {
	if u == (hooks.Usage{}) {
		return nil
	}
	return &ai.GenerationUsage{InputTokens: int(u.InputTokens), OutputTokens: int(u.OutputTokens),
		TotalTokens: int(u.InputTokens + u.OutputTokens), CachedContentTokens: int(u.CachedInputTokens)}
}

// reasoningText joins the text of the reasoning parts.
func reasoningText(parts []*ai.Part) string {
	var b strings.Builder
	for _, p := range parts {
		if p != nil && p.IsReasoning() {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// withReasoning is parts with their reasoning parts replaced by one
// holding r (in the first one's place, keeping its metadata: a signature),
// or dropped when r is "".
func withReasoning(parts []*ai.Part, r string) []*ai.Part {
	out := make([]*ai.Part, 0, len(parts)+1)
	placed := r == ""
	for _, p := range parts {
		if p == nil || !p.IsReasoning() {
			out = append(out, p)
			continue
		}
		if !placed {
			c := *p
			c.Text = r
			out = append(out, &c)
			placed = true
		}
	}
	if !placed {
		out = append([]*ai.Part{ai.NewReasoningPart(r, nil)}, out...)
	}
	return out
}
