package anthropic

import (
	"fmt"
	"slices"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"
	"github.com/rienda/hooks"
)

// buildPart makes the blocks of a message a hook wrote or changed. A
// changed message starts from its own blocks, so that only what the hook
// changed changes.
func buildPart(m hooks.Message) (part, error) {
	raw, _ := m.Raw()
	orig, _ := raw.(part)
	if orig.role != m.Role {
		orig = part{} // a hook changed the role: nothing of the old blocks fits
	}
	switch m.Role {
	case "user":
		blocks := orig.blocks
		if m.Text != blocksText(blocks, "\n") {
			blocks = replaceText(blocks, m.Text, contentText, setContentText, sdk.NewTextBlock)
		}
		return part{role: "user", blocks: blocks}, nil
	case "tool":
		return buildToolResult(m, orig)
	case "assistant":
		return buildAssistant(m, orig)
	case "system":
		blocks := orig.system
		if m.Text != systemText(blocks) {
			blocks = replaceText(blocks, m.Text, systemBlockText, setSystemBlockText, newSystemBlock)
		}
		return part{role: "system", system: blocks}, nil
	}
	return part{}, fmt.Errorf("unknown role %q (want system, user, assistant or tool)", m.Role)
}

// buildToolResult makes a tool_result block, keeping the original's
// is_error, cache_control and non-text content.
func buildToolResult(m hooks.Message, orig part) (part, error) {
	if m.ToolCallID == "" {
		return part{}, fmt.Errorf("a tool message needs a ToolCallID")
	}
	var r sdk.ToolResultBlockParam
	if len(orig.blocks) == 1 && orig.blocks[0].OfToolResult != nil {
		r = *orig.blocks[0].OfToolResult
	}
	r.ToolUseID = m.ToolCallID
	if m.Text != resultContentText(r.Content) {
		r.Content = replaceText(r.Content, m.Text, resultText, setResultText, newResultText)
	}
	return part{role: "tool", blocks: []sdk.ContentBlockParamUnion{{OfToolResult: &r}}}, nil
}

// buildAssistant makes an assistant message's blocks: the original's
// (thinking included) with the hooks' text and tool calls. A tool_use
// block whose name and arguments no hook changed is kept as it was.
func buildAssistant(m hooks.Message, orig part) (part, error) {
	blocks := orig.blocks
	if m.Text != blocksText(blocks, "") {
		blocks = replaceText(blocks, m.Text, contentText, setContentText, sdk.NewTextBlock)
	}
	uses := slices.DeleteFunc(slices.Clone(blocks), func(b sdk.ContentBlockParamUnion) bool { return b.OfToolUse == nil })
	blocks = slices.DeleteFunc(slices.Clone(blocks), func(b sdk.ContentBlockParamUnion) bool { return b.OfToolUse != nil })
	for _, c := range m.ToolCalls {
		i := slices.IndexFunc(uses, func(b sdk.ContentBlockParamUnion) bool { return b.OfToolUse.ID == c.ID })
		if i >= 0 && uses[i].OfToolUse.Name == c.Name && sameArguments(inputArguments(uses[i].OfToolUse.Input), c.Arguments) {
			blocks = append(blocks, uses[i])
			continue
		}
		args, err := EncodeArguments(c.Arguments)
		if err != nil {
			return part{}, fmt.Errorf("tool call %q: %w", c.ID, err)
		}
		blocks = append(blocks, sdk.NewToolUseBlock(c.ID, args, c.Name))
	}
	return part{role: "assistant", blocks: blocks}, nil
}

// systemBlocks returns the system prompt's blocks that say system,
// reusing orig's where the hooks only added text around it.
func systemBlocks(orig []sdk.TextBlockParam, system string) []sdk.TextBlockParam {
	before, after, kept := splitSystem(systemText(orig), system)
	if !kept {
		if system == "" {
			return nil
		}
		b := newSystemBlock(system)
		if len(orig) > 0 {
			b.CacheControl = orig[len(orig)-1].CacheControl
		}
		return []sdk.TextBlockParam{b}
	}
	out := make([]sdk.TextBlockParam, 0, len(orig)+2)
	if before != "" {
		out = append(out, newSystemBlock(before))
	}
	out = append(out, orig...)
	if after != "" {
		out = append(out, newSystemBlock(after))
	}
	if len(out) == 0 {
		return orig // keeps nil and empty apart
	}
	return out
}

func newSystemBlock(text string) sdk.TextBlockParam { return sdk.TextBlockParam{Text: text} }

func systemBlockText(b sdk.TextBlockParam) (string, bool) { return b.Text, true }

func setSystemBlockText(b sdk.TextBlockParam, text string) sdk.TextBlockParam {
	b.Text, b.Citations = text, nil // citations point into the old text
	return b
}

func contentText(b sdk.ContentBlockParamUnion) (string, bool) {
	if b.OfText == nil {
		return "", false
	}
	return b.OfText.Text, true
}

func setContentText(b sdk.ContentBlockParamUnion, text string) sdk.ContentBlockParamUnion {
	t := setSystemBlockText(*b.OfText, text) // a copy: the original block is the caller's
	return sdk.ContentBlockParamUnion{OfText: &t}
}

func resultText(b sdk.ToolResultBlockParamContentUnion) (string, bool) {
	if b.OfText == nil {
		return "", false
	}
	return b.OfText.Text, true
}

func setResultText(b sdk.ToolResultBlockParamContentUnion, text string) sdk.ToolResultBlockParamContentUnion {
	t := setSystemBlockText(*b.OfText, text)
	return sdk.ToolResultBlockParamContentUnion{OfText: &t}
}

func newResultText(text string) sdk.ToolResultBlockParamContentUnion {
	return sdk.ToolResultBlockParamContentUnion{OfText: &sdk.TextBlockParam{Text: text}}
}

// isErrorOpt is the is_error field of a result.
func isErrorOpt(isError bool) param.Opt[bool] {
	if !isError {
		return param.Opt[bool]{}
	}
	return param.NewOpt(true)
}
