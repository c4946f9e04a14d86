package hooks_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rienda/hooks"
)

func redactKey(s string) string { return strings.ReplaceAll(s, "sk-secret", "[redacted]") }

func TestRewriteStringsReachesTextAndEveryStringOfTheValue(t *testing.T) {
	type row struct {
		Token string `json:"token"`
	}
	value := map[string]any{"rows": []any{map[string]any{"token": "sk-secret"}, "plain"}, "n": 1.0, "typed": row{Token: "sk-secret"}}
	res := hooks.ToolResult{Text: "key sk-secret", Value: value}
	p := hooks.RewriteStrings(res, redactKey)
	require.NotNil(t, p)
	require.NotNil(t, p.Text)
	assert.Equal(t, "key [redacted]", *p.Text)
	assert.Equal(t, map[string]any{"rows": []any{map[string]any{"token": "[redacted]"}, "plain"}, "n": 1.0,
		"typed": map[string]any{"token": "[redacted]"}}, p.Value)
	assert.Equal(t, "sk-secret", value["rows"].([]any)[0].(map[string]any)["token"], "the result given is not modified")
}

func TestRewriteStringsHasNoOpinionWhenNothingChanged(t *testing.T) {
	assert.Nil(t, hooks.RewriteStrings(hooks.ToolResult{Text: "clean", Value: map[string]any{"a": []any{"b"}}}, redactKey))
	p := hooks.RewriteStrings(hooks.ToolResult{Text: "clean", Value: "sk-secret"}, redactKey)
	require.NotNil(t, p)
	assert.Nil(t, p.Text, "only what changed is set")
	assert.Equal(t, "[redacted]", p.Value)
}

func TestRewriteStringsReachesMapKeysAndNumbers(t *testing.T) {
	card := func(s string) string { return strings.ReplaceAll(s, "4111111111111111", "[card]") }
	res := hooks.ToolResult{Value: map[string]any{
		"sk-secret":  "value",
		"plain":      map[string]any{"sk-secret-2": 1.0},
		"card":       4111111111111111.0,
		"cardNumber": json.Number("4111111111111111"),
		"typed":      struct{ N int64 }{4111111111111111},
		"n":          3.0,
	}}
	p := hooks.RewriteStrings(res, func(s string) string { return card(redactKey(s)) })
	require.NotNil(t, p)
	assert.Equal(t, map[string]any{
		"[redacted]": "value",
		"plain":      map[string]any{"[redacted]-2": 1.0},
		"card":       "[card]",
		"cardNumber": "[card]",
		"typed":      map[string]any{"N": "[card]"},
		"n":          3.0,
	}, p.Value)
}

func TestRewriteStringsKeepsKeysItMakesEqualApart(t *testing.T) {
	p := hooks.RewriteStrings(hooks.ToolResult{Value: map[string]any{"a sk-secret": 1.0, "b sk-secret": 2.0, "c": 3.0}},
		func(s string) string {
			if strings.Contains(s, "sk-secret") {
				return "[redacted]"
			}
			return s
		})
	require.NotNil(t, p)
	assert.Equal(t, map[string]any{"[redacted]": 1.0, "[redacted] #2": 2.0, "c": 3.0}, p.Value)
}

func TestRewriteStringsWithholdsWhatDoesNotEncode(t *testing.T) {
	p := hooks.RewriteStrings(hooks.ToolResult{Value: map[string]any{"ch": make(chan int), "ok": "x"}}, func(s string) string { return s })
	require.NotNil(t, p)
	assert.Equal(t, map[string]any{"ch": "[WITHHELD: a value that does not encode as JSON]", "ok": "x"}, p.Value)
}

// A value shared by many places is walked once: 60 levels of a list
// holding the level below twice is 2^60 paths, and must take no time.
func TestRewriteStringsWalksASharedValueOnce(t *testing.T) {
	var v any = []any{"sk-secret"}
	for range 60 {
		v = []any{v, v}
	}
	p := hooks.RewriteStrings(hooks.ToolResult{Value: v}, redactKey)
	require.NotNil(t, p)
	for x := p.Value; ; {
		l := x.([]any)
		if len(l) == 1 {
			assert.Equal(t, "[redacted]", l[0])
			break
		}
		x = l[1]
	}
}
