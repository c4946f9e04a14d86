package hooks

import (
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
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
		d := editDistance(key, known)
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

// editDistance is the optimal-string-alignment form of the Damerau-
// Levenshtein distance between a and b, in runes: the fewest letters
// inserted, deleted, substituted, or swapped with their neighbour (the
// commonest typo: "modle"), no substring edited twice.
func editDistance(a, b string) int {
	s, t := []rune(a), []rune(b)
	// Three rows of the usual table: the one before the previous is for
	// swaps.
	prev2 := make([]int, len(t)+1)
	prev := make([]int, len(t)+1)
	cur := make([]int, len(t)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(s); i++ {
		cur[0] = i
		for j := 1; j <= len(t); j++ {
			cost := 1
			if s[i-1] == t[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && s[i-1] == t[j-2] && s[i-2] == t[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(t)]
}
