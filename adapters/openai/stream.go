package openai

import (
	"context"
	"errors"
	"strings"

	oai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/rienda/hooks"
)

// StreamingCompletions is what a streamed call is made with:
// *openai.ChatCompletionService (&client.Chat.Completions) is one.
type StreamingCompletions interface {
	NewStreaming(ctx context.Context, body oai.ChatCompletionNewParams, opts ...option.RequestOption) *ssestream.Stream[oai.ChatCompletionChunk]
}

// StreamModel makes one streamed chat completion through run's hooks
// (hooks.Run.StreamModel): BeforeModelRequest runs on Request(params)
// before the stream opens, the completion's deltas reach deliver as they
// come (text through the stream hooks, tool-call deltas as they are), and
// the wraps and AfterModelResponse run on the completion the SDK's
// accumulator assembled. The completion is returned for AssistantMessage
// (nil when a hook answered or ended the run, or the call failed).
//
// A stream whose usage is not asked for (params.StreamOptions.IncludeUsage
// unset) asks for it, so that hooks see what the call cost as they do
// without streaming. Only the first choice is streamed to deliver.
func StreamModel(ctx context.Context, run *hooks.Run, completions StreamingCompletions, params oai.ChatCompletionNewParams,
	deliver func(hooks.Chunk) error, opts ...option.RequestOption) (hooks.ModelReply, *oai.ChatCompletion, error) {
	if completions == nil || run == nil {
		return hooks.ModelReply{}, nil, errors.New("openai: StreamModel needs completions and a run")
	}
	var completion *oai.ChatCompletion
	reply, err := run.StreamModel(ctx, Request(params), func(c *hooks.Context, req hooks.ModelRequest, yield func(hooks.Chunk) error) (hooks.ModelResponse, error) {
		completion = nil // a retried attempt starts over
		sent, err := Params(params, req)
		if err != nil {
			return hooks.ModelResponse{}, err
		}
		if param.IsOmitted(sent.StreamOptions.IncludeUsage) {
			sent.StreamOptions.IncludeUsage = oai.Bool(true)
		}
		// c.Context, never c: the SDK may keep its context past this call.
		var resp hooks.ModelResponse
		completion, resp, err = streamChat(completions.NewStreaming(c.Context, sent, opts...), yield)
		return resp, err
	}, deliver)
	if err != nil || reply.End != nil {
		return reply, nil, err
	}
	return reply, completion, nil
}

// streamChat reads stream to its end (streamCompletion) and returns the
// completion it assembled and the reply the hooks see, with the
// reasoning the deltas carried (the SDK's accumulator keeps none).
func streamChat(stream *ssestream.Stream[oai.ChatCompletionChunk], yield func(hooks.Chunk) error) (*oai.ChatCompletion, hooks.ModelResponse, error) {
	acc, reasoning, err := streamCompletion(stream, yield)
	if err != nil {
		return nil, hooks.ModelResponse{}, err
	}
	resp, err := Response(&acc.ChatCompletion)
	if err != nil {
		return nil, resp, err
	}
	if resp.Reasoning == "" {
		resp.Reasoning = reasoning
	}
	return &acc.ChatCompletion, resp, nil
}

// streamCompletion reads stream to its end, accumulating it and yielding
// the first choice's deltas; it stops and closes the stream when yield
// says so. reasoning is the first choice's reasoning deltas joined.
func streamCompletion(stream *ssestream.Stream[oai.ChatCompletionChunk], yield func(hooks.Chunk) error) (*oai.ChatCompletionAccumulator, string, error) {
	defer stream.Close()
	acc := new(oai.ChatCompletionAccumulator)
	var reasoning strings.Builder
	for stream.Next() {
		chunk := stream.Current()
		acc.AddChunk(chunk)
		if err := yieldChunk(chunk, yield, &reasoning); err != nil {
			return acc, reasoning.String(), err
		}
	}
	return acc, reasoning.String(), stream.Err()
}

// yieldChunk passes one chunk's deltas of the first choice to yield: its
// reasoning (added to reasoning too), its text (or refusal), then each
// tool-call delta.
func yieldChunk(chunk oai.ChatCompletionChunk, yield func(hooks.Chunk) error, reasoning *strings.Builder) error {
	for _, choice := range chunk.Choices {
		if choice.Index != 0 {
			continue
		}
		d := choice.Delta
		if r := extraReasoning(d.JSON.ExtraFields); r != "" {
			reasoning.WriteString(r)
			if err := yield(hooks.Chunk{Reasoning: r}); err != nil {
				return err
			}
		}
		text := d.Content
		if text == "" {
			text = d.Refusal
		}
		if text != "" {
			if err := yield(hooks.Chunk{Text: text}); err != nil {
				return err
			}
		}
		for _, tc := range d.ToolCalls {
			delta := hooks.ToolCallDelta{Index: int(tc.Index), ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments}
			if err := yield(hooks.Chunk{ToolCall: &delta}); err != nil {
				return err
			}
		}
	}
	return nil
}
