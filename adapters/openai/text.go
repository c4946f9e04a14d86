package openai

import (
	"encoding/json"
	"reflect"
	"strings"

	oai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/rienda/hooks"
)

// systemSeparator joins the texts of several system messages into one
// System prompt.
const systemSeparator = "\n\n"

func joinSystem(texts []string) string { return strings.Join(texts, systemSeparator) }

// splitSystem compares the System the hooks left with the one they got:
// kept is true when now is was with text added before and/or after it
// (before and after, without the blank lines that joined them), so the
// original messages can stay as they were around the added text.
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

// joinTexts is the text of a content: the string, or the text parts joined
// by newlines.
func joinTexts[P any](s string, parts []P, text func(P) (string, bool)) string {
	if parts == nil {
		return s
	}
	var texts []string
	for _, p := range parts {
		if t, ok := text(p); ok {
			texts = append(texts, t)
		}
	}
	return strings.Join(texts, "\n")
}

// replaceText returns a content that says text. A string content becomes
// text. Among parts, the first text part takes text (keeping its other
// fields, such as a cache breakpoint), the other text parts go, and every
// other part (an image, a file, audio) stays where it was.
func replaceText[P any](s param.Opt[string], parts []P, text string,
	get func(P) (string, bool), set func(P, string) P, newText func(string) P) (param.Opt[string], []P) {
	if parts == nil {
		return param.NewOpt(text), nil
	}
	out := parts[:0:0]
	placed := false
	for _, p := range parts {
		if _, isText := get(p); !isText {
			out = append(out, p)
			continue
		}
		if !placed && text != "" {
			out = append(out, set(p, text))
		}
		placed = true
	}
	if !placed && text != "" {
		out = append([]P{newText(text)}, out...)
	}
	if len(out) == 0 {
		return param.NewOpt(text), nil
	}
	return param.Opt[string]{}, out
}

func textPartText(p oai.ChatCompletionContentPartTextParam) (string, bool) { return p.Text, true }

func setTextPartText(p oai.ChatCompletionContentPartTextParam, text string) oai.ChatCompletionContentPartTextParam {
	p.Text = text
	return p
}

func newTextPart(text string) oai.ChatCompletionContentPartTextParam {
	return oai.ChatCompletionContentPartTextParam{Text: text}
}

func userPartText(p oai.ChatCompletionContentPartUnionParam) (string, bool) {
	if p.OfText == nil {
		return "", false
	}
	return p.OfText.Text, true
}

func setUserPartText(p oai.ChatCompletionContentPartUnionParam, text string) oai.ChatCompletionContentPartUnionParam {
	t := *p.OfText // a copy: the original part is the caller's
	t.Text = text
	return oai.ChatCompletionContentPartUnionParam{OfText: &t}
}

func newUserPart(text string) oai.ChatCompletionContentPartUnionParam {
	return oai.ChatCompletionContentPartUnionParam{OfText: &oai.ChatCompletionContentPartTextParam{Text: text}}
}

func assistantPartText(p oai.ChatCompletionAssistantMessageParamContentArrayOfContentPartUnion) (string, bool) {
	if p.OfText == nil {
		return "", false
	}
	return p.OfText.Text, true
}

func setAssistantPartText(p oai.ChatCompletionAssistantMessageParamContentArrayOfContentPartUnion, text string) oai.ChatCompletionAssistantMessageParamContentArrayOfContentPartUnion {
	t := *p.OfText
	t.Text = text
	return oai.ChatCompletionAssistantMessageParamContentArrayOfContentPartUnion{OfText: &t}
}

func newAssistantPart(text string) oai.ChatCompletionAssistantMessageParamContentArrayOfContentPartUnion {
	return oai.ChatCompletionAssistantMessageParamContentArrayOfContentPartUnion{OfText: &oai.ChatCompletionContentPartTextParam{Text: text}}
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
// that text, the model's own; no arguments encode as {}.
func EncodeArguments(args map[string]any) (json.RawMessage, error) {
	if s, ok := args[hooks.InvalidArgumentsKey].(string); ok && len(args) == 1 {
		return json.RawMessage(s), nil
	}
	if len(args) == 0 {
		return json.RawMessage("{}"), nil
	}
	return json.Marshal(args)
}
