package openai

import (
	"encoding/json"
	"errors"
	"fmt"

	oai "github.com/openai/openai-go/v3"
	"github.com/rienda/hooks"
)

// ErrorPrefix starts the text of a tool message made from an error result
// (a refusal, a tool that failed): the chat completions API has no error
// flag on tool messages, so the model reads "Error: <text>".
const ErrorPrefix = "Error: "

// Response converts the completion's first choice into the response the
// hooks see: its text (its refusal when it has no text) and its tool
// calls, with arguments decoded by hooks.ParseArguments (a model's broken
// JSON shows as hooks.InvalidArgumentsKey). A custom tool call shows its
// input under CustomInputKey. Usage is the completion's (cached prompt
// tokens included in InputTokens, as the API counts them); StopReason is
// the finish_reason in the hooks' words (stop: end_turn, tool_calls:
// tool_use, length: max_tokens). Reasoning is the message's
// reasoning_content (or reasoning), which OpenAI-compatible servers of
// reasoning models send; the official API sends none.
func Response(c *oai.ChatCompletion) (hooks.ModelResponse, error) {
	if c == nil || len(c.Choices) == 0 {
		return hooks.ModelResponse{}, errors.New("openai: the completion has no choices")
	}
	msg := c.Choices[0].Message
	resp := hooks.ModelResponse{Text: msg.Content, Usage: usage(c.Usage), StopReason: stopReason(c.Choices[0].FinishReason)}
	if resp.Text == "" {
		resp.Text = msg.Refusal
	}
	resp.Reasoning = extraReasoning(msg.JSON.ExtraFields)
	for _, tc := range msg.ToolCalls {
		call := hooks.ToolCall{ID: tc.ID, Name: tc.Function.Name}
		if tc.Type == "custom" {
			call.Name, call.Arguments = tc.Custom.Name, map[string]any{CustomInputKey: tc.Custom.Input}
		} else {
			call.Arguments, _ = hooks.ParseArguments([]byte(tc.Function.Arguments)) // on error the model's text is kept
		}
		resp.ToolCalls = append(resp.ToolCalls, call)
	}
	return resp, nil
}

// AssistantMessage is the message that records a reply in the
// conversation: the completion's own message (ToParam, with the model's
// argument text) carrying the hooks' text when a hook rewrote it. c is nil
// when a hook answered instead of the model: the message is then made
// from resp alone.
func AssistantMessage(c *oai.ChatCompletion, resp hooks.ModelResponse) (oai.ChatCompletionMessageParamUnion, error) {
	now := hooks.Message{Role: "assistant"}
	if c != nil && len(c.Choices) > 0 {
		now = message(c.Choices[0].Message.ToParam())
	}
	now.Text, now.ToolCalls = resp.Text, resp.ToolCalls
	msgs, err := hooks.RebuildMessages([]hooks.Message{now}, buildMessage)
	if err != nil {
		return oai.ChatCompletionMessageParamUnion{}, fmt.Errorf("openai: %w", err)
	}
	return msgs[0], nil
}

// ToolMessage is the tool message that answers the call callID with res.
// The model reads res.Text, or the JSON of res.Value when Text is empty
// (Value is not sent otherwise: a tool that fills both says the same thing
// twice, and a hook that redacts must redact Text). An error result (a
// refusal, a failed tool) reads ErrorPrefix + text.
func ToolMessage(callID string, res hooks.ToolResult) (oai.ChatCompletionMessageParamUnion, error) {
	text, err := ResultText(res)
	if err != nil {
		return oai.ChatCompletionMessageParamUnion{}, fmt.Errorf("openai: result of tool call %q: %w", callID, err)
	}
	if res.IsError {
		text = ErrorPrefix + text
	}
	return oai.ToolMessage(text, callID), nil
}

// ResultText is the text a model reads for res: its Text, or the JSON of
// its Value when Text is empty.
func ResultText(res hooks.ToolResult) (string, error) {
	if res.Text != "" || res.Value == nil {
		return res.Text, nil
	}
	b, err := json.Marshal(res.Value)
	if err != nil {
		return "", fmt.Errorf("value does not encode as JSON: %w", err)
	}
	return string(b), nil
}
