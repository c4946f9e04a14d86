package adk

import (
	"context"
	"errors"
	"strings"

	"google.golang.org/adk/v2/agent"
	"google.golang.org/adk/v2/model"
	"google.golang.org/genai"

	"github.com/rienda/hooks"
	hooksgenai "github.com/rienda/hooks/adapters/genai"
	"github.com/rienda/hooks/internal/adapt"
)

// A streamed model call (StreamingModeSSE) with stream hooks in the chain
// goes through hooks.Run.StreamModel, which owns a call from its
// BeforeModelRequest to its AfterModelResponse. ADK splits that call
// across callbacks: the before-model callback, then the after-model
// callback once per partial response and once for the final one. A
// bridge runs StreamModel on a goroutine of its own whose StreamFunc is
// fed, one response at a time, by those callbacks: each partial's text
// (and thoughts) goes through the stream hooks, and the partial event
// carries what they let through, as it comes. The goroutine starts in the
// before-model callback and ends by the final after-model callback, or
// when the invocation ends (afterRun cancels it and waits).

// bridge is one streamed model call between ADK's callbacks and
// Run.StreamModel.
type bridge struct {
	ready    chan hooks.ModelRequest // the request the hooks left, when the StreamFunc opens
	in       chan bridged            // a response (or ADK's error) for the StreamFunc
	out      chan []hooks.Chunk      // what the stream hooks let through of one partial
	finished chan struct{}           // closed when StreamModel returned: reply and err are set
	cancel   context.CancelFunc

	reply  hooks.ModelReply
	err    error
	final  *genai.GenerateContentResponse // the response the stream completed with
	opened bool                           // the StreamFunc ran (a wrap may not call it twice)
	got    []hooks.Chunk                  // delivered during the current partial
}

// bridged is one thing ADK gave an after-model callback.
type bridged struct {
	resp *model.LLMResponse
	err  error
}

// errTwice is the StreamFunc opened again (a wrap retrying): ADK made
// one model call, and its stream is already spent.
var errTwice = errors.New("adk: a wrap called the streamed model again; ADK made one call")

// startBridge runs StreamModel for req on a goroutine and waits until its
// StreamFunc opens (the request the hooks left is on b.ready) or it
// returned without calling the model (End, a hook's answer, an error).
func startBridge(ctx agent.Context, run *hooks.Run, req hooks.ModelRequest) *bridge {
	bctx, cancel := context.WithCancel(ctx)
	b := &bridge{ready: make(chan hooks.ModelRequest), in: make(chan bridged), out: make(chan []hooks.Chunk),
		finished: make(chan struct{}), cancel: cancel}
	go func() {
		defer close(b.finished)
		b.reply, b.err = run.StreamModel(bctx, req, b.open, b.deliver)
	}()
	return b
}

// open is the StreamFunc: it hands the hooks' request to the before-model
// callback, then yields each partial response the after-model callbacks
// send, and returns the final one.
func (b *bridge) open(c *hooks.Context, req hooks.ModelRequest, yield func(hooks.Chunk) error) (hooks.ModelResponse, error) {
	if b.opened {
		return hooks.ModelResponse{}, errTwice
	}
	b.opened = true
	select {
	case b.ready <- req:
	case <-c.Done():
		return hooks.ModelResponse{}, c.Err()
	}
	var text, thought strings.Builder
	for {
		var in bridged
		select {
		case in = <-b.in:
		case <-c.Done():
			return hooks.ModelResponse{}, c.Err()
		}
		if in.err != nil {
			return hooks.ModelResponse{}, in.err
		}
		if in.resp.Partial {
			err := yieldParts(in.resp.Content, &text, &thought, yield)
			got := b.got
			b.got = nil
			b.out <- got // the callback waits for it
			if err != nil {
				return hooks.ModelResponse{}, err // a stream hook ended the stream, or deliver failed
			}
			continue
		}
		b.final = &genai.GenerateContentResponse{Candidates: []*genai.Candidate{{Content: in.resp.Content, FinishReason: in.resp.FinishReason}},
			UsageMetadata: in.resp.UsageMetadata, ModelVersion: in.resp.ModelVersion}
		resp, err := hooksgenai.Response(b.final)
		if err != nil {
			return resp, err
		}
		// A model that did not stream (or streamed less than it said):
		// the rest goes through the stream hooks too.
		if rest, ok := strings.CutPrefix(resp.Text, text.String()); ok && rest != "" {
			if err := yield(hooks.Chunk{Text: rest}); err != nil {
				return resp, err
			}
		}
		if rest, ok := strings.CutPrefix(resp.Reasoning, thought.String()); ok && rest != "" {
			if err := yield(hooks.Chunk{Reasoning: rest}); err != nil {
				return resp, err
			}
		}
		return resp, nil
	}
}

// yieldParts yields a partial's text and thought parts, adding them to
// text and thought.
func yieldParts(c *genai.Content, text, thought *strings.Builder, yield func(hooks.Chunk) error) error {
	if c == nil {
		return nil
	}
	for _, p := range c.Parts {
		switch {
		case p == nil || p.Text == "":
		case p.Thought:
			thought.WriteString(p.Text)
			if err := yield(hooks.Chunk{Reasoning: p.Text}); err != nil {
				return err
			}
		case p.FunctionCall == nil && p.FunctionResponse == nil:
			text.WriteString(p.Text)
			if err := yield(hooks.Chunk{Text: p.Text}); err != nil {
				return err
			}
		}
	}
	return nil
}

// deliver keeps what the stream hooks let through, for the partial event
// of the after-model callback waiting on it. It runs on the bridge's
// goroutine, as open does.
func (b *bridge) deliver(ch hooks.Chunk) error {
	b.got = append(b.got, ch)
	return nil
}

// partial passes one partial response through the stream hooks and
// returns the partial event's content: what they let through; nil when
// nothing was (held back, or the stream ended).
func (b *bridge) partial(resp *model.LLMResponse) *genai.Content {
	select {
	case b.in <- bridged{resp: resp}:
	case <-b.finished:
		return nil // the stream is over (a stream hook ended it): nothing more goes out
	}
	got := <-b.out
	var parts []*genai.Part
	for _, ch := range got {
		switch {
		case ch.Text != "":
			parts = append(parts, &genai.Part{Text: ch.Text})
		case ch.Reasoning != "":
			parts = append(parts, &genai.Part{Text: ch.Reasoning, Thought: true})
		}
	}
	if len(parts) == 0 {
		return nil
	}
	return &genai.Content{Role: genai.RoleModel, Parts: parts}
}

// finish passes the final response (or ADK's error) and waits for
// StreamModel's reply.
func (b *bridge) finish(resp *model.LLMResponse, err error) (hooks.ModelReply, error) {
	select {
	case b.in <- bridged{resp: resp, err: err}:
	case <-b.finished:
	}
	<-b.finished
	return b.reply, b.err
}

// stop cancels the bridge and waits for its goroutine.
func (b *bridge) stop() {
	b.cancel()
	<-b.finished
}

// streams reports whether chain has a stream hook: only then are partial
// responses streamed through the hooks. Without one, partial text is held
// back until the hooks have the whole reply, so that a redaction done in
// AfterModelResponse alone reaches no event either.
func streams(chain *hooks.Chain) bool {
	for _, h := range chain.Hooks() {
		if ph, ok := h.(hooks.PointHandler); ok {
			if ph.Handles(hooks.StreamModelText) {
				return true
			}
			continue
		}
		if _, ok := h.(hooks.StreamHook); ok {
			return true
		}
	}
	return false
}

// beforeStreamed is beforeModel for a streamed call: StreamModel runs
// BeforeModelRequest on its bridge; the request the hooks left is what
// ADK sends, and an End or a hook's answer is the reply.
func (inv *invocation) beforeStreamed(ctx agent.Context, req *model.LLMRequest, params hooksgenai.Params) (*model.LLMResponse, error) {
	b := startBridge(ctx, inv.run, hooksgenai.Request(params))
	select {
	case hreq := <-b.ready:
		sent, err := hooksgenai.Build(params, hreq)
		if err != nil {
			_, _ = b.finish(nil, err)
			return nil, err
		}
		req.Model, req.Contents, req.Config = sent.Model, sent.Contents, sent.Config
		key := modelKey(ctx)
		inv.mu.Lock()
		inv.bridges[key] = append(inv.bridges[key], b)
		inv.mu.Unlock()
		return nil, nil
	case <-b.finished:
	}
	switch {
	case b.err != nil:
		return nil, inv.fail(b.err)
	case b.reply.End != nil:
		return inv.end(ctx, b.reply.End), nil
	}
	reply := b.reply // a hook's answer, through the after hooks already
	reply.Response.ToolCalls = adapt.FillCallIDs(reply.Response.ToolCalls, "adk_hooks_")
	return inv.reply(ctx, nil, reply)
}

// bridgeOf is the bridge of the streamed call resp belongs to; nil when
// the call is not streamed through the hooks. The final response (or an
// error) takes it off the invocation.
func (inv *invocation) bridgeOf(ctx agent.Context, resp *model.LLMResponse, respErr error) *bridge {
	key := modelKey(ctx)
	inv.mu.Lock()
	defer inv.mu.Unlock()
	bs := inv.bridges[key]
	if len(bs) == 0 {
		return nil
	}
	if respErr == nil && resp != nil && resp.Partial {
		return bs[0]
	}
	inv.bridges[key] = bs[1:]
	return bs[0]
}

// afterStreamed is afterModel for a streamed call: a partial's event
// carries what the stream hooks let through; the final response ends the
// stream, and the reply after the hooks (AfterModelResponse ran in
// StreamModel) is the final event's.
func (inv *invocation) afterStreamed(ctx agent.Context, b *bridge, resp *model.LLMResponse, respErr error) (*model.LLMResponse, error) {
	if respErr == nil && resp != nil && resp.Partial {
		out := *resp
		out.Content = b.partial(resp)
		return &out, nil
	}
	var modelErr error
	if respErr != nil || resp == nil {
		modelErr = cmpErr(respErr, errors.New("adk: the model gave no response"))
	}
	reply, err := b.finish(resp, modelErr)
	if modelErr != nil {
		return nil, nil // the model's error is ADK's
	}
	if err != nil {
		return nil, inv.fail(err)
	}
	out, err := inv.reply(ctx, b.final, reply)
	if out != nil && err == nil {
		kept := *resp
		kept.Content = out.Content
		return &kept, nil
	}
	return out, err
}

func cmpErr(err, def error) error {
	if err != nil {
		return err
	}
	return def
}

// stopBridges ends the streamed calls ADK never finished (another
// callback answered instead of the model): no goroutine outlives the
// invocation.
func (inv *invocation) stopBridges() {
	inv.mu.Lock()
	var bs []*bridge
	for key, list := range inv.bridges {
		bs = append(bs, list...)
		delete(inv.bridges, key)
	}
	inv.mu.Unlock()
	for _, b := range bs {
		b.stop()
	}
}
