package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

const cleanDir = "../../examples/agentloop/hooks"

// An agent file with prebuilt: entries lints and runs: hookcheck builds
// them as the library's users do (Loader.Prebuilt = prebuilt.FromSpec).
func TestAgentFileWithPrebuiltEntriesLintsAndRuns(t *testing.T) {
	r := hookcheck(t, "", "lint", "-dir", cleanDir, "testdata/names/prebuilt.md")
	assert.Equal(t, 0, r.code, r.stdout+r.stderr)
	assert.Equal(t, "ok: 2 hook(s), 1 agent file(s)\n", r.stdout)

	call := `{"call": {"name": "shell", "arguments": {"command": "ls"}}}`
	r = hookcheck(t, call, "run", "-dir", cleanDir, "testdata/names/prebuilt.md", "beforeToolExecute", "-")
	assert.Equal(t, 0, r.code, r.stdout+r.stderr)
	assert.Contains(t, r.stdout, `decision: allowed`)

	r = hookcheck(t, "", "lint", "-dir", cleanDir, "testdata/names/prebuilt-bad.md")
	assert.Equal(t, 1, r.code, r.stdout+r.stderr)
	assert.Contains(t, r.stdout, `agent: line 4: prebuilt budget: field Prices["m"].Input is NaN`)
}

// test and run take several targets: one chain, in the order given, as
// the library runs a Claude Code and a Gemini CLI settings file side by
// side. Each fixture here needs the other file's hook to pass.
func TestTestTakesSeveralTargetsAsOneChain(t *testing.T) {
	r := hookcheck(t, "", "test", "testdata/claude/.claude/settings.json", "testdata/both/gemini.json", "testdata/both/fixtures")
	assert.Equal(t, 0, r.code, r.stdout+r.stderr)
	assert.Contains(t, r.stdout, "ok   claude-denies-curl\n")
	assert.Contains(t, r.stdout, "ok   gemini-denies-env\n")
	assert.Contains(t, r.stdout, "3 fixture(s) passed")

	r = hookcheck(t, "", "test", "testdata/claude/.claude/settings.json", "testdata/both/fixtures")
	assert.Equal(t, 1, r.code, "the Claude file alone lets the .env write through")
	assert.Contains(t, r.stdout, "FAIL gemini-denies-env")

	r = hookcheck(t, `{"call": {"name": "write_file", "arguments": {"file_path": ".env"}}}`,
		"run", "testdata/claude/.claude/settings.json", "testdata/both/gemini.json", "beforeToolExecute", "-")
	assert.Equal(t, 0, r.code, r.stdout+r.stderr)
	assert.Contains(t, r.stdout, "decision: refused: Tool execution blocked: no .env writes")
}

// lint checks names against the tools there are: matchers of every
// dialect, a prebuilt entry's perTool, tools and approval patterns, and
// -toolnames, each with the closest tool.
func TestLintCrossChecksToolNames(t *testing.T) {
	r := hookcheck(t, "", "lint", "-dir", cleanDir, "-toolnames", "shell=Bash,write_file=Write,shel=Sh",
		"testdata/names/agent.md", "testdata/names/claude.json", "testdata/names/gemini.json", "testdata/names/command.json")
	assert.Equal(t, 1, r.code, r.stdout+r.stderr)
	tools := "(tools: shell, read_file, write_file)"
	for _, want := range []string{
		`testdata/names/agent.md: line 5: prebuilt toolCallLimit: perTool "Shell" matches no tool ` + tools + ` (did you mean "shell"?)`,
		`testdata/names/agent.md: line 7: prebuilt toolRetry: tools "fetch" matches no tool ` + tools + "\n",
		`testdata/names/agent.md: line 9: prebuilt approval: require[0].tool "fs_*" matches no tool ` + tools + "\n",
		// The matchers and -toolnames, as each file's dialect checks them.
		`testdata/names/claude.json: hooks: Claude Code settings: hooks.PreToolUse[0].matcher: "bash" takes the tool "Bash" only when case is set aside: it runs for it, as meant; write "Bash"`,
		`testdata/names/claude.json: claudecode: ToolNames: "shel" is no tool of this run (did you mean "shell"?)`,
		`testdata/names/gemini.json: geminicli: Gemini CLI settings: hooks.BeforeTool[0].matcher: "write-file" matches no tool of this run (did you mean "write_file"?), so its hooks never run`,
		`testdata/names/gemini.json: geminicli: ToolNames: "shel" is no tool of this run (did you mean "shell"?)`,
		// One name of a list that takes no tool disarms the guard meant for it.
		`testdata/names/claude.json: hooks: Claude Code settings: hooks.PreToolUse[2].matcher: "Edit" names no tool of this run, so its handlers never run for the tool it was meant for (a name of the list "Edit|Write")`,
		`testdata/names/command.json: hooks[0] (pre_tool_call): matcher "Shell" takes the tool "shell" only when case is set aside, or the spaces around it: it runs for it, as meant; write "shell"`,
	} {
		assert.Equal(t, 1, strings.Count(r.stdout, want), "once: %s\n%s", want, r.stdout)
	}
	for _, fine := range []string{`"Bash" matches`, `"read_.*"`, `"startup"`, `"write_file|read_file"`, `"shell" matches`, `"file"`, `"user"`, `"write_*"`, `"read_file" matches`, `"Bash" names`, `"shell" names`} {
		assert.NotContains(t, r.stdout, fine)
	}
	assert.Contains(t, r.stdout, "\n11 problem(s)\n")

	// -tools gives the list for settings files alone.
	r = hookcheck(t, "", "lint", "-tools", "shell,read_file", "testdata/names/command.json")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stdout, `testdata/names/command.json: hooks[0] (pre_tool_call): matcher "Shell" takes the tool "shell" only when case is set aside, or the spaces around it: it runs for it, as meant; write "shell"`)
	r = hookcheck(t, "", "lint", "-tools", "read_file", "testdata/names/command.json")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stdout, `testdata/names/command.json: hooks[0] (pre_tool_call): matcher "Shell" names no tool of this run, so the hook never runs; the tools are read_file`)
	// Without a list of tools, names are not checked.
	r = hookcheck(t, "", "lint", "testdata/names/command.json")
	assert.Equal(t, 0, r.code, r.stdout)
}

// An agent file of ready-made hooks lints where no hooks directory is:
// only an agent's JS hooks need one.
func TestLintAgentFileWithoutAHooksDirectory(t *testing.T) {
	home := t.TempDir()
	cmd := func(args ...string) result {
		t.Setenv("HOME", home)
		return hookcheck(t, "", args...)
	}
	r := cmd("lint", "testdata/names/prebuilt.md")
	assert.Equal(t, 0, r.code, r.stdout+r.stderr)
	assert.Equal(t, "ok: 0 hook(s), 1 agent file(s)\n", r.stdout)

	r = cmd("lint", "testdata/unknown-hook.md")
	assert.Equal(t, 1, r.code, r.stdout+r.stderr)
	assert.Contains(t, r.stdout, `testdata/unknown-hook.md: hooks: unknown hook "guard": there is no `)

	r = cmd("lint")
	assert.Equal(t, 2, r.code, "linting the directory itself, which is not there")
}

// A budget whose prices leave the agent's model out would count its
// calls as free: lint says so, with the price meant.
func TestLintBudgetPricesLeaveTheAgentsModelOut(t *testing.T) {
	r := hookcheck(t, "", "lint", "-dir", cleanDir, "testdata/names/budget.md")
	assert.Equal(t, 1, r.code, r.stdout+r.stderr)
	assert.Equal(t, `testdata/names/budget.md: line 5: prebuilt budget: prices has no price for the agent's model "gpt-4o-mini", whose calls would count as free against maxCost (did you mean "gpt4o"?)`+"\n1 problem(s)\n", r.stdout)
}
