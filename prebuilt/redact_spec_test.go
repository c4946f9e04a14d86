package prebuilt_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/hooktest"
	"github.com/rienda/hooks/prebuilt"
)

func TestRedactSpecTakesLangChainSettings(t *testing.T) {
	h, err := prebuilt.FromSpec("redact", settingsOf(t, `{detect: [credit_card, email], strategy: partial, applyToOutput: false}`))
	require.NoError(t, err)
	ht := hooktest.New(t, h)
	ht.ToolCall(hooks.ToolCall{Name: "x"}, hooks.ToolResult{Text: "4111 1111 1111 1111 ann@example.com"}).
		RequireResult(t, "**** **** **** 1111 ann@****.com")
	ht.Model(hooks.ModelRequest{}, hooks.ModelResponse{Text: "ann@example.com"}).RequireText(t, "ann@example.com")

	for _, tc := range []struct{ src, want string }{
		{`{detect: []}`, `prebuilt redact: field Detect: an empty list turns every built-in detector off`},
		{`{applyToOutput: false, applyToToolResults: false}`, `prebuilt redact: fields ApplyToInput, ApplyToOutput and ApplyToToolResults: the redaction applies nowhere`},
		{`{applyToOutput: "no"}`, `prebuilt redact: setting "applyToOutput": want true or false`},
		{`{strategy: mask4}`, `(did you mean "mask"?)`},
	} {
		_, err := prebuilt.FromSpec("redact", settingsOf(t, tc.src))
		assert.ErrorContains(t, err, tc.want, tc.src)
	}
}
