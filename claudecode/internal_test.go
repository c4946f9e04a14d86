package claudecode

import (
	"context"
	"testing"

	"github.com/dlclark/regexp2"
	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A set keeps nothing of a run once it ended: its per-run state is in the
// run (Context state), and the note the Stop leaves for UserPromptSubmit
// is dropped at AfterRun, so nothing grows with the number of runs.
func TestRunStateIsDroppedAtEnd(t *testing.T) {
	hs, err := Hooks([]byte(`{"SessionStart":[{"hooks":[{"type":"command","command":"echo context"}]}],
		"UserPromptSubmit":[{"hooks":[{"type":"command","command":"true"}]}],
		"Stop":[{"hooks":[{"type":"command","command":"echo '{\"decision\":\"block\",\"reason\":\"more\"}'"}]}]}`))
	require.NoError(t, err)
	chain, err := hooks.NewChain(hs)
	require.NoError(t, err)
	s := hs[0].(*hook).set
	notes := func() (n int) {
		s.notes.Range(func(any, any) bool { n++; return true })
		return n
	}
	for range 3 {
		run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{})
		require.NoError(t, err)
		step, err := run.BeforeModelRequest(context.Background(), hooks.ModelRequest{Messages: []hooks.Message{{Role: "user", Text: "hi"}}})
		require.NoError(t, err)
		assert.Equal(t, "context", step.Request.System)
		reply, err := run.AfterModelResponse(context.Background(), step, hooks.ModelResponse{Text: "done"})
		require.NoError(t, err)
		assert.Equal(t, "more", reply.Continue)
		assert.Equal(t, 1, notes())
		run.End(context.Background(), hooks.RunEnd{})
		assert.Equal(t, 0, notes())
	}
}

// Matchers follow Claude Code's rule: exact names for plain text, an
// unanchored ECMAScript expression for anything else; each expression
// gives the same answer through Go's regexp as through regexp2.
func TestMatcherRule(t *testing.T) {
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
		`^a.b$`:         {"a\rb": false, "a\u2028b": true, "axb": true, "a\u00e9b": true, "a😀b": true},
		`^a\sb$`:        {"a\u00a0b": true, "a\vb": true, "a b": true, "axb": false},
		`^\w+$`:         {"abc_1": true, "é": false},
		`(a+)+$`:        {"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab": false}, // linear in RE2, exponential in a backtracker
	} {
		m, err := compileMatcher(matcher)
		require.NoError(t, err, matcher)
		for subject, want := range cases {
			assert.Equal(t, want, m.matches(subject), "%q on %q", matcher, subject)
		}
	}
}

// An expression that both engines read alike runs in Go's regexp, so a
// match starts no goroutine; one that needs ECMAScript runs in regexp2.
func TestMatcherEngine(t *testing.T) {
	for matcher, re2 := range map[string]bool{
		"mcp__.*": true, `^(Bash|Edit)$`: true, `[Ee]dit`: true, `a\.b`: true, `\x41`: true,
		"(?<=a)b": false, `\p{L}`: false, `(?i)bash`: false, `\Atool`: false, `(a)\1`: false,
	} {
		m, err := compileMatcher(matcher)
		require.NoError(t, err, matcher)
		assert.Equal(t, re2, m.re2 != nil, matcher)
	}
}

// Through whichever engine runs it, a matcher answers as regexp2 in
// ECMAScript mode does, on every subject: the code points where the
// engines' classes differ go to regexp2.
func TestMatcherAnswersAsRegexp2(t *testing.T) {
	patterns := []string{`^a.b$`, `^a\sb$`, `^a\Sb$`, `^a[\s]b$`, `^a[^\s]b$`, `^a\wb$`, `^a\Wb$`, `^a\db$`, `a\bb`, `^a[^x]b$`, `mcp__.*`, `^(Bash|Edit)$`}
	var subjects []string
	for _, r := range []rune{'x', '_', '5', ' ', '\t', '\n', '\r', '\v', '\f', 0xA0, 0x1680, 0x2000, 0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF, 0xE9, 0x1F600, 0xFFFD} {
		subjects = append(subjects, "a"+string(r)+"b")
	}
	subjects = append(subjects, "a\xffb", "mcp__x\u00a0", "Bash", "Edit\r")
	for _, p := range patterns {
		m, err := compileMatcher(p)
		require.NoError(t, err)
		require.NotNil(t, m.re2, p)
		ref := regexp2.MustCompile(p, regexp2.ECMAScript)
		for _, s := range subjects {
			want, err := ref.MatchString(s)
			require.NoError(t, err)
			assert.Equal(t, want, m.matches(s), "%q on %q", p, s)
		}
	}
}
