package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// policy is one policy (refuse rm -rf in the shell) written as a JS hook,
// with fixtures that any kind holding the same policy must pass.
const policy = "../../hooktest/testdata/policy"

// test runs the same kind of check over every kind a user writes: the
// fixtures run the hooks (the commands, for settings) and check the
// decision.
func TestTestRunsFixturesAgainstEveryKind(t *testing.T) {
	for name, tc := range map[string]struct {
		args   []string
		passed string
	}{
		"a JS hook by name":   {[]string{"-dir", policy + "/js", "no-rm-rf", policy + "/fixtures"}, "4 fixture(s) passed"},
		"a JS hook folder":    {[]string{policy + "/js/no-rm-rf", policy + "/fixtures"}, "4 fixture(s) passed"},
		"an agent file":       {[]string{"-dir", policy + "/js", "testdata/agent.md", policy + "/fixtures"}, "4 fixture(s) passed"},
		"command settings":    {[]string{"testdata/command/settings.json", policy + "/fixtures"}, "4 fixture(s) passed"},
		"Claude Code's names": {[]string{"testdata/claude/.claude/settings.json", "testdata/claude/fixtures"}, "3 fixture(s) passed"},
		"Claude Code, the host's names": {[]string{"-toolnames", "shell=Bash", "testdata/claude/.claude/settings.json", policy + "/fixtures"},
			"4 fixture(s) passed"},
		"one fixture file": {[]string{"testdata/claude/.claude/settings.json", "testdata/claude/fixtures/denies-curl.json"}, "1 fixture(s) passed"},
	} {
		t.Run(name, func(t *testing.T) {
			r := hookcheck(t, "", append([]string{"test"}, tc.args...)...)
			assert.Equal(t, 0, r.code, r.stdout+r.stderr)
			assert.True(t, strings.HasSuffix(r.stdout, tc.passed+"\n"), r.stdout)
		})
	}
}

// The decision is checked, not only that the commands ran: without the
// tool-name map, Claude Code's guard (matcher "Bash") never sees the
// host's "shell" calls, and the fixture that wants rm -rf refused fails.
func TestSettingsFixturesCheckTheDecision(t *testing.T) {
	r := hookcheck(t, "", "test", "testdata/claude/.claude/settings.json", policy+"/fixtures")
	assert.Equal(t, 1, r.code, r.stderr)
	assert.Contains(t, r.stdout, "FAIL refuses-rm-rf\n")
	assert.Contains(t, r.stdout, `want the call refused with "rm -rf is not allowed"; it was allowed`)
	assert.Contains(t, r.stdout, "1 of 4 fixture(s) failed")
}

// A fixture is read as strictly as a settings file: a key that would not
// reach a field as written is an error naming the fixture, the key's path
// and line, and for an unknown key, the fields there are.
func TestAFixtureFieldThatIsNotOneListsTheValidOnes(t *testing.T) {
	expectFields := "refused, reason, ran, arguments, result, called, system, text, end, continue, toolChoice, settings, reasoning, diagnostics, prompts, notices"
	for file, want := range map[string]string{
		"misspelt.json": `expect.refsed: unknown field "refsed"; the fields are ` + expectFields + " (line 4)",
		"case.json":     `expect.Refused: unknown field "Refused"; the fields are ` + expectFields + " (line 4)",
		"nested.json":   `input.call.nmae: unknown field "nmae"; the fields are id, name, arguments (line 3)`,
		"twice.json":    `expect.refused: given twice: the first would be lost (line 5)`,
		"null.json":     `expect.reason: null is not allowed: leave the key out (line 4)`,
	} {
		t.Run(file, func(t *testing.T) {
			path := filepath.Join("testdata", "strict", file)
			r := hookcheck(t, "", "test", policy+"/js/no-rm-rf", path)
			assert.Equal(t, 2, r.code, r.stdout)
			assert.Equal(t, "hookcheck: fixture "+path+": "+want+"\n", r.stderr)
		})
	}
}

// A payload is read as strictly as a fixture's input.
func TestAPayloadFieldThatIsNotOneListsTheValidOnes(t *testing.T) {
	r := hookcheck(t, `{"cal": {"name": "shell"}}`, "run", "-dir", policy+"/js", "no-rm-rf", "beforeToolExecute", "-")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, `-: not a payload: cal: unknown field "cal"; the fields are call, result, request, response, end (line 1)`)
}

func TestRunPlaysSettingsOnAPayload(t *testing.T) {
	r := hookcheck(t, `{"call": {"name": "Bash", "arguments": {"command": "rm -rf /"}}}`,
		"run", "testdata/claude/.claude/settings.json", "beforeToolExecute", "-")
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "decision: refused: rm -rf is not allowed\n")
	assert.Contains(t, r.stdout, "  claude:PreToolUse beforeToolExecute: refused: rm -rf is not allowed (")

	r = hookcheck(t, "", "run", "testdata/command/settings.json", "beforeModelRequest", "testdata/rm.json")
	assert.Equal(t, 1, r.code, r.stderr)
	assert.Contains(t, r.stdout, "testdata/command/settings.json does not handle beforeModelRequest")
}

// lint reads each settings file as its dialect and reports what would not
// run as written, naming the file, the entry and the line.
func TestLintChecksSettingsOfEveryDialect(t *testing.T) {
	r := hookcheck(t, "", "lint", "testdata/command/settings.json", "testdata/claude/.claude/settings.json", "testdata/gemini/settings.json")
	assert.Equal(t, 0, r.code, r.stdout+r.stderr)
	assert.Equal(t, "ok: 0 hook(s), 0 agent file(s), 3 settings file(s)\n", r.stdout, "the hooks directory is not linted unless asked")

	r = hookcheck(t, "", "lint", "testdata/command/bad-settings.json", "testdata/claude/skipped.json", "testdata/gemini/typo.json")
	assert.Equal(t, 1, r.code, r.stderr)
	assert.Equal(t, `testdata/command/bad-settings.json: hooks: settings: hooks[1].failclosed: unknown field "failclosed"; `+
		`the fields are event, matcher, command, timeoutMs, enabled, failClosed, name (line 4)
testdata/claude/skipped.json: hooks: Claude Code settings: hooks.PreToolUse[0].hooks[0]: handler type "prompt" not run by this library, skipped; only "command" and "http" handlers run ("prompt" with claudecode.Model)
testdata/gemini/typo.json: geminicli: Gemini CLI settings: hooks.BeforeTool[0].matchr: unknown key, not read; did you mean "matcher"?
3 problem(s)
`, r.stdout)
}

func TestLintTakesAHookFolder(t *testing.T) {
	r := hookcheck(t, "", "lint", policy+"/js/no-rm-rf")
	assert.Equal(t, 0, r.code, r.stdout+r.stderr)
	assert.Equal(t, "ok: 1 hook(s), 0 agent file(s)\n", r.stdout)

	r = hookcheck(t, "", "lint", "../../examples/agentloop/hooks") // a folder of hook folders
	assert.Equal(t, 0, r.code, r.stdout+r.stderr)
	assert.Equal(t, "ok: 2 hook(s), 0 agent file(s)\n", r.stdout)
}

func TestKindFlag(t *testing.T) {
	r := hookcheck(t, "", "lint", "-kind", "nope", "testdata/command/settings.json")
	assert.Equal(t, 2, r.code)
	assert.Equal(t, "hookcheck: -kind \"nope\": want one of js, agent, command, claude, codex, copilot, cursor, gemini\n", r.stderr)

	// Claude Code settings read as command settings: the command reader's error.
	r = hookcheck(t, "", "lint", "-kind", "command", "testdata/claude/.claude/settings.json")
	assert.Equal(t, 1, r.code, r.stderr)
	assert.Contains(t, r.stdout, "testdata/claude/.claude/settings.json: hooks: settings:")
}

func TestDetectSettings(t *testing.T) {
	for name, tc := range map[string]struct {
		json string
		want kind
	}{
		"command list":              {`{"hooks": [{"event": "session_end", "command": ["x"]}]}`, kindCommand},
		"Claude Code settings.json": {`{"permissions": {}, "hooks": {"PreToolUse": []}}`, kindClaude},
		"Claude Code hooks alone":   {`{"Stop": [], "SessionStart": []}`, kindClaude},
		"Gemini CLI":                {`{"hooks": {"SessionStart": [], "BeforeTool": []}}`, kindGemini},
		"only shared events":        {`{"hooks": {"SessionStart": []}}`, kindClaude},
		"no hooks":                  {`{}`, kindClaude},
	} {
		t.Run(name, func(t *testing.T) {
			k, err := detectSettings([]byte(tc.json))
			require.NoError(t, err)
			assert.Equal(t, tc.want, k)
		})
	}
	_, err := detectSettings([]byte(`["hooks"]`))
	assert.ErrorContains(t, err, "not a settings file")
}

func TestDetectNamesAMissingPath(t *testing.T) {
	_, err := detect(filepath.Join(t.TempDir(), "settings.json"))
	assert.ErrorIs(t, err, os.ErrNotExist)
	k, err := detect("guard")
	require.NoError(t, err)
	assert.Equal(t, kindJS, k, "a bare name is a hook of -dir")
}

// What checkStrict says of text that is not one fixture.
func TestCheckStrictNamesWhatIsWrongAndWhere(t *testing.T) {
	for text, want := range map[string]string{
		`{"point": "afterRun"} {}`:                 "more than one JSON value (line 1)",
		"{\"point\": \"afterRun\",\n \"input\": }": "not JSON: invalid character '}' looking for beginning of value (line 2)",
		`{"point": "afterRun"`:                     "not JSON: the text ends too early",
		`{"input": []}`:                            "input: want an object with call, result, request, response, end, not an array (line 1)",
		`{"host": {"confirm": {}}}`:                "host.confirm: want an array, not an object (line 1)",
		`{"input": {"request": {"messages": [{"role": "user", "txt": "hi"}]}}}`: `input.request.messages[0].txt: unknown field "txt"; ` +
			"the fields are role, text, id, toolCalls, toolCallId (line 1)",
		`[]`: "want an object with name, point, input, host, expect, not an array (line 1)",
	} {
		assert.EqualError(t, checkStrict([]byte(text), fixtureShape), want, text)
	}
	// Inside arguments anything goes, but not a key twice.
	assert.NoError(t, checkStrict([]byte(`{"input": {"call": {"arguments": {"Any": null, "x": [1, {"y": 2}]}}}}`), fixtureShape))
	assert.EqualError(t, checkStrict([]byte(`{"input": {"call": {"arguments": {"x": 1, "x": 2}}}}`), fixtureShape),
		"input.call.arguments.x: given twice: the first would be lost (line 1)")
}
