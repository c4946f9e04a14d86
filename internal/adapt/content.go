package adapt

import "strings"

// TextOf joins the text items of an MCP result's content with newlines;
// text reads an item's text (ok false: not a text item). Both MCP SDKs'
// content lists go through it.
func TextOf[C any](content []C, text func(C) (string, bool)) string {
	var (
		first string
		more  *strings.Builder
		n     int
	)
	for _, c := range content {
		t, ok := text(c)
		if !ok {
			continue
		}
		switch n++; n {
		case 1:
			first = t
		case 2:
			more = &strings.Builder{}
			more.WriteString(first)
			fallthrough
		default:
			more.WriteByte('\n')
			more.WriteString(t)
		}
	}
	if more != nil {
		return more.String()
	}
	return first
}

// WithText returns content with its text items replaced by one holding
// text, where the first was (set gives that item the text, keeping its
// annotations), or first (made by newText); no text item when text is
// empty. Other items keep their order; content is not modified.
func WithText[C any](content []C, text string, isText func(C) bool, set func(C, string) C, newText func(string) C) []C {
	out := make([]C, 0, len(content)+1)
	placed := text == ""
	for _, c := range content {
		if !isText(c) {
			out = append(out, c)
			continue
		}
		if !placed {
			out = append(out, set(c, text))
			placed = true
		}
	}
	if !placed {
		out = append([]C{newText(text)}, out...)
	}
	return out
}
