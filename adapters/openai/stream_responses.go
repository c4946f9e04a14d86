package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/openai/openai-go/v3/responses"
	"github.com/rienda/hooks"
)

// ResponsesStreaming is what a streamed Responses API call is made with:
// *responses.ResponseService (&client.Responses) is one.
type ResponsesStreaming interface {
	NewStreaming(ctx context.Context, body responses.ResponseNewParams, opts ...option.RequestOption) *ssestream.Stream[responses.ResponseStreamEventUnion]
}

// StreamResponse makes one streamed Responses API call through run's
// hooks (hooks.Run.StreamModel): BeforeModelRequest runs on
// ResponsesRequest(params) before the stream opens, output text (and
// refusal) deltas reach deliver through the stream hooks as they come,
// function calls as tool-call deltas (Index is the output item's), and the
// wraps and AfterModelResponse run on the response the stream completed
// with. That response is returned for ResponsesAssistantItems (nil when a
// hook answered or ended the run, or the call failed).
//
// The conversation is params.Input; a stored conversation
// (PreviousResponseID, Conversation) is not shown to the hooks, only the
// input this call adds. Tools are not mapped: hooks see none, and a hook
// that sets Tools fails the call rather than be ignored.
func StreamResponse(ctx context.Context, run *hooks.Run, service ResponsesStreaming, params responses.ResponseNewParams,
	deliver func(hooks.Chunk) error, opts ...option.RequestOption) (hooks.ModelReply, *responses.Response, error) {
	if service == nil || run == nil {
		return hooks.ModelReply{}, nil, errors.New("openai: StreamResponse needs the responses service and a run")
	}
	var done *responses.Response
	reply, err := run.StreamModel(ctx, ResponsesRequest(params), func(c *hooks.Context, req hooks.ModelRequest, yield func(hooks.Chunk) error) (hooks.ModelResponse, error) {
		done = nil // a retried attempt starts over
		sent, err := ResponsesParams(params, req)
		if err != nil {
			return hooks.ModelResponse{}, err
		}
		// c.Context, never c: the SDK may keep its context past this call.
		if done, err = streamResponse(service.NewStreaming(c.Context, sent, opts...), yield); err != nil {
			return hooks.ModelResponse{}, err
		}
		return ResponsesResponse(done), nil
	}, deliver)
	if err != nil || reply.End != nil {
		return reply, nil, err
	}
	return reply, done, nil
}

// streamResponse reads stream to its end, yielding text and function-call
// deltas, and returns the response its last event carries.
func streamResponse(stream *ssestream.Stream[responses.ResponseStreamEventUnion], yield func(hooks.Chunk) error) (*responses.Response, error) {
	defer stream.Close()
	var done *responses.Response
	for stream.Next() {
		ev := stream.Current()
		var ch hooks.Chunk
		switch ev.Type {
		case "response.output_text.delta", "response.refusal.delta":
			ch.Text = ev.Delta
		case "response.reasoning_summary_text.delta", "response.reasoning_text.delta":
			ch.Reasoning = ev.Delta
		case "response.output_item.added":
			if ev.Item.Type == "function_call" {
				ch.ToolCall = &hooks.ToolCallDelta{Index: int(ev.OutputIndex), ID: ev.Item.CallID, Name: ev.Item.Name}
			}
		case "response.function_call_arguments.delta":
			ch.ToolCall = &hooks.ToolCallDelta{Index: int(ev.OutputIndex), Arguments: ev.Delta}
		case "response.completed", "response.incomplete":
			r := ev.Response
			done = &r
		case "response.failed":
			return nil, fmt.Errorf("openai: the response failed: %s", ev.Response.Error.Message)
		case "error":
			return nil, fmt.Errorf("openai: the stream failed: %s (%s)", ev.Message, ev.Code)
		}
		if ch.Text != "" || ch.ToolCall != nil || ch.Reasoning != "" {
			if err := yield(ch); err != nil {
				return nil, err
			}
		}
	}
	if err := stream.Err(); err != nil {
		return nil, err
	}
	if done == nil {
		return nil, errors.New("openai: the stream ended without a completed response")
	}
	return done, nil
}

// ResponsesRequest converts Responses API params into the request the
// hooks see: Instructions is System, Model the model, and each input item
// a message that keeps its SDK value (sent back as it was unless a hook
// changes it). Messages are their role and text; a function call is an
// assistant message with a tool call, its output a tool message; an item
// of another kind is an empty assistant message, sent as it was.
// ToolChoice is tool_choice; Settings are temperature, top_p,
// max_output_tokens and the params' extra fields as Provider.
func ResponsesRequest(params responses.ResponseNewParams) hooks.ModelRequest {
	req := hooks.ModelRequest{System: params.Instructions.Value, Model: string(params.Model),
		ToolChoice: responsesToolChoice(params.ToolChoice), Settings: responsesSettings(params)}
	if s := params.Input.OfString; s.Valid() {
		item := responses.ResponseInputItemParamOfMessage(s.Value, responses.EasyInputMessageRoleUser)
		req.Messages = []hooks.Message{hooks.Message{Role: "user", Text: s.Value}.WithRaw([]responses.ResponseInputItemUnionParam{item})}
		return req
	}
	for _, item := range params.Input.OfInputItemList {
		req.Messages = append(req.Messages, itemMessage(item).WithRaw([]responses.ResponseInputItemUnionParam{item}))
	}
	return req
}

// itemMessage is what the hooks see of one input item.
func itemMessage(item responses.ResponseInputItemUnionParam) hooks.Message {
	switch {
	case item.OfMessage != nil:
		m := item.OfMessage
		if m.Content.OfString.Valid() {
			return hooks.Message{Role: string(m.Role), Text: m.Content.OfString.Value}
		}
		return hooks.Message{Role: string(m.Role), Text: inputText(m.Content.OfInputItemContentList)}
	case item.OfInputMessage != nil:
		return hooks.Message{Role: item.OfInputMessage.Role, Text: inputText(item.OfInputMessage.Content)}
	case item.OfOutputMessage != nil:
		var texts []string
		for _, c := range item.OfOutputMessage.Content {
			if c.OfOutputText != nil {
				texts = append(texts, c.OfOutputText.Text)
			} else if c.OfRefusal != nil {
				texts = append(texts, c.OfRefusal.Refusal)
			}
		}
		return hooks.Message{Role: "assistant", Text: strings.Join(texts, "")}
	case item.OfFunctionCall != nil:
		fc := item.OfFunctionCall
		args, _ := hooks.ParseArguments([]byte(fc.Arguments)) // on error the model's text is kept
		return hooks.Message{Role: "assistant", ToolCalls: []hooks.ToolCall{{ID: fc.CallID, Name: fc.Name, Arguments: args}}}
	case item.OfFunctionCallOutput != nil:
		out := item.OfFunctionCallOutput
		return hooks.Message{Role: "tool", ToolCallID: out.CallID.Value, Text: out.Output.OfString.Value}
	}
	return hooks.Message{Role: "assistant"}
}

// inputText joins the text parts of an input message.
func inputText(parts responses.ResponseInputMessageContentListParam) string {
	var texts []string
	for _, p := range parts {
		if p.OfInputText != nil {
			texts = append(texts, p.OfInputText.Text)
		}
	}
	return strings.Join(texts, "")
}

// ResponsesParams returns base carrying the request the hooks left:
// Instructions, Model, and the input items (an item no hook changed is
// base's own; the others are built from the hooks' messages). An input no
// hook changed is sent as it was. ToolChoice and Settings are sent as
// Params sends them for chat (max_output_tokens); a hook that sets
// Settings.Stop fails the call, since the API has no stop sequences.
func ResponsesParams(base responses.ResponseNewParams, req hooks.ModelRequest) (responses.ResponseNewParams, error) {
	if req.Tools != nil {
		return base, errors.New("openai: a hook set the tools of a Responses API call, which this adapter does not map yet")
	}
	out := base
	if req.System != base.Instructions.Value {
		out.Instructions = param.NewOpt(req.System)
	}
	if req.Model != "" {
		out.Model = req.Model
	}
	if err := withResponsesChoice(&out, base, req); err != nil {
		return base, err
	}
	if unchanged(ResponsesRequest(base).Messages, req.Messages) {
		return out, nil
	}
	groups, err := hooks.RebuildMessages(req.Messages, buildItems)
	if err != nil {
		return base, fmt.Errorf("openai: %w", err)
	}
	var items responses.ResponseInputParam
	for _, g := range groups {
		items = append(items, g...)
	}
	out.Input = responses.ResponseNewParamsInputUnion{OfInputItemList: items}
	return out, nil
}

// unchanged reports whether the hooks left the messages as they were.
func unchanged(was, now []hooks.Message) bool {
	if len(was) != len(now) {
		return false
	}
	for _, m := range now {
		if _, same := m.Raw(); !same {
			return false
		}
	}
	return true
}

// buildItems makes the input items of a message a hook wrote or changed.
func buildItems(m hooks.Message) ([]responses.ResponseInputItemUnionParam, error) {
	switch m.Role {
	case "tool":
		item := responses.ResponseInputItemParamOfFunctionCallOutput(m.Text)
		item.OfFunctionCallOutput.CallID = param.NewOpt(m.ToolCallID)
		return []responses.ResponseInputItemUnionParam{item}, nil
	case "user", "system", "developer", "assistant":
	default:
		return nil, fmt.Errorf("role %q has no Responses API item", m.Role)
	}
	var items []responses.ResponseInputItemUnionParam
	if m.Text != "" || len(m.ToolCalls) == 0 {
		items = append(items, responses.ResponseInputItemParamOfMessage(m.Text, responses.EasyInputMessageRole(m.Role)))
	}
	for _, c := range m.ToolCalls {
		args, err := json.Marshal(c.Arguments)
		if err != nil {
			return nil, fmt.Errorf("tool call %q: %w", c.Name, err)
		}
		items = append(items, responses.ResponseInputItemParamOfFunctionCall(string(args), c.ID, c.Name))
	}
	return items, nil
}
