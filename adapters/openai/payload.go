package openai

import (
	"encoding/json"
	"fmt"

	oai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/rienda/hooks"
	"github.com/rienda/hooks/internal/adapt"
)

// toolSpecs are the tools params offers, as the hooks see them: a
// function tool's name, description and parameters schema; a custom
// tool's name and description. Nil when params offers none.
func toolSpecs(tools []oai.ChatCompletionToolUnionParam) []hooks.ToolSpec {
	return adapt.Specs(tools, toolSpec)
}

func toolSpec(t oai.ChatCompletionToolUnionParam) hooks.ToolSpec {
	switch {
	case t.OfFunction != nil:
		f := t.OfFunction.Function
		return hooks.ToolSpec{Name: f.Name, Description: f.Description.Value, Schema: adapt.Schema(f.Parameters)}
	case t.OfCustom != nil:
		c := t.OfCustom.Custom
		return hooks.ToolSpec{Name: c.Name, Description: c.Description.Value}
	}
	return hooks.ToolSpec{}
}

// buildTool makes the tool for a spec a hook wrote or changed: from orig
// (keeping strict mode, a custom tool's format) when the tool was
// offered, else a function tool.
func buildTool(orig *oai.ChatCompletionToolUnionParam, s hooks.ToolSpec) (oai.ChatCompletionToolUnionParam, error) {
	var params oai.FunctionParameters
	if len(s.Schema) > 0 {
		if err := json.Unmarshal(s.Schema, &params); err != nil {
			return oai.ChatCompletionToolUnionParam{}, fmt.Errorf("tool %q: the schema is not a JSON object: %w", s.Name, err)
		}
	}
	desc := param.Opt[string]{}
	if s.Description != "" {
		desc = param.NewOpt(s.Description)
	}
	if orig != nil && orig.OfCustom != nil {
		c := *orig.OfCustom
		c.Custom.Name, c.Custom.Description = s.Name, desc
		return oai.ChatCompletionToolUnionParam{OfCustom: &c}, nil
	}
	var f oai.ChatCompletionFunctionToolParam
	if orig != nil && orig.OfFunction != nil {
		f = *orig.OfFunction
	}
	f.Function.Name, f.Function.Description, f.Function.Parameters = s.Name, desc, params
	return oai.ChatCompletionToolUnionParam{OfFunction: &f}, nil
}

// withTools gives out the tools and model the hooks left. A tool choice
// naming a tool no longer offered is dropped (the API would refuse it;
// the core refuses a hook's narrowing before that, so this is a backstop),
// and so are the tool choice and parallel_tool_calls when no tool is.
func withTools(out *oai.ChatCompletionNewParams, req hooks.ModelRequest) error {
	if req.Model != "" {
		out.Model = req.Model
	}
	tools, err := adapt.Tools(out.Tools, req.Tools, toolSpec, buildTool)
	if err != nil {
		return err
	}
	out.Tools = tools
	if len(tools) == 0 && req.Tools != nil {
		out.Tools = nil
		out.ToolChoice = oai.ChatCompletionToolChoiceOptionUnionParam{}
		out.ParallelToolCalls = param.Opt[bool]{}
		return nil
	}
	if name := chosenTool(out.ToolChoice); name != "" && toolIndex(tools, name) < 0 {
		out.ToolChoice = oai.ChatCompletionToolChoiceOptionUnionParam{}
	}
	return nil
}

// chosenTool is the name of the tool a tool choice forces, if any.
func chosenTool(c oai.ChatCompletionToolChoiceOptionUnionParam) string {
	switch {
	case c.OfFunctionToolChoice != nil:
		return c.OfFunctionToolChoice.Function.Name
	case c.OfCustomToolChoice != nil:
		return c.OfCustomToolChoice.Custom.Name
	}
	return ""
}

func toolIndex(tools []oai.ChatCompletionToolUnionParam, name string) int {
	for i, t := range tools {
		if toolSpec(t).Name == name {
			return i
		}
	}
	return -1
}

// usage is what the completion cost, as the hooks see it.
func usage(u oai.CompletionUsage) hooks.Usage {
	return hooks.Usage{InputTokens: u.PromptTokens, OutputTokens: u.CompletionTokens,
		CachedInputTokens: u.PromptTokensDetails.CachedTokens}
}

// stopReason maps a finish_reason onto the hooks' words; another keeps
// its own.
func stopReason(finish string) hooks.StopReason { return adapt.OpenAIStopReason(finish) }
