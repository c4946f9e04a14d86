package claudecode

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// wrapping, spelling: an "if" rule that narrows a guard to rm takes rm
// however the command reaches it, so the guard runs on it.
func TestAttackIfRuleTakesRmBehindWrappers(t *testing.T) {
	for _, spec := range []string{"Bash(rm *)", "Bash(rm:*)"} {
		r, err := parseRule(spec)
		require.NoError(t, err)
		for _, cmd := range []string{
			"rm  -rf /", "\trm -rf /", `\rm -rf /`, "command rm -rf /", "env rm -rf /", "env -u X rm -rf /",
			"nice -n 1 rm -rf /", "nohup rm -rf /", "timeout 5 rm -rf /", "exec rm -rf /", "time rm -rf /",
			"sudo -u root rm -rf /", "doas rm -rf /", "xargs rm -rf < list", "echo / | xargs rm -rf",
			`find . -exec rm -rf {} \;`, "$(echo rm) -rf /", "`echo rm` -rf /", "bash <<< 'rm -rf /'",
			"echo 'rm -rf /' | sh", "sh -lc 'rm -rf /'", "ls; rm -rf /", "ls\nrm -rf /", "if true; then rm -rf /; fi",
			"for f in a; do rm $f; done", "{ rm -rf /; }", "r''m -rf /", `r\m -rf /`, "A=1 rm -rf /",
			"busybox rm -rf /", "eval 'rm -rf /'", "bash -c \"rm -rf /\"", "$RM -rf /", "watch rm -rf /",
			"stdbuf -o0 rm -rf /", "chroot / rm -rf /", "setsid rm -rf /", "ionice -c3 rm -rf /", "flock /tmp/l rm -rf /",
			"unbuffer rm -rf /", "rm -- -rf", "script -c 'rm -rf /'", "su -c 'rm -rf /'", "ssh host rm -rf /", "parallel rm ::: a",
		} {
			assert.True(t, r.matches("Bash", map[string]any{"command": cmd}, "/p"), "%s: %q", spec, cmd)
		}
	}
}
