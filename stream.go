package hooks

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"
)

// StreamModelText is the point of stream hooks (StreamHook): a
// Diagnostic or HookError of a stream hook names it. It is not in
// Points(): it is not a point of the loop but the text of one model call
// on its way to the caller, between the model and AfterModelResponse.
const StreamModelText Point = "streamModelText"

// Chunk is one piece of a streamed model reply, as the caller receives it:
// a text delta, or a tool-call delta, or both.
type Chunk struct {
	Text     string         // a piece of the reply's text
	ToolCall *ToolCallDelta // a piece of one tool call; nil: none
}

// ToolCallDelta is a piece of one tool call of a streamed reply. The
// pieces of one call share its Index; the first carries its ID and Name,
// and the Arguments of all of them, in order, make its arguments' JSON
// text.
type ToolCallDelta struct {
	Index     int    // the call's place in the reply, as the provider numbers it
	ID        string // the call's id ("" after the first piece)
	Name      string // the tool's name ("" after the first piece)
	Arguments string // a piece of the arguments' JSON text
}

// StreamFunc opens a streamed model call for req and passes its chunks to
// yield as they come, from one goroutine, in order. It returns the reply
// it assembled: text, tool calls, usage and stop reason, as a ModelFunc
// returns them (adapters use their SDK's accumulator). When yield returns
// an error (a hook ended the stream, the caller stopped reading), the
// StreamFunc must stop reading, close the provider's stream and return;
// c is cancelled by then too, so an SDK stream opened with c.Context ends
// itself. A chunk passed to yield after that is dropped.
type StreamFunc func(c *Context, req ModelRequest, yield func(Chunk) error) (ModelResponse, error)

// HoldAll is the HoldBack of a stream hook that must see the whole reply
// before any of it is delivered (a moderation of the whole text). The
// hook is then called once, with the whole text, at the end.
const HoldAll = -1

// StreamHook is a hook that acts on the text of a streamed reply before
// the caller sees it (Run.StreamModel): it may rewrite it, hold it back,
// or end the stream. Stream hooks run in list order, each on the text the
// one before it let through; the last one's output is delivered.
//
// HoldBack is how many runes at the end of the text it holds the hook
// must see more of before deciding on them: a redaction of API keys of at
// most 40 characters holds back 39, so that a key split across chunks is
// never delivered in part. HoldAll holds everything until the reply ends.
// It is asked once per stream.
//
// StreamText is called, as chunks come, with the text the hook holds:
// what it held back so far followed by the new text; final reports that
// the reply is complete (nothing is held back then). A nil patch lets the
// text through as it is: all of it but its last HoldBack runes is
// delivered, the rest is held for the next call. The cost of a call is
// bounded by the hold-back and the chunk, never the reply's length.
//
// Stream hooks act on text only: tool-call deltas reach the caller as they
// come (a tool call is guarded by BeforeToolExecute before it runs), so
// the text and the tool calls may arrive in another order than the model
// sent them, by at most the text held back.
type StreamHook interface {
	Hook
	HoldBack() int
	StreamText(c *Context, text string, final bool) (*StreamPatch, error)
}

// StreamPatch is what a StreamHook may return; a nil field keeps the
// current value.
//
// Text replaces the text the hook was given (a redaction). End stops the
// stream: the text (as replaced) is let through as final, nothing after
// it is delivered, the provider's stream is closed, and the reply ends
// the run with End.Output (ModelReply.End).
type StreamPatch struct {
	Text *string
	End  *End
}

// ErrStreamDelivered is the error a wrap hook's next returns when the wrap
// calls it again (a retry, a fallback) after the stream delivered chunks:
// a caller cannot take back what it has shown, so a second reply is not
// streamed on top of the first. A retry before the first chunk was
// delivered (the connection failed, a 429) opens a new stream.
var ErrStreamDelivered = errors.New("hooks: the stream already delivered chunks; a retry cannot take them back")

// errStreamStopped is what yield returns once the stream is over.
var errStreamStopped = errors.New("hooks: the stream was stopped")

// StreamModel makes one streamed model call through the chain:
// BeforeModelRequest runs before the stream opens; open streams the reply,
// whose chunks go through the stream hooks (StreamHook) to deliver as
// they come; the wrap hooks (WrapModelHook) run around open, and
// AfterModelResponse runs on the assembled reply, as in CallModel.
//
// The reply's Response is what was delivered: its text is the text the
// stream hooks let through (a redacted secret is redacted there too),
// then rewritten by the AfterModelResponse hooks. Their rewrite changes
// the reply (what a host records in its conversation), not the chunks
// already delivered: a hook that must keep text from the user acts on the
// stream (StreamHook).
//
// A reply that was not streamed (a hook's Respond, a wrap that answered
// without calling next) is delivered as chunks when it is known, through
// the stream hooks. An error from deliver (the caller stopped reading)
// stops the stream and is returned. A step that ended the run delivers
// nothing. A wrap that calls next again after chunks were delivered gets
// ErrStreamDelivered.
func (r *Run) StreamModel(ctx context.Context, req ModelRequest, open StreamFunc, deliver func(Chunk) error) (ModelReply, error) {
	if open == nil || deliver == nil {
		return ModelReply{}, errors.New("hooks: StreamModel needs a StreamFunc and a deliver function")
	}
	step, err := r.BeforeModelRequest(ctx, req)
	if err != nil {
		return ModelReply{}, err
	}
	if step.End != nil {
		return ModelReply{End: step.End}, nil
	}
	s := r.newStreamer(ctx, step, deliver)
	defer s.close()
	resp, err := r.ExecuteModel(ctx, step, s.modelFunc(open))
	if err == nil && !s.streamed {
		err = s.deliverWhole(resp) // a Respond, or a wrap that answered
		resp.Text = s.text(resp.Text)
	}
	if err != nil {
		r.wraps[1].skipAfter(len(r.chain.wrapModel) > 0 && step.Response == nil)
		return ModelReply{Response: resp}, err
	}
	if s.end != nil {
		resp.ToolCalls = nil // the run ends: no tool of this reply runs
	}
	reply, err := r.AfterModelResponse(ctx, step, resp)
	if err == nil && s.end != nil && reply.End == nil {
		reply.End, reply.Continue = s.end, ""
	}
	return reply, err
}

// streamer is one streamed call: the stream hooks' stages, what was
// delivered, and whether the stream is over.
type streamer struct {
	r       *Run
	ctx     context.Context
	step    ModelStep
	deliver func(Chunk) error
	stages  []stage
	point   *Context // the Context every stage's hook Context is made from
	tracing bool     // WithTrace is on: each stage's hook gets one event, at the end

	mu        sync.Mutex      // one yield at a time, and none after the end
	stopped   error           // non-nil: the stream is over; what yield returns
	delivered bool            // a chunk reached the caller
	streamed  bool            // a StreamFunc ran to its end
	sent      strings.Builder // the text delivered, when stream hooks may have changed it
	end       *End            // a stream hook ended the stream
	cancel    context.CancelFunc
}

// newStreamer prepares the stages of the stream hooks step entered.
func (r *Run) newStreamer(ctx context.Context, step ModelStep, deliver func(Chunk) error) *streamer {
	s := &streamer{r: r, ctx: ctx, step: step, deliver: deliver}
	_, s.tracing = r.traceStart()
	for _, e := range r.chain.stream {
		if step.stop.entered(e.index) {
			s.stages = append(s.stages, stage{h: e.h, index: e.index, policy: e.policy})
		}
	}
	if len(s.stages) > 0 {
		s.point = r.pointContext(ctx, StreamModelText, len(s.stages))
		for slot := range s.stages {
			s.stages[slot].c = s.point.forHook(slot, s.stages[slot].index)
		}
	}
	return s
}

// close ends the call every hook Context was made for, and traces what
// each stream hook decided over the whole stream: one event a hook, not
// one a chunk.
func (s *streamer) close() {
	s.mu.Lock()
	if s.stopped == nil {
		s.stopped = errStreamStopped
	}
	type traced struct {
		st    *stage
		v     verdict
		spent time.Duration
	}
	var events []traced
	if s.tracing {
		for i := range s.stages {
			st := &s.stages[i]
			events = append(events, traced{st, st.verdict(), st.spent})
		}
	}
	s.mu.Unlock()
	for _, e := range events {
		s.r.traced(time.Now().Add(-e.spent), e.st.c, StreamModelText, e.st.index, e.st.policy, e.v)
	}
	if s.point != nil {
		s.r.release(s.point)
	}
}

// text is the reply's text: what was delivered when stream hooks ran,
// else the model's own.
func (s *streamer) text(model string) string {
	if len(s.stages) == 0 {
		return model
	}
	return s.sent.String()
}

// modelFunc is the innermost call of the wraps: one attempt at the stream.
func (s *streamer) modelFunc(open StreamFunc) ModelFunc {
	return func(c *Context, req ModelRequest) (ModelResponse, error) {
		s.mu.Lock()
		if s.delivered {
			s.mu.Unlock()
			return ModelResponse{}, ErrStreamDelivered
		}
		s.reset()
		ctx, cancel := context.WithCancel(c.Context)
		s.cancel, s.stopped = cancel, nil
		s.mu.Unlock()
		defer cancel()
		resp, err := open(c.WithContext(ctx), req, s.yield)
		s.mu.Lock()
		defer s.mu.Unlock()
		stopped := s.stopped
		s.stopped = errStreamStopped // a goroutine of open's that yields late delivers nothing
		switch {
		case stopped != nil && stopped != errStreamStopped:
			return resp, stopped // a hook failed the call, or deliver did
		case s.end != nil:
			// The stream was ended: open's error is the closed stream's.
		case err != nil:
			return resp, err
		default:
			if err := s.flush(); err != nil {
				return resp, err
			}
		}
		s.streamed = true
		resp.Text = s.text(resp.Text)
		return resp, nil
	}
}

// yield takes one chunk of the model's: its text through the stages, its
// tool-call delta straight to the caller.
func (s *streamer) yield(ch Chunk) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped != nil {
		return s.stopped
	}
	if err := s.ctx.Err(); err != nil { // cancelled: nothing more reaches the caller
		return s.stop(err)
	}
	if ch.Text != "" {
		if err := s.push(ch.Text, false); err != nil {
			return s.stop(err)
		}
		if s.end != nil {
			return s.stop(errStreamStopped)
		}
	}
	if ch.ToolCall != nil {
		if err := s.send(Chunk{ToolCall: ch.ToolCall}); err != nil {
			return s.stop(err)
		}
	}
	return nil
}

// stop ends the stream with err (what yield returns from now on) and
// cancels the provider's stream.
func (s *streamer) stop(err error) error {
	s.stopped = err
	if s.cancel != nil {
		s.cancel()
	}
	return err
}

// send delivers one chunk to the caller.
func (s *streamer) send(ch Chunk) error {
	if ch.Text != "" && len(s.stages) > 0 {
		s.sent.WriteString(ch.Text)
	}
	s.delivered = true
	return s.deliver(ch)
}

// flush lets through what the stages hold, once the reply is complete.
func (s *streamer) flush() error {
	if len(s.stages) == 0 || s.end != nil {
		return nil
	}
	return s.push("", true)
}

// deliverWhole delivers a reply that was not streamed: its text through
// the stages, then its tool calls, one delta each.
func (s *streamer) deliverWhole(resp ModelResponse) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.delivered { // a wrap answered after an attempt had delivered chunks
		return ErrStreamDelivered
	}
	s.reset()
	s.stopped = nil
	if err := s.push(resp.Text, true); err != nil {
		return err
	}
	if s.end != nil {
		return nil
	}
	for i, call := range resp.ToolCalls {
		args, err := wholeArguments(call.Arguments)
		if err != nil {
			return err
		}
		if err := s.send(Chunk{ToolCall: &ToolCallDelta{Index: i, ID: call.ID, Name: call.Name, Arguments: args}}); err != nil {
			return err
		}
	}
	return nil
}
