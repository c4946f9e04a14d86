package hooks

import (
	"cmp"
	"reflect"
	"strings"
)

// passed is the reply as the stream hooks let it through: its text and
// its reasoning are what was delivered when stream hooks ran (whatever the
// StreamFunc or a wrap returned beside them: the raw text never becomes
// the reply), and a reply that failed keeps no tool call.
func (s *streamer) passed(resp ModelResponse, err error) ModelResponse {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.stages) > 0 {
		resp.Text, resp.Reasoning = s.sent.String(), s.sentReasoning.String()
	}
	if err != nil || s.end != nil {
		resp.ToolCalls = nil // the call failed, or the run ends: no tool of this reply runs
	}
	return resp
}

// deliverWhole delivers the reasoning and the text of a reply that was
// not streamed, through the stages; its tool calls go with deliverCalls.
func (s *streamer) deliverWhole(resp ModelResponse) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.delivered { // a wrap answered after an attempt had delivered chunks
		return ErrStreamDelivered
	}
	s.reset()
	s.stopped = nil
	if resp.Reasoning != "" {
		s.reasoned = true
		if err := s.push(reasoningChannel, resp.Reasoning, true); err != nil || s.end != nil {
			return err
		}
	}
	return s.push(textChannel, resp.Text, true)
}

// heldCall is one tool call of a streamed reply, as the model's deltas
// wrote it, held until the hooks had the reply.
type heldCall struct {
	index    int
	id, name string
	args     []byte
}

// hold keeps one tool-call delta: a piece of the call with its Index.
func (s *streamer) hold(d ToolCallDelta) {
	for i := range s.held {
		if h := &s.held[i]; h.index == d.Index {
			h.args = append(h.args, d.Arguments...)
			if h.id == "" { // a provider that names the call after its first piece
				h.id, h.name = d.ID, cmp.Or(h.name, d.Name)
			}
			return
		}
	}
	s.held = append(s.held, heldCall{index: d.Index, id: d.ID, name: d.Name, args: []byte(d.Arguments)})
}

// deliverCalls delivers the reply's tool calls, one delta each, once the
// hooks had the reply: the calls the run will make, as the hooks left
// them. Deltas delivered as they came (no hook could act on them) are not
// delivered again.
//
// A call the hooks left as the model wrote it is delivered as the model's
// own text, at its own Index (a re-encoding would reorder keys and round
// an integer past 2^53); only if that text reads as exactly the arguments
// the hooks saw, so that nothing they did not see (a repeated key) goes
// out. Any other call is its arguments encoded.
func (s *streamer) deliverCalls(calls []ToolCall) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.streamed && !s.holdCalls {
		return nil
	}
	next := 0 // the first Index no held call has
	for _, h := range s.held {
		next = max(next, h.index+1)
	}
	for i, call := range calls {
		d := ToolCallDelta{Index: next + i, ID: call.ID, Name: call.Name}
		if h := s.heldByID(call.ID); h != nil {
			d.Index = h.index
			if raw := string(h.args); h.name == call.Name && sameAsRaw(raw, call.Arguments) {
				d.Arguments = raw
			}
		}
		if d.Arguments == "" {
			args, err := wholeArguments(call.Arguments)
			if err != nil {
				return err
			}
			d.Arguments = args
		}
		if err := s.send(Chunk{ToolCall: &d}); err != nil {
			return err
		}
	}
	return nil
}

// heldByID is the held call with id, or nil.
func (s *streamer) heldByID(id string) *heldCall {
	if id == "" {
		return nil
	}
	for i := range s.held {
		if s.held[i].id == id {
			return &s.held[i]
		}
	}
	return nil
}

// sameAsRaw reports whether raw, a call's arguments as the model wrote
// them, reads as args, as ParseArguments reads it (no repeated key).
func sameAsRaw(raw string, args map[string]any) bool {
	parsed, err := ParseArguments([]byte(raw))
	if err != nil || strings.TrimSpace(raw) == "" {
		return false
	}
	return reflect.DeepEqual(parsed, args) || len(parsed) == 0 && len(args) == 0
}

// yield takes one chunk of the model's: its reasoning, then its text,
// through the stages, its
// tool-call delta to the caller, unless hooks may act on the reply's tool
// calls (holdCalls): then they are delivered from the reply, once the
// hooks had it.
func (s *streamer) yield(ch Chunk) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped != nil {
		return s.stopped
	}
	if err := s.ctx.Err(); err != nil { // cancelled: nothing more reaches the caller
		return s.stop(err)
	}
	if ch.Reasoning != "" {
		s.reasoned = true
		if err := s.push(reasoningChannel, ch.Reasoning, false); err != nil {
			return s.stop(err)
		}
		if s.end != nil {
			return s.stop(errStreamStopped)
		}
	}
	if ch.Text != "" {
		if err := s.push(textChannel, ch.Text, false); err != nil {
			return s.stop(err)
		}
		if s.end != nil {
			return s.stop(errStreamStopped)
		}
	}
	if ch.ToolCall != nil {
		if s.holdCalls {
			s.hold(*ch.ToolCall)
			return nil
		}
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
	if len(s.stages) > 0 {
		s.sent.WriteString(ch.Text)
		s.sentReasoning.WriteString(ch.Reasoning)
	}
	s.delivered = true
	return s.deliver(ch)
}

// flush lets through what the stages hold, once the reply is complete:
// the reasoning (when the attempt yielded any), then the text.
func (s *streamer) flush() error {
	if len(s.stages) == 0 || s.end != nil {
		return nil
	}
	if s.reasoned {
		if err := s.push(reasoningChannel, "", true); err != nil || s.end != nil {
			return err
		}
	}
	return s.push(textChannel, "", true)
}
