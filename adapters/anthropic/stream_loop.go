package anthropic

import (
	"context"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/rienda/hooks"
	"github.com/rienda/hooks/internal/adapt"
)

// RunStream is Run with every model call streamed (hooks.Run.StreamModel):
// the replies' chunks reach deliver as they come, through the stream
// hooks, while the loop, its tools and its Result are Run's.
// Loop.Messages must also be a StreamingMessages (&client.Messages is).
func (l *Loop) RunStream(ctx context.Context, run *hooks.Run, params sdk.MessageNewParams, deliver func(hooks.Chunk) error) (Result, error) {
	r, err := adapt.Drive(ctx, l.setup("RunStream", params, deliver), provider{l}, run, params)
	return Result(r), err
}

// Stream is Call, streamed: the loop's provider is an adapt.Streamer.
func (pr provider) Stream(c *hooks.Context, params sdk.MessageNewParams, req hooks.ModelRequest, yield func(hooks.Chunk) error) (*sdk.Message, hooks.ModelResponse, error) {
	sent, err := pr.sent(params, req)
	if err != nil {
		return nil, hooks.ModelResponse{}, err
	}
	// c.Context, never c: the SDK may keep its context past this call.
	msg, err := streamMessage(pr.l.Messages.(StreamingMessages).NewStreaming(c.Context, sent, pr.l.Options...), yield)
	if err != nil {
		return nil, hooks.ModelResponse{}, err
	}
	resp, err := Response(msg)
	return msg, resp, err
}
