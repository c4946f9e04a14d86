package anthropic

import (
	"encoding/json"
	"reflect"
	"strings"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/rienda/hooks"
)

// systemSeparator joins the texts of several system blocks into one
// System prompt.
const systemSeparator = "\n\n"

// systemText joins the text of system blocks.
func systemText(blocks []sdk.TextBlockParam) string {
	texts := make([]string, len(blocks))
	for i, b := range blocks {
		texts[i] = b.Text
	}
	return strings.Join(texts, systemSeparator)
}

// splitSystem compares the System the hooks left with the one they got:
// kept is true when now is was with text added before and/or after it
// (before and after, without the blank lines that joined them), so the
// original blocks can stay as they were around the added text.
func splitSystem(was, now string) (before, after string, kept bool) {
	switch {
	case now == was:
		return "", "", true
	case was == "":
		return "", "", false
	case strings.HasPrefix(now, was):
		return "", strings.TrimLeft(now[len(was):], "\n"), true
	case strings.HasSuffix(now, was):
		return strings.TrimRight(now[:len(now)-len(was)], "\n"), "", true
	}
	return "", "", false
}

// blocksText is the text of a message's text blocks, joined by sep.
func blocksText(blocks []sdk.ContentBlockParamUnion, sep string) string {
	var texts []string
	for _, b := range blocks {
		if b.OfText != nil {
			texts = append(texts, b.OfText.Text)
		}
	}
	return strings.Join(texts, sep)
}

// resultContentText is the text of a tool_result's content.
func resultContentText(content []sdk.ToolResultBlockParamContentUnion) string {
	var texts []string
	for _, c := range content {
		if c.OfText != nil {
			texts = append(texts, c.OfText.Text)
		}
	}
	return strings.Join(texts, "\n")
}

// replaceText returns blocks that say text: the first text block takes it
// (keeping its cache_control), the other text blocks go, and every other
// block (an image, a document, thinking, a tool call) stays where it was.
// Without a text block, a new one goes last. The API refuses empty text
// blocks: an empty text removes them.
func replaceText[B any](blocks []B, text string, get func(B) (string, bool), set func(B, string) B, newText func(string) B) []B {
	out := make([]B, 0, len(blocks)+1)
	placed := false
	for _, b := range blocks {
		if _, isText := get(b); !isText {
			out = append(out, b)
			continue
		}
		if !placed && text != "" {
			out = append(out, set(b, text))
		}
		placed = true
	}
	if !placed && text != "" {
		out = append(out, newText(text))
	}
	return out
}

// sameArguments compares arguments as values; no arguments and an empty
// map are the same.
func sameArguments(a, b map[string]any) bool {
	if len(a) == 0 && len(b) == 0 {
		return true
	}
	return reflect.DeepEqual(a, b)
}

// EncodeArguments is the JSON text of a tool call's arguments, for a call
// the model must read or a tool must run with the hooks' arguments.
// Arguments that hold only hooks.InvalidArgumentsKey (what
// hooks.ParseArguments makes of text that is not a JSON object) encode as
// that text when it is valid JSON, else as the object itself; no
// arguments encode as {}.
func EncodeArguments(args map[string]any) (json.RawMessage, error) {
	if s, ok := args[hooks.InvalidArgumentsKey].(string); ok && len(args) == 1 && json.Valid([]byte(s)) {
		return json.RawMessage(s), nil
	}
	if len(args) == 0 {
		return json.RawMessage("{}"), nil
	}
	return json.Marshal(args)
}
