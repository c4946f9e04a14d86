package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// binary is hookcheck, built once for the tests to run as a subprocess.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "hookcheck")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "hookcheck")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

type result struct {
	code           int
	stdout, stderr string
}

func hookcheck(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return result{code, stdout.String(), stderr.String()}
}

const hooksDir = "../../testdata/hooks"

func TestLintReportsEveryProblemWithFileAndLine(t *testing.T) {
	r := hookcheck(t, "", "lint", "-dir", hooksDir, "testdata/bad-agent.md", "testdata/unknown-hook.md", "../../testdata/agents/careful.md")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stdout, `hook "broken": export "beforeToolExecution" is not a point`)
	assert.Contains(t, r.stdout, `hook "syntax": `+filepath.Join(hooksDir, "syntax", "index.js")+`:3:41: SyntaxError`)
	assert.Contains(t, r.stdout, `testdata/bad-agent.md: line 5: hook "guard" is declared twice (first on line 4)`)
	assert.Contains(t, r.stdout, `testdata/unknown-hook.md: hooks: unknown hook "nope"`)
	assert.Contains(t, r.stdout, "5 problem(s)")
}

func TestLintCleanDirectory(t *testing.T) {
	r := hookcheck(t, "", "lint", "-dir", "../../examples/agentloop/hooks")
	assert.Equal(t, 0, r.code, r.stdout+r.stderr)
	assert.Equal(t, "ok: 2 hook(s), 0 agent file(s)\n", r.stdout)
}

func TestRunPrintsDecisionTraceAndPrompts(t *testing.T) {
	r := hookcheck(t, "", "run", "-dir", hooksDir, "guard", "beforeToolExecute", "testdata/rm.json")
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "decision: refused: refused by the user\n")
	assert.Contains(t, r.stdout, "  guard beforeToolExecute: refused: refused by the user (")
	assert.Contains(t, r.stdout, `confirm: "Dangerous command" (answered no)`)
	assert.Contains(t, r.stdout, "took ")

	r = hookcheck(t, `{"call": {"name": "shell", "arguments": {"command": "rm -rf x"}}}`,
		"run", "-dir", hooksDir, "-confirm", "yes", "guard", "beforeToolExecute", "-")
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, `decision: allowed: the tool runs with {"command":"rm -rf x"}`)
}

func TestRunErrorsAreClear(t *testing.T) {
	r := hookcheck(t, "", "run", "-dir", hooksDir, "nope", "beforeToolExecute", "testdata/rm.json")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, `unknown hook "nope"`)

	r = hookcheck(t, "{not json", "run", "-dir", hooksDir, "guard", "beforeToolExecute", "-")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, "-: not a payload")

	r = hookcheck(t, "", "run", "-dir", hooksDir, "guard", "beforeToolExecution", "testdata/rm.json")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, `"beforeToolExecution"`)
	assert.Contains(t, r.stderr, "beforeToolExecute")

	r = hookcheck(t, "", "run", "-dir", hooksDir, "guard", "beforeModelRequest", "testdata/rm.json")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stdout, "guard does not handle beforeModelRequest")

	r = hookcheck(t, "", "frobnicate")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, "usage:")
}

func TestTestRunsFixtures(t *testing.T) {
	fixtures := "../../hooktest/testdata/policy/fixtures"
	r := hookcheck(t, "", "test", "-dir", "../../hooktest/testdata/policy/js", "no-rm-rf", fixtures)
	assert.Equal(t, 0, r.code, r.stdout)
	assert.Contains(t, r.stdout, "4 fixture(s) passed")

	r = hookcheck(t, "", "test", "-dir", hooksDir, "guard", fixtures)
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stdout, "FAIL refuses-rm-rf")
	assert.Contains(t, r.stdout, `want the call refused with "rm -rf is not allowed"; it was refused with "refused by the user"`)
	assert.Contains(t, r.stdout, "1 of 4 fixture(s) failed")
}
