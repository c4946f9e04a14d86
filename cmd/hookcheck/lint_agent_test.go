package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lint prints each problem once, with its file and line, and counts each
// once: the directory's own (though an agent file loads the same hooks
// again) and every misspelt key of an agent file.
func TestLintPrintsEachTypoAndEachHookProblemOnce(t *testing.T) {
	data, err := os.ReadFile("testdata/typos.md")
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(data), "\ufeff\n"), "typos.md starts with a BOM and blank lines, so lines count from them")

	r := hookcheck(t, "", "lint", "-dir", hooksDir, "testdata/typos.md", "testdata/broken-hooks.md")
	assert.Equal(t, 1, r.code, r.stderr)
	for _, line := range []string{
		`hook "broken": export "beforeToolExecution" is not a point`,
		`hook "broken": export "afterRun" is a string, not a function`,
		`hook "syntax": ` + filepath.Join(hooksDir, "syntax", "index.js") + `:3:41: SyntaxError`,
		`testdata/typos.md: line 5: unknown key "Hooks" is ignored; did you mean "hooks"?` + "\n",
		`testdata/typos.md: line 6: unknown key "hoks" is ignored; did you mean "hooks"?` + "\n",
		`testdata/typos.md: line 7: unknown key "hook" is ignored; did you mean "hooks"?` + "\n",
		`testdata/typos.md: line 8: unknown key "tols" is ignored; did you mean "tools"?` + "\n",
		`testdata/typos.md: line 9: unknown key "modle" is ignored; did you mean "model"?` + "\n",
		`testdata/typos.md: line 10: unknown key "descripton" is ignored; did you mean "description"?` + "\n",
	} {
		assert.Equal(t, 1, strings.Count(r.stdout, line), "once: %s\n%s", line, r.stdout)
	}
	for _, key := range []string{"temperature", "hooks_dir", "mode"} {
		assert.NotContains(t, r.stdout, `"`+key+`"`, "a genuinely different key")
	}
	assert.NotContains(t, r.stdout, "broken-hooks.md", "it declares broken hooks, which load")
	assert.True(t, strings.HasSuffix(r.stdout, "\n9 problem(s)\n"), r.stdout)
}

// A YAML error of an agent file is printed with the line of the file.
func TestLintAgentYAMLErrorNamesTheFileLine(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "flow.md")
	require.NoError(t, os.WriteFile(path, []byte("\n---\nname: x\nhooks: [guard, audit\nmodel: m\n---\n"), 0o644))
	r := hookcheck(t, "", "lint", "-dir", "../../examples/agentloop/hooks", path)
	assert.Equal(t, 1, r.code, r.stderr)
	assert.Equal(t, path+": line 4: did not find expected ',' or ']'\n1 problem(s)\n", r.stdout)
}
