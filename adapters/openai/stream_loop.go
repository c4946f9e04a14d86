package openai

import (
	"context"

	oai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/rienda/hooks"
	"github.com/rienda/hooks/internal/adapt"
)

// RunStream is Run with every model call streamed (hooks.Run.StreamModel):
// the replies' chunks reach deliver as they come, through the stream
// hooks, while the loop, its tools and its Result are Run's.
// Loop.Completions must also be a StreamingCompletions
// (&client.Chat.Completions is).
func (l *Loop) RunStream(ctx context.Context, run *hooks.Run, params oai.ChatCompletionNewParams, deliver func(hooks.Chunk) error) (Result, error) {
	r, err := adapt.Drive(ctx, l.setup("RunStream", params, deliver), provider{l}, run, params)
	return Result(r), err
}

// Stream is Call, streamed: the loop's provider is an adapt.Streamer.
func (pr provider) Stream(c *hooks.Context, params oai.ChatCompletionNewParams, req hooks.ModelRequest, yield func(hooks.Chunk) error) (*oai.ChatCompletion, hooks.ModelResponse, error) {
	sent, err := pr.sent(params, req)
	if err != nil {
		return nil, hooks.ModelResponse{}, err
	}
	if param.IsOmitted(sent.StreamOptions.IncludeUsage) {
		sent.StreamOptions.IncludeUsage = oai.Bool(true)
	}
	// c.Context, never c: the SDK may keep its context past this call.
	return streamChat(pr.l.Completions.(StreamingCompletions).NewStreaming(c.Context, sent, pr.l.Options...), yield)
}
