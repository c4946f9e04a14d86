// Package suggest finds what a misspelt name was probably meant to be, for
// the "did you mean" of a diagnostic.
package suggest

import (
	"strings"
	"unicode/utf8"
)

// Closest returns the name of known that word is probably a typo of: the
// closest within reach once case is set aside (a key in another case
// counts as a typo), or false when none is close. word itself, when it is
// one of known exactly, is not a typo.
func Closest(word string, known []string) (string, bool) {
	lower := strings.ToLower(word)
	best, bestDist := "", -1
	for _, k := range known {
		if k == word {
			return "", false
		}
		d := Distance(lower, strings.ToLower(k))
		if d <= Reach(k) && (bestDist < 0 || d < bestDist) {
			best, bestDist = k, d
		}
	}
	return best, bestDist >= 0
}

// Reach is how many edits a typo of known may hold: one for names of up
// to five letters (two would flag real words: "age" is two from "name"),
// two up to twelve, and a quarter of the name past that
// ("AfterToolExecution" is three from "AfterToolExecute").
func Reach(known string) int {
	n := utf8.RuneCountInString(known)
	switch {
	case n <= 5:
		return 1
	case n <= 12:
		return 2
	}
	return n / 4
}

// Distance is the optimal-string-alignment form of the Damerau-
// Levenshtein distance between a and b, in runes: the fewest letters
// inserted, deleted, substituted, or swapped with their neighbour.
func Distance(a, b string) int {
	s, t := []rune(a), []rune(b)
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
