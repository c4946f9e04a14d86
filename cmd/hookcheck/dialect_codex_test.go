package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// hookcheck reads Codex's hooks: a .codex/hooks.json is told by its
// folder; lint names an entry Codex would misread, test and run run its
// guard, and -kind codex reads a config.toml, whose matcher names lint
// checks against -tools.
func TestCodexSettings(t *testing.T) {
	r := hookcheck(t, "", "lint", "testdata/codex/.codex/hooks.json")
	assert.Equal(t, 0, r.code, r.stdout+r.stderr)

	r = hookcheck(t, "", "lint", "-kind", "codex", "testdata/codex/typo.json")
	assert.Equal(t, 1, r.code, r.stdout+r.stderr)
	assert.Contains(t, r.stdout+r.stderr, `hooks.PreToolUse[0].matchers: unknown key "matchers"; did you mean "matcher"?`)

	r = hookcheck(t, "", "test", "testdata/codex/.codex/hooks.json", "testdata/codex/fixtures")
	assert.Equal(t, 0, r.code, r.stdout+r.stderr)
	assert.Contains(t, r.stdout, "2 fixture(s) passed")

	r = hookcheck(t, `{"call": {"name": "Bash", "arguments": {"command": "curl x"}}}`,
		"run", "testdata/codex/.codex/hooks.json", "beforeToolExecute", "-")
	assert.Equal(t, 0, r.code, r.stdout+r.stderr)
	assert.Contains(t, r.stdout, "refused: no network from the shell")

	r = hookcheck(t, "", "lint", "-kind", "codex", "-tools", "Bash,apply_patch", "testdata/codex/config.toml")
	assert.Equal(t, 1, r.code, r.stdout+r.stderr)
	assert.Contains(t, r.stdout+r.stderr, `matcher name "apply_pach" is no tool of this run`)
	assert.Contains(t, r.stdout+r.stderr, `did you mean "apply_patch"?`)
}
