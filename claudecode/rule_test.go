package claudecode

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Permission rules read as Claude Code reads them, per tool.
func TestRuleMatches(t *testing.T) {
	cwd := "/work/proj"
	for _, c := range []struct {
		rule, tool string
		args       map[string]any
		want       bool
	}{
		{"Bash", "Bash", map[string]any{"command": "anything"}, true},
		{"Bash", "Write", map[string]any{"file_path": "x"}, false},
		{"Bash(git *)", "Bash", map[string]any{"command": "git push origin main"}, true},
		{"Bash(git *)", "Bash", map[string]any{"command": "gitk"}, false},
		{"Bash(npm run test:*)", "Bash", map[string]any{"command": "npm run test -- --watch"}, true},
		{"Bash(npm run test:*)", "Bash", map[string]any{"command": "npm run build"}, false},
		{"Bash(rm -rf *)", "Bash", map[string]any{"command": "rm -rf /tmp/x\n&& ls"}, true},
		{"Edit(src/**)", "Edit", map[string]any{"file_path": "src/a/b/c.go"}, true},
		{"Edit(src/**)", "Edit", map[string]any{"file_path": "/work/proj/src/c.go"}, true},
		{"Edit(src/**)", "Edit", map[string]any{"file_path": "/elsewhere/src/c.go"}, false},
		{"Edit(src/*.go)", "Edit", map[string]any{"file_path": "src/a/c.go"}, false},
		{"Read(*.env)", "Read", map[string]any{"file_path": "config/prod.env"}, true},
		{"Read(/docs/**)", "Read", map[string]any{"file_path": "docs/x.md"}, true},
		{"Read(//etc/**)", "Read", map[string]any{"file_path": "/etc/passwd"}, true},
		{"Read(//etc/**)", "Read", map[string]any{"file_path": "etc/passwd"}, false},
		{"WebFetch(domain:example.com)", "WebFetch", map[string]any{"url": "https://example.com/a"}, true},
		{"WebFetch(domain:example.com)", "WebFetch", map[string]any{"url": "https://evil.com/example.com"}, false},
		{"mcp__db__query(select *)", "mcp__db__query", map[string]any{"command": "select 1"}, true},
	} {
		r, err := parseRule(c.rule)
		require.NoError(t, err, c.rule)
		assert.Equal(t, c.want, r.matches(c.tool, c.args, cwd), "%s on %s %v", c.rule, c.tool, c.args)
	}
	for _, bad := range []string{"", "Bash(git *", "(git)", "Bash git"} {
		_, err := parseRule(bad)
		assert.Error(t, err, bad)
	}
}

// A Bash rule takes a compound command when any command it runs
// matches, as Claude Code's permission rules check each subcommand; what
// the parser cannot read takes the call (the handler runs).
func TestRuleMatchesEachSubcommand(t *testing.T) {
	r, err := parseRule("Bash(git push *)")
	require.NoError(t, err)
	for _, cmd := range []string{
		"cd repo && git push --force", "GIT_TRACE=1 git push origin main", `bash -c "git push -f"`, "echo $(git push --force)",
		"true; git push --force", "ls | git push x", "sudo git push --force", "env A=1 git push -f", "timeout 5 git push x",
		`"git" push --force`, "eval git push --force", "(git push -f)", "git \\\n push -f", `$X push --force`, `git push "--force`,
		"if true; then git push -f; fi", "nohup git push -f &",
	} {
		assert.True(t, r.matches("Bash", map[string]any{"command": cmd}, "/p"), cmd)
	}
	for _, cmd := range []string{"git status", "echo git push --force", "cd repo && git pull", "git pushx"} {
		assert.False(t, r.matches("Bash", map[string]any{"command": cmd}, "/p"), cmd)
	}
	assert.True(t, r.matches("Bash", map[string]any{"Command": "git push -f"}, "/p"), "a key in another case")
	assert.True(t, r.matches("Bash", map[string]any{"command": []any{"git", "push"}}, "/p"), "a shape it cannot read: the handler runs")
	e, err := parseRule("Edit(src/**)")
	require.NoError(t, err)
	assert.True(t, e.matches("Edit", map[string]any{"File_Path": "src/a.go"}, "/p"))
	assert.True(t, e.matches("Edit", map[string]any{"file_path": 5.0}, "/p"))
}
