package eino

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"

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
// hook). A Continue streams the next reply on in the same stream: eino's
// history is the stream concatenated, so the draft and the next reply are
// one message there, without the Continue's user message (Generate keeps
// the exchange).
//
// A failure before the model's stream opened (a hook's under FailRun, the
// model's refusing to open) is Stream's error, and the hooks' request is
// settled when Stream returns; a failure after that is the stream's error.
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
	s := &einoStream{m: m, run: run, of: newOffer(m.tools, opts), opts: opts, sw: sw, opened: make(chan error, 1)}
	go func() {
		defer sw.Close()
		err := s.calls(ctx, msgs)
		if s.open(err) { // it ended before the model's stream opened: Stream returns err
			return
		}
		if err != nil {
			sw.Send(nil, err)
		}
	}()
	if err := <-s.opened; err != nil {
		return nil, err
	}
	return sr, nil
}

// einoStream is one Stream call: the goroutine that feeds eino's reader
// tells Stream once when the model's stream is open (or the call is over
// before that), so that a failure before the first chunk (a hook's, the
// model's) is Stream's error and the hooks' request is settled when Stream
// returns.
type einoStream struct {
	m      *ChatModel
	run    *hooks.Run
	of     offer
	opts   []model.Option
	sw     *schema.StreamWriter[*schema.Message]
	opened chan error
	once   sync.Once // opened is sent to once (a wrap may call the model from another goroutine)
}

// open tells Stream, once, that the model's stream is open (err nil) or
// that the call ended first; it reports whether this was the first time.
func (s *einoStream) open(err error) (first bool) {
	s.once.Do(func() {
		first = true
		s.opened <- err
	})
	return first
}

// errReaderClosed stops the model's stream when eino closed the reader.
var errReaderClosed = errors.New("hooks/eino: the stream's reader was closed")

// calls streams one model call through the hooks into eino's stream,
// and one more for each Continue.
func (s *einoStream) calls(ctx context.Context, msgs []*schema.Message) error {
	send := func(msg *schema.Message) error {
		if closed := s.sw.Send(msg, nil); closed {
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
		s.of.fill(&req)
		var got *schema.Message // the model's assembled reply; nil when a hook answered
		reply, err := s.run.StreamModel(ctx, req, func(c *hooks.Context, req hooks.ModelRequest, yield func(hooks.Chunk) error) (hooks.ModelResponse, error) {
			var err error
			// c.Context, never c: the model may keep its context past this call.
			if got, err = s.model(c.Context, req, system, yield); err != nil {
				return hooks.ModelResponse{}, err
			}
			return toResponse(got), nil
		}, deliver)
		if err != nil {
			return err
		}
		s.open(nil) // a hook answered or ended the run: the stream is eino's to read
		if reply.End != nil {
			if !s.delivered(reply) {
				return send(schema.AssistantMessage(reply.End.Output, nil))
			}
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

// delivered reports whether an ended reply had delivered text: an End
// before the model (or on an empty reply) sends End.Output instead, as
// Generate answers it.
func (s *einoStream) delivered(reply hooks.ModelReply) bool { return reply.Response.Text != "" }

// model opens the inner model's stream (and tells Stream it is open),
// yields each chunk's text as it comes, and returns the chunks
// concatenated.
func (s *einoStream) model(ctx context.Context, req hooks.ModelRequest, system *schema.Message, yield func(hooks.Chunk) error) (*schema.Message, error) {
	msgs, err := fromRequest(req, system)
	if err != nil {
		return nil, fmt.Errorf("hooks/eino: chat model: %w", err)
	}
	more, err := s.of.options(req)
	if err != nil {
		return nil, fmt.Errorf("hooks/eino: chat model: %w", err)
	}
	sr, err := s.m.inner.Stream(s.m.innerContext(ctx), msgs, append(slices.Clip(s.opts), more...)...)
	if err != nil {
		return nil, err
	}
	defer sr.Close()
	s.open(nil)
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
// calls and reasoning as the hooks left them (the model's own, or a hook's
// Respond's), and the model's metadata. The reasoning is held to here, as
// the tool calls are: no stream hook reads it, so only the
// AfterModelResponse hooks (a redaction) can see it before eino does.
func lastChunk(resp hooks.ModelResponse, got *schema.Message) (*schema.Message, error) {
	out := &schema.Message{Role: schema.Assistant}
	if got != nil {
		out.ResponseMeta, out.Extra = got.ResponseMeta, got.Extra
	}
	calls, err := fromToolCalls(resp.ToolCalls, got)
	if err != nil {
		return nil, fmt.Errorf("hooks/eino: chat model: %w", err)
	}
	out.ToolCalls = calls // in one chunk: eino's concatenation keeps them as they are
	out.ReasoningContent = resp.Reasoning
	return out, nil
}
