package dialect

import (
	"fmt"
	"strings"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/internal/exactjson"
	"github.com/rienda/hooks/internal/suggest"
)

// Decode reads data, a handler's output or a settings entry, into v (a
// pointer to a struct with json tags) as JSON.parse and a property read
// do: keys match field names exactly, case included (encoding/json would
// take "Decision" for "decision", so {"decision":"deny","Decision":"allow"}
// would allow), and a key given twice takes its last value. It returns
// the paths of the keys no field took ("hookSpecificOutput.Reason"),
// sorted, so that a typo is diagnosed (Unknown) instead of dropped.
func Decode(data []byte, v any) (unknown []string, err error) {
	return exactjson.Unmarshal(data, v)
}

// Closest is the name of known that name is probably a typo of (case set
// aside counts as a typo), for a did-you-mean; false when none is close.
func Closest(name string, known []string) (string, bool) {
	return suggest.Closest(name, known)
}

// DidYouMean is ` (did you mean "x"?)` for the name of known that name
// resembles, or "".
func DidYouMean(name string, known []string) string {
	if like, ok := suggest.Closest(name, known); ok {
		return fmt.Sprintf(" (did you mean %q?)", like)
	}
	return ""
}

// Unknown reports, as diagnostics of the running hook, the keys of a
// handler's output that no field took: each with the key it resembles
// (among known, the paths of the fields), or the keys there are. what
// names the handler ("Codex hook PreToolUse[0].hooks[0]").
func Unknown(c *hooks.Context, what string, unknown, known []string) {
	for _, k := range unknown {
		if like, ok := suggest.Closest(k, known); ok {
			c.Diagnose(fmt.Errorf("%s printed the key %q, which is not read: did you mean %q?", what, k, like))
		} else {
			c.Diagnose(fmt.Errorf("%s printed the key %q, which is not read (the keys are %s)", what, k, strings.Join(known, ", ")))
		}
	}
}

// Evident reports whether what a guard printed evidently says refuse,
// however else it is wrong (malformed JSON, a decision key in another
// case or place, a deny printed before a crash), and how: see
// hooks.EvidentRefusal. A refusal word in the text of a valid JSON string
// never refuses.
func Evident(output []byte) (string, bool) {
	return hooks.EvidentRefusal(output)
}
