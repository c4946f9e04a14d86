package genkit

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
	"github.com/rienda/hooks"
	"github.com/rienda/hooks/internal/adapt"
)

// ErrNoRun is the error of a tool or model call whose context carries no
// hooks.Run: hooks.ContextWithRun was not given to genkit.Generate. The call
// fails rather than run without the hooks that guard it.
var ErrNoRun = errors.New("hooks/genkit: no hooks.Run in the context: pass hooks.ContextWithRun(ctx, run) to genkit.Generate")

// maxContinues bounds the Continue round trips of one model call.
const maxContinues = 20

// Middleware returns the genkit model middleware that runs every model
// call of a Generate through the BeforeModelRequest and AfterModelResponse
// hooks (and the wrap hooks) of the run in its context. Give it to
// genkit.Generate with ai.WithMiddleware; Use (ai.WithUse) does this and
// the tools too.
//
// model is the model the Generate calls (the one given to ai.WithModel or
// ai.WithModelName): genkit's middleware is not told which model it wraps,
// and the hooks see its name as ModelRequest.Model. g is where a model a
// hook names instead is looked up; nil: a hook may not change the model.
//
//lint:ignore SA1019 the v1.4 entry point, kept for the programs that use it; Use is its successor
func Middleware(g *genkit.Genkit, model ai.ModelArg) ai.ModelMiddleware {
	m := &middleware{g: g}
	if model != nil {
		m.model = model.Name()
	}
	return func(next ai.ModelFunc) ai.ModelFunc {
		return func(ctx context.Context, req *ai.ModelRequest, cb ai.ModelStreamCallback) (*ai.ModelResponse, error) {
			return m.generate(ctx, req, cb, next)
		}
	}
}

type middleware struct {
	g     *genkit.Genkit
	model string
}

// generate runs one model call of genkit's through the hooks, calling the
// model again for each Continue. A streamed call (cb non-nil) streams
// through the stream hooks chunk by chunk (streamOnce).
func (m *middleware) generate(ctx context.Context, req *ai.ModelRequest, cb ai.ModelStreamCallback, next ai.ModelFunc) (*ai.ModelResponse, error) {
	run, ok := hooks.RunFromContext(ctx)
	if !ok {
		return nil, fmt.Errorf("hooks/genkit: model: %w", ErrNoRun)
	}
	if req == nil {
		return nil, errors.New("hooks/genkit: model: genkit gave no request")
	}
	msgs, err := restoreExchanges(req.Messages)
	if err != nil {
		return nil, err
	}
	var inserted []*ai.Message
	for range maxContinues + 1 {
		cur := *req
		cur.Messages = msgs
		call := m.callOnce
		if cb != nil {
			call = m.streamOnce
		}
		out, more, err := call(ctx, run, &cur, cb, next)
		if err != nil {
			return nil, err
		}
		if more == "" {
			if inserted != nil {
				out = withExchange(out, &cur, inserted)
			}
			recordCalls(run, out.Message)
			return out, nil
		}
		user := ai.NewUserTextMessage(more)
		inserted = append(inserted, out.Message, user)
		msgs = append(slices.Clip(msgs), out.Message, user)
	}
	return nil, fmt.Errorf("hooks/genkit: model: the hooks asked to continue more than %d times in one call", maxContinues)
}

// callOnce runs one model call through the hooks: it returns the response
// genkit receives, and the Continue text when a hook sent the run on.
func (m *middleware) callOnce(ctx context.Context, run *hooks.Run, req *ai.ModelRequest, _ ai.ModelStreamCallback, next ai.ModelFunc) (*ai.ModelResponse, string, error) {
	hreq, system := m.request(req)
	var got *ai.ModelResponse // the model's own reply; nil when a hook answered
	reply, err := run.CallModel(ctx, hreq, func(_ *hooks.Context, hr hooks.ModelRequest) (hooks.ModelResponse, error) {
		sent, fn, err := m.prepare(req, hreq, hr, system, next)
		if err != nil {
			return hooks.ModelResponse{}, fmt.Errorf("hooks/genkit: model: %w", err)
		}
		if got, err = fn(ctx, sent, nil); err != nil {
			return hooks.ModelResponse{}, err
		}
		if got == nil {
			return hooks.ModelResponse{}, errors.New("hooks/genkit: model: the model returned no response")
		}
		return toResponse(got), nil
	})
	if err != nil {
		return nil, "", err
	}
	if reply.End != nil {
		return endResponse(reply.End, got, req), "", nil
	}
	out, err := fromResponse(reply.Response, got, req)
	return out, reply.Continue, err
}

// request is genkit's request as the hooks see it, and its system message.
func (m *middleware) request(req *ai.ModelRequest) (hooks.ModelRequest, *ai.Message) {
	hreq, system := toRequest(req.Messages)
	hreq.Model = m.model
	hreq.Tools = adapt.Specs(req.Tools, toolSpec)
	fillFields(&hreq, req)
	return hreq, system
}

// endResponse is the response of a run a hook ended: End.Output, and no
// tool requests, so that genkit's loop stops.
func endResponse(end *hooks.End, got *ai.ModelResponse, req *ai.ModelRequest) *ai.ModelResponse {
	out := &ai.ModelResponse{Message: ai.NewModelTextMessage(end.Output), FinishReason: ai.FinishReasonStop, Request: req}
	if got != nil {
		out.Usage = got.Usage
	}
	return out
}

// prepare makes the request the model is sent from the one the hooks
// left, and picks the model: next, or the one a hook named.
func (m *middleware) prepare(req *ai.ModelRequest, shown, hr hooks.ModelRequest, system *ai.Message, next ai.ModelFunc) (*ai.ModelRequest, ai.ModelFunc, error) {
	msgs, err := fromRequest(hr, system)
	if err != nil {
		return nil, nil, err
	}
	tools, err := adapt.Tools(req.Tools, hr.Tools, toolSpec, buildTool)
	if err != nil {
		return nil, nil, err
	}
	sent := *req
	sent.Messages, sent.Tools = msgs, tools
	if err := applyFields(&sent, shown, hr); err != nil {
		return nil, nil, err
	}
	if hr.Model == m.model || hr.Model == "" {
		return &sent, next, nil
	}
	if m.g == nil {
		return nil, nil, fmt.Errorf("a hook chose model %q instead of %q, and Middleware was given no *genkit.Genkit to find it in", hr.Model, m.model)
	}
	other := genkit.LookupModel(m.g, hr.Model)
	if other == nil {
		return nil, nil, fmt.Errorf("a hook chose model %q, which genkit does not know", hr.Model)
	}
	return &sent, other.Generate, nil
}

// fromResponse is the response genkit receives: the model's own when the
// hooks left it (a copy with their text and tool calls when they changed
// them), or one made from a hook's Respond.
func fromResponse(resp hooks.ModelResponse, got *ai.ModelResponse, req *ai.ModelRequest) (*ai.ModelResponse, error) {
	if got == nil {
		calls, err := requestParts(adapt.FillCallIDs(resp.ToolCalls, "call_"))
		if err != nil {
			return nil, fmt.Errorf("hooks/genkit: a hook's Respond: %w", err)
		}
		msg := &ai.Message{Role: ai.RoleModel, Content: withReasoning(replaceParts(nil, resp.Text, calls), resp.Reasoning)}
		return &ai.ModelResponse{Message: msg, FinishReason: finishReason(resp.StopReason), Usage: usage(resp.Usage), Request: req}, nil
	}
	was := toResponse(got)
	if resp.Text == was.Text && sameCalls(resp.ToolCalls, was.ToolCalls) && resp.Reasoning == was.Reasoning {
		return got, nil
	}
	calls, err := requestParts(adapt.FillCallIDs(resp.ToolCalls, "call_"))
	if err != nil {
		return nil, fmt.Errorf("hooks/genkit: the hooks' reply: %w", err)
	}
	out := *got
	msg := ai.Message{Role: ai.RoleModel}
	if got.Message != nil {
		msg = *got.Message
	}
	msg.Content = replaceParts(msg.Content, resp.Text, calls)
	if resp.Reasoning != was.Reasoning {
		msg.Content = withReasoning(msg.Content, resp.Reasoning)
	}
	out.Message = &msg
	return &out, nil
}

// sameCalls reports whether the hooks left the tool calls as they were;
// arguments are compared as values.
func sameCalls(a, b []hooks.ToolCall) bool {
	return slices.EqualFunc(a, b, func(x, y hooks.ToolCall) bool {
		return x.ID == y.ID && x.Name == y.Name && reflect.DeepEqual(x.Arguments, y.Arguments)
	})
}
