package mcpsdk

import (
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rienda/hooks"
	"github.com/rienda/hooks/internal/adapt"
)

// newToolOutput reads out's text and structured content for the hooks.
func newToolOutput(tool string, out *mcp.CallToolResult) (adapt.Output, error) {
	o, err := adapt.NewOutput(textOf(out.Content), out.IsError, out.StructuredContent)
	if err != nil {
		return o, fmt.Errorf("mcpsdk: tool %q: %w", tool, err)
	}
	return o, nil
}

// result returns what the client gets for res, the result after the
// hooks: out itself when they changed nothing, out with what they changed
// otherwise (adapt.Output.Diff decides), and a result made of res when
// the handler did not run (out is nil: a refusal or a hook's answer).
func (a *Adapter) result(o adapt.Output, tool string, out *mcp.CallToolResult, res hooks.ToolResult) (*mcp.CallToolResult, error) {
	c, err := o.Settle("mcpsdk", tool, res, out != nil, false, a.diagnose)
	if err != nil {
		return nil, err
	}
	if c.Keep {
		return out, nil
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
		r.StructuredContent = nil
		if c.Value != nil {
			r.StructuredContent = c.Value
		}
	}
	return &r, nil
}

// textOf joins the text items of content with newlines.
func textOf(content []mcp.Content) string {
	return adapt.TextOf(content, func(c mcp.Content) (string, bool) {
		t, ok := asText(c)
		if !ok {
			return "", false
		}
		return t.Text, true
	})
}

// withText returns content with its text items replaced by one holding
// text, where the first was (keeping its annotations), or first; no text
// item when text is empty. Other items keep their order.
func withText(content []mcp.Content, text string) []mcp.Content {
	return adapt.WithText(content, text, func(c mcp.Content) bool { _, ok := asText(c); return ok },
		func(c mcp.Content, text string) mcp.Content {
			item, _ := asText(c)
			changed := *item
			changed.Text = text
			return &changed
		}, func(text string) mcp.Content { return &mcp.TextContent{Text: text} })
}

// asText returns c if it is a text item.
func asText(c mcp.Content) (*mcp.TextContent, bool) {
	t, ok := c.(*mcp.TextContent)
	return t, ok && t != nil
}
