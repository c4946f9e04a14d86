package genkit

import (
	"context"
	"errors"
	"fmt"

	"github.com/firebase/genkit/go/ai"
	"github.com/rienda/hooks"
)

// streamOnce runs one streamed model call through the hooks
// (hooks.Run.StreamModel): the model's text reaches cb chunk by chunk as
// it comes, through the stream hooks (a redaction holds back what it
// must); tool requests and reasoning reach cb in one last chunk, as the
// AfterModelResponse hooks left them, since no stream hook reads them.
// genkit runs the tools of the returned response, not of the chunks.
func (m *middleware) streamOnce(ctx context.Context, run *hooks.Run, req *ai.ModelRequest, cb ai.ModelStreamCallback, next ai.ModelFunc) (*ai.ModelResponse, string, error) {
	hreq, system := m.request(req)
	send := func(parts []*ai.Part) error {
		return cb(ctx, &ai.ModelResponseChunk{Role: ai.RoleModel, Content: parts})
	}
	deliver := func(ch hooks.Chunk) error {
		if ch.Text == "" {
			return nil // tool requests go last, after the hooks
		}
		return send([]*ai.Part{ai.NewTextPart(ch.Text)})
	}
	var got *ai.ModelResponse // the model's own reply; nil when a hook answered
	reply, err := run.StreamModel(ctx, hreq, func(c *hooks.Context, hr hooks.ModelRequest, yield func(hooks.Chunk) error) (hooks.ModelResponse, error) {
		sent, fn, err := m.prepare(req, hreq, hr, system, next)
		if err != nil {
			return hooks.ModelResponse{}, fmt.Errorf("hooks/genkit: model: %w", err)
		}
		inner := func(_ context.Context, chunk *ai.ModelResponseChunk) error {
			if chunk == nil {
				return nil
			}
			for _, p := range chunk.Content {
				if p != nil && p.IsText() && p.Text != "" {
					if err := yield(hooks.Chunk{Text: p.Text}); err != nil {
						return err
					}
				}
			}
			return nil
		}
		// c.Context, never c: the model may keep its context past this call.
		if got, err = fn(c.Context, sent, inner); err != nil {
			return hooks.ModelResponse{}, err
		}
		if got == nil {
			return hooks.ModelResponse{}, errors.New("hooks/genkit: model: the model returned no response")
		}
		return toResponse(got), nil
	}, deliver)
	if err != nil {
		return nil, "", err
	}
	if reply.End != nil {
		out := endResponse(reply.End, got, req)
		if reply.Response.Text == "" { // nothing was delivered: the caller reads End.Output
			if err := send(out.Message.Content); err != nil {
				return nil, "", err
			}
		}
		return out, "", nil
	}
	out, err := fromResponse(reply.Response, got, req)
	if err != nil {
		return nil, "", err
	}
	if tail := tailParts(out.Message, got == nil); len(tail) > 0 {
		if err := send(tail); err != nil {
			return nil, "", err
		}
	}
	return out, reply.Continue, nil
}

// tailParts are what the last chunk carries: the reply's parts that are
// not text (tool requests, reasoning, media), and its text too when a
// hook answered (no model streamed it).
func tailParts(msg *ai.Message, answered bool) []*ai.Part {
	if msg == nil {
		return nil
	}
	var tail []*ai.Part
	for _, p := range msg.Content {
		if p != nil && (answered || !p.IsText()) {
			tail = append(tail, p)
		}
	}
	return tail
}
