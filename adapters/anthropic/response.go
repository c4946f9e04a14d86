package anthropic

import (
	"encoding/json"
	"errors"
	"fmt"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/rienda/hooks"
)

// Response converts the model's message into the response the hooks see:
// its text blocks (joined) and its tool_use blocks, with input decoded by
// hooks.ParseArguments; its thinking blocks' text is Reasoning (redacted
// thinking is encrypted: not shown). Server tool blocks are not shown.
// Usage counts every input token in InputTokens (cache reads and writes
// included, which the API counts apart); StopReason is the stop_reason in
// the hooks' words (refusal: content_filter).
func Response(msg *sdk.Message) (hooks.ModelResponse, error) {
	if msg == nil {
		return hooks.ModelResponse{}, errors.New("anthropic: no message")
	}
	resp := hooks.ModelResponse{Usage: usage(msg.Usage), StopReason: stopReason(msg.StopReason)}
	for _, b := range msg.Content {
		switch b.Type {
		case "text":
			resp.Text += b.Text
		case "thinking":
			resp.Reasoning += b.Thinking
		case "tool_use":
			args, _ := hooks.ParseArguments(b.Input) // on error the model's text is kept
			resp.ToolCalls = append(resp.ToolCalls, hooks.ToolCall{ID: b.ID, Name: b.Name, Arguments: args})
		}
	}
	return resp, nil
}

// AssistantMessage is the message that records a reply in the
// conversation: the model's own message (ToParam: thinking, signatures and
// the model's input JSON kept) carrying the hooks' text when a hook
// rewrote it. msg is nil when a hook answered instead of the model: the
// message is then made from resp alone.
//
// Thinking blocks are sent back intact, signatures included, when no hook
// changed the reasoning (resp.Reasoning is the text of msg's thinking
// blocks). When a hook changed or dropped it, the thinking blocks are
// left out: a block with altered text fails its signature and an unsigned
// one cannot be made, and the model must not read reasoning a hook took
// away. The hook's text is not sent either. With extended thinking on, the
// API wants the thinking of a tool-use turn back: a hook that changes the
// reasoning of a reply with tool calls makes the next call of the loop
// fail, so redact reasoning on final replies (or in the stream) only.
func AssistantMessage(msg *sdk.Message, resp hooks.ModelResponse) (sdk.MessageParam, error) {
	now := hooks.Message{Role: "assistant"}
	if msg != nil {
		orig := msg.ToParam()
		now = split(&orig)[0]
	}
	now.Text, now.ToolCalls = resp.Text, resp.ToolCalls
	parts, err := hooks.RebuildMessages([]hooks.Message{now}, buildPart)
	if err != nil {
		return sdk.MessageParam{}, fmt.Errorf("anthropic: %w", err)
	}
	m := assemble(parts)[0]
	if resp.Reasoning != thinking(msg) {
		m = withoutThinking(m)
	}
	return m, nil
}

// ToolResultBlock is the tool_result block that answers the call callID
// with res: is_error set for an error result (a refusal, a failed tool).
// The model reads res.Text, or the JSON of res.Value when Text is empty
// (Value is not sent otherwise: a tool that fills both says the same thing
// twice, and a hook that redacts must redact Text).
func ToolResultBlock(callID string, res hooks.ToolResult) (sdk.ContentBlockParamUnion, error) {
	text, err := ResultText(res)
	if err != nil {
		return sdk.ContentBlockParamUnion{}, fmt.Errorf("anthropic: result of tool call %q: %w", callID, err)
	}
	r := sdk.ToolResultBlockParam{ToolUseID: callID, IsError: isErrorOpt(res.IsError)}
	if text != "" {
		r.Content = []sdk.ToolResultBlockParamContentUnion{newResultText(text)}
	}
	return sdk.ContentBlockParamUnion{OfToolResult: &r}, nil
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
