package hooks

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A value that contains itself, or is nested past any reason, is cut
// where the walk cannot go on, never walked until the stack runs out (a
// fatal error no recover catches: the test runs in a child process).
func TestRewriteStringsSurvivesAValueThatContainsItself(t *testing.T) {
	if !inChild(t) {
		return
	}
	redact := func(s string) string { return strings.ReplaceAll(s, "sk-secret", "[redacted]") }

	m := map[string]any{"key": "sk-secret"}
	m["self"] = m
	p := RewriteStrings(ToolResult{Value: m}, redact)
	require.NotNil(t, p)
	got := p.Value.(map[string]any)
	assert.Equal(t, "[redacted]", got["key"])
	assert.Equal(t, withheldCycle, got["self"])
	assert.Equal(t, "sk-secret", m["key"], "the value given is not modified")

	l := []any{"sk-secret", nil}
	l[1] = l
	p = RewriteStrings(ToolResult{Value: l}, redact)
	require.NotNil(t, p)
	assert.Equal(t, []any{"[redacted]", withheldCycle}, p.Value)

	// A cycle through two values, and one that changes nothing else.
	a, b := map[string]any{}, []any{nil}
	a["b"], b[0] = b, a
	p = RewriteStrings(ToolResult{Value: a}, redact)
	require.NotNil(t, p)
	assert.Equal(t, map[string]any{"b": []any{withheldCycle}}, p.Value)

	var deep any = "sk-secret"
	for range 1_000_000 {
		deep = []any{deep}
	}
	p = RewriteStrings(ToolResult{Value: deep}, redact)
	require.NotNil(t, p)
	x := p.Value
	for range maxRewriteDepth {
		x = x.([]any)[0]
	}
	assert.Equal(t, withheldDeep, x)
}
