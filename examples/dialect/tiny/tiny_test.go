package tiny_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/dialect"
	"github.com/rienda/hooks/examples/dialect/tiny"
)

// The example dialect loads as a dialect on the kit should: an unknown
// event or key is a diagnostic with the name it resembles, a malformed
// entry an error naming the file, line and entry, and a matcher that
// names no tool a problem for a linter.
func TestTinyLoadsAsADialectShould(t *testing.T) {
	var diags []string
	diag := tiny.Diagnostics(func(d hooks.Diagnostic) { diags = append(diags, d.Err.Error()) })
	hs, err := tiny.Hooks([]byte(`{"hooks": {
  "beforeTol": [{"command": "true"}],
  "stop": [{"comand": "x", "command": "true"}]
}}`), diag, dialect.File("tiny.json"))
	require.NoError(t, err)
	require.Len(t, hs, 1)
	assert.Equal(t, "tiny:stop", hs[0].Name())
	assert.Equal(t, []string{
		`tiny: Tiny settings: tiny.json: line 2: hooks.beforeTol: unknown event "beforeTol", skipped; did you mean "beforeTool"?`,
		`tiny: Tiny settings: tiny.json: line 3: hooks.stop[0]: unknown key "comand", not read; did you mean "command"?`,
	}, diags)

	_, err = tiny.Hooks([]byte("{\"hooks\": {\n  \"stop\": [\n    {\"timeout\": 5}\n  ]\n}}"), dialect.File("tiny.json"))
	assert.EqualError(t, err, `tiny: Tiny settings: tiny.json: line 3: hooks.stop[0].command: missing or empty`)

	problems, err := tiny.CheckToolNames([]byte(`{"hooks": {"beforeTool": [{"matcher": "Shel", "command": "true"}]}}`), []string{"shell"})
	require.NoError(t, err)
	require.Len(t, problems, 1)
	assert.Contains(t, problems[0].Error(), `"Shel" names no tool of this run (did you mean "shell"?)`)
}
