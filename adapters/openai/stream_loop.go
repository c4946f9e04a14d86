package openai

import (
	"context"
	"errors"

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
	if _, ok := l.Completions.(StreamingCompletions); !ok {
		return Result{}, errors.New("openai: Loop.Completions cannot stream (it has no NewStreaming)")
	}
	if deliver == nil {
		return Result{}, errors.New("openai: Loop.RunStream needs a deliver function")
	}
	if run == nil {
		return Result{}, errors.New("openai: Loop.RunStream needs a run (hooks.Chain.Start)")
	}
	if err := l.check(params); err != nil {
		return Result{}, err
	}
	limit := l.MaxTurns
	if limit <= 0 {
		limit = DefaultMaxTurns
	}
	cfg := adapt.Loop{Tools: adapt.Lookup(l.Tools, l.Handlers), MaxTurns: limit, Parallel: l.Parallel, IDPrefix: "call_hooks_", Deliver: deliver}
	r, err := adapt.Run(ctx, cfg, provider{l}, run, params, ErrMaxTurns)
	return Result(r), err
}

// Stream is Call, streamed: the loop's provider is an adapt.Streamer.
func (pr provider) Stream(c *hooks.Context, params oai.ChatCompletionNewParams, req hooks.ModelRequest, yield func(hooks.Chunk) error) (*oai.ChatCompletion, hooks.ModelResponse, error) {
	sent, err := Params(params, req)
	if err != nil {
		return nil, hooks.ModelResponse{}, err
	}
	if pr.l.OneSystemMessage {
		sent.Messages = oneSystemMessage(sent.Messages)
	}
	if param.IsOmitted(sent.StreamOptions.IncludeUsage) {
		sent.StreamOptions.IncludeUsage = oai.Bool(true)
	}
	// c.Context, never c: the SDK may keep its context past this call.
	return streamChat(pr.l.Completions.(StreamingCompletions).NewStreaming(c.Context, sent, pr.l.Options...), yield)
}
