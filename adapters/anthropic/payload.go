package anthropic

import (
	"encoding/json"
	"fmt"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"
	"github.com/rienda/hooks"
	"github.com/rienda/hooks/internal/adapt"
)

// toolSpecs are the tools params offers, as the hooks see them: a custom
// tool's name, description and input schema; a server tool's name. Nil
// when params offers none.
func toolSpecs(tools []sdk.ToolUnionParam) []hooks.ToolSpec { return adapt.Specs(tools, toolSpec) }

func toolSpec(t sdk.ToolUnionParam) hooks.ToolSpec {
	if t.OfTool != nil {
		return hooks.ToolSpec{Name: t.OfTool.Name, Description: t.OfTool.Description.Value,
			Schema: adapt.Schema(t.OfTool.InputSchema)}
	}
	if name := t.GetName(); name != nil {
		return hooks.ToolSpec{Name: *name}
	}
	return hooks.ToolSpec{}
}

// buildTool makes the tool for a spec a hook wrote or changed: from orig
// (keeping cache_control, strict mode) when the tool was offered, else a
// custom tool. A server tool has only its name to change: it is kept.
func buildTool(orig *sdk.ToolUnionParam, s hooks.ToolSpec) (sdk.ToolUnionParam, error) {
	if orig != nil && orig.OfTool == nil {
		return *orig, nil
	}
	var t sdk.ToolParam
	if orig != nil {
		t = *orig.OfTool
	}
	t.Name, t.Description = s.Name, param.Opt[string]{}
	if s.Description != "" {
		t.Description = param.NewOpt(s.Description)
	}
	schema, err := inputSchema(s)
	if err != nil {
		return sdk.ToolUnionParam{}, err
	}
	t.InputSchema = schema
	return sdk.ToolUnionParam{OfTool: &t}, nil
}

// inputSchema is s's schema as the SDK sends it.
func inputSchema(s hooks.ToolSpec) (sdk.ToolInputSchemaParam, error) {
	var schema sdk.ToolInputSchemaParam
	if len(s.Schema) == 0 {
		return schema, nil
	}
	var m map[string]any
	if err := json.Unmarshal(s.Schema, &m); err != nil {
		return schema, fmt.Errorf("tool %q: the schema is not a JSON object: %w", s.Name, err)
	}
	schema.Properties = m["properties"]
	if req, ok := m["required"].([]any); ok {
		for _, r := range req {
			if name, ok := r.(string); ok {
				schema.Required = append(schema.Required, name)
			}
		}
	}
	delete(m, "properties")
	delete(m, "required")
	delete(m, "type")
	if len(m) > 0 {
		schema.ExtraFields = m
	}
	return schema, nil
}

// withTools gives out the tools and model the hooks left. A tool choice
// naming a tool no longer offered is dropped (the API would refuse it;
// the core refuses a hook's narrowing before that, so this is a backstop),
// and so is any tool choice when no tool is.
func withTools(out *sdk.MessageNewParams, req hooks.ModelRequest) error {
	if req.Model != "" {
		out.Model = sdk.Model(req.Model)
	}
	tools, err := adapt.Tools(out.Tools, req.Tools, toolSpec, buildTool)
	if err != nil {
		return err
	}
	out.Tools = tools
	if len(tools) == 0 && req.Tools != nil {
		out.Tools, out.ToolChoice = nil, sdk.ToolChoiceUnionParam{}
		return nil
	}
	if c := out.ToolChoice.OfTool; c != nil && !offered(tools, c.Name) {
		out.ToolChoice = sdk.ToolChoiceUnionParam{}
	}
	return nil
}

func offered(tools []sdk.ToolUnionParam, name string) bool {
	for _, t := range tools {
		if toolSpec(t).Name == name {
			return true
		}
	}
	return false
}

// usage is what the message cost, as the hooks see it: InputTokens counts
// every input token (the API's input_tokens leave out the cache's).
func usage(u sdk.Usage) hooks.Usage {
	return hooks.Usage{InputTokens: u.InputTokens + u.CacheReadInputTokens + u.CacheCreationInputTokens,
		OutputTokens: u.OutputTokens, CachedInputTokens: u.CacheReadInputTokens}
}

// stopReason maps a stop_reason onto the hooks' words; another keeps its
// own (stop_sequence).
func stopReason(r sdk.StopReason) hooks.StopReason {
	switch r {
	case sdk.StopReasonEndTurn:
		return hooks.StopEndTurn
	case sdk.StopReasonToolUse:
		return hooks.StopToolUse
	case sdk.StopReasonMaxTokens:
		return hooks.StopMaxTokens
	case sdk.StopReasonRefusal:
		return hooks.StopContentFilter
	case sdk.StopReasonPauseTurn:
		return hooks.StopPauseTurn
	}
	return hooks.StopReason(r)
}
