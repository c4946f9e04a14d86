package anthropic

import (
	"context"
	"errors"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/ssestream"
	"github.com/rienda/hooks"
)

// StreamingMessages is what a streamed call is made with:
// *anthropic.MessageService (&client.Messages) is one.
type StreamingMessages interface {
	NewStreaming(ctx context.Context, params sdk.MessageNewParams, opts ...option.RequestOption) *ssestream.Stream[sdk.MessageStreamEventUnion]
}

// StreamModel makes one streamed Messages call through run's hooks
// (hooks.Run.StreamModel): BeforeModelRequest runs on Request(params)
// before the stream opens, text deltas reach deliver through the stream
// hooks as they come and tool_use input deltas as they are (a delta's
// Index is the content block's), and the wraps and AfterModelResponse run
// on the message the SDK's Accumulate assembled. The message is returned
// for AssistantMessage (nil when a hook answered or ended the run, or the
// call failed). Thinking deltas are Chunk.Reasoning; signatures are not
// delivered (they are kept in the message).
func StreamModel(ctx context.Context, run *hooks.Run, messages StreamingMessages, params sdk.MessageNewParams,
	deliver func(hooks.Chunk) error, opts ...option.RequestOption) (hooks.ModelReply, *sdk.Message, error) {
	if messages == nil || run == nil {
		return hooks.ModelReply{}, nil, errors.New("anthropic: StreamModel needs messages and a run")
	}
	var msg *sdk.Message
	reply, err := run.StreamModel(ctx, Request(params), func(c *hooks.Context, req hooks.ModelRequest, yield func(hooks.Chunk) error) (hooks.ModelResponse, error) {
		msg = nil // a retried attempt starts over
		sent, err := Params(params, req)
		if err != nil {
			return hooks.ModelResponse{}, err
		}
		// c.Context, never c: the SDK may keep its context past this call.
		got, err := streamMessage(messages.NewStreaming(c.Context, sent, opts...), yield)
		if err != nil {
			return hooks.ModelResponse{}, err
		}
		msg = got
		return Response(msg)
	}, deliver)
	if err != nil || reply.End != nil {
		return reply, nil, err
	}
	return reply, msg, nil
}

// streamMessage reads stream to its end, accumulating the message and
// yielding its text and tool input deltas; it stops and closes the stream
// when yield says so.
func streamMessage(stream *ssestream.Stream[sdk.MessageStreamEventUnion], yield func(hooks.Chunk) error) (*sdk.Message, error) {
	defer stream.Close()
	msg := new(sdk.Message)
	for stream.Next() {
		ev := stream.Current()
		if err := msg.Accumulate(ev); err != nil {
			return nil, err
		}
		if err := yieldEvent(ev, yield); err != nil {
			return nil, err
		}
	}
	if err := stream.Err(); err != nil {
		return nil, err
	}
	return msg, nil
}

// yieldEvent passes one event's text, thinking or tool_use piece to yield.
func yieldEvent(ev sdk.MessageStreamEventUnion, yield func(hooks.Chunk) error) error {
	switch ev.Type {
	case "content_block_start":
		if b := ev.ContentBlock; b.Type == "tool_use" {
			return yield(hooks.Chunk{ToolCall: &hooks.ToolCallDelta{Index: int(ev.Index), ID: b.ID, Name: b.Name}})
		}
	case "content_block_delta":
		switch d := ev.Delta; d.Type {
		case "text_delta":
			if d.Text != "" {
				return yield(hooks.Chunk{Text: d.Text})
			}
		case "thinking_delta":
			if d.Thinking != "" {
				return yield(hooks.Chunk{Reasoning: d.Thinking})
			}
		case "input_json_delta":
			if d.PartialJSON != "" {
				return yield(hooks.Chunk{ToolCall: &hooks.ToolCallDelta{Index: int(ev.Index), Arguments: d.PartialJSON}})
			}
		}
	}
	return nil
}
