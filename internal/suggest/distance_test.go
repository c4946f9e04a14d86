package suggest

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDistanceIsOptimalStringAlignment(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"hooks", "hooks", 0}, {"hook", "hooks", 1}, {"hoks", "hooks", 1},
		{"modle", "model", 1}, {"mdoel", "model", 1}, {"descritpion", "description", 1},
		{"age", "name", 2}, {"node", "model", 2}, {"todos", "tools", 2},
		{"temperature", "hooks", 11}, {"", "name", 4}, {"hоoks", "hooks", 1}, // a Cyrillic о
		{"ca", "abc", 3}, // optimal string alignment: no substring edited twice
	} {
		assert.Equal(t, tc.want, Distance(tc.a, tc.b), "%q %q", tc.a, tc.b)
		assert.Equal(t, tc.want, Distance(tc.b, tc.a), "%q %q", tc.b, tc.a)
	}
}
