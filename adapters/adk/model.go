package adk

import (
	"errors"
	"slices"

	"google.golang.org/adk/v2/agent"
	"google.golang.org/adk/v2/model"
	"google.golang.org/genai"

	"github.com/rienda/hooks"
	hooksgenai "github.com/rienda/hooks/adapters/genai"
	"github.com/rienda/hooks/internal/adapt"
)

// errNoRun is a callback of an invocation whose BeforeRun did not run.
var errNoRun = errors.New("adk: no run for this invocation (is the plugin given to the runner?)")

// beforeModel runs the BeforeModelRequest hooks on ADK's request and
// leaves the request they return in req; an End or a hook's answer is the
// model's reply (ADK then runs no after-model callback, so the
// AfterModelResponse hooks run here).
func (h *Hooks) beforeModel(ctx agent.Context, req *model.LLMRequest) (*model.LLMResponse, error) {
	inv := h.get(ctx.InvocationID())
	if inv == nil {
		return nil, errNoRun
	}
	if e := inv.endedWith(); e != nil {
		return endResponse(e), nil // the run ended: no model call of any agent of the invocation
	}
	if req.Tools == nil {
		req.Tools = map[string]any{}
	}
	req.Tools[continueTool] = h.cont
	req.Contents = unwrapContinues(req.Contents)
	params := hooksgenai.Params{Model: req.Model, Contents: req.Contents, Config: req.Config}
	if inv.streaming && h.streams {
		return inv.beforeStreamed(ctx, req, params)
	}
	step, err := inv.run.BeforeModelRequest(ctx, hooksgenai.Request(params))
	if err != nil {
		return nil, inv.fail(err)
	}
	if step.End != nil {
		return inv.end(ctx, step.End), nil
	}
	if step.Response != nil {
		resp := *step.Response
		resp.ToolCalls = adapt.FillCallIDs(resp.ToolCalls, "adk_hooks_")
		reply, err := inv.run.AfterModelResponse(ctx, step, resp)
		if err != nil {
			return nil, inv.fail(err)
		}
		return inv.reply(ctx, nil, reply)
	}
	sent, err := hooksgenai.Build(params, step.Request)
	if err != nil {
		return nil, err
	}
	req.Model, req.Contents, req.Config = sent.Model, sent.Contents, sent.Config
	key := modelKey(ctx)
	inv.mu.Lock()
	inv.models[key] = append(inv.models[key], step)
	inv.mu.Unlock()
	return nil, nil
}

// afterModel runs the AfterModelResponse hooks on the final response of
// the call. A partial (streamed) response goes through the stream hooks
// (stream.go) when the chain has some; else it goes on without its text,
// which the final one carries after the hooks.
func (h *Hooks) afterModel(ctx agent.Context, resp *model.LLMResponse, respErr error) (*model.LLMResponse, error) {
	inv := h.get(ctx.InvocationID())
	if inv == nil {
		return nil, errNoRun
	}
	if b := inv.bridgeOf(ctx, resp, respErr); b != nil {
		return inv.afterStreamed(ctx, b, resp, respErr)
	}
	if resp != nil && resp.Partial {
		held := *resp
		held.Content = nil
		return &held, nil
	}
	key := modelKey(ctx)
	inv.mu.Lock()
	steps := inv.models[key]
	if len(steps) == 0 {
		inv.mu.Unlock()
		return nil, errors.New("adk: a model response without its request")
	}
	step := steps[0]
	inv.models[key] = steps[1:]
	inv.mu.Unlock()
	if respErr != nil || resp == nil {
		return nil, nil // the model's error is ADK's
	}
	r := &genai.GenerateContentResponse{Candidates: []*genai.Candidate{{Content: resp.Content, FinishReason: resp.FinishReason}},
		UsageMetadata: resp.UsageMetadata, ModelVersion: resp.ModelVersion}
	got, err := hooksgenai.Response(r)
	if err != nil {
		return nil, err
	}
	reply, err := inv.run.AfterModelResponse(ctx, step, got)
	if err != nil {
		return nil, inv.fail(err)
	}
	out, err := inv.reply(ctx, r, reply)
	if out != nil && err == nil {
		kept := *resp
		kept.Content = out.Content
		return &kept, nil
	}
	return out, err
}

// modelKey tells apart the model calls of an invocation that may run at
// once: those of agents on parallel branches.
func modelKey(ctx agent.Context) string { return ctx.Branch() + "\x00" + ctx.AgentName() }

// reply is the LLMResponse of the hooks' reply (orig: the model's; nil
// for a hook's answer), recording a final reply as the run's output. A
// Continue makes the reply call continueTool (see continue.go).
func (inv *invocation) reply(ctx agent.Context, orig *genai.GenerateContentResponse, reply hooks.ModelReply) (*model.LLMResponse, error) {
	if reply.End != nil {
		return inv.end(ctx, reply.End), nil
	}
	content, err := hooksgenai.AssistantMessage(orig, reply.Response)
	if err != nil {
		return nil, err
	}
	if len(reply.Response.ToolCalls) == 0 {
		inv.mu.Lock()
		inv.output = reply.Response.Text
		goOn := reply.Continue != "" && inv.continues < maxContinues
		if goOn {
			inv.continues++
		}
		inv.mu.Unlock()
		if goOn {
			content = &genai.Content{Role: content.Role, Parts: append(slices.Clone(content.Parts), continueCall(reply.Continue))}
		}
	}
	return &model.LLMResponse{Content: content, TurnComplete: true}, nil
}

// end ends the run with e's output as the model's last reply: a reply
// without calls, so the agent's flow stops, and every later model call of
// the invocation (another agent's) gets the same reply without a call.
// (ADK's callback context cannot end the invocation itself.)
func (inv *invocation) end(_ agent.Context, e *hooks.End) *model.LLMResponse {
	inv.mu.Lock()
	inv.ended = e
	inv.mu.Unlock()
	return endResponse(e)
}

func endResponse(e *hooks.End) *model.LLMResponse {
	return &model.LLMResponse{Content: genai.NewContentFromText(e.Output, genai.RoleModel), TurnComplete: true}
}

// endedWith is the End a hook ended the run with; nil while it goes on.
func (inv *invocation) endedWith() *hooks.End {
	inv.mu.Lock()
	defer inv.mu.Unlock()
	return inv.ended
}

// fail records a hook's error as the run's and returns it.
func (inv *invocation) fail(err error) error {
	inv.mu.Lock()
	inv.err = err
	inv.mu.Unlock()
	return err
}
