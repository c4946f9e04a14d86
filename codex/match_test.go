package codex_test

import (
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/codex"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Codex's matcher rule: plain names are exact ("Bash" is not
// BashOutput), anything else an unanchored regular expression ("^Bash"
// is BashOutput too); apply_patch is matched by Edit and Write too; a
// host tool is matched by its own name and its Codex name.
func TestMatchersAsCodexReadsThem(t *testing.T) {
	deny := "printf no >&2; exit 2"
	opts := codex.ToolNames(map[string]string{"shell": "Bash", "edit_file": "apply_patch"})
	for _, tc := range []struct {
		matcher string
		tool    string
		refused bool
	}{
		{"Bash", "Bash", true},
		{"Bash", "BashOutput", false},
		{"^Bash", "BashOutput", true},
		{"Bash|apply_patch", "edit_file", true},
		{"Edit|Write", "edit_file", true},
		{"^Edit$", "edit_file", true},
		{"shell", "shell", true},
		{"Bash", "shell", true},
		{"mcp__memory__.*", "mcp__memory__create", true},
		{"mcp__memory", "mcp__memory__create", false},
		{"*", "anything", true},
		{"", "anything", true},
		{"Read", "Bash", false},
	} {
		h := harness(t, guard(tc.matcher, deny), opts)
		out := h.Tool(tc.tool, nil)
		assert.Equal(t, tc.refused, !out.Ran, "matcher %q, tool %q", tc.matcher, tc.tool)
	}
}

// A name that is a tool's once case is set aside guards it (Codex would
// not run it: a guard disarmed by a capital), with a diagnostic; a
// regular expression is a regular expression ("^bash$" does not take
// Bash), and one that takes no tool of the run is diagnosed at the first
// request that lists the tools, as is each name of a list that takes
// none, with a did-you-mean.
func TestNamesThatMissATool(t *testing.T) {
	h := harness(t, guard("bash", "printf no >&2; exit 2"))
	h.Tool("Bash", nil).RequireRefused(t, "no")
	require.Len(t, h.Diagnostics(), 1)
	assert.Contains(t, h.Diagnostics()[0].Err.Error(), `"bash"`)

	h = harness(t, guard("^bash$", "printf no >&2; exit 2"))
	h.Model(hooks.ModelRequest{Tools: []hooks.ToolSpec{{Name: "Bash"}}, Messages: []hooks.Message{{Role: "user", Text: "hi"}}}, hooks.ModelResponse{Text: "ok"})
	require.Len(t, h.Diagnostics(), 1)
	assert.Contains(t, h.Diagnostics()[0].Err.Error(), "takes no tool of this run")
	h.Tool("Bash", nil).RequireAllowed(t)

	h = harness(t, guard("Bash|apply_pach", "true"))
	h.Model(hooks.ModelRequest{Tools: []hooks.ToolSpec{{Name: "Bash"}, {Name: "apply_patch"}}, Messages: []hooks.Message{{Role: "user", Text: "hi"}}}, hooks.ModelResponse{Text: "ok"})
	h.Model(hooks.ModelRequest{Tools: []hooks.ToolSpec{{Name: "Bash"}, {Name: "apply_patch"}}, Messages: []hooks.Message{{Role: "user", Text: "again"}}}, hooks.ModelResponse{Text: "ok"})
	require.Len(t, h.Diagnostics(), 1, "once per run")
	assert.Contains(t, h.Diagnostics()[0].Err.Error(), `did you mean "apply_patch"?`)
}

// A ToolNames key that is no tool of the run is diagnosed once, with a
// did-you-mean, at run time and by CheckToolNames.
func TestToolNamesKeysThatAreNoTool(t *testing.T) {
	settings := `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"true"}]}],` +
		`"PostToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"true"}]}]}}`
	names := codex.ToolNames(map[string]string{"shel": "Bash"})
	h := harness(t, settings, names)
	h.Model(hooks.ModelRequest{Tools: []hooks.ToolSpec{{Name: "shell"}, {Name: "Bash"}}, Messages: []hooks.Message{{Role: "user", Text: "hi"}}}, hooks.ModelResponse{Text: "ok"})
	require.Len(t, h.Diagnostics(), 1)
	assert.Contains(t, h.Diagnostics()[0].Err.Error(), `did you mean "shell"?`)

	problems, err := codex.CheckToolNames([]byte(settings), []string{"shell", "Bash"}, names)
	require.NoError(t, err)
	require.Len(t, problems, 1)
	assert.Contains(t, problems[0].Error(), "shel")
}
