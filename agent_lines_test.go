package hooks_test

import (
	"strings"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The front matter may follow a byte-order mark and blank lines: they
// still start it, and every line an error names is a line of the file.
func TestParseAgentFrontMatterAfterBOMAndBlankLines(t *testing.T) {
	for name, lead := range map[string]string{
		"BOM and a blank line": "\ufeff\n",
		"blank lines":          "\n\n",
		"whitespace-only":      " \t\r\n  \n",
		"BOM, CRLF blanks":     "\ufeff\r\n\r\n",
	} {
		t.Run(name, func(t *testing.T) {
			a, err := hooks.ParseAgent([]byte(lead + "---\nname: x\nhooks: [guard]\n---\nYou are careful.\n"))
			require.NoError(t, err)
			assert.Equal(t, "x", a.Name)
			assert.Equal(t, []string{"guard"}, a.Hooks)
			assert.Equal(t, "You are careful.\n", a.Prompt)
		})
	}
	a, err := hooks.ParseAgent([]byte("\n\nJust a prompt.\n---\nx: 1\n---\n"))
	require.NoError(t, err)
	assert.Equal(t, "\n\nJust a prompt.\n---\nx: 1\n---\n", a.Prompt, "text before the fence: no front matter")
	assert.Empty(t, a.Hooks)
}

// Every YAML error names the line of the file, counted from the file's
// first line (a BOM and blank lines before the fence included).
func TestParseAgentYAMLErrorsNameTheFileLine(t *testing.T) {
	for name, tc := range map[string]struct{ file, want string }{
		"nested mapping, first line": {"---\ndescription: a: b: c\n---\n", "agent: line 2: mapping values are not allowed"},
		"nested mapping, later line": {"---\nname: x\ndescription: a: b: c\n---\n", "agent: line 3: mapping values are not allowed"},
		"unclosed flow sequence":     {"---\nname: x\nhooks: [guard, audit\nmodel: m\n---\n", "agent: line 3: did not find expected ',' or ']'"},
		"unclosed flow, first line":  {"---\nhooks: [guard, audit\nmodel: m\n---\n", "agent: line 2: did not find expected ',' or ']'"},
		"unclosed flow mapping":      {"---\nname: x\nhooks: {a\n---\n", "agent: line 3: did not find expected ',' or '}'"},
		"unclosed quote":             {"---\nname: x\ndescription: \"abc\nmodel: m\n---\n", "agent: line 3: found unexpected end of stream"},
		"bad indentation":            {"---\nname: x\nhooks:\n  - a\n tools: [b]\n---\n", "agent: line 5: did not find expected key"},
		"unknown anchor":             {"---\nname: x\nmodel: *m\n---\n", "agent: line 3: unknown anchor 'm' referenced"},
		"hooks a number":             {"---\nname: x\nhooks: 3\n---\n", `agent: line 3: hooks must be a list of hook names, not the value "3"`},
		"after blank lines":          {"\n \n---\nname: x\ndescription: a: b: c\n---\n", "agent: line 5: mapping values are not allowed"},
		"flow after a BOM and blank": {"\ufeff\n---\nhooks: [guard\n---\n", "agent: line 3: did not find expected ',' or ']'"},
		"wrong type after blank":     {"\n\n---\nhooks: 3\n---\n", `agent: line 4: hooks must be a list of hook names, not the value "3"`},
		"hook twice after blank":     {"\n---\nhooks:\n  - guard\n  - guard\n---\n", `agent: line 5: hook "guard" is declared twice (first on line 4)`},
		"key twice after blank":      {"\n---\nname: a\nname: b\n---\n", `agent: line 4: key "name" is set twice (first on line 3)`},
		"unclosed after blank":       {"\n\n---\nname: x\n", "agent: line 3: the front matter opened here is never closed"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := hooks.ParseAgent([]byte(tc.file))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.NotContains(t, err.Error(), "yaml:")
		})
	}
}

// Past the front matters whose errors are located line by line (a cost on
// error only, quadratic), yaml.v3's own line is kept: an error still names
// a line, the file's.
func TestParseAgentYAMLErrorInALongFrontMatter(t *testing.T) {
	file := "---\n" + strings.Repeat("# a comment\n", 600) + "description: a: b: c\n---\n"
	_, err := hooks.ParseAgent([]byte(file))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "agent: line 602: mapping values are not allowed")
}
