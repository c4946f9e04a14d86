package hooks

import (
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/rienda/hooks/internal/suggest"
)

// knownKeys are the keys ParseAgent reads, in the order a typo that is as
// close to two of them is taken for the first.
var knownKeys = []string{"name", "description", "model", "tools", "hooks"}

// otherFormatKeys are keys that other agent-file formats define and that
// sit within a typo's reach of a known key: they are meant, never taken for
// typos. opencode's "mode" (primary, subagent, all) is one letter from
// "model".
var otherFormatKeys = map[string]bool{"mode": true}

// typoOf returns the known key that the unknown key k is probably a typo
// of: the closest one within its typoReach, once case and surrounding
// spaces are set aside (YAML keys are case-sensitive, so "Hooks:" is as
// silent as "hoks:").
func typoOf(k *yaml.Node) (string, bool) {
	if k.Kind != yaml.ScalarNode {
		return "", false
	}
	key := strings.ToLower(strings.TrimSpace(k.Value))
	if key == "" || otherFormatKeys[key] {
		return "", false
	}
	best, bestDist := "", -1
	for _, known := range knownKeys {
		d := suggest.Distance(key, known)
		if d <= typoReach(known) && (bestDist < 0 || d < bestDist) {
			best, bestDist = known, d
		}
	}
	return best, bestDist >= 0
}

// typoReach is how many edits a typo of known may hold: one for the short
// keys, two for "description". Two edits would take up half of a
// four-letter key and flag real words: "age", "date" and "time" are two
// edits from "name", "node" and "hotel" two from "model", "todos" two from
// "tools". A typo of a long key often holds two slips ("descritpion").
func typoReach(known string) int {
	if utf8.RuneCountInString(known) > 5 {
		return 2
	}
	return 1
}
