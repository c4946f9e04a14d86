package genai

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	sdk "google.golang.org/genai"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/internal/adapt"
)

// tool is one tool the hooks see: a function declaration, or a built-in
// tool (the rest of an sdk.Tool: Google Search, code execution, ...).
type tool struct {
	decl  *sdk.FunctionDeclaration
	other *sdk.Tool // its FunctionDeclarations are nil
}

// flatten lists tools one declaration or built-in tool at a time.
func flatten(tools []*sdk.Tool) []tool {
	var out []tool
	for _, t := range tools {
		if t == nil {
			continue
		}
		for _, d := range t.FunctionDeclarations {
			if d != nil {
				out = append(out, tool{decl: d})
			}
		}
		rest := *t
		rest.FunctionDeclarations = nil
		if builtinName(&rest) != "" {
			out = append(out, tool{other: &rest})
		}
	}
	return out
}

// toolSpecs are the tools the config offers, as the hooks see them.
func toolSpecs(tools []*sdk.Tool) []hooks.ToolSpec { return adapt.Specs(flatten(tools), toolSpec) }

func toolSpec(t tool) hooks.ToolSpec {
	if t.decl == nil {
		return hooks.ToolSpec{Name: builtinName(t.other)}
	}
	s := hooks.ToolSpec{Name: t.decl.Name, Description: t.decl.Description}
	if t.decl.ParametersJsonSchema != nil {
		s.Schema = adapt.Schema(t.decl.ParametersJsonSchema)
	} else if t.decl.Parameters != nil {
		s.Schema = adapt.Schema(t.decl.Parameters)
	}
	return s
}

// builtinName names a built-in tool by its JSON fields ("googleSearch",
// "codeExecution"; several joined by "+"); "" when it sets none.
func builtinName(t *sdk.Tool) string {
	b, err := json.Marshal(t)
	if err != nil {
		return ""
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil {
		return ""
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return strings.Join(keys, "+")
}

// buildTool makes the tool of a spec a hook wrote or changed: from orig
// (keeping its response schema and behavior) when it was offered. A
// built-in tool has only its name to change: it is kept.
func buildTool(orig *tool, s hooks.ToolSpec) (tool, error) {
	if orig != nil && orig.decl == nil {
		return *orig, nil
	}
	var d sdk.FunctionDeclaration
	if orig != nil {
		d = *orig.decl
	}
	if orig == nil || !adapt.SameSpec(hooks.ToolSpec{Name: s.Name, Schema: toolSpec(*orig).Schema}, hooks.ToolSpec{Name: s.Name, Schema: s.Schema}) {
		d.Parameters, d.ParametersJsonSchema = nil, nil
		if len(s.Schema) > 0 {
			var schema map[string]any
			if err := json.Unmarshal(s.Schema, &schema); err != nil {
				return tool{}, fmt.Errorf("tool %q: the schema is not a JSON object: %w", s.Name, err)
			}
			d.ParametersJsonSchema = schema
		}
	}
	d.Name, d.Description = s.Name, s.Description
	return tool{decl: &d}, nil
}

// withTools gives cfg the tools the hooks left (specs nil: cfg's own).
// Changed tools are sent as one sdk.Tool of every declaration followed by
// the built-in tools; allowed function names no longer offered are
// dropped, and the tool config goes with the last declaration.
func withTools(cfg *sdk.GenerateContentConfig, specs []hooks.ToolSpec) error {
	if specs == nil {
		return nil
	}
	base := flatten(cfg.Tools)
	got, err := adapt.Tools(base, specs, toolSpec, buildTool)
	if err != nil {
		return err
	}
	if len(got) == len(base) && slices.EqualFunc(got, base, func(a, b tool) bool { return a == b }) {
		return nil // unchanged: the caller's tools as they were
	}
	var decls []*sdk.FunctionDeclaration
	var out []*sdk.Tool
	for _, t := range got {
		if t.decl != nil {
			decls = append(decls, t.decl)
		} else {
			out = append(out, t.other)
		}
	}
	if len(decls) > 0 {
		out = append([]*sdk.Tool{{FunctionDeclarations: decls}}, out...)
	}
	cfg.Tools = out
	cfg.ToolConfig = narrowToolConfig(cfg.ToolConfig, decls)
	return nil
}

// narrowToolConfig drops allowed function names that are not offered, and
// the function calling config when no declaration is; tc is not
// modified.
func narrowToolConfig(tc *sdk.ToolConfig, decls []*sdk.FunctionDeclaration) *sdk.ToolConfig {
	if tc == nil || tc.FunctionCallingConfig == nil {
		return tc
	}
	out := *tc
	if len(decls) == 0 {
		out.FunctionCallingConfig = nil
		return &out
	}
	fc := *tc.FunctionCallingConfig
	fc.AllowedFunctionNames = slices.DeleteFunc(slices.Clone(fc.AllowedFunctionNames), func(name string) bool {
		return !slices.ContainsFunc(decls, func(d *sdk.FunctionDeclaration) bool { return d.Name == name })
	})
	if len(fc.AllowedFunctionNames) == 0 {
		fc.AllowedFunctionNames = nil
	}
	out.FunctionCallingConfig = &fc
	return &out
}

// usage is what a response cost, as the hooks see it: input counts the
// prompt and tool-use prompt tokens (cached ones included, as Gemini
// counts them), output the candidates' and thoughts' tokens.
func usage(u *sdk.GenerateContentResponseUsageMetadata) hooks.Usage {
	if u == nil {
		return hooks.Usage{}
	}
	return hooks.Usage{InputTokens: int64(u.PromptTokenCount) + int64(u.ToolUsePromptTokenCount),
		OutputTokens: int64(u.CandidatesTokenCount) + int64(u.ThoughtsTokenCount), CachedInputTokens: int64(u.CachedContentTokenCount)}
}

// stopReason maps a finish reason onto the hooks' words; STOP with
// function calls is tool_use, and another reason keeps its own.
func stopReason(r sdk.FinishReason, calls bool) hooks.StopReason {
	switch r {
	case sdk.FinishReasonStop, "":
		if calls {
			return hooks.StopToolUse
		}
		if r == "" {
			return ""
		}
		return hooks.StopEndTurn
	case sdk.FinishReasonMaxTokens:
		return hooks.StopMaxTokens
	case sdk.FinishReasonSafety, sdk.FinishReasonRecitation, sdk.FinishReasonBlocklist, sdk.FinishReasonProhibitedContent,
		sdk.FinishReasonSPII, sdk.FinishReasonImageSafety, sdk.FinishReasonImageProhibitedContent, sdk.FinishReasonModelArmor:
		return hooks.StopContentFilter
	}
	return hooks.StopReason(r)
}
