package eino

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/cloudwego/eino/callbacks"
	"github.com/cloudwego/eino/components"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
	"github.com/rienda/hooks"
)

// ErrNoRun is the error of a tool or model call whose context carries no
// hooks.Run: hooks.ContextWithRun was not given to the runner. The call fails
// rather than run without the hooks that guard it.
var ErrNoRun = errors.New("hooks/eino: no hooks.Run in the context: pass hooks.ContextWithRun(ctx, run) to the runner")

// maxContinues bounds the Continue round trips of one model call, as
// eino's ChatModelAgent bounds its iterations by default.
const maxContinues = 20

// ChatModel is an eino chat model whose calls go through the
// BeforeModelRequest and AfterModelResponse hooks of the run in their
// context. Give it to eino where the model goes (ChatModelAgentConfig.Model).
//
// eino reports the call to its callback handlers (an agent's events come
// from them) with the messages it gave and the reply the hooks left. A
// wrapped model that reports itself (eino's models do) is called with only
// the global handlers, so that the agent does not report its reply twice,
// the second time before the hooks (a redaction) changed it.
type ChatModel struct {
	inner model.BaseChatModel // a ToolCallingChatModel when given to WrapModel
	quiet *callbacks.RunInfo  // non-nil: inner reports itself; call it with only the global handlers
	tools []*schema.ToolInfo  // bound with WithTools: the tools offered unless an option says others
}

var _ model.ToolCallingChatModel = (*ChatModel)(nil)

// WrapModel returns m with its calls going through the hooks.
func WrapModel(m model.ToolCallingChatModel) *ChatModel {
	c := &ChatModel{inner: m}
	if components.IsCallbacksEnabled(m) {
		typ, _ := components.GetType(m)
		c.quiet = &callbacks.RunInfo{Type: typ, Component: components.ComponentOfChatModel}
	}
	return c
}

// innerContext is the context the wrapped model is called with.
func (m *ChatModel) innerContext(ctx context.Context) context.Context {
	if m.quiet == nil {
		return ctx
	}
	return callbacks.InitCallbacks(ctx, m.quiet)
}

// WithTools binds tools to the wrapped model, and wraps what it returns:
// eino's agents bind their tools this way, and the bound model must go
// through the hooks too.
func (m *ChatModel) WithTools(tools []*schema.ToolInfo) (model.ToolCallingChatModel, error) {
	if m.inner == nil {
		return nil, errNilModel
	}
	tc, ok := m.inner.(model.ToolCallingChatModel)
	if !ok {
		return nil, errors.New("hooks/eino: the wrapped model does not bind tools (it is not a model.ToolCallingChatModel)")
	}
	inner, err := tc.WithTools(tools)
	if err != nil {
		return nil, err
	}
	w := WrapModel(inner)
	w.tools = tools
	return w, nil
}

var errNilModel = errors.New("hooks/eino: WrapModel was given a nil model")

// Generate calls the wrapped model's Generate through the hooks.
func (m *ChatModel) Generate(ctx context.Context, input []*schema.Message, opts ...model.Option) (*schema.Message, error) {
	return m.call(ctx, input, newOffer(m.tools, opts), func(msgs []*schema.Message, more []model.Option) (*schema.Message, error) {
		return m.inner.Generate(m.innerContext(ctx), msgs, append(slices.Clip(opts), more...)...)
	})
}

// Stream calls the wrapped model's Stream through the hooks
// (hooks.Run.StreamModel): eino reads the chunks while the model answers;
// see stream.go.
func (m *ChatModel) Stream(ctx context.Context, input []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	return m.stream(ctx, input, opts...)
}

// call runs one model call of eino's through the hooks, calling the model
// again for each Continue.
func (m *ChatModel) call(ctx context.Context, input []*schema.Message, of offer, send sender) (*schema.Message, error) {
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
	var inserted []*schema.Message
	for range maxContinues + 1 {
		out, next, err := callOnce(ctx, run, msgs, of, send)
		if err != nil {
			return nil, err
		}
		if next == "" && inserted == nil {
			return out, nil
		}
		if next == "" {
			return withExchange(out, inserted)
		}
		inserted = append(inserted, out, schema.UserMessage(next))
		msgs = append(slices.Clip(msgs), out, inserted[len(inserted)-1])
	}
	return nil, fmt.Errorf("hooks/eino: chat model: the hooks asked to continue more than %d times in one call", maxContinues)
}

// sender calls the wrapped model with msgs, adding more to the caller's
// options.
type sender func(msgs []*schema.Message, more []model.Option) (*schema.Message, error)

// callOnce runs one model call through the hooks: it returns the message
// eino receives, and the Continue text when a hook sent the run on.
func callOnce(ctx context.Context, run *hooks.Run, input []*schema.Message, of offer, send sender) (*schema.Message, string, error) {
	req, system := toRequest(input)
	of.fill(&req)
	var got *schema.Message // the model's own reply; nil when a hook answered
	reply, err := run.CallModel(ctx, req, func(_ *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
		msgs, err := fromRequest(req, system)
		if err != nil {
			return hooks.ModelResponse{}, fmt.Errorf("hooks/eino: chat model: %w", err)
		}
		more, err := of.options(req)
		if err != nil {
			return hooks.ModelResponse{}, fmt.Errorf("hooks/eino: chat model: %w", err)
		}
		if got, err = send(msgs, more); err != nil {
			return hooks.ModelResponse{}, err
		}
		if got == nil {
			return hooks.ModelResponse{}, errors.New("hooks/eino: chat model: the model returned no message")
		}
		return toResponse(got), nil
	})
	if err != nil {
		return nil, "", err
	}
	if reply.End != nil {
		return schema.AssistantMessage(reply.End.Output, nil), "", nil
	}
	out, err := fromResponse(reply.Response, got)
	return out, reply.Continue, err
}

// fromResponse is the message eino receives: the model's own (a copy when
// a hook rewrote its text), or one made from a hook's Respond.
func fromResponse(resp hooks.ModelResponse, got *schema.Message) (*schema.Message, error) {
	if got != nil {
		return withReasoning(withText(got, resp.Text), resp.Reasoning), nil
	}
	calls, err := fromToolCalls(resp.ToolCalls, nil)
	if err != nil {
		return nil, fmt.Errorf("hooks/eino: a hook's Respond: %w", err)
	}
	out := schema.AssistantMessage(resp.Text, calls)
	out.ReasoningContent = resp.Reasoning
	return out, nil
}

// toResponse is the model's message as the hooks see it.
func toResponse(got *schema.Message) hooks.ModelResponse {
	resp := hooks.ModelResponse{Text: messageText(got), ToolCalls: toToolCalls(got.ToolCalls), Reasoning: got.ReasoningContent}
	replyMeta(&resp, got)
	return resp
}

// withReasoning returns m itself when its reasoning is r, else a copy
// with r (a hook redacted or dropped it).
func withReasoning(m *schema.Message, r string) *schema.Message {
	if m.ReasoningContent == r {
		return m
	}
	c := *m
	c.ReasoningContent = r
	return &c
}
