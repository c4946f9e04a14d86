package adapt

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/rienda/hooks"
)

// Output is a tool's result as the hooks see it (the text of its text
// items, its structured content decoded), with what it takes to tell what
// they changed: what they did not change reaches the client as the
// handler gave it. The two MCP adapters share it; each maps its SDK's
// content types.
type Output struct {
	text    string
	isError bool
	value   any    // structured content, decoded for the hooks
	raw     []byte // structured content, encoded as the handler gave it
	norm    []byte // value encoded: what an unchanged Value encodes to
}

// NewOutput reads a handler's result: text is its text items joined,
// structured its structured content (nil: none).
func NewOutput(text string, isError bool, structured any) (Output, error) {
	o := Output{text: text, isError: isError}
	if structured == nil {
		return o, nil
	}
	raw, err := json.Marshal(structured)
	if err != nil {
		return o, fmt.Errorf("structured content does not encode as JSON: %w", err)
	}
	if err := json.Unmarshal(raw, &o.value); err != nil {
		return o, fmt.Errorf("structured content does not decode as JSON: %w", err)
	}
	o.raw = raw
	o.norm, err = json.Marshal(o.value)
	return o, err
}

// Result is the result as the after-hooks read it.
func (o Output) Result() hooks.ToolResult {
	return hooks.ToolResult{Text: o.text, IsError: o.isError, Value: o.value}
}

// Change is what the client gets for the result the hooks left.
type Change struct {
	// Keep: the handler's result goes as it was (nothing else is set).
	Keep    bool
	IsError bool
	// SetText: the text items become one saying Text (none when empty).
	SetText bool
	Text    string
	// SetValue: the structured content becomes Value (nil: none).
	SetValue bool
	Value    json.RawMessage
	// Dropped says why the structured content was dropped: a hook
	// rewrote the text and left the value, which may still hold what the
	// hook removed from the text. For a diagnostic.
	Dropped error
}

// Diff returns what the client gets for res, the result after the hooks.
// ran is false when the handler did not run (a refusal, a hook's answer):
// the result is then made of res alone. A result asking the client for
// more input goes as it was (keep).
//
// A text rewritten while the structured content was left cannot leave a
// copy of what it removed in the structured content: when the text was
// the structured content's JSON and the new text is a JSON object, the
// structured content becomes it (mirrored); otherwise it is dropped and
// Dropped says so. A hook that redacts rewrites both (hooks.RewriteStrings).
func (o Output) Diff(res hooks.ToolResult, ran, keep bool) (Change, error) {
	value, valueChanged, err := o.structured(res.Value)
	if err != nil {
		return Change{}, err
	}
	c := Change{IsError: res.IsError}
	if !ran {
		c.SetText, c.Text = true, res.Text
		if c.Text == "" && valueChanged { // unstructured content equivalent to the structured one, as MCP asks
			c.Text = string(value)
		}
		c.SetValue, c.Value = valueChanged, value
		return c, nil
	}
	textChanged := res.Text != o.text
	if keep || !valueChanged && !textChanged && res.IsError == o.isError {
		return Change{Keep: true}, nil
	}
	wasJSON := o.raw != nil && o.text == string(o.raw)
	switch {
	case textChanged:
		c.SetText, c.Text = true, res.Text
	case valueChanged && wasJSON: // the text was the structured content's JSON: it stays so
		c.SetText, c.Text = true, string(value)
	}
	switch {
	case valueChanged:
		c.SetValue, c.Value = true, value
	case textChanged && o.raw != nil:
		c.SetValue = true
		if t := bytes.TrimSpace([]byte(res.Text)); wasJSON && len(t) > 0 && t[0] == '{' && json.Valid(t) {
			c.Value = json.RawMessage(t)
		} else {
			c.Dropped = fmt.Errorf("structuredContent dropped: a hook rewrote the result's text but not its value, " +
				"which may still hold what the text lost (rewrite both, e.g. with hooks.RewriteStrings)")
		}
	}
	return c, nil
}

// structured returns v, the structured content after the hooks, encoded,
// and whether it differs from what the handler gave.
func (o Output) structured(v any) (value json.RawMessage, changed bool, err error) {
	if v == nil { // a hook cannot clear a Value: only the handler gave none
		return nil, false, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, false, fmt.Errorf("structured content set by a hook does not encode as JSON: %w", err)
	}
	if o.norm != nil && bytes.Equal(b, o.norm) {
		return nil, false, nil
	}
	return b, true, nil
}

// Settle is Diff in an MCP adapter's words: an error names the adapter
// and the tool, and structured content dropped (Change.Dropped) is
// reported to diagnose at AfterToolExecute.
func (o Output) Settle(adapter, tool string, res hooks.ToolResult, ran, keep bool, diagnose func(hooks.Diagnostic)) (Change, error) {
	c, err := o.Diff(res, ran, keep)
	if err != nil {
		return c, fmt.Errorf("%s: tool %q: %w", adapter, tool, err)
	}
	if c.Dropped != nil && !c.Keep {
		diagnose(hooks.Diagnostic{Point: hooks.AfterToolExecute, Err: fmt.Errorf("%s: tool %q: %w", adapter, tool, c.Dropped)})
	}
	return c, nil
}
