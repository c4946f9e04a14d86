package hooks_test

import (
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
