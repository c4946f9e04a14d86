package hooks_test

import (
	"context"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Attacks on what a guard prints, each a shape a real guard prints a
// refusal in (Ruby's puts of a Hash, a list, a look-alike letter, a
// number for a bool): each evidently refuses, so each refuses under either
// policy, with a diagnostic. Each of these let the call run before.
func TestCommandEvidentRefusalsInOtherShapes(t *testing.T) {
	for name, out := range map[string]string{
		"Ruby's Hash":                 `{"decision"=>"block", "reason"=>"no rm"}`,
		"Ruby 3.4's Hash":             `{"decision" => "block"}`,
		"a list":                      `{"decision":["block"]}`,
		"a list, malformed":           `{"decision":["deny"],}`,
		"a Cyrillic look-alike":       `{"decision":"blоck"}`,
		"a zero-width space":          "{\"decision\":\"b\u200block\"}",
		"a number for true":           `{"block":1}`,
		"no, for allow":               `{"allow":"no"}`,
		"a number for false, nested":  `{"result":{"allowed":0}}`,
		"a Cyrillic look-alike, deny": `{"permissionDecision":"dеny"}`,
	} {
		t.Run(name, func(t *testing.T) {
			for _, failClosed := range []bool{false, true} {
				ran, res, diags := decided(t, out, failClosed)
				assert.False(t, ran, "failClosed %v: the call ran", failClosed)
				assert.True(t, res.IsError, "failClosed %v: %s", failClosed, res.Text)
				assert.Len(t, diags, 1, "failClosed %v", failClosed)
			}
		})
	}
}

// The reverse: the model controls part of a guard's output (the guard
// quotes the call), and a valid allow stays an allow whatever refusal
// words the quoted text holds: in valid JSON only keys count, never the
// text of a string.
func TestCommandAnAllowQuotingTheCallStaysAnAllow(t *testing.T) {
	for name, out := range map[string]string{
		"a refusal word in the reason":   `{"decision":"approve","reason":"command was: echo deny"}`,
		"a decision pair in the reason":  `{"decision":"allow","reason":"command was: decision: block"}`,
		"JSON in the reason":             `{"decision":"allow","reason":"{\"decision\":\"deny\"}"}`,
		"a refusal word as the reason":   `{"reason":"deny"}`,
		"a list of words in a reason":    `{"decision":"allow","reason":["the call: deny"]}`,
		"Ruby's Hash of an allow":        `{"decision"=>"allow", "reason"=>"echo block"}`,
		"a log line that quotes nothing": "checked 1 command\n" + `{"decision":"allow"}`,
	} {
		t.Run(name, func(t *testing.T) {
			ran, res, _ := decided(t, out, false)
			assert.True(t, ran, res.Text)
			assert.False(t, res.IsError, res.Text)
		})
	}
}

// EvidentRefusal, the rule dialects apply to their tool guards, reads
// valid JSON by its keys and anything else by its text.
func TestEvidentRefusal(t *testing.T) {
	for out, want := range map[string]bool{
		`{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"refused: rm "x""}}`: true,
		`{"decision":"deny","reason":"Security Policy: "quoted""}`:                                          true,
		`{"decision":"block"}` + "\x00":                                                                     true,
		"\xef\xbb\xbf" + `{"decision":"block"}`:                                                             true,
		`{"Decision":"block"}`:                                                                              true,
		`{"decision":"allow","Decision":"block"}`:                                                           true,
		`"{\"decision\":\"deny\"}"`:                                                                         true,
		"deny":                                                                                              true,
		`{"decision"=>"deny"}`:                                                                              true,
		`{"decision":"allow","reason":"echo deny"}`:                                                         false,
		`{"decision":"approve"}`:                                                                            false,
		`{}`:                                                                                                false,
		``:                                                                                                  false,
		"checked: ls\n":                                                                                     false,
		`{"hookSpecificOutput":{"permissionDecision":"allow","permissionDecisionReason":"deny is off"}}`: false,
		`{"decision":"allow"} trailing`: false,
		`decision -> block`:             false, // no separator a guard writes: not evident
	} {
		_, got := hooks.EvidentRefusal([]byte(out))
		assert.Equal(t, want, got, "%q", out)
	}
}

// A matcher with spaces around it (" shell", "shell ") is the tool's name
// once they are set aside, as a matcher in another case is: the guard runs,
// with a diagnostic, rather than never.
func TestCommandMatcherWithSpacesStillGuards(t *testing.T) {
	for _, matcher := range []string{" shell", "shell ", " Shell\t"} {
		var rec recorder
		guard := with(printing(t, "pre_tool_call", `{"decision":"block","reason":"no"}`), "matcher", matcher)
		run := start(t, &rec, commandHooks(t, guard)...)
		res, err := run.CallTool(context.Background(), shellCall("rm -rf /"), echoTool(&rec))
		require.NoError(t, err)
		assert.Equal(t, hooks.ToolResult{Text: "no", IsError: true}, res, "matcher %q", matcher)
		if assert.Len(t, rec.diagnostics(), 1, "matcher %q", matcher) {
			assert.Contains(t, rec.diagnostics()[0].Err.Error(), "does not match the tool \"shell\" as written")
		}
	}
}
