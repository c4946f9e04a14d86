package prebuilt_test

import (
	"testing"

	"github.com/rienda/hooks/hooktest"
	"github.com/rienda/hooks/prebuilt"
	"github.com/stretchr/testify/assert"
)

// Spelling and wrapping: a Require rule takes a command by what the
// shell runs, not only its text ("r"m, \rm, /bin/rm, sudo rm, bash -c,
// $'\x72m'), and what the parser cannot read is asked about, not let by.
func TestApprovalRequireSeesPastRephrasing(t *testing.T) {
	h := hooktest.New(t, prebuilt.Approval(prebuilt.ApprovalConfig{
		Require:        []prebuilt.Rule{{Tool: "shell", Args: map[string]string{"command": `^rm\s`}}},
		NonInteractive: prebuilt.DenyUnattended,
	}))
	for _, cmd := range []string{`"r"m -rf x`, `\rm -rf x`, `/bin/rm -rf x`, `sudo rm -rf x`, `ls && rm -rf x`, `bash -c "rm -rf x"`,
		`$'\x72m' -rf x`, `r''m x`, `strace -f rm -rf x`, `$(echo rm) -rf x`, `eval "$CMD"`, `echo "x`} {
		assert.False(t, h.Tool("shell", map[string]any{"command": cmd}).Ran, cmd)
	}
	for _, cmd := range []string{"ls -la", "echo rm x", "git rm -r --cached x", "make rmx"} {
		h.Tool("shell", map[string]any{"command": cmd}).RequireAllowed(t)
	}
}

// Names: a Require rule naming a tool the run calls by a nearly equal
// name is a diagnostic, once per run and tool (the call is not asked
// about, and the user must know).
func TestApprovalRequireNearMissIsLoud(t *testing.T) {
	h := hooktest.New(t, prebuilt.Approval(prebuilt.ApprovalConfig{Require: []prebuilt.Rule{{Tool: "shel"}}}))
	h.Tool("shell", map[string]any{"command": "ls"}).RequireAllowed(t)
	h.Tool("shell", map[string]any{"command": "ls"}).RequireAllowed(t)
	h.Tool("read_file", map[string]any{"path": "x"}).RequireAllowed(t)
	ds := diagnosticTexts(h)
	if assert.Len(t, ds, 1, "%v", ds) {
		assert.Contains(t, ds[0], `Require names the tool "shel" and the call's tool is "shell"`)
	}
}
