package openai

import (
	"encoding/json"
	"fmt"
	"slices"

	oai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/rienda/hooks"
)

// Request converts params into the request the hooks see. The leading
// system and developer messages make System (joined by a blank line);
// every other message becomes a hooks.Message that keeps its own SDK value
// (hooks.Message.WithRaw), so that Params sends it back as it was unless a
// hook changed it. Developer messages read as role "system", function
// messages (deprecated) as role "tool". Model is params.Model; Tools are
// the tools offered (a function tool's parameters as its Schema).
// ToolChoice is tool_choice (auto, none, required, or a tool's name);
// Settings are temperature, top_p, max_completion_tokens (max_tokens when
// only it is set), stop, and the params' extra fields (SetExtraFields) as
// Provider.
func Request(params oai.ChatCompletionNewParams) hooks.ModelRequest {
	lead := leadingSystem(params.Messages)
	req := hooks.ModelRequest{
		System:   systemText(params.Messages[:lead]),
		Messages: make([]hooks.Message, 0, len(params.Messages)-lead),
		Model:    params.Model,
		Tools:    toolSpecs(params.Tools),

		ToolChoice: chatToolChoice(params.ToolChoice),
		Settings:   chatSettings(params),
	}
	for _, m := range params.Messages[lead:] {
		req.Messages = append(req.Messages, message(m))
	}
	return req
}

// Params returns base carrying the request the hooks left (a ModelStep's
// Request, or the req a ModelFunc receives). Messages no hook changed are
// base's own values, sent as they were; the others are rebuilt, keeping
// what a hook cannot see (images, files, names, cache breakpoints) when a
// hook changed only a message's text. A System that only gained text
// before or after the original keeps the original system messages and
// adds one with the new text; any other change replaces them with one
// message of the first one's role. base itself is not modified.
//
// A Model set replaces base's. Tools the hooks left unchanged are base's
// own; a hook's change is sent (a tool narrowed away is not offered; one
// whose description or schema changed keeps its other fields, strict mode
// included; a new one is a function tool), and a tool choice naming a
// tool no longer offered is dropped. Tools nil (a request built without
// them) keeps base's.
//
// A ToolChoice or Settings the hooks left as Request read them sends
// base's own values. A changed ToolChoice is sent as tool_choice (a name:
// that function or custom tool, which must be offered); changed Settings
// replace all five (a nil field is omitted: the API's default), max tokens
// spelled as base spelled it (max_tokens only when base set it alone), and
// Provider becomes the extra fields. A choice or setting no API accepts
// (an unknown mode, a NaN temperature, max tokens below 1) is an error
// naming it.
func Params(base oai.ChatCompletionNewParams, req hooks.ModelRequest) (oai.ChatCompletionNewParams, error) {
	lead := leadingSystem(base.Messages)
	rest, err := hooks.RebuildMessages(req.Messages, buildMessage)
	if err != nil {
		return base, fmt.Errorf("openai: %w", err)
	}
	out := base
	out.Messages = append(systemMessages(base.Messages[:lead], req.System), rest...)
	if err := withTools(&out, req); err != nil {
		return base, fmt.Errorf("openai: %w", err)
	}
	if err := withChoice(&out, base, req); err != nil {
		return base, err
	}
	return out, nil
}

// leadingSystem counts the system and developer messages that open msgs.
func leadingSystem(msgs []oai.ChatCompletionMessageParamUnion) int {
	n := 0
	for n < len(msgs) && (msgs[n].OfSystem != nil || msgs[n].OfDeveloper != nil) {
		n++
	}
	return n
}

// systemText joins the text of the leading system messages.
func systemText(lead []oai.ChatCompletionMessageParamUnion) string {
	texts := make([]string, 0, len(lead))
	for _, m := range lead {
		texts = append(texts, message(m).Text)
	}
	return joinSystem(texts)
}

// systemMessages returns the leading system messages that say system,
// reusing lead's where the hooks only added text around it.
func systemMessages(lead []oai.ChatCompletionMessageParamUnion, system string) []oai.ChatCompletionMessageParamUnion {
	newMessage := func(text string) oai.ChatCompletionMessageParamUnion {
		if len(lead) > 0 && lead[0].OfDeveloper != nil {
			return oai.DeveloperMessage(text)
		}
		return oai.SystemMessage(text)
	}
	before, after, kept := splitSystem(systemText(lead), system)
	out := make([]oai.ChatCompletionMessageParamUnion, 0, len(lead)+2)
	if !kept {
		if system != "" {
			out = append(out, newMessage(system))
		}
		return out
	}
	if before != "" {
		out = append(out, newMessage(before))
	}
	out = append(out, lead...)
	if after != "" {
		out = append(out, newMessage(after))
	}
	return out
}

// message converts one SDK message into the hooks' message, keeping m.
func message(m oai.ChatCompletionMessageParamUnion) hooks.Message {
	var h hooks.Message
	switch {
	case m.OfSystem != nil:
		c := m.OfSystem.Content
		h = hooks.Message{Role: "system", Text: joinTexts(c.OfString.Value, c.OfArrayOfContentParts, textPartText)}
	case m.OfDeveloper != nil:
		c := m.OfDeveloper.Content
		h = hooks.Message{Role: "system", Text: joinTexts(c.OfString.Value, c.OfArrayOfContentParts, textPartText)}
	case m.OfUser != nil:
		c := m.OfUser.Content
		h = hooks.Message{Role: "user", Text: joinTexts(c.OfString.Value, c.OfArrayOfContentParts, userPartText)}
	case m.OfAssistant != nil:
		h = hooks.Message{Role: "assistant", Text: assistantText(m.OfAssistant),
			ToolCalls: paramToolCalls(m.OfAssistant.ToolCalls)}
	case m.OfTool != nil:
		c := m.OfTool.Content
		h = hooks.Message{Role: "tool", ToolCallID: m.OfTool.ToolCallID,
			Text: joinTexts(c.OfString.Value, c.OfArrayOfContentParts, textPartText)}
	case m.OfFunction != nil:
		h = hooks.Message{Role: "tool", Text: m.OfFunction.Content.Value}
	default:
		h = overriddenMessage(m)
	}
	return h.WithRaw(m)
}

// overriddenMessage reads a message the SDK holds as raw JSON
// (param.Override): its role and string content, as far as they go.
func overriddenMessage(m oai.ChatCompletionMessageParamUnion) hooks.Message {
	var v struct {
		Role       string `json:"role"`
		Content    any    `json:"content"`
		ToolCallID string `json:"tool_call_id"`
	}
	if b, err := json.Marshal(m); err == nil {
		_ = json.Unmarshal(b, &v) // what does not decode stays empty: the raw value is sent anyway
	}
	text, _ := v.Content.(string)
	switch v.Role {
	case "developer":
		v.Role = "system"
	case "function":
		v.Role = "tool"
	}
	return hooks.Message{Role: v.Role, Text: text, ToolCallID: v.ToolCallID}
}

// assistantText is an assistant message's text, or its refusal when it has
// no text.
func assistantText(a *oai.ChatCompletionAssistantMessageParam) string {
	text := joinTexts(a.Content.OfString.Value, a.Content.OfArrayOfContentParts, assistantPartText)
	if text == "" {
		text = a.Refusal.Value
	}
	return text
}

// paramToolCalls converts an assistant message's tool calls. Arguments that
// are not a JSON object keep the model's text (hooks.ParseArguments).
func paramToolCalls(calls []oai.ChatCompletionMessageToolCallUnionParam) []hooks.ToolCall {
	if len(calls) == 0 {
		return nil
	}
	out := make([]hooks.ToolCall, 0, len(calls))
	for _, c := range calls {
		switch {
		case c.OfFunction != nil:
			args, _ := hooks.ParseArguments([]byte(c.OfFunction.Function.Arguments))
			out = append(out, hooks.ToolCall{ID: c.OfFunction.ID, Name: c.OfFunction.Function.Name, Arguments: args})
		case c.OfCustom != nil:
			out = append(out, hooks.ToolCall{ID: c.OfCustom.ID, Name: c.OfCustom.Custom.Name,
				Arguments: map[string]any{CustomInputKey: c.OfCustom.Custom.Input}})
		}
	}
	return out
}

// CustomInputKey is the one argument a custom (free-form) tool call shows
// the hooks: its input text.
const CustomInputKey = "input"

// buildMessage makes the SDK message for a message a hook wrote or
// changed. A changed message starts from its SDK value, so that only what
// the hook changed changes.
func buildMessage(m hooks.Message) (oai.ChatCompletionMessageParamUnion, error) {
	raw, _ := m.Raw()
	orig, _ := raw.(oai.ChatCompletionMessageParamUnion)
	was := message(orig).Text
	switch m.Role {
	case "system":
		return buildSystem(m, orig, was), nil
	case "user":
		if orig.OfUser == nil {
			return oai.UserMessage(m.Text), nil
		}
		u := *orig.OfUser
		if m.Text != was {
			u.Content.OfString, u.Content.OfArrayOfContentParts = replaceText(u.Content.OfString,
				u.Content.OfArrayOfContentParts, m.Text, userPartText, setUserPartText, newUserPart)
		}
		return oai.ChatCompletionMessageParamUnion{OfUser: &u}, nil
	case "assistant":
		return buildAssistant(m, orig.OfAssistant, was)
	case "tool":
		if m.ToolCallID == "" {
			return oai.ChatCompletionMessageParamUnion{}, fmt.Errorf("a tool message needs a ToolCallID")
		}
		if orig.OfTool == nil {
			return oai.ToolMessage(m.Text, m.ToolCallID), nil
		}
		t := *orig.OfTool
		t.ToolCallID = m.ToolCallID
		if m.Text != was {
			t.Content.OfString, t.Content.OfArrayOfContentParts = replaceText(t.Content.OfString,
				t.Content.OfArrayOfContentParts, m.Text, textPartText, setTextPartText, newTextPart)
		}
		return oai.ChatCompletionMessageParamUnion{OfTool: &t}, nil
	}
	return oai.ChatCompletionMessageParamUnion{}, fmt.Errorf("unknown role %q (want system, user, assistant or tool)", m.Role)
}

// buildSystem makes a system or developer message, keeping orig's role and
// name.
func buildSystem(m hooks.Message, orig oai.ChatCompletionMessageParamUnion, was string) oai.ChatCompletionMessageParamUnion {
	switch {
	case orig.OfDeveloper != nil:
		d := *orig.OfDeveloper
		if m.Text != was {
			d.Content.OfString, d.Content.OfArrayOfContentParts = replaceText(d.Content.OfString,
				d.Content.OfArrayOfContentParts, m.Text, textPartText, setTextPartText, newTextPart)
		}
		return oai.ChatCompletionMessageParamUnion{OfDeveloper: &d}
	case orig.OfSystem != nil:
		s := *orig.OfSystem
		if m.Text != was {
			s.Content.OfString, s.Content.OfArrayOfContentParts = replaceText(s.Content.OfString,
				s.Content.OfArrayOfContentParts, m.Text, textPartText, setTextPartText, newTextPart)
		}
		return oai.ChatCompletionMessageParamUnion{OfSystem: &s}
	}
	return oai.SystemMessage(m.Text)
}

// buildAssistant makes an assistant message: orig's, with the hooks' text
// and tool calls. A tool call whose name and arguments a hook left alone
// keeps the model's argument text.
func buildAssistant(m hooks.Message, orig *oai.ChatCompletionAssistantMessageParam, was string) (oai.ChatCompletionMessageParamUnion, error) {
	var a oai.ChatCompletionAssistantMessageParam
	if orig != nil {
		a = *orig
	}
	if orig == nil || m.Text != was {
		if orig != nil && a.Content.OfString.Value == "" && a.Content.OfArrayOfContentParts == nil && a.Refusal.Valid() {
			a.Refusal = param.NewOpt(m.Text)
		} else {
			a.Content.OfString, a.Content.OfArrayOfContentParts = replaceText(a.Content.OfString,
				a.Content.OfArrayOfContentParts, m.Text, assistantPartText, setAssistantPartText, newAssistantPart)
		}
	}
	calls := make([]oai.ChatCompletionMessageToolCallUnionParam, 0, len(m.ToolCalls))
	for _, c := range m.ToolCalls {
		if p, ok := sameToolCall(c, a.ToolCalls); ok {
			calls = append(calls, p)
			continue
		}
		args, err := EncodeArguments(c.Arguments)
		if err != nil {
			return oai.ChatCompletionMessageParamUnion{}, fmt.Errorf("tool call %q: %w", c.ID, err)
		}
		calls = append(calls, oai.ChatCompletionMessageToolCallUnionParam{OfFunction: &oai.ChatCompletionMessageFunctionToolCallParam{
			ID: c.ID, Function: oai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: c.Name, Arguments: string(args)}}})
	}
	a.ToolCalls = nil
	if len(calls) > 0 {
		a.ToolCalls = calls
	}
	return oai.ChatCompletionMessageParamUnion{OfAssistant: &a}, nil
}

// sameToolCall finds c among orig when a hook left it as the model sent it.
func sameToolCall(c hooks.ToolCall, orig []oai.ChatCompletionMessageToolCallUnionParam) (oai.ChatCompletionMessageToolCallUnionParam, bool) {
	i := slices.IndexFunc(orig, func(p oai.ChatCompletionMessageToolCallUnionParam) bool {
		return (p.OfFunction != nil && p.OfFunction.ID == c.ID) || (p.OfCustom != nil && p.OfCustom.ID == c.ID)
	})
	if i < 0 {
		return oai.ChatCompletionMessageToolCallUnionParam{}, false
	}
	was := paramToolCalls(orig[i : i+1])
	if len(was) != 1 || was[0].Name != c.Name || !sameArguments(was[0].Arguments, c.Arguments) {
		return oai.ChatCompletionMessageToolCallUnionParam{}, false
	}
	return orig[i], true
}
