package claudecode

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A Bash rule takes a command by its program's name in any spelling
// (/bin/rm is rm), and a path rule takes a path that leads to what it
// names through a link or /proc/self/root.
func TestIfRulesSeePastSpelling(t *testing.T) {
	r, err := parseRule("Bash(rm *)")
	require.NoError(t, err)
	for _, cmd := range []string{"/bin/rm -rf /", "sudo /usr/bin/rm -rf /", `"/bin/r"m -rf /`} {
		assert.True(t, r.matches("Bash", map[string]any{"command": cmd}, "/p"), cmd)
	}
	assert.False(t, r.matches("Bash", map[string]any{"command": "/bin/ls rm"}, "/p"))
	dir := t.TempDir()
	require.NoError(t, os.Symlink("/etc", filepath.Join(dir, "e")))
	etc, err := parseRule("Read(//etc/**)")
	require.NoError(t, err)
	for _, p := range []string{"/proc/self/root/etc/passwd", "e/passwd", "e/missing", filepath.Join(dir, "e", "passwd")} {
		assert.True(t, etc.matches("Read", map[string]any{"file_path": p}, dir), p)
	}
	assert.False(t, etc.matches("Read", map[string]any{"file_path": "x/passwd"}, dir))
}
