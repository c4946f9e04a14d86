package cursor

import (
	"regexp"

	"github.com/rienda/hooks/dialect"
)

// word is a run of letters (and underscores) in a guard's output.
var word = regexp.MustCompile(`[A-Za-z_]+`)

// evidentRefusal is hooks.EvidentRefusal with Cursor's decision key,
// "permission", read as one (that rule knows "decision",
// "permissionDecision" and "behavior"): a word within a typo of
// "permission", in any case, is read as "decision", so that
// {"permission": "deny"} a quote broke, {"Permission":"deny"}, or a deny
// printed before a crash still refuses.
func evidentRefusal(out []byte) (string, bool) {
	if what, ok := dialect.Evident(out); ok {
		return what, true
	}
	renamed := word.ReplaceAllStringFunc(string(out), func(w string) string {
		if _, typo := dialect.Closest(w, []string{"permission"}); typo || w == "permission" {
			return "decision"
		}
		return w
	})
	if renamed == string(out) {
		return "", false
	}
	return dialect.Evident([]byte(renamed))
}
