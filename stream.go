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
// a text delta, a reasoning delta, or a tool-call delta. A StreamFunc may
// yield several in one chunk; the caller receives them as separate
// chunks, reasoning first.
type Chunk struct {
	Text      string         // a piece of the reply's text
	ToolCall  *ToolCallDelta // a piece of one tool call; nil: none
	Reasoning string         // a piece of the model's reasoning text
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
// or end the stream. Stream hooks layer as the after-hooks do: in reverse
// list order (list order under InListOrder), each on the text the one
// before it let through, so the first listed sees the final text and its
// output is delivered (a redactor listed first redacts what later stream
// hooks add). A PointHandler among them runs on the stream when
// Handles(StreamModelText) says so; one that handles no point at all is
// refused by NewChain.
//
// HoldBack is how many runes at the end of the text it holds the hook
// must see more of before deciding on them: a redaction of API keys of at
// most 40 characters holds back 39, so that a key split across chunks is
// never delivered in part. HoldAll holds everything until the reply ends.
// It is asked once per stream. Runes are whole characters: a character
// cut between chunks waits for its other bytes and counts for none.
//
// StreamText is called, as chunks come, with the text the hook holds:
// what it held back so far followed by the new text; final reports that
// the reply is complete (nothing is held back then). A nil patch lets the
// text through as it is: all of it but its last HoldBack runes is
// delivered, the rest is held for the next call. The cost of a call is
// bounded by the hold-back and the chunk, never the reply's length.
//
// Stream hooks act on the reply's text and its reasoning (Chunk.Reasoning,
// the model's "thinking": output a host may show or log, so a redactor
// must see it). Reasoning passes every stream hook in a channel of its
// own, in the same order, with its own hold-back buffers (HoldBack
// applies to each channel): StreamText gets it too, unless the hook
// implements ReasoningStreamHook, whose StreamReasoning gets it instead.
// A secret is held back within one channel; the two never join into one
// text. Reasoning is final when the reply ends, like text. A stream
// without reasoning costs nothing more.
//
// The reply's tool calls are not delivered
// past them: with a stream hook or an AfterModelResponse hook in the
// chain, the model's tool-call deltas are held and the reply's tool calls
// are delivered, whole, after AfterModelResponse, as the hooks left them
// (ModelResponsePatch.ToolCalls); none when the run ends.
type StreamHook interface {
	Hook
	HoldBack() int
	StreamText(c *Context, text string, final bool) (*StreamPatch, error)
}

// ReasoningStreamHook is a StreamHook that treats the reply's reasoning
// apart from its text: StreamReasoning is called for the reasoning
// channel as StreamText is for the text (same hold-back, same patch: Text
// replaces the reasoning given, End ends the stream). A StreamHook without
// it gets the reasoning through StreamText.
type ReasoningStreamHook interface {
	StreamHook
	StreamReasoning(c *Context, text string, final bool) (*StreamPatch, error)
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

// ErrStreamOpen is the error a wrap hook's next returns when the wrap
// calls it while another call of next is still streaming (a hedged
// request): two streams would interleave on their way to the caller, so a
// stream is one attempt at a time.
var ErrStreamOpen = errors.New("hooks: a wrap called next while its stream was still open: a stream is one attempt at a time")

// ErrStreamEnded is the error a wrap hook's next returns after a stream
// hook ended the stream (StreamPatch.End): nothing more is streamed.
var ErrStreamEnded = errors.New("hooks: a stream hook ended the stream: nothing more is streamed")

// errStreamStopped is what yield returns once the stream is over.
var errStreamStopped = errors.New("hooks: the stream was stopped")

// StreamModel makes one streamed model call through the chain:
// BeforeModelRequest runs before the stream opens; open streams the reply,
// whose chunks go through the stream hooks (StreamHook) to deliver as
// they come; the wrap hooks (WrapModelHook) run around open, and
// AfterModelResponse runs on the assembled reply, as in CallModel.
//
// The reply's Response is what was delivered: its text (and its
// Reasoning) is what the stream hooks let through (a redacted secret is
// redacted there too),
// then rewritten by the AfterModelResponse hooks. It is never the raw
// text: not when the StreamFunc fails and returns what it accumulated,
// nor when a wrap returns text of its own (a failed reply has no tool
// calls). Their rewrite changes
// the reply (what a host records in its conversation), not the chunks
// already delivered: a hook that must keep text from the user acts on the
// stream (StreamHook).
//
// A reply that was not streamed (a hook's Respond, a wrap that answered
// without calling next) is delivered as chunks when it is known, through
// the stream hooks. The reply's tool calls are delivered after the
// AfterModelResponse hooks, as they left them, when a hook could act on
// them (see StreamHook). An error from deliver (the caller stopped
// reading) stops the stream and is returned. A step that ended the run
// delivers nothing. A wrap that calls next again after chunks were
// delivered gets ErrStreamDelivered; while its stream is open,
// ErrStreamOpen; after a stream hook's End, ErrStreamEnded.
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
	}
	resp = s.passed(resp, err)
	if err != nil {
		r.wraps[1].skipAfter(len(r.chain.wrapModel) > 0 && step.Response == nil)
		return ModelReply{Response: resp}, err
	}
	reply, err := r.AfterModelResponse(ctx, step, resp)
	if err == nil && s.end != nil && reply.End == nil {
		reply.End, reply.Continue = s.end, ""
	}
	if err == nil && reply.End == nil {
		err = s.deliverCalls(reply.Response.ToolCalls)
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
	open      bool            // a StreamFunc is running: a second one is refused
	sent      strings.Builder // the text delivered, when stream hooks may have changed it
	// The reasoning delivered, when stream hooks may have changed it, and
	// whether this attempt yielded any (only then is it flushed).
	sentReasoning strings.Builder
	reasoned      bool
	end           *End // a stream hook ended the stream
	cancel        context.CancelFunc

	// Hooks may act on the reply's tool calls (stream hooks, or
	// AfterModelResponse hooks that may rewrite them): their deltas are
	// not delivered as they come, but once the hooks had the reply, from
	// the reply's ToolCalls as the hooks left them.
	holdCalls bool
	held      []heldCall // the tool calls of the model's deltas, as it wrote them
}

// newStreamer prepares the stages of the stream hooks step entered.
func (r *Run) newStreamer(ctx context.Context, step ModelStep, deliver func(Chunk) error) *streamer {
	s := &streamer{r: r, ctx: ctx, step: step, deliver: deliver}
	_, s.tracing = r.traceStart()
	s.holdCalls = len(r.chain.stream) > 0 || len(r.chain.afterModel) > 0
	for _, e := range r.chain.stream {
		if step.stop.entered(e.index) {
			st := stage{h: e.h, index: e.index, policy: e.policy}
			st.reasoner, _ = e.h.(ReasoningStreamHook)
			s.stages = append(s.stages, st)
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

// modelFunc is the innermost call of the wraps: one attempt at the stream.
func (s *streamer) modelFunc(open StreamFunc) ModelFunc {
	return func(c *Context, req ModelRequest) (ModelResponse, error) {
		s.mu.Lock()
		var refused error
		switch {
		case s.open:
			refused = ErrStreamOpen
		case s.end != nil:
			refused = ErrStreamEnded
		case s.delivered:
			refused = ErrStreamDelivered
		}
		if refused != nil {
			s.mu.Unlock()
			return ModelResponse{}, refused
		}
		s.reset()
		ctx, cancel := context.WithCancel(c.Context)
		s.cancel, s.stopped, s.open = cancel, nil, true
		s.mu.Unlock()
		defer cancel()
		resp, err := s.attempt(open, c.WithContext(ctx), req)
		s.mu.Lock()
		defer s.mu.Unlock()
		s.open = false
		stopped := s.stopped
		s.stopped = errStreamStopped // a goroutine of open's that yields late delivers nothing
		switch {
		case stopped != nil && stopped != errStreamStopped:
			err = stopped // a hook failed the call, or deliver did
		case s.end != nil:
			err = nil // the stream was ended: open's error is the closed stream's
		case err == nil:
			err = s.flush()
		}
		if len(s.stages) > 0 { // what passed the stream hooks, never the raw text
			resp.Text, resp.Reasoning = s.sent.String(), s.sentReasoning.String()
		}
		if err != nil {
			resp.ToolCalls = nil
			return resp, err
		}
		s.streamed = true
		if len(s.held) > 0 && len(resp.ToolCalls) == 0 && s.end == nil {
			s.r.chain.diagnose(Diagnostic{Point: StreamModelText, Err: errors.New(
				"the StreamFunc yielded tool-call deltas but its reply has no tool calls: none is delivered (a StreamFunc returns the reply it assembled, tool calls included)")})
		}
		return resp, nil
	}
}

// attempt runs open once; a panic in it is the attempt's error, so that
// the stream is never left marked open.
func (s *streamer) attempt(open StreamFunc, c *Context, req ModelRequest) (resp ModelResponse, err error) {
	defer func() {
		if v := recover(); v != nil {
			s.mu.Lock()
			s.open, s.stopped = false, errStreamStopped
			s.mu.Unlock()
			panic(v)
		}
	}()
	return open(c, req, s.yield)
}
