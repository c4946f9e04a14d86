package prebuilt_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/hooktest"
	"github.com/rienda/hooks/prebuilt"
)

// An agent file names JavaScript hooks and ready-made hooks with their
// settings in one hooks: list; Loader.LoadAgent builds them in its order,
// the ready-made ones with Loader.Prebuilt set to prebuilt.FromSpec.
func TestAgentFileEntriesBuildWithFromSpec(t *testing.T) {
	data, err := os.ReadFile("testdata/researcher.md")
	require.NoError(t, err)
	agent, err := hooks.ParseAgent(data)
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "audit-js"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "audit-js", "index.js"), []byte("exports.afterRun = () => {}\n"), 0o644))

	built, err := (&hooks.Loader{Dir: dir, Prebuilt: prebuilt.FromSpec}).LoadAgent(agent)
	require.NoError(t, err)
	names := make([]string, len(built))
	for i, h := range built {
		names[i] = h.Name()
	}
	assert.Equal(t, []string{"audit-js", "redact", "toolCallLimit", "loopGuard"}, names)

	h := hooktest.New(t, built...)
	h.Tool("search", map[string]any{"q": "a"}).RequireAllowed(t)
	h.Tool("search", map[string]any{"q": "b"}).RequireAllowed(t)
	assert.False(t, h.Tool("search", map[string]any{"q": "c"}).Ran, "perTool search: 2")
	o := h.ToolCall(hooks.ToolCall{Name: "read", Arguments: map[string]any{}}, hooks.ToolResult{Text: "see TCK-123456"})
	assert.Equal(t, "see [REDACTED:ticket]", o.Result.Text)
}

// Without Loader.Prebuilt, an agent file that names a ready-made hook
// fails to load, naming the line and what to set.
func TestAgentFileWithoutPrebuiltSaysWhatToSet(t *testing.T) {
	agent, err := hooks.ParseAgent([]byte("---\nhooks:\n  - prebuilt: loopGuard\n---\n"))
	require.NoError(t, err)
	_, err = (&hooks.Loader{Dir: t.TempDir()}).LoadAgent(agent)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "line 3")
	assert.Contains(t, err.Error(), "Loader.Prebuilt")
	agent, err = hooks.ParseAgent([]byte("---\nhooks:\n  - prebuilt: loopGuard\n    with: {repeats: -1}\n---\n"))
	require.NoError(t, err)
	_, err = (&hooks.Loader{Dir: t.TempDir(), Prebuilt: prebuilt.FromSpec}).LoadAgent(agent)
	require.Error(t, err, "a bad setting is an error naming the line")
	assert.Contains(t, err.Error(), "line 3")
}

// An entry that sets prebuilt: or with: twice is an error with the line,
// as a top-level key is: the last would otherwise win, silently (a limit
// of 1 becoming 100). A key repeated inside with: is one too.
func TestAgentFileEntryKeySetTwiceIsAnError(t *testing.T) {
	for src, want := range map[string]string{
		"---\nhooks:\n  - prebuilt: toolCallLimit\n    with: {run: 1}\n    with: {run: 100}\n---\n":                              `agent: line 5: hooks: key "with" is set twice in one entry (first on line 4)`,
		"---\nhooks:\n  - prebuilt: toolCallLimit\n    prebuilt: loopGuard\n---\n":                                               `agent: line 4: hooks: key "prebuilt" is set twice in one entry (first on line 3)`,
		"---\nhooks:\n  - prebuilt: toolCallLimit\n    with: {run: 1, run: 100}\n---\n":                                          `mapping key "run" already defined at line 4`,
		"---\nhooks:\n  - prebuilt: budget\n    with:\n      maxTokens: 10\n      prices: {m: {input: 1}, m: {input: 0}}\n---\n": `mapping key "m" already defined at line 6`,
	} {
		_, err := hooks.ParseAgent([]byte(src))
		require.Error(t, err, src)
		assert.Contains(t, err.Error(), want, src)
	}
}

// A price an agent file cannot mean (.nan, .inf, negative) fails the load
// with the entry's line.
func TestAgentFileBudgetPriceThatNeverTripsFailsWithTheLine(t *testing.T) {
	for _, price := range []string{".nan", ".inf", "-.inf", "-1"} {
		agent, err := hooks.ParseAgent([]byte("---\nname: a\nhooks:\n  - prebuilt: budget\n    with: {maxCost: 1, prices: {m: {input: " + price + ", output: 1}}}\n---\n"))
		require.NoError(t, err)
		_, err = (&hooks.Loader{Dir: t.TempDir(), Prebuilt: prebuilt.FromSpec}).LoadAgent(agent)
		require.Error(t, err, price)
		assert.Contains(t, err.Error(), `agent: line 4: prebuilt budget: field Prices["m"].Input is`, price)
	}
}
