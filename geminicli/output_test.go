package geminicli_test

import (
	"os"
	"strings"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readFile is path's content.
func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(data)
}

// guardOutcome runs one BeforeTool handler on a call and returns what the
// model reads and the diagnostics.
func guardOutcome(t *testing.T, command string) (hooks.ToolResult, []string) {
	t.Helper()
	var rec recorder
	run := start(t, &rec, host(t, &rec), settings(t, map[string][]map[string]any{"BeforeTool": {group("", handler(command))}}))
	res, err := run.CallTool(bg, hooks.ToolCall{ID: "1", Name: "run_shell_command", Arguments: map[string]any{"command": "rm -rf /"}},
		(&tool{text: "ran"}).run)
	require.NoError(t, err)
	return res, rec.errors()
}

// Exit codes and output read as Gemini CLI's runner reads them: stdout's
// JSON decides whatever the exit; text after exit 0 or 1 allows, after any
// other exit denies with the text; exit 2 denies whatever was printed,
// its reason stdout's text, or stderr.
func TestExitCodes(t *testing.T) {
	blocked := func(reason string) hooks.ToolResult {
		return hooks.ToolResult{Text: "Tool execution blocked: " + reason, IsError: true}
	}
	ran := hooks.ToolResult{Text: "ran"}
	for _, tc := range []struct {
		name, out, code, errText string
		want                     hooks.ToolResult
	}{
		{"exit 0 deny", `{"decision":"deny","reason":"no rm"}`, "0", "", blocked("no rm")},
		{"exit 0 block", `{"decision":"block","reason":"no rm"}`, "0", "", blocked("no rm")},
		{"exit 0 deny without reason", `{"decision":"deny"}`, "0", "", blocked("No reason provided")},
		{"exit 0 stopReason only with a stop", `{"decision":"deny","reason":"r","stopReason":"s"}`, "0", "", blocked("r")},
		{"exit 0 allow", `{"decision":"allow"}`, "0", "", ran},
		{"exit 0 empty", ``, "0", "", ran},
		{"exit 0 text", `looks fine`, "0", "", ran},
		{"exit 0 JSON in a string", `"{\"decision\":\"deny\",\"reason\":\"twice\"}"`, "0", "", blocked("twice")},
		{"exit 1 text", `oops`, "1", "", ran},
		{"exit 1 JSON deny", `{"decision":"deny","reason":"json wins"}`, "1", "", blocked("json wins")},
		{"exit 2 stderr", ``, "2", "dangerous", blocked("dangerous")},
		{"exit 2 stdout text first", `from stdout`, "2", "from stderr", blocked("from stdout")},
		{"exit 2 silent", ``, "2", "", blocked("Gemini CLI hook BeforeTool[0].hooks[0] exited 2")},
		{"exit 2 JSON allow", `{"decision":"allow"}`, "2", "no", blocked("no")},
		{"exit 3 text", `broken`, "3", "", blocked("broken")},
		{"exit 3 silent", ``, "3", "", ran},
		{"exit 127 stderr", ``, "127", "command not found", blocked("command not found")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, _ := guardOutcome(t, emit(t, tc.out, tc.code, tc.errText))
			assert.Equal(t, tc.want, res)
		})
	}
}

// Keys are read as JSON.parse and a property read read them: a key in
// another case is not the key (and a typo of one is diagnosed), a
// repeated key keeps its last value. No shape of output turns a deny
// into an allow.
func TestKeysAreReadExactly(t *testing.T) {
	res, diags := guardOutcome(t, emit(t, `{"Decision":"allow","decision":"deny","reason":"exact"}`, "0", ""))
	assert.Equal(t, "Tool execution blocked: exact", res.Text)
	assert.Contains(t, strings.Join(diags, "\n"), `printed the key "Decision", which Gemini CLI does not read: did you mean "decision"?`)

	res, _ = guardOutcome(t, emit(t, `{"decision":"allow","decision":"deny","reason":"last"}`, "0", ""))
	assert.Equal(t, "Tool execution blocked: last", res.Text)

	res, _ = guardOutcome(t, emit(t, `{"decision":"deny","reason":"`+strings.Repeat("r", 100000)+`"}`, "0", ""))
	assert.True(t, res.IsError, "an overlong reason still denies")

	// Gemini CLI reads "Deny" as no decision; it evidently refuses, so it
	// denies here (evident.go), with a diagnostic saying so.
	res, diags = guardOutcome(t, emit(t, `{"decision":"Deny"}`, "0", ""))
	assert.True(t, res.IsError, res.Text)
	assert.Contains(t, strings.Join(diags, "\n"), `printed output that evidently refuses ("decision": "Deny"), which Gemini CLI would not read as a deny`)

	res, diags = guardOutcome(t, emit(t, `{"decision":"Allow"}`, "0", ""))
	assert.False(t, res.IsError, "Gemini CLI reads \"Allow\" as no decision, and so does this package")
	assert.Contains(t, strings.Join(diags, "\n"), `printed the decision "Allow" (did you mean "allow"?)`)
}

// Several handlers of one event run at once, and their outputs merge in
// settings order, whichever finished first: reasons are joined in that
// order, one deny is enough.
func TestParallelOutputsMergeInSettingsOrder(t *testing.T) {
	slowAllow := handler(`sleep 0.3; echo '{"decision":"allow","reason":"first"}'`)
	deny := handler(`echo '{"decision":"deny","reason":"second"}'`)
	var rec recorder
	run := start(t, &rec, host(t, &rec), settings(t, map[string][]map[string]any{"BeforeTool": {group("", slowAllow), group("", deny)}}))
	res, err := run.CallTool(bg, hooks.ToolCall{Name: "ls"}, (&tool{text: "ran"}).run)
	require.NoError(t, err)
	assert.Equal(t, "Tool execution blocked: first\nsecond", res.Text)
}
