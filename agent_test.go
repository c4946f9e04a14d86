package hooks_test

import (
	"os"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseAgent(t *testing.T) {
	data, err := os.ReadFile("testdata/agents/careful.md")
	require.NoError(t, err)
	a, err := hooks.ParseAgent(data)
	require.NoError(t, err)
	assert.Equal(t, &hooks.Agent{
		Name:        "careful",
		Description: "A careful agent.",
		Model:       "openai/gpt-4o",
		Tools:       []string{"shell"},
		Hooks:       []string{"guard", "audit"},
		Prompt:      "You are careful.\n",
	}, a)
}

func TestParseAgentWithoutFrontMatter(t *testing.T) {
	a, err := hooks.ParseAgent([]byte("Just a prompt.\n---\nnot front matter"))
	require.NoError(t, err)
	assert.Equal(t, "Just a prompt.\n---\nnot front matter", a.Prompt)
	assert.Empty(t, a.Hooks)
}

func TestParseAgentEdgeCases(t *testing.T) {
	a, err := hooks.ParseAgent([]byte("---\r\nhooks: [guard]\r\nfuture: {x: 1}\r\n---\r\nprompt"))
	require.NoError(t, err, "CRLF lines and unknown keys are fine")
	assert.Equal(t, []string{"guard"}, a.Hooks)
	assert.Equal(t, "prompt", a.Prompt)

	a, err = hooks.ParseAgent([]byte("---\n---\n"))
	require.NoError(t, err)
	assert.Equal(t, &hooks.Agent{}, a)

	a, err = hooks.ParseAgent([]byte("---\nname: x\nhooks:\n---"))
	require.NoError(t, err)
	assert.Empty(t, a.Hooks, "an empty hooks: declares none")
}

func TestParseAgentErrorsNameTheLine(t *testing.T) {
	for name, tc := range map[string]struct{ file, want string }{
		"unclosed fence": {"---\nname: x\nhooks: [a]\n", "line 1: the front matter opened here is never closed"},
		"malformed yaml": {"---\nname: x\nhooks:\n\t- a\n---\n", "line 4: found character that cannot start any token"},
		"bad mapping":    {"---\nname: x\n  bad: : y\n---\n", "line 3: mapping values are not allowed"},
		"hooks a string": {"---\nname: x\nhooks: guard\n---\n", `line 3: hooks must be a list of hook names, not the value "guard"`},
		"hooks a map":    {"---\nhooks:\n  guard: true\n---\n", "line 3: hooks must be a list of hook names, not a mapping"},
		"hook not name":  {"---\nhooks:\n  - guard\n  - [x]\n---\n", "line 4: hooks must be a list of hook names; this item is a list"},
		"spec typo":      {"---\nhooks:\n  - guard\n  - {prebuilt: toolCallLimit, wiht: {run: 3}}\n---\n", `line 4: hooks: unknown key "wiht" in a ready-made hook's entry (did you mean "with"?)`},
		"spec no name":   {"---\nhooks:\n  - {with: {run: 3}}\n---\n", "line 3: hooks: an entry that is a mapping must name a ready-made hook"},
		"spec bad with":  {"---\nhooks:\n  - {prebuilt: x, with: 3}\n---\n", "line 3: hooks: with must be a mapping of settings"},
		"hook twice":     {"---\nhooks:\n  - guard\n  - audit\n  - guard\n---\n", `line 5: hook "guard" is declared twice (first on line 3)`},
		"name a list":    {"---\nname: [a, b]\n---\n", "line 2: name must be a single value, not a list"},
		"key twice":      {"---\nname: a\nname: b\n---\n", `line 3: key "name" is set twice (first on line 2)`},
		"not a mapping":  {"---\n- a\n- b\n---\n", "line 2: the front matter must be a mapping"},
		"tools a string": {"---\ntools: shell\n---\n", "line 2: tools must be a list of tool names"},
	} {
		_, err := hooks.ParseAgent([]byte(tc.file))
		require.Error(t, err, name)
		assert.Contains(t, err.Error(), tc.want, name)
		assert.Contains(t, err.Error(), "agent: ", name)
	}
}

func TestParseAgentReadsReadyMadeHookEntries(t *testing.T) {
	a, err := hooks.ParseAgent([]byte("---\nhooks:\n  - guard\n  - prebuilt: toolCallLimit\n    with: {run: 20}\n  - prebuilt: sandbox\n    with: {name: files, roots: [/srv]}\n  - prebuilt: loopGuard\n---\nprompt"))
	require.NoError(t, err)
	assert.Equal(t, []string{"guard", "toolCallLimit", "files", "loopGuard"}, a.Hooks)
	assert.Equal(t, map[int]hooks.HookSpec{
		1: {Prebuilt: "toolCallLimit", With: map[string]any{"run": 20}, Line: 4},
		2: {Prebuilt: "sandbox", With: map[string]any{"name": "files", "roots": []any{"/srv"}}, Line: 6},
		3: {Prebuilt: "loopGuard", Line: 8},
	}, a.Specs)
}
