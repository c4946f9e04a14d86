package genai

import (
	"encoding/json"
	"fmt"
	"strings"

	sdk "google.golang.org/genai"

	"github.com/rienda/hooks"
)

// Params is one GenerateContent call: the SDK's three arguments in one
// value, so that a call can be passed, changed and sent as a whole.
type Params struct {
	Model    string
	Contents []*sdk.Content
	Config   *sdk.GenerateContentConfig // nil: none
}

// Request converts params into the request the hooks see. System is the
// text of Config.SystemInstruction's parts, joined by a blank line.
//
// A "user" content may hold several of the hooks' messages: each
// functionResponse part becomes a "tool" message (ToolCallID its id), the
// other parts a "user" message, in their order. A "model" content is one
// "assistant" message, its functionCall parts as ToolCalls (thought parts
// are not shown). Each keeps its parts and the content they came from
// (hooks.Message.WithRaw), so that Build sends a content whose parts no
// hook changed as it was. Model is params.Model; Tools are the function
// declarations offered (the JSON schema of their parameters as Schema),
// and each built-in tool (googleSearch, codeExecution, ...) by its JSON
// name. ToolChoice is the function calling config (ANY: required, with
// the one function it allows as Name); Settings are temperature, topP,
// maxOutputTokens, stopSequences and HTTPOptions.ExtraBody as Provider.
func Request(params Params) hooks.ModelRequest {
	req := hooks.ModelRequest{Messages: make([]hooks.Message, 0, len(params.Contents)), Model: params.Model}
	if c := params.Config; c != nil {
		req.System = systemText(c.SystemInstruction)
		req.Tools = toolSpecs(c.Tools)
		req.ToolChoice, req.Settings = toolChoice(c), settings(c)
	}
	for _, c := range params.Contents {
		if c != nil {
			req.Messages = append(req.Messages, split(c)...)
		}
	}
	return req
}

// Build returns base carrying the request the hooks left (a ModelStep's
// Request, or the req a ModelFunc receives). A content of base whose
// parts all came back unchanged, together and in order, is sent as base's
// own value; what a hook changed is rebuilt from its parts, so that a
// message whose text a hook rewrote keeps its images, files and thought
// signatures. Consecutive rebuilt parts of one role make one content. A
// System that only gained text before or after the original keeps the
// original parts and adds one with the new text; any other change makes
// one part.
//
// A Model set replaces base's. Tools the hooks left unchanged are base's
// own; a hook's change is sent (a declaration narrowed away is not
// offered, one whose description or schema changed keeps its other
// fields, a new one is a declaration of its own), and allowed function
// names naming a declaration no longer offered are dropped. Tools nil (a
// request built without them) keeps base's. base and its Config are not
// modified: the Config sent is a copy.
//
// A ToolChoice or Settings the hooks left as Request read them sends
// base's own values. A changed ToolChoice is sent as the function calling
// mode (required: ANY; a name: ANY allowing that function alone, which
// must be declared); changed Settings replace the four settings (nil:
// omitted, the API's default) and ExtraBody. A choice or setting no API
// accepts is an error naming it.
func Build(base Params, req hooks.ModelRequest) (Params, error) {
	names := callNames(req.Messages)
	parts, err := hooks.RebuildMessages(req.Messages, func(m hooks.Message) (part, error) { return buildPart(m, names) })
	if err != nil {
		return base, fmt.Errorf("genai: %w", err)
	}
	out := base
	out.Contents = assemble(parts)
	if req.Model != "" {
		out.Model = req.Model
	}
	cfg := sdk.GenerateContentConfig{}
	if base.Config != nil {
		cfg = *base.Config
	}
	cfg.SystemInstruction = systemContent(cfg.SystemInstruction, req.System)
	if err := withTools(&cfg, req.Tools); err != nil {
		return base, fmt.Errorf("genai: %w", err)
	}
	if err := withChoice(&cfg, base.Config, req); err != nil {
		return base, err
	}
	out.Config = &cfg
	return out, nil
}

// callNames maps the ID of each tool call in msgs to its tool's name: a
// functionResponse a hook wrote carries the name of the call it answers.
func callNames(msgs []hooks.Message) map[string]string {
	names := map[string]string{}
	for _, m := range msgs {
		for _, c := range m.ToolCalls {
			if c.ID != "" {
				names[c.ID] = c.Name
			}
		}
	}
	return names
}

// part is the SDK value kept with one hooks message: the parts it was
// made from, and the content they belong to.
type part struct {
	from  *sdk.Content // nil for a part a hook wrote or changed
	index int          // this part is index of the of parts from was split into
	of    int
	role  string // the hooks' role
	parts []*sdk.Part
}

// apiRole is the role of the content that holds p: tool results and a
// hook's system message go in user contents.
func (p part) apiRole() string {
	if p.role == "assistant" {
		return sdk.RoleModel
	}
	return sdk.RoleUser
}

// split converts one content into the hooks' messages.
func split(c *sdk.Content) []hooks.Message {
	var parts []part
	var msgs []hooks.Message
	add := func(p part, h hooks.Message) {
		p.from, p.index = c, len(parts)
		parts, msgs = append(parts, p), append(msgs, h)
	}
	if c.Role == sdk.RoleModel {
		add(part{role: "assistant", parts: c.Parts}, assistantMessage(c.Parts))
	} else {
		var pending []*sdk.Part
		flush := func() {
			if len(pending) > 0 {
				add(part{role: "user", parts: pending}, hooks.Message{Role: "user", Text: partsText(pending, "\n")})
				pending = nil
			}
		}
		for _, p := range c.Parts {
			if p == nil || p.FunctionResponse == nil {
				pending = append(pending, p)
				continue
			}
			flush()
			add(part{role: "tool", parts: []*sdk.Part{p}}, hooks.Message{Role: "tool",
				ToolCallID: p.FunctionResponse.ID, Text: responseText(p.FunctionResponse.Response)})
		}
		flush()
		if len(parts) == 0 {
			add(part{role: "user"}, hooks.Message{Role: "user"})
		}
	}
	for i := range msgs {
		parts[i].of = len(parts)
		msgs[i] = msgs[i].WithRaw(parts[i])
	}
	return msgs
}

// assistantMessage is the hooks' message of a model content's parts.
func assistantMessage(parts []*sdk.Part) hooks.Message {
	h := hooks.Message{Role: "assistant", Text: partsText(parts, "")}
	for _, p := range parts {
		if p != nil && p.FunctionCall != nil {
			h.ToolCalls = append(h.ToolCalls, hooks.ToolCall{ID: p.FunctionCall.ID, Name: p.FunctionCall.Name,
				Arguments: callArguments(p.FunctionCall.Args)})
		}
	}
	return h
}

// callArguments are a function call's arguments as the hooks see them:
// the SDK's map re-read by hooks.ParseArguments, so that keys differing
// only in case are refused as they are for every other adapter.
func callArguments(args map[string]any) map[string]any {
	raw, err := json.Marshal(args)
	if err != nil {
		return map[string]any{hooks.InvalidArgumentsKey: fmt.Sprint(args)}
	}
	if string(raw) == "null" {
		return nil
	}
	out, _ := hooks.ParseArguments(raw) // on error the text is kept
	return out
}

// assemble turns the parts back into contents.
func assemble(parts []part) []*sdk.Content {
	out := make([]*sdk.Content, 0, len(parts))
	for i := 0; i < len(parts); {
		if n := whole(parts[i:]); n > 0 {
			out = append(out, parts[i].from)
			i += n
			continue
		}
		j := i + 1
		for j < len(parts) && parts[j].apiRole() == parts[i].apiRole() && whole(parts[j:]) == 0 {
			j++
		}
		var ps []*sdk.Part
		for _, p := range parts[i:j] {
			ps = append(ps, p.parts...)
		}
		out = append(out, &sdk.Content{Role: parts[i].apiRole(), Parts: ps})
		i = j
	}
	return out
}

// whole is how many parts, from the first, are all of one content
// unchanged and in order; 0 when they are not.
func whole(ps []part) int {
	p := ps[0]
	if p.from == nil || p.index != 0 || len(ps) < p.of {
		return 0
	}
	for k := 1; k < p.of; k++ {
		if ps[k].from != p.from || ps[k].index != k {
			return 0
		}
	}
	return p.of
}

// isText reports a part that says text to the hooks: a text part that is
// not a thought.
func isText(p *sdk.Part) bool {
	return p != nil && !p.Thought && p.FunctionCall == nil && p.FunctionResponse == nil && p.InlineData == nil &&
		p.FileData == nil && p.ExecutableCode == nil && p.CodeExecutionResult == nil && p.ToolCall == nil && p.ToolResponse == nil
}

// partsText is the text of parts' text parts, joined by sep.
func partsText(parts []*sdk.Part, sep string) string {
	var texts []string
	for _, p := range parts {
		if isText(p) && p.Text != "" {
			texts = append(texts, p.Text)
		}
	}
	return strings.Join(texts, sep)
}

// systemSeparator joins the texts of the system instruction's parts.
const systemSeparator = "\n\n"

// systemText is the text of a system instruction.
func systemText(c *sdk.Content) string {
	if c == nil {
		return ""
	}
	return partsText(c.Parts, systemSeparator)
}

// systemContent is the system instruction that says system, reusing
// orig's parts where the hooks only added text around it. It is always a
// new value: the SDK sets a missing role on the one it sends.
func systemContent(orig *sdk.Content, system string) *sdk.Content {
	was := systemText(orig)
	if orig == nil && system == "" {
		return nil
	}
	out := &sdk.Content{Role: sdk.RoleUser}
	if orig != nil && orig.Role != "" {
		out.Role = orig.Role
	}
	switch {
	case system == was && orig != nil:
		out.Parts = orig.Parts
	case was != "" && strings.HasPrefix(system, was):
		out.Parts = append(append(out.Parts, orig.Parts...), sdk.NewPartFromText(strings.TrimLeft(system[len(was):], "\n")))
	case was != "" && strings.HasSuffix(system, was):
		out.Parts = append([]*sdk.Part{sdk.NewPartFromText(strings.TrimRight(system[:len(system)-len(was)], "\n"))}, orig.Parts...)
	case system == "":
		return nil
	default:
		out.Parts = []*sdk.Part{sdk.NewPartFromText(system)}
	}
	return out
}
