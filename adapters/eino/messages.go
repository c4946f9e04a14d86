package eino

import (
	"encoding/json"
	"fmt"
	"github.com/cloudwego/eino/adk"
	"reflect"
	"strings"

	"github.com/cloudwego/eino/schema"
	"github.com/rienda/hooks"
	"github.com/rienda/hooks/internal/adapt"
)

// toRequest turns eino's input into the hooks' request: a leading system
// message is System, every other message keeps its eino value (WithRaw).
// It returns the system message it took, or nil.
func toRequest(input []*schema.Message) (hooks.ModelRequest, *schema.Message) {
	var req hooks.ModelRequest
	var system *schema.Message
	if len(input) > 0 && input[0] != nil && input[0].Role == schema.System {
		system, input = input[0], input[1:]
		req.System = messageText(system)
	}
	req.Messages = make([]hooks.Message, len(input))
	for i, m := range input {
		req.Messages[i] = toMessage(m).WithRaw(m)
	}
	return req, system
}

// fromRequest turns the hooks' request back into eino's messages; system is
// what toRequest took.
func fromRequest(req hooks.ModelRequest, system *schema.Message) ([]*schema.Message, error) {
	msgs, err := hooks.RebuildMessages(req.Messages, fromMessage)
	if err != nil {
		return nil, err
	}
	switch {
	case system != nil && req.System == messageText(system): // unchanged: eino's own value
	case req.System == "":
		system = nil
	case system != nil:
		system = withText(system, req.System)
	default:
		system = schema.SystemMessage(req.System)
	}
	if system == nil {
		return msgs, nil
	}
	return append([]*schema.Message{system}, msgs...), nil
}

// toMessage converts one eino message, without keeping it. Its ID is the
// one an eino agent gives each message of its history (in Extra).
func toMessage(m *schema.Message) hooks.Message {
	if m == nil {
		return hooks.Message{}
	}
	return hooks.Message{ID: adk.GetMessageID(m), Role: string(m.Role), Text: messageText(m),
		ToolCalls: toToolCalls(m.ToolCalls), ToolCallID: m.ToolCallID}
}

func toToolCalls(calls []schema.ToolCall) []hooks.ToolCall {
	if len(calls) == 0 {
		return nil
	}
	out := make([]hooks.ToolCall, len(calls))
	for i, c := range calls {
		args, _ := hooks.ParseArguments([]byte(c.Function.Arguments)) // invalid JSON: the hooks see the text
		out[i] = hooks.ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: args}
	}
	return out
}

// fromMessage builds the eino message of one the hooks wrote or changed: a
// copy of the eino message it was made from (if any) with its fields set.
func fromMessage(hm hooks.Message) (*schema.Message, error) {
	role := schema.RoleType(hm.Role)
	switch role {
	case schema.System, schema.User, schema.Assistant, schema.Tool:
	default:
		return nil, fmt.Errorf("unknown role %q (want system, user, assistant or tool)", hm.Role)
	}
	var base *schema.Message
	if raw, _ := hm.Raw(); raw != nil {
		base, _ = raw.(*schema.Message)
	}
	m := &schema.Message{Content: hm.Text}
	if base != nil {
		m = withText(base, hm.Text)
		if m == base { // same text: still a copy, eino's value stays as it was
			c := *base
			m = &c
		}
	}
	m.Role, m.ToolCallID = role, hm.ToolCallID
	calls, err := fromToolCalls(hm.ToolCalls, base)
	if err != nil {
		return nil, err
	}
	m.ToolCalls = calls
	return m, nil
}

// fromToolCalls builds eino tool calls; a call whose ID base has keeps
// base's Type, Index and Extra, and its arguments' text unless the hooks
// changed them.
func fromToolCalls(calls []hooks.ToolCall, base *schema.Message) ([]schema.ToolCall, error) {
	if len(calls) == 0 {
		return nil, nil
	}
	out := make([]schema.ToolCall, len(calls))
	for i, c := range calls {
		tc, kept := keptCall(base, c.ID)
		if tc.ID == "" {
			tc.ID = newCallID()
		}
		if !kept || tc.Function.Name != c.Name || !sameArguments(tc.Function.Arguments, c.Arguments) {
			raw, err := encodeArguments(c.Arguments)
			if err != nil {
				return nil, fmt.Errorf("tool call %q: %w", c.Name, err)
			}
			tc.Function = schema.FunctionCall{Name: c.Name, Arguments: raw}
		}
		out[i] = tc
	}
	return out, nil
}

// keptCall returns base's tool call of that id, or a new call.
func keptCall(base *schema.Message, id string) (schema.ToolCall, bool) {
	if base != nil && id != "" {
		for _, b := range base.ToolCalls {
			if b.ID == id {
				return b, true
			}
		}
	}
	return schema.ToolCall{ID: id, Type: "function"}, false
}

// sameArguments reports whether raw, the arguments' text eino had, decodes
// to args.
func sameArguments(raw string, args map[string]any) bool {
	was, _ := hooks.ParseArguments([]byte(raw))
	return reflect.DeepEqual(was, args)
}

// encodeArguments encodes a call's arguments as JSON; no arguments are {}.
func encodeArguments(args map[string]any) (string, error) {
	if args == nil {
		return "{}", nil
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return "", fmt.Errorf("encoding the arguments: %w", err)
	}
	return string(raw), nil
}

// newCallID names a tool call a hook made without an ID: eino matches tool
// results to calls by ID.
func newCallID() string { return adapt.NewCallID("call_hooks_") }

// messageText is the text of m the hooks see: Content and every text part,
// joined by newlines.
func messageText(m *schema.Message) string {
	texts := make([]string, 0, 1)
	if m.Content != "" {
		texts = append(texts, m.Content)
	}
	for _, p := range m.UserInputMultiContent {
		if p.Type == schema.ChatMessagePartTypeText {
			texts = append(texts, p.Text)
		}
	}
	for _, p := range m.AssistantGenMultiContent {
		if p.Type == schema.ChatMessagePartTypeText {
			texts = append(texts, p.Text)
		}
	}
	for _, p := range m.MultiContent { // deprecated, but models still read it: its text must reach the hooks
		if p.Type == schema.ChatMessagePartTypeText {
			texts = append(texts, p.Text)
		}
	}
	if len(texts) == 1 {
		return texts[0]
	}
	return strings.Join(texts, "\n")
}

// withText returns m itself when its text is text, else a copy saying
// text: in Content when m has no text part, else in its first text part
// (the other text parts, and Content, dropped), so that models reading
// either field read the new text only.
func withText(m *schema.Message, text string) *schema.Message {
	if messageText(m) == text {
		return m
	}
	c := *m
	c.Content = text
	placed := false
	c.UserInputMultiContent = replaceText(m.UserInputMultiContent, text, &placed,
		func(p schema.MessageInputPart) bool { return p.Type == schema.ChatMessagePartTypeText },
		func(p *schema.MessageInputPart, s string) { p.Text = s })
	c.AssistantGenMultiContent = replaceText(m.AssistantGenMultiContent, text, &placed,
		func(p schema.MessageOutputPart) bool { return p.Type == schema.ChatMessagePartTypeText },
		func(p *schema.MessageOutputPart, s string) { p.Text = s })
	c.MultiContent = replaceText(m.MultiContent, text, &placed, isLegacyText, setLegacyText)
	if placed {
		c.Content = ""
	}
	return &c
}

// isLegacyText and setLegacyText read the deprecated MultiContent parts,
// which models still read: the new text must replace theirs too.
//
//lint:ignore SA1019 see above
func isLegacyText(p schema.ChatMessagePart) bool { return p.Type == schema.ChatMessagePartTypeText }

//lint:ignore SA1019 see isLegacyText
func setLegacyText(p *schema.ChatMessagePart, s string) { p.Text = s }

// replaceText returns a copy of parts whose first text part says text
// (unless *placed: an earlier list took it) and without its other text
// parts. parts without a text part are returned as they are.
func replaceText[P any](parts []P, text string, placed *bool, isText func(P) bool, set func(*P, string)) []P {
	has := false
	for _, p := range parts {
		has = has || isText(p)
	}
	if !has {
		return parts
	}
	out := make([]P, 0, len(parts))
	for _, p := range parts {
		if isText(p) {
			if *placed {
				continue
			}
			*placed = true
			set(&p, text)
		}
		out = append(out, p)
	}
	return out
}
