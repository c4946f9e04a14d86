package genkit

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/firebase/genkit/go/ai"
	"github.com/rienda/hooks"
)

// piece is one tool response of a genkit tool message holding several:
// the hooks see each response as a message of its own (a tool message
// answers one call), and pieces left as they were are regrouped.
type piece struct {
	msg  *ai.Message
	part int // index in msg.Content
}

// toRequest turns genkit's messages into the hooks' request: a leading
// system message is System, every other message keeps its genkit value
// (WithRaw). It returns the system message it took, or nil.
func toRequest(input []*ai.Message) (hooks.ModelRequest, *ai.Message) {
	var req hooks.ModelRequest
	var system *ai.Message
	if len(input) > 0 && input[0] != nil && input[0].Role == ai.RoleSystem {
		system, input = input[0], input[1:]
		req.System = system.Text()
	}
	req.Messages = make([]hooks.Message, 0, len(input))
	for _, m := range input {
		if m == nil {
			continue
		}
		if m.Role != ai.RoleTool {
			req.Messages = append(req.Messages, toMessage(m).WithRaw(m))
			continue
		}
		n := countResponses(m)
		for i, p := range m.Content {
			if !p.IsToolResponse() {
				continue
			}
			hm := hooks.Message{Role: "tool", ToolCallID: p.ToolResponse.Ref, Text: outputText(p.ToolResponse.Output)}
			if n == 1 {
				req.Messages = append(req.Messages, hm.WithRaw(m))
			} else {
				req.Messages = append(req.Messages, hm.WithRaw(piece{m, i}))
			}
		}
	}
	return req, system
}

func countResponses(m *ai.Message) int {
	n := 0
	for _, p := range m.Content {
		if p.IsToolResponse() {
			n++
		}
	}
	return n
}

// toMessage converts a user, model or system message, without keeping it.
func toMessage(m *ai.Message) hooks.Message {
	return hooks.Message{Role: hooksRole(m.Role), Text: m.Text(), ToolCalls: toToolCalls(m.Content)}
}

func hooksRole(r ai.Role) string {
	if r == ai.RoleModel {
		return "assistant"
	}
	return string(r)
}

// toToolCalls are the tool requests among parts, as the hooks see them.
func toToolCalls(parts []*ai.Part) []hooks.ToolCall {
	var out []hooks.ToolCall
	for _, p := range parts {
		if p.IsToolRequest() {
			r := p.ToolRequest
			out = append(out, hooks.ToolCall{ID: r.Ref, Name: r.Name, Arguments: inputArguments(r.Input)})
		}
	}
	return out
}

// inputArguments is a tool request's input as the hooks' arguments: the
// decoded object, or the text under hooks.InvalidArgumentsKey.
func inputArguments(input any) map[string]any {
	var raw []byte
	switch v := input.(type) {
	case nil:
		return nil
	case string: // a streamed request's input is still text
		raw = []byte(v)
	case json.RawMessage:
		raw = v
	default:
		b, err := json.Marshal(v)
		if err != nil {
			return map[string]any{hooks.InvalidArgumentsKey: fmt.Sprint(v)}
		}
		raw = b
	}
	args, _ := hooks.ParseArguments(raw) // refused: the hooks see the text
	return args
}

// outputText is a tool's output as the text the hooks read: a string as
// it is, another value as the JSON the model reads.
func outputText(out any) string {
	switch v := out.(type) {
	case nil:
		return ""
	case string:
		return v
	}
	b, err := json.Marshal(out)
	if err != nil {
		return fmt.Sprint(out)
	}
	return string(b)
}

// fromRequest turns the hooks' request back into genkit's messages;
// system is what toRequest took.
func fromRequest(req hooks.ModelRequest, system *ai.Message) ([]*ai.Message, error) {
	names := callNames(req.Messages)
	built, err := hooks.RebuildMessages(req.Messages, func(hm hooks.Message) (any, error) {
		return fromMessage(hm, names)
	})
	if err != nil {
		return nil, err
	}
	msgs := regroup(built)
	switch {
	case system != nil && req.System == system.Text(): // unchanged: genkit's own value
	case req.System == "":
		system = nil
	case system != nil:
		system = withText(system, req.System)
	default:
		system = ai.NewSystemTextMessage(req.System)
	}
	if system == nil {
		return msgs, nil
	}
	return append([]*ai.Message{system}, msgs...), nil
}

// regroup turns what RebuildMessages gave (messages, and pieces of tool
// messages) into messages: consecutive pieces of one message become that
// message when they are all of it, in order, else a new tool message.
func regroup(built []any) []*ai.Message {
	out := make([]*ai.Message, 0, len(built))
	for i := 0; i < len(built); {
		p, ok := built[i].(piece)
		if !ok {
			out = append(out, built[i].(*ai.Message))
			i++
			continue
		}
		j := i + 1
		for j < len(built) {
			q, ok := built[j].(piece)
			if !ok || q.msg != p.msg {
				break
			}
			j++
		}
		out = append(out, group(built[i:j]))
		i = j
	}
	return out
}

func group(pieces []any) *ai.Message {
	first := pieces[0].(piece)
	parts := make([]*ai.Part, len(pieces))
	for k, x := range pieces {
		parts[k] = first.msg.Content[x.(piece).part]
	}
	all := make([]*ai.Part, 0, len(first.msg.Content))
	for _, p := range first.msg.Content {
		if p.IsToolResponse() {
			all = append(all, p)
		}
	}
	if slices.Equal(parts, all) {
		return first.msg
	}
	m := *first.msg
	m.Content = parts
	return &m
}

// callNames maps each tool call ID in msgs to its tool's name, so that a
// tool message a hook wrote names the tool it answers.
func callNames(msgs []hooks.Message) map[string]string {
	names := map[string]string{}
	for _, m := range msgs {
		for _, c := range m.ToolCalls {
			names[c.ID] = c.Name
		}
	}
	return names
}

// fromMessage builds the genkit message of one the hooks wrote or
// changed: a copy of the genkit message it was made from (if any) with
// its fields set.
func fromMessage(hm hooks.Message, names map[string]string) (any, error) {
	var role ai.Role
	switch hm.Role {
	case "assistant":
		role = ai.RoleModel
	case "user", "system", "tool":
		role = ai.Role(hm.Role)
	default:
		return nil, fmt.Errorf("unknown role %q (want system, user, assistant or tool)", hm.Role)
	}
	raw, _ := hm.Raw()
	if role == ai.RoleTool {
		resp := &ai.ToolResponse{Ref: hm.ToolCallID, Name: names[hm.ToolCallID], Output: hm.Text}
		if orig := originalResponse(raw); orig != nil {
			cp := *orig
			cp.Ref, cp.Output = hm.ToolCallID, hm.Text
			if cp.Name == "" {
				cp.Name = names[hm.ToolCallID]
			}
			resp = &cp
		}
		return &ai.Message{Role: ai.RoleTool, Content: []*ai.Part{ai.NewToolResponsePart(resp)}}, nil
	}
	var m ai.Message
	if orig, ok := raw.(*ai.Message); ok && orig != nil {
		m = *orig
	}
	m.Role = role
	calls, err := requestParts(hm.ToolCalls)
	if err != nil {
		return nil, err
	}
	m.Content = replaceParts(m.Content, hm.Text, calls)
	return &m, nil
}

// originalResponse is the tool response a tool message the hooks changed
// was made from, or nil.
func originalResponse(raw any) *ai.ToolResponse {
	switch v := raw.(type) {
	case piece:
		return v.msg.Content[v.part].ToolResponse
	case *ai.Message:
		for _, p := range v.Content {
			if p.IsToolResponse() {
				return p.ToolResponse
			}
		}
	}
	return nil
}

// replaceParts returns parts with its text and tool requests replaced:
// text as one text part where the first text part was (first when there
// was none), calls after every other part. Media, reasoning and the other
// parts stay.
func replaceParts(parts []*ai.Part, text string, calls []*ai.Part) []*ai.Part {
	out := make([]*ai.Part, 0, len(parts)+len(calls)+1)
	placed := text == ""
	for _, p := range parts {
		switch {
		case p.IsText():
			if !placed {
				out = append(out, withPartText(p, text))
				placed = true
			}
		case p.IsToolRequest():
		default:
			out = append(out, p)
		}
	}
	if !placed {
		out = append([]*ai.Part{ai.NewTextPart(text)}, out...)
	}
	return append(out, calls...)
}

func withPartText(p *ai.Part, text string) *ai.Part {
	cp := *p
	cp.Text = text
	return &cp
}

// withText is a copy of m whose text is text.
func withText(m *ai.Message, text string) *ai.Message {
	cp := *m
	cp.Content = replaceParts(m.Content, text, requestPartsOf(m.Content))
	return &cp
}

func requestPartsOf(parts []*ai.Part) []*ai.Part {
	var out []*ai.Part
	for _, p := range parts {
		if p.IsToolRequest() {
			out = append(out, p)
		}
	}
	return out
}

// requestParts are the tool request parts of the hooks' tool calls.
func requestParts(calls []hooks.ToolCall) ([]*ai.Part, error) {
	out := make([]*ai.Part, 0, len(calls))
	for _, c := range calls {
		if c.Name == "" {
			return nil, fmt.Errorf("a tool call (id %q) has no name", c.ID)
		}
		var input any = c.Arguments
		if c.Arguments == nil {
			input = map[string]any{}
		}
		out = append(out, ai.NewToolRequestPart(&ai.ToolRequest{Ref: c.ID, Name: c.Name, Input: input}))
	}
	return out, nil
}
