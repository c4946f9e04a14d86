package mcpgo

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/rienda/hooks"
)

// toolOutput is a handler's result as the hooks see it, with what it takes
// to tell what they changed: what they did not change reaches the client
// as the handler gave it.
type toolOutput struct {
	text  string // the result's text content, joined by newlines
	value any    // structuredContent, decoded for the hooks
	raw   []byte // structuredContent, encoded as the handler gave it
	norm  []byte // value encoded: what an unchanged Value encodes to
}

// newToolOutput reads out's text and structured content for the hooks.
func newToolOutput(tool string, out *mcp.CallToolResult) (toolOutput, error) {
	o := toolOutput{text: textOf(out.Content)}
	if out.StructuredContent == nil {
		return o, nil
	}
	raw, err := json.Marshal(out.StructuredContent)
	if err != nil {
		return o, fmt.Errorf("mcpgo: structured content of tool %q does not encode as JSON: %w", tool, err)
	}
	if err := json.Unmarshal(raw, &o.value); err != nil {
		return o, fmt.Errorf("mcpgo: structured content of tool %q does not decode as JSON: %w", tool, err)
	}
	o.raw = raw
	o.norm, err = json.Marshal(o.value)
	return o, err
}

// hooksResult is out as the after-hooks read it.
func (o toolOutput) hooksResult(out *mcp.CallToolResult) hooks.ToolResult {
	return hooks.ToolResult{Text: o.text, IsError: out.IsError, Value: o.value}
}

// result returns what the client gets for res, the result after the
// hooks: out itself when they changed nothing, out with what they changed
// otherwise, and a result made of res when the handler did not run (out is
// nil: a refusal or a hook's answer).
func (o toolOutput) result(tool string, out *mcp.CallToolResult, res hooks.ToolResult) (*mcp.CallToolResult, error) {
	value, valueChanged, err := o.structured(tool, res.Value)
	if err != nil {
		return nil, err
	}
	if out == nil {
		text := res.Text
		if text == "" && valueChanged { // unstructured content equivalent to the structured one, as MCP asks
			text = string(value.(json.RawMessage))
		}
		r := &mcp.CallToolResult{Content: withText(nil, text), IsError: res.IsError}
		if valueChanged {
			r.StructuredContent = value
		}
		return r, nil
	}
	textChanged := res.Text != o.text
	if out.NeedsInput() || !valueChanged && !textChanged && res.IsError == out.IsError {
		return out, nil
	}
	r := *out
	r.IsError = res.IsError
	switch {
	case textChanged:
		r.Content = withText(out.Content, res.Text)
	case valueChanged && o.text == string(o.raw): // the text was the structured content's JSON: it stays so
		r.Content = withText(out.Content, string(value.(json.RawMessage)))
	}
	if valueChanged {
		r.StructuredContent, r.RawStructuredContent = value, nil
	}
	return &r, nil
}

// structured returns v, the structured content after the hooks, encoded,
// and whether it differs from what the handler gave.
func (o toolOutput) structured(tool string, v any) (value any, changed bool, err error) {
	if v == nil { // a hook cannot clear a Value: only the handler gave none
		return nil, false, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, false, fmt.Errorf("mcpgo: structured content of tool %q set by a hook does not encode as JSON: %w", tool, err)
	}
	if o.norm != nil && bytes.Equal(b, o.norm) {
		return nil, false, nil
	}
	return json.RawMessage(b), true, nil
}

// textOf joins the text items of content with newlines.
func textOf(content []mcp.Content) string {
	var (
		first string
		more  *strings.Builder
		n     int
	)
	for _, c := range content {
		t, ok := asText(c)
		if !ok {
			continue
		}
		switch n++; n {
		case 1:
			first = t.Text
		case 2:
			more = &strings.Builder{}
			more.WriteString(first)
			fallthrough
		default:
			more.WriteByte('\n')
			more.WriteString(t.Text)
		}
	}
	if more != nil {
		return more.String()
	}
	return first
}

// withText returns content with its text items replaced by one holding
// text, where the first was (keeping its annotations), or first; no text
// item when text is empty. Other items keep their order.
func withText(content []mcp.Content, text string) []mcp.Content {
	out := make([]mcp.Content, 0, len(content)+1)
	placed := text == ""
	for _, c := range content {
		t, ok := asText(c)
		if !ok {
			out = append(out, c)
			continue
		}
		if !placed {
			item := *t
			item.Text = text
			out = append(out, item)
			placed = true
		}
	}
	if !placed {
		out = append([]mcp.Content{mcp.NewTextContent(text)}, out...)
	}
	return out
}

// asText returns c's text item, whether the handler gave it as a value
// (mcp.NewTextContent) or as a pointer.
func asText(c mcp.Content) (*mcp.TextContent, bool) {
	switch t := c.(type) {
	case mcp.TextContent:
		return &t, true
	case *mcp.TextContent:
		return t, t != nil
	}
	return nil, false
}
