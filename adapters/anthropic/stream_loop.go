package anthropic

import (
	"context"
	"errors"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/rienda/hooks"
	"github.com/rienda/hooks/internal/adapt"
)

// RunStream is Run with every model call streamed (hooks.Run.StreamModel):
// the replies' chunks reach deliver as they come, through the stream
// hooks, while the loop, its tools and its Result are Run's.
// Loop.Messages must also be a StreamingMessages (&client.Messages is).
func (l *Loop) RunStream(ctx context.Context, run *hooks.Run, params sdk.MessageNewParams, deliver func(hooks.Chunk) error) (Result, error) {
	if _, ok := l.Messages.(StreamingMessages); !ok {
		return Result{}, errors.New("anthropic: Loop.Messages cannot stream (it has no NewStreaming)")
	}
	if deliver == nil {
		return Result{}, errors.New("anthropic: Loop.RunStream needs a deliver function")
	}
	if run == nil {
		return Result{}, errors.New("anthropic: Loop.RunStream needs a run (hooks.Chain.Start)")
	}
	if err := l.check(params); err != nil {
		return Result{}, err
	}
	limit := l.MaxTurns
	if limit <= 0 {
		limit = DefaultMaxTurns
	}
	cfg := adapt.Loop{Tools: adapt.Lookup(l.Tools, l.Handlers), MaxTurns: limit, Parallel: l.Parallel, IDPrefix: "toolu_hooks_", Deliver: deliver}
	r, err := adapt.Run(ctx, cfg, provider{l}, run, params, ErrMaxTurns)
	return Result(r), err
}

// Stream is Call, streamed: the loop's provider is an adapt.Streamer.
func (pr provider) Stream(c *hooks.Context, params sdk.MessageNewParams, req hooks.ModelRequest, yield func(hooks.Chunk) error) (*sdk.Message, hooks.ModelResponse, error) {
	sent, err := Params(params, req)
	if err != nil {
		return nil, hooks.ModelResponse{}, err
	}
	if pr.l.OneSystemBlock {
		sent.System = oneSystemBlock(sent.System)
	}
	// c.Context, never c: the SDK may keep its context past this call.
	msg, err := streamMessage(pr.l.Messages.(StreamingMessages).NewStreaming(c.Context, sent, pr.l.Options...), yield)
	if err != nil {
		return nil, hooks.ModelResponse{}, err
	}
	resp, err := Response(msg)
	return msg, resp, err
}
