package eino

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
	"github.com/rienda/hooks"
)

// streamCapacity is how many chunks the stream returned to eino buffers
// ahead of its reader: the model is read no further ahead than that.
const streamCapacity = 16

// stream calls the wrapped model's Stream through the hooks
// (hooks.Run.StreamModel) and returns a stream that eino reads while the
// model is still answering: BeforeModelRequest runs before the inner
// stream opens, its text chunks go through the stream hooks
// (hooks.StreamHook) to eino as they come, and AfterModelResponse runs on
// the assembled reply.
//
// The reply's tool calls are sent once the AfterModelResponse hooks have
// run, in one last chunk with the reply's metadata, and not at all when a
// hook ended the run: eino's agent runs what the concatenated stream asks
// for, so a tool call must not reach it before every hook has seen it.
// eino reads the stream only to its end before acting, so this costs no
// time. Text an AfterModelResponse hook rewrites is already delivered: the
// message eino assembles keeps the delivered text (redact with a stream
// hook). A Continue streams the next reply on in the same stream.
//
// A failure (a hook's under FailRun, the model's) is the stream's error.
// The goroutine that feeds the stream ends with it: when the model's
// stream ends, or when eino closes the reader.
func (m *ChatModel) stream(ctx context.Context, input []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	if m.inner == nil {
		return nil, errNilModel
	}
	run, ok := hooks.RunFromContext(ctx)
	if !ok {
		return nil, fmt.Errorf("hooks/eino: chat model: %w", ErrNoRun)
	}
	msgs, err := restoreExchanges(input)
	if err != nil {
		return nil, err
	}
	sr, sw := schema.Pipe[*schema.Message](streamCapacity)
	go func() {
		defer sw.Close()
		if err := m.streamCalls(ctx, run, msgs, sw, opts); err != nil {
			sw.Send(nil, err)
		}
	}()
	return sr, nil
}

// errReaderClosed stops the model's stream when eino closed the reader.
var errReaderClosed = errors.New("hooks/eino: the stream's reader was closed")

// streamCalls streams one model call through the hooks into sw, and one
// more for each Continue.
func (m *ChatModel) streamCalls(ctx context.Context, run *hooks.Run, msgs []*schema.Message, sw *schema.StreamWriter[*schema.Message], opts []model.Option) error {
	send := func(msg *schema.Message) error {
		if closed := sw.Send(msg, nil); closed {
			return errReaderClosed
		}
		return nil
	}
	deliver := func(ch hooks.Chunk) error {
		if ch.Text == "" {
			return nil // tool calls go last, after the hooks (see stream)
		}
		return send(&schema.Message{Role: schema.Assistant, Content: ch.Text})
	}
	for range maxContinues + 1 {
		req, system := toRequest(msgs)
		var got *schema.Message // the model's assembled reply; nil when a hook answered
		reply, err := run.StreamModel(ctx, req, func(c *hooks.Context, req hooks.ModelRequest, yield func(hooks.Chunk) error) (hooks.ModelResponse, error) {
			sent, err := fromRequest(req, system)
			if err != nil {
				return hooks.ModelResponse{}, fmt.Errorf("hooks/eino: chat model: %w", err)
			}
			// c.Context, never c: the model may keep its context past this call.
			if got, err = m.streamInner(m.innerContext(c.Context), sent, yield, opts); err != nil {
				return hooks.ModelResponse{}, err
			}
			return hooks.ModelResponse{Text: messageText(got), ToolCalls: toToolCalls(got.ToolCalls)}, nil
		}, deliver)
		if err != nil {
			return err
		}
		if reply.End != nil {
			return nil // what was delivered stands; no tool call follows
		}
		last, err := lastChunk(reply.Response, got)
		if err != nil {
			return err
		}
		if err := send(last); err != nil {
			return err
		}
		if reply.Continue == "" {
			return nil
		}
		out, err := fromResponse(reply.Response, got)
		if err != nil {
			return err
		}
		msgs = append(msgs[:len(msgs):len(msgs)], out, schema.UserMessage(reply.Continue))
	}
	return fmt.Errorf("hooks/eino: chat model: the hooks asked to continue more than %d times in one call", maxContinues)
}

// streamInner reads the inner model's stream, yielding each chunk's text
// as it comes, and returns the chunks concatenated.
func (m *ChatModel) streamInner(ctx context.Context, msgs []*schema.Message, yield func(hooks.Chunk) error, opts []model.Option) (*schema.Message, error) {
	sr, err := m.inner.Stream(ctx, msgs, opts...)
	if err != nil {
		return nil, err
	}
	defer sr.Close()
	var chunks []*schema.Message
	for {
		chunk, err := sr.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if chunk == nil {
			continue
		}
		chunks = append(chunks, chunk)
		if chunk.Content != "" {
			if err := yield(hooks.Chunk{Text: chunk.Content}); err != nil {
				return nil, err
			}
		}
	}
	if len(chunks) == 0 {
		return nil, errors.New("hooks/eino: chat model: the model's stream was empty")
	}
	return schema.ConcatMessages(chunks)
}

// lastChunk is the chunk that ends a reply in eino's stream: its tool
// calls as the hooks left them (the model's own, or a hook's Respond's),
// and the model's metadata.
func lastChunk(resp hooks.ModelResponse, got *schema.Message) (*schema.Message, error) {
	out := &schema.Message{Role: schema.Assistant}
	if got != nil {
		out.ResponseMeta, out.Extra = got.ResponseMeta, got.Extra
	}
	calls, err := fromToolCalls(resp.ToolCalls, got)
	if err != nil {
		return nil, fmt.Errorf("hooks/eino: chat model: %w", err)
	}
	for i := range calls {
		calls[i].Index = &i
	}
	out.ToolCalls = calls
	return out, nil
}
