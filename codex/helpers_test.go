package codex_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/codex"
	"github.com/rienda/hooks/hooktest"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

// TestMain checks that no test leaves a goroutine running.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// copyDir copies testdata folder src (dotfiles included) to dst.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	require.NoError(t, filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o755)
	}))
}

// docsRepo is a git repository holding the documented example's
// .codex folder, and a home holding ~/.codex/hooks: the commands of the
// example run unchanged ($(git rev-parse --show-toplevel), ~).
func docsRepo(t *testing.T) (repo, home string) {
	t.Helper()
	repo, home = t.TempDir(), t.TempDir()
	copyDir(t, "testdata/docs/repo", repo)
	copyDir(t, "testdata/docs/home", home)
	cmd := exec.Command("git", "init", "-q", repo)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	return repo, home
}

// hermetic is a host environment with only what the scripts need.
func hermetic(home string) map[string]string {
	return map[string]string{"PATH": os.Getenv("PATH"), "HOME": home, "SHELL": "/bin/sh"}
}

// harness runs settings (hooks.json) with a host in dir.
func harness(t *testing.T, settings string, opts ...codex.Option) *hooktest.Harness {
	t.Helper()
	return harnessWith(t, hooktest.Options{Host: hooks.Host{Workdir: t.TempDir(), Env: hermetic(t.TempDir())}}, settings, opts...)
}

func harnessWith(t *testing.T, o hooktest.Options, settings string, opts ...codex.Option) *hooktest.Harness {
	t.Helper()
	hs, err := codex.Hooks([]byte(settings), append([]codex.Option{codex.Diagnostics(func(d hooks.Diagnostic) {
		t.Logf("load: %v", d)
	})}, opts...)...)
	require.NoError(t, err)
	return hooktest.NewWith(t, o, hs...)
}

// guard is a hooks.json with one PreToolUse handler running script
// (shell text) for matcher.
func guard(matcher, script string) string {
	return `{"hooks":{"PreToolUse":[{"matcher":` + quote(matcher) + `,"hooks":[{"type":"command","timeout":10,"command":` + quote(script) + `}]}]}}`
}

func quote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`)
	return `"` + r.Replace(s) + `"`
}

// printf is a shell command printing s (single-quoted) to stdout.
func printf(s string) string {
	return "printf '%s' '" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
