package hooks

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// The channels of a streamed reply that pass the stream hooks: its text
// and its reasoning. Each has its own buffers in every stage (a secret is
// held back within one channel; reasoning and text never join into one
// text), and its own text delivered.
const (
	textChannel      = 0
	reasoningChannel = 1
)

// buffers are what one stage holds of one channel.
type buffers struct {
	held    string          // text the hook has seen and not let through
	partial string          // an incomplete character the hook has not seen yet
	all     strings.Builder // under HoldAll: the text so far
}

// stage is one stream hook on the way from the model to the caller: the
// text it holds back, per channel, and its Context for the whole stream.
type stage struct {
	h        StreamHook
	index    int
	policy   Policy
	c        *Context
	holdBack int  // runes, or HoldAll; asked once, on the first text
	asked    bool // holdBack is known
	bufs     [2]buffers

	// What the hook did over the whole stream, for its one trace event.
	spent    time.Duration
	changed  [2]bool // it rewrote text, per channel
	ended    bool    // it ended the stream
	err      error   // its first failure
	reasoner ReasoningStreamHook
}

// reset forgets what the stages hold from an attempt that delivered
// nothing (a wrap retries it).
func (s *streamer) reset() {
	for i := range s.stages {
		for k := range s.stages[i].bufs {
			b := &s.stages[i].bufs[k]
			b.held, b.partial = "", ""
			b.all.Reset()
		}
	}
	s.sent.Reset()
	s.sentReasoning.Reset()
	s.reasoned = false
	s.held = s.held[:0]
}

// push passes text of channel k (final: the last of the reply) through
// the stages from the first, and delivers what the last lets through. A
// hook's End stops the walk there: what it let through goes on as final,
// what the stages before it hold is dropped. The error is a hook's under
// FailRun, or the caller's (deliver).
func (s *streamer) push(k int, text string, final bool) error {
	for i := range s.stages {
		out, fin, err := s.pass(&s.stages[i], k, text, final)
		if err != nil {
			return err
		}
		text, final = out, fin
		if text == "" && !final {
			return nil // held back: nothing reaches the later stages yet
		}
	}
	switch {
	case text == "":
		return nil
	case k == reasoningChannel:
		return s.send(Chunk{Reasoning: text})
	}
	return s.send(Chunk{Text: text})
}

// pass runs one stage on text of channel k: it returns what the stage
// lets through, and whether that is final (a hook's End makes it so).
func (s *streamer) pass(st *stage, k int, text string, final bool) (string, bool, error) {
	if !st.asked {
		st.asked = true
		st.holdBack = s.askHoldBack(st)
	}
	b := &st.bufs[k]
	if st.holdBack == HoldAll && !final {
		b.all.WriteString(text)
		return "", false, nil
	}
	held := b.held + b.partial + text
	if st.holdBack == HoldAll {
		b.all.WriteString(text)
		held = b.all.String()
		b.all.Reset()
	}
	b.held, b.partial = "", ""
	if !final {
		// The hook sees whole characters only: a character cut between
		// chunks waits for its other bytes, and counts in no hold-back.
		cut := incompleteTail(held)
		held, b.partial = held[:cut], held[cut:]
		if held == "" {
			return "", false, nil
		}
	}
	var t0 time.Time
	if s.tracing {
		t0 = time.Now()
	}
	p, err := st.call(k, held, final)
	if s.tracing {
		st.spent += time.Since(t0)
		st.note(k, p, err, held)
	}
	if err != nil {
		if err = s.r.failure(s.ctx, StreamModelText, st.index, st.policy, err); err != nil {
			return "", false, err
		}
		if st.policy == Block { // a guard that failed: fail closed, as a refusal would
			s.end = &End{Output: s.sent.String()}
			return "", true, nil
		}
		p = nil // Report: no opinion
	}
	if p != nil {
		if p.Text != nil {
			held = *p.Text
		}
		if p.End != nil {
			s.end = p.End
			return held, true, nil
		}
	}
	if final {
		return held, true, nil
	}
	cut := holdCut(held, st.holdBack)
	b.held = held[cut:]
	return held[:cut], false, nil
}

// call asks the stage's hook about text of channel k: reasoning goes to
// StreamReasoning when the hook has it, else to StreamText like text.
func (st *stage) call(k int, text string, final bool) (*StreamPatch, error) {
	if k == reasoningChannel && st.reasoner != nil {
		return callStreamReasoning(st.reasoner, st.c, text, final)
	}
	return callStreamText(st.h, st.c, text, final)
}

// note records what one call of the hook decided on channel k, for the
// trace.
func (st *stage) note(k int, p *StreamPatch, err error, given string) {
	switch {
	case err != nil:
		if st.err == nil {
			st.err = err
		}
	case p != nil:
		st.changed[k] = st.changed[k] || p.Text != nil && *p.Text != given
		st.ended = st.ended || p.End != nil
	}
}

// verdict is what the hook decided over the whole stream, as one trace
// event reports it: it failed, ended the stream, rewrote text or
// reasoning, or let them through.
func (st *stage) verdict() verdict {
	changed := fields(responseFields, st.changed[textChannel], false, st.changed[reasoningChannel])
	switch {
	case st.err != nil:
		return verdict{decision: DecisionErrored, err: st.err}
	case st.ended:
		return verdict{decision: DecisionEnded, changed: changed}
	case changed != nil:
		return verdict{decision: DecisionChanged, changed: changed}
	}
	return noOpinion
}

// askHoldBack is a stage's HoldBack, asked once per stream; a panic or a
// value below HoldAll counts as HoldAll (it fails closed: nothing is
// delivered before the hook saw it all), with a diagnostic.
func (s *streamer) askHoldBack(st *stage) (n int) {
	defer func() {
		if v := recover(); v != nil {
			s.r.chain.diagnose(Diagnostic{Hook: s.r.chain.names[st.index], Point: StreamModelText,
				Err: fmt.Errorf("HoldBack panicked (%v): holding back the whole reply", v)})
			n = HoldAll
		}
	}()
	n = st.h.HoldBack()
	if n < HoldAll {
		s.r.chain.diagnose(Diagnostic{Hook: s.r.chain.names[st.index], Point: StreamModelText,
			Err: fmt.Errorf("HoldBack %d is not a number of runes nor HoldAll: holding back the whole reply", n)})
		n = HoldAll
	}
	return n
}

// holdCut is where text splits into what is let through and its last n
// runes, held back: n whole characters, after any incomplete one at the
// end (a hook's own text may end inside a character), which is held too
// and counts for none.
func holdCut(text string, n int) int {
	cut := incompleteTail(text)
	for ; n > 0 && cut > 0; n-- {
		_, size := utf8.DecodeLastRuneInString(text[:cut])
		cut -= size
	}
	return cut
}

// incompleteTail is where the incomplete UTF-8 character text ends with
// begins (the first bytes of a character whose rest is still to come), or
// len(text) when it ends with a whole one. Bytes that can never be part
// of a character are whole (invalid) characters: they count as runes.
func incompleteTail(text string) int {
	for i := len(text) - 1; i >= 0 && i > len(text)-utf8.UTFMax; i-- {
		if utf8.RuneStart(text[i]) {
			if utf8.FullRuneInString(text[i:]) {
				return len(text)
			}
			return i
		}
	}
	return len(text)
}

// callStreamText runs one stream hook and turns its panic into an error.
func callStreamText(h StreamHook, c *Context, text string, final bool) (p *StreamPatch, err error) {
	defer recoverPanic(&err)
	return h.StreamText(c, text, final)
}

// callStreamReasoning runs one stream hook on reasoning and turns its
// panic into an error.
func callStreamReasoning(h ReasoningStreamHook, c *Context, text string, final bool) (p *StreamPatch, err error) {
	defer recoverPanic(&err)
	return h.StreamReasoning(c, text, final)
}

// wholeArguments is the JSON text of a tool call's arguments, for a
// reply that was not streamed and is delivered as chunks.
func wholeArguments(args map[string]any) (string, error) {
	if args == nil {
		return "{}", nil
	}
	b, err := json.Marshal(args)
	if err != nil {
		return "", fmt.Errorf("hooks: the arguments of a tool call of a reply that was not streamed do not encode as JSON: %w", err)
	}
	return string(b), nil
}
