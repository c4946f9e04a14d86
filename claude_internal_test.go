package hooks

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The per-run state of a set is dropped when the run ends: nothing grows
// with the number of runs.
func TestClaudeRunStateIsDroppedAtEnd(t *testing.T) {
	hs, err := ClaudeCodeHooks([]byte(`{"SessionStart":[{"hooks":[{"type":"command","command":"echo context"}]}],
		"Stop":[{"hooks":[{"type":"command","command":"echo '{\"decision\":\"block\",\"reason\":\"more\"}'"}]}]}`))
	require.NoError(t, err)
	chain, err := NewChain(hs)
	require.NoError(t, err)
	set := hs[0].(*claudeHook).set
	for range 3 {
		run, err := chain.Start(context.Background(), Host{}, RunStart{})
		require.NoError(t, err)
		step, err := run.BeforeModelRequest(context.Background(), ModelRequest{Messages: []Message{{Role: "user", Text: "hi"}}})
		require.NoError(t, err)
		assert.Equal(t, "context", step.Request.System)
		reply, err := run.AfterModelResponse(context.Background(), step, ModelResponse{Text: "done"})
		require.NoError(t, err)
		assert.Equal(t, "more", reply.Continue)
		assert.Equal(t, 1, set.size())
		run.End(context.Background(), RunEnd{})
		assert.Equal(t, 0, set.size())
	}
}

// Matchers follow Claude Code's rule: exact names for plain text, an
// unanchored ECMAScript expression for anything else.
func TestClaudeMatcherRule(t *testing.T) {
	for matcher, cases := range map[string]map[string]bool{
		"":              {"Bash": true},
		"*":             {"Bash": true},
		"Bash":          {"Bash": true, "BashOutput": false},
		"Edit|Write":    {"Edit": true, "Write": true, "MultiEdit": false},
		"Notebook.*":    {"NotebookEdit": true, "Notebook": true, "Edit": false},
		"mcp__.*":       {"mcp__x__y": true, "Bash": false},
		"(?<=a)b":       {"ab": true, "b": false}, // ECMAScript lookbehind, which RE2 lacks
		"startup":       {"startup": true, "resume": false},
		"compact|clear": {"clear": true},
	} {
		m, err := compileClaudeMatcher(matcher)
		require.NoError(t, err, matcher)
		for subject, want := range cases {
			assert.Equal(t, want, m.matches(subject), "%q on %q", matcher, subject)
		}
	}
}
