package eino

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cloudwego/eino/schema"
	"github.com/rienda/hooks"
)

// structured is a tool's *schema.ToolResult as the hooks were given it.
type structured struct {
	tr      *schema.ToolResult // the tool's own; nil when a hook answered
	text    string             // its text parts
	value   map[string]any     // all of it, as JSON types
	encoded []byte             // value encoded: what a Value no hook changed encodes to
}

func toStructured(tr *schema.ToolResult) (structured, error) {
	if tr == nil {
		tr = &schema.ToolResult{}
	}
	raw, err := json.Marshal(tr)
	if err != nil {
		return structured{}, fmt.Errorf("encoding the tool's result: %w", err)
	}
	var value map[string]any
	if err := json.Unmarshal(raw, &value); err != nil {
		return structured{}, fmt.Errorf("decoding the tool's result: %w", err)
	}
	encoded, err := json.Marshal(value)
	if err != nil {
		return structured{}, fmt.Errorf("encoding the tool's result: %w", err)
	}
	return structured{tr: tr, text: resultText(tr), value: value, encoded: encoded}, nil
}

// result is what the hooks see.
func (s structured) result() hooks.ToolResult {
	return hooks.ToolResult{Text: s.text, Value: s.value}
}

// fromResult is the result eino receives once the hooks are done: Value
// decoded (the tool's own when no hook changed it), its text parts replaced
// by Text when a hook changed Text.
func (s structured) fromResult(res hooks.ToolResult) (*schema.ToolResult, error) {
	tr, err := s.decode(res.Value)
	if err != nil {
		return nil, err
	}
	if res.Text != s.text {
		tr = withResultText(tr, res.Text)
	}
	return tr, nil
}

func (s structured) decode(v any) (*schema.ToolResult, error) {
	switch v := v.(type) {
	case nil:
		return &schema.ToolResult{}, nil
	case *schema.ToolResult: // a Go hook's own
		if v == nil {
			return &schema.ToolResult{}, nil
		}
		return v, nil
	case schema.ToolResult:
		return &v, nil
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encoding the result's Value: %w", err)
	}
	if s.tr != nil && bytes.Equal(raw, s.encoded) {
		return s.tr, nil
	}
	var tr schema.ToolResult
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&tr); err != nil {
		return nil, fmt.Errorf(`the result's Value is not a schema.ToolResult ({"parts": [{"type": "text", "text": …}]}): %w`, err)
	}
	return &tr, nil
}

// resultText is the text the hooks see of a structured result: its text
// parts, joined by newlines.
func resultText(tr *schema.ToolResult) string {
	var texts []string
	for _, p := range tr.Parts {
		if p.Type == schema.ToolPartTypeText {
			texts = append(texts, p.Text)
		}
	}
	return strings.Join(texts, "\n")
}

// withResultText returns a copy of tr whose first text part says text (a
// new first part when it had none), without its other text parts.
func withResultText(tr *schema.ToolResult, text string) *schema.ToolResult {
	out := &schema.ToolResult{Parts: make([]schema.ToolOutputPart, 0, len(tr.Parts)+1)}
	placed := text == "" // an empty text is no part
	for _, p := range tr.Parts {
		if p.Type == schema.ToolPartTypeText {
			if placed {
				continue
			}
			placed = true
			p.Text = text
		}
		out.Parts = append(out.Parts, p)
	}
	if !placed {
		out.Parts = append([]schema.ToolOutputPart{{Type: schema.ToolPartTypeText, Text: text}}, out.Parts...)
	}
	return out
}
