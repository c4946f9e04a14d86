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
