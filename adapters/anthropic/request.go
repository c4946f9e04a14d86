package anthropic

import (
	"encoding/json"
	"fmt"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/rienda/hooks"
)

// Request converts params into the request the hooks see. System is the
// text of params.System's blocks, joined by a blank line.
//
// A message of the Messages API may hold several of the hooks' messages:
// each tool_result block of a user message becomes a "tool" message (with
// its ToolCallID), and the user message's other blocks a "user" message,
// in their order. An assistant message is one "assistant" message with its
// tool_use blocks as ToolCalls; a system message is a "system" message.
// Each keeps its blocks and the message they came from
// (hooks.Message.WithRaw), so that Params sends a message whose parts no
// hook changed as it was. Model is params.Model; Tools are the tools
// offered (a custom tool's input_schema as its Schema, a server tool by
// name only). ToolChoice is tool_choice (any reads as required);
// Settings are max_tokens, stop_sequences, temperature and top_p (which
// the SDK carries as extra fields: SetExtraFields) and the other extra
// fields as Provider.
func Request(params sdk.MessageNewParams) hooks.ModelRequest {
	req := hooks.ModelRequest{System: systemText(params.System), Messages: make([]hooks.Message, 0, len(params.Messages)),
		Model: string(params.Model), Tools: toolSpecs(params.Tools),
		ToolChoice: toolChoice(params.ToolChoice), Settings: settings(params)}
	for i := range params.Messages {
		req.Messages = append(req.Messages, split(&params.Messages[i])...)
	}
	return req
}

// Params returns base carrying the request the hooks left (a ModelStep's
// Request, or the req a ModelFunc receives). A message of base whose parts
// all came back unchanged, together and in order, is sent as base's own
// value, byte for byte (images, documents, cache_control). Other parts
// keep their blocks; what a hook changed is rebuilt from its blocks, so
// that a message whose text a hook rewrote keeps its images, documents
// and cache marks. Consecutive rebuilt parts of one role make one message.
// A System that only gained text before or after the original keeps the
// original blocks and adds one with the new text; any other change makes
// one block (with the last original block's cache_control). base itself
// is not modified.
//
// A Model set replaces base's. Tools the hooks left unchanged are base's
// own; a hook's change is sent (a tool narrowed away is not offered; one
// whose description or schema changed keeps its cache_control and strict
// mode; a new one is a custom tool), and a tool choice naming a tool no
// longer offered is dropped. Tools nil (a request built without them)
// keeps base's.
//
// A ToolChoice or Settings the hooks left as Request read them sends
// base's own values. A changed ToolChoice is sent as tool_choice (required:
// any; a name: that tool, which must be offered), keeping base's
// disable_parallel_tool_use. Changed Settings replace stop_sequences,
// temperature, top_p and the extra fields (a nil field is omitted: the
// API's default) and max_tokens, which the API requires: MaxTokens nil
// keeps base's. A choice or setting no API accepts is an error naming it.
func Params(base sdk.MessageNewParams, req hooks.ModelRequest) (sdk.MessageNewParams, error) {
	parts, err := hooks.RebuildMessages(req.Messages, buildPart)
	if err != nil {
		return base, fmt.Errorf("anthropic: %w", err)
	}
	out := base
	out.System = systemBlocks(base.System, req.System)
	out.Messages = assemble(parts)
	if err := withTools(&out, req); err != nil {
		return base, fmt.Errorf("anthropic: %w", err)
	}
	if err := withChoice(&out, base, req); err != nil {
		return base, err
	}
	return out, nil
}

// part is the SDK value kept with one hooks message: the blocks it was
// made from, and the request's message they belong to.
type part struct {
	from   *sdk.MessageParam // nil for a part a hook wrote or changed
	index  int               // this part is index of the of parts from was split into
	of     int
	role   string // the hooks' role
	blocks []sdk.ContentBlockParamUnion
	system []sdk.TextBlockParam // a system message's blocks
}

// apiRole is the role of the Messages API message that holds p: tool
// results go in user messages.
func (p part) apiRole() string {
	if p.role == "tool" {
		return "user"
	}
	return p.role
}

// split converts one SDK message into the hooks' messages.
func split(m *sdk.MessageParam) []hooks.Message {
	var parts []part
	var msgs []hooks.Message
	add := func(p part, h hooks.Message) {
		p.from, p.index = m, len(parts)
		parts, msgs = append(parts, p), append(msgs, h)
	}
	switch {
	case m.OfUser != nil:
		var pending []sdk.ContentBlockParamUnion
		flush := func() {
			if len(pending) > 0 {
				add(part{role: "user", blocks: pending}, hooks.Message{Role: "user", Text: blocksText(pending, "\n")})
				pending = nil
			}
		}
		for _, b := range m.OfUser.Content {
			if b.OfToolResult == nil {
				pending = append(pending, b)
				continue
			}
			flush()
			add(part{role: "tool", blocks: []sdk.ContentBlockParamUnion{b}}, toolMessage(b.OfToolResult))
		}
		flush()
		if len(parts) == 0 {
			add(part{role: "user"}, hooks.Message{Role: "user"})
		}
	case m.OfAssistant != nil:
		add(part{role: "assistant", blocks: m.OfAssistant.Content}, assistantMessage(m.OfAssistant.Content))
	case m.OfSystem != nil:
		add(part{role: "system", system: m.OfSystem.Content}, hooks.Message{Role: "system", Text: systemText(m.OfSystem.Content)})
	default:
		h := overriddenMessage(m)
		add(part{role: h.Role}, h)
	}
	for i := range msgs {
		parts[i].of = len(parts)
		msgs[i] = msgs[i].WithRaw(parts[i])
	}
	return msgs
}

// toolMessage is the hooks' message of a tool_result block.
func toolMessage(r *sdk.ToolResultBlockParam) hooks.Message {
	return hooks.Message{Role: "tool", ToolCallID: r.ToolUseID, Text: resultContentText(r.Content)}
}

// assistantMessage is the hooks' message of an assistant message's blocks.
func assistantMessage(blocks []sdk.ContentBlockParamUnion) hooks.Message {
	h := hooks.Message{Role: "assistant", Text: blocksText(blocks, "")}
	for _, b := range blocks {
		if u := b.OfToolUse; u != nil {
			h.ToolCalls = append(h.ToolCalls, hooks.ToolCall{ID: u.ID, Name: u.Name, Arguments: inputArguments(u.Input)})
		}
	}
	return h
}

// inputArguments decodes a tool_use block's input, whatever Go value the
// caller gave it (the SDK's json.RawMessage keeps every digit).
func inputArguments(input any) map[string]any {
	raw, ok := input.(json.RawMessage)
	if !ok {
		var err error
		if raw, err = json.Marshal(input); err != nil {
			return map[string]any{hooks.InvalidArgumentsKey: fmt.Sprint(input)}
		}
	}
	args, _ := hooks.ParseArguments(raw) // on error the text is kept
	return args
}

// overriddenMessage reads a message the SDK holds as raw JSON
// (param.Override): its role and string content, as far as they go.
func overriddenMessage(m *sdk.MessageParam) hooks.Message {
	var v struct {
		Role    string `json:"role"`
		Content any    `json:"content"`
	}
	if b, err := json.Marshal(m); err == nil {
		_ = json.Unmarshal(b, &v) // what does not decode stays empty: the raw value is sent anyway
	}
	text, _ := v.Content.(string)
	return hooks.Message{Role: v.Role, Text: text}
}

// assemble turns the parts back into the API's messages.
func assemble(parts []part) []sdk.MessageParam {
	out := make([]sdk.MessageParam, 0, len(parts))
	for i := 0; i < len(parts); {
		if n := whole(parts[i:]); n > 0 {
			out = append(out, *parts[i].from)
			i += n
			continue
		}
		j := i + 1
		for j < len(parts) && parts[j].apiRole() == parts[i].apiRole() && whole(parts[j:]) == 0 {
			j++
		}
		out = append(out, merge(parts[i:j]))
		i = j
	}
	return out
}

// whole is how many parts, from the first, are all of one request message
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

// merge makes one message of parts of one API role.
func merge(ps []part) sdk.MessageParam {
	if ps[0].role == "system" {
		var blocks []sdk.TextBlockParam
		for _, p := range ps {
			blocks = append(blocks, p.system...)
		}
		return sdk.MessageParam{OfSystem: &sdk.SystemMessageParam{Content: blocks}}
	}
	var blocks []sdk.ContentBlockParamUnion
	for _, p := range ps {
		blocks = append(blocks, p.blocks...)
	}
	if ps[0].role == "assistant" {
		return sdk.NewAssistantMessage(blocks...)
	}
	return sdk.NewUserMessage(blocks...)
}
