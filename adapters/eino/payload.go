package eino

import (
	"encoding/json"
	"fmt"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
	"github.com/eino-contrib/jsonschema"
	"github.com/rienda/hooks"
	"github.com/rienda/hooks/internal/adapt"
)

// offer is what one model call is made with, as eino's common options
// say: the model's name ("" when no option names it) and the tools (those
// bound with WithTools unless an option gives others).
type offer struct {
	model string
	tools []*schema.ToolInfo
	callFields
}

func newOffer(bound []*schema.ToolInfo, opts []model.Option) offer {
	o := model.GetCommonOptions(&model.Options{Tools: bound}, opts...)
	of := offer{tools: o.Tools, callFields: newCallFields(o)}
	if o.Model != nil {
		of.model = *o.Model
	}
	return of
}

// fill shows the hooks the offer.
func (of offer) fill(req *hooks.ModelRequest) {
	req.Model = of.model
	req.ToolChoice, req.Settings = of.choice, of.settings
	if len(of.tools) > 0 {
		req.Tools = make([]hooks.ToolSpec, len(of.tools))
		for i, t := range of.tools {
			req.Tools[i] = toolSpec(t)
		}
	}
}

// options are the eino options that make the call what the hooks left:
// none when they changed nothing, model.WithModel and model.WithTools for
// what they changed (a later option wins over the caller's).
func (of offer) options(req hooks.ModelRequest) ([]model.Option, error) {
	var opts []model.Option
	if req.Model != "" && req.Model != of.model {
		opts = append(opts, model.WithModel(req.Model))
	}
	tools, err := adapt.Tools(of.tools, req.Tools, toolSpec, buildTool)
	if err != nil {
		return nil, err
	}
	if len(tools) != len(of.tools) || !sameTools(tools, of.tools) {
		opts = append(opts, model.WithTools(tools))
	}
	more, err := of.callFields.options(req)
	if err != nil {
		return nil, err
	}
	return append(opts, more...), nil
}

func sameTools(a, b []*schema.ToolInfo) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// toolSpec is a tool as the hooks see it.
func toolSpec(t *schema.ToolInfo) hooks.ToolSpec {
	if t == nil {
		return hooks.ToolSpec{}
	}
	s := hooks.ToolSpec{Name: t.Name, Description: t.Desc}
	if t.ParamsOneOf != nil {
		if js, err := t.ParamsOneOf.ToJSONSchema(); err == nil && js != nil {
			s.Schema = adapt.Schema(js)
		}
	}
	return s
}

// buildTool makes the tool for a spec a hook wrote or changed, from orig
// (keeping its Extra) when the tool was offered.
func buildTool(orig **schema.ToolInfo, s hooks.ToolSpec) (*schema.ToolInfo, error) {
	var t schema.ToolInfo
	if orig != nil && *orig != nil {
		t = **orig
	}
	t.Name, t.Desc, t.ParamsOneOf = s.Name, s.Description, nil
	if len(s.Schema) > 0 {
		var js jsonschema.Schema
		if err := json.Unmarshal(s.Schema, &js); err != nil {
			return nil, fmt.Errorf("tool %q: the schema does not decode: %w", s.Name, err)
		}
		t.ParamsOneOf = schema.NewParamsOneOfByJSONSchema(&js)
	}
	return &t, nil
}

// replyMeta fills resp's usage and stop reason from the model's message.
func replyMeta(resp *hooks.ModelResponse, got *schema.Message) {
	meta := got.ResponseMeta
	if meta == nil {
		return
	}
	if u := meta.Usage; u != nil {
		resp.Usage = hooks.Usage{InputTokens: int64(u.PromptTokens), OutputTokens: int64(u.CompletionTokens),
			CachedInputTokens: int64(u.PromptTokenDetails.CachedTokens)}
	}
	resp.StopReason = stopReason(meta.FinishReason)
}

// stopReason maps a finish reason (eino's models mostly pass on the
// OpenAI words) onto the hooks' words; another keeps its own.
func stopReason(finish string) hooks.StopReason { return adapt.OpenAIStopReason(finish) }
