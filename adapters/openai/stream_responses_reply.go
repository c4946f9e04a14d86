package openai

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/openai/openai-go/v3/responses"
	"github.com/rienda/hooks"
)

// ResponsesResponse converts a Responses API response into the reply the
// hooks see: the text of its output messages (their refusal when they have
// no text), its function calls (arguments decoded by hooks.ParseArguments),
// usage, and the stop reason (incomplete for max_output_tokens is
// StopMaxTokens, for content_filter StopContentFilter; otherwise StopToolUse
// with function calls, else StopEndTurn). Reasoning is the text of its
// reasoning items: their summaries (asked for with reasoning.summary), or
// their reasoning text where a model sends it.
func ResponsesResponse(r *responses.Response) hooks.ModelResponse {
	var resp hooks.ModelResponse
	if r == nil {
		return resp
	}
	var refusal string
	for _, item := range r.Output {
		switch item.Type {
		case "message":
			for _, c := range item.Content {
				switch c.Type {
				case "output_text":
					resp.Text += c.Text
				case "refusal":
					refusal += c.Refusal
				}
			}
		case "reasoning":
			resp.Reasoning += responsesReasoning(item)
		case "function_call":
			args, _ := hooks.ParseArguments([]byte(item.Arguments.OfString)) // on error the model's text is kept
			resp.ToolCalls = append(resp.ToolCalls, hooks.ToolCall{ID: item.CallID, Name: item.Name, Arguments: args})
		}
	}
	if resp.Text == "" {
		resp.Text = refusal
	}
	resp.Usage = hooks.Usage{InputTokens: r.Usage.InputTokens, OutputTokens: r.Usage.OutputTokens,
		CachedInputTokens: r.Usage.InputTokensDetails.CachedTokens}
	switch {
	case r.Status == "incomplete" && r.IncompleteDetails.Reason == "max_output_tokens":
		resp.StopReason = hooks.StopMaxTokens
	case r.Status == "incomplete" && r.IncompleteDetails.Reason == "content_filter":
		resp.StopReason = hooks.StopContentFilter
	case r.Status == "incomplete":
		resp.StopReason = hooks.StopReason(r.IncompleteDetails.Reason)
	case len(resp.ToolCalls) > 0:
		resp.StopReason = hooks.StopToolUse
	default:
		resp.StopReason = hooks.StopEndTurn
	}
	return resp
}

// ResponsesAssistantItems are the input items that record a reply in the
// conversation (to append to the next call's input): an assistant message
// with the reply's text as the hooks left it, and one function_call item
// per tool call, with the model's own argument text when the call is the
// model's and no hook changed it (r is the response StreamResponse
// returned; nil when a hook answered). Reasoning items are not kept: a
// reasoning model's next call should use PreviousResponseID or
// Conversation.
func ResponsesAssistantItems(r *responses.Response, reply hooks.ModelResponse) ([]responses.ResponseInputItemUnionParam, error) {
	var items []responses.ResponseInputItemUnionParam
	if reply.Text != "" || len(reply.ToolCalls) == 0 {
		items = append(items, responses.ResponseInputItemParamOfMessage(reply.Text, responses.EasyInputMessageRoleAssistant))
	}
	for _, c := range reply.ToolCalls {
		args, ok := modelCallArguments(r, c)
		if !ok {
			b, err := json.Marshal(c.Arguments)
			if err != nil {
				return nil, fmt.Errorf("openai: tool call %q: %w", c.Name, err)
			}
			args = string(b)
		}
		items = append(items, responses.ResponseInputItemParamOfFunctionCall(args, c.ID, c.Name))
	}
	return items, nil
}

// modelCallArguments is the model's argument text for c, if the model made
// c and the hooks left its name and arguments as they were.
func modelCallArguments(r *responses.Response, c hooks.ToolCall) (string, bool) {
	if r == nil {
		return "", false
	}
	for _, item := range r.Output {
		if item.Type != "function_call" || item.CallID != c.ID || item.Name != c.Name {
			continue
		}
		if args, err := hooks.ParseArguments([]byte(item.Arguments.OfString)); err == nil && reflect.DeepEqual(args, c.Arguments) {
			return item.Arguments.OfString, true
		}
	}
	return "", false
}

// responsesReasoning is the text of one reasoning item: its summary parts,
// else its reasoning_text content, joined.
func responsesReasoning(item responses.ResponseOutputItemUnion) string {
	var texts []string
	for _, p := range item.Summary {
		texts = append(texts, p.Text)
	}
	if len(texts) == 0 {
		for _, c := range item.Content {
			if c.Type == "reasoning_text" {
				texts = append(texts, c.Text)
			}
		}
	}
	return strings.Join(texts, "") // as the stream sends it: deltas without separators
}
