package genai

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	sdk "google.golang.org/genai"

	"github.com/rienda/hooks"
)

// buildPart makes the parts of a message a hook wrote or changed. A
// changed message starts from its own parts, so that only what the hook
// changed changes. names maps call IDs to tool names.
func buildPart(m hooks.Message, names map[string]string) (part, error) {
	raw, _ := m.Raw()
	orig, _ := raw.(part)
	if orig.role != m.Role {
		orig = part{} // a hook changed the role: nothing of the old parts fits
	}
	switch m.Role {
	case "user", "system":
		parts := orig.parts
		if m.Text != partsText(parts, "\n") {
			parts = replaceText(parts, m.Text)
		}
		return part{role: m.Role, parts: parts}, nil
	case "tool":
		return buildToolResult(m, orig, names)
	case "assistant":
		return buildAssistant(m, orig)
	}
	return part{}, fmt.Errorf("unknown role %q (want system, user, assistant or tool)", m.Role)
}

// buildToolResult makes a functionResponse part, keeping the original's
// name and other fields; a new one takes the name of the call it answers.
func buildToolResult(m hooks.Message, orig part, names map[string]string) (part, error) {
	var r sdk.FunctionResponse
	if len(orig.parts) == 1 && orig.parts[0].FunctionResponse != nil {
		r = *orig.parts[0].FunctionResponse
	}
	if r.Name == "" || (m.ToolCallID != "" && m.ToolCallID != r.ID && names[m.ToolCallID] != "") {
		r.Name = names[m.ToolCallID]
	}
	if r.Name == "" {
		return part{}, fmt.Errorf("a tool message needs the name of its call: no tool call has ID %q", m.ToolCallID)
	}
	r.ID = m.ToolCallID
	if m.Text != responseText(r.Response) {
		key := "output"
		if _, isErr := r.Response["error"]; isErr {
			key = "error"
		}
		r.Response = map[string]any{key: m.Text}
	}
	p := &sdk.Part{FunctionResponse: &r}
	if len(orig.parts) == 1 {
		cp := *orig.parts[0]
		cp.FunctionResponse = &r
		p = &cp
	}
	return part{role: "tool", parts: []*sdk.Part{p}}, nil
}

// buildAssistant makes a model content's parts: the original's (thoughts
// and their signatures included) with the hooks' text and tool calls. A
// functionCall part whose name and arguments no hook changed is kept as
// it was; a changed one keeps its thought signature.
func buildAssistant(m hooks.Message, orig part) (part, error) {
	parts := orig.parts
	if m.Text != partsText(parts, "") {
		parts = replaceText(parts, m.Text)
	}
	calls := slices.DeleteFunc(slices.Clone(parts), func(p *sdk.Part) bool { return p == nil || p.FunctionCall == nil })
	parts = slices.DeleteFunc(slices.Clone(parts), func(p *sdk.Part) bool { return p != nil && p.FunctionCall != nil })
	for i, c := range m.ToolCalls {
		j := slices.IndexFunc(calls, func(p *sdk.Part) bool { return c.ID != "" && p.FunctionCall.ID == c.ID })
		if j < 0 && c.ID == "" && i < len(calls) && calls[i].FunctionCall.ID == "" {
			j = i // the model's calls without IDs match by place
		}
		if j >= 0 && calls[j].FunctionCall.Name == c.Name && sameArguments(callArguments(calls[j].FunctionCall.Args), c.Arguments) {
			parts = append(parts, calls[j])
			continue
		}
		args, err := callArgs(c.Arguments)
		if err != nil {
			return part{}, fmt.Errorf("tool call %q: %w", c.ID, err)
		}
		p := &sdk.Part{}
		if j >= 0 {
			*p = *calls[j]
		}
		p.FunctionCall = &sdk.FunctionCall{ID: c.ID, Name: c.Name, Args: args}
		parts = append(parts, p)
	}
	return part{role: "assistant", parts: parts}, nil
}

// callArgs are the hooks' arguments as a functionCall's args: plain JSON
// values. Arguments that hold only hooks.InvalidArgumentsKey (text that
// was not a JSON object) are sent as that object.
func callArgs(args map[string]any) (map[string]any, error) {
	if len(args) == 0 {
		return nil, nil
	}
	b, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	var out map[string]any
	err = json.Unmarshal(b, &out)
	return out, err
}

// replaceText returns parts that say text: the first text part takes it,
// the other text parts go, and every other part (an image, a file, a
// thought, a call) stays where it was. Without a text part a new one goes
// last; an empty text removes the text parts. parts itself is not
// modified.
func replaceText(parts []*sdk.Part, text string) []*sdk.Part {
	out := make([]*sdk.Part, 0, len(parts)+1)
	placed := false
	for _, p := range parts {
		if !isText(p) {
			out = append(out, p)
			continue
		}
		if !placed && text != "" {
			cp := *p
			cp.Text = text
			out = append(out, &cp)
		}
		placed = true
	}
	if !placed && text != "" {
		out = append(out, sdk.NewPartFromText(text))
	}
	return out
}

// responseText is what a functionResponse says to the hooks: its output
// or error when that is all it holds and is text, else the JSON of its
// output (or of the whole response).
func responseText(r map[string]any) string {
	if len(r) == 0 {
		return ""
	}
	if len(r) == 1 {
		for _, key := range []string{"output", "error"} {
			if v, ok := r[key]; ok {
				if s, ok := v.(string); ok {
					return s
				}
				b, _ := json.Marshal(v)
				return string(b)
			}
		}
	}
	b, _ := json.Marshal(r)
	return string(b)
}

// sameArguments compares arguments as values; no arguments and an empty
// map are the same.
func sameArguments(a, b map[string]any) bool {
	if len(a) == 0 && len(b) == 0 {
		return true
	}
	return reflect.DeepEqual(a, b)
}
