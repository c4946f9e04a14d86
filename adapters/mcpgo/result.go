package mcpgo

import (
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/rienda/hooks"
	"github.com/rienda/hooks/internal/adapt"
)

// newToolOutput reads out's text and structured content for the hooks.
func newToolOutput(tool string, out *mcp.CallToolResult) (adapt.Output, error) {
	o, err := adapt.NewOutput(textOf(out.Content), out.IsError, out.StructuredContent)
	if err != nil {
		return o, fmt.Errorf("mcpgo: tool %q: %w", tool, err)
	}
	return o, nil
}

// result returns what the client gets for res, the result after the
// hooks: out itself when they changed nothing, out with what they changed
// otherwise (adapt.Output.Diff decides), and a result made of res when
// the handler did not run (out is nil: a refusal or a hook's answer).
func (a *Adapter) result(o adapt.Output, tool string, out *mcp.CallToolResult, res hooks.ToolResult) (*mcp.CallToolResult, error) {
	c, err := o.Diff(res, out != nil, out != nil && out.NeedsInput())
	if err != nil {
		return nil, fmt.Errorf("mcpgo: tool %q: %w", tool, err)
	}
	if c.Keep {
		return out, nil
	}
	if c.Dropped != nil {
		a.diagnose(hooks.Diagnostic{Point: hooks.AfterToolExecute, Err: fmt.Errorf("mcpgo: tool %q: %w", tool, c.Dropped)})
	}
	var r mcp.CallToolResult
	if out != nil {
		r = *out
	}
	r.IsError = c.IsError
	if c.SetText {
		r.Content = withText(r.Content, c.Text)
	}
	if c.SetValue {
		r.StructuredContent, r.RawStructuredContent = nil, nil
		if c.Value != nil {
			r.StructuredContent = c.Value
		}
	}
	return &r, nil
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
