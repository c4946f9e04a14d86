package hooktest_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/hooktest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recordT is the test's own testing.TB (Cleanup, Helper…), except that
// Fatal records its message instead of stopping the test.
type recordT struct {
	testing.TB
	msgs []string
}

func (r *recordT) Fatal(args ...any) { r.msgs = append(r.msgs, fmt.Sprint(args...)) }

func TestACallWithoutArgumentsReadsSo(t *testing.T) {
	h := hooktest.New(t, noRmRf)
	var f fakeT
	h.Tool("deploy", nil).RequireRefused(&f, "no")
	assert.Equal(t, `hooktest: want the call refused with "no"; it was allowed: the tool ran with no arguments
what the hooks decided:
  no-rm-rf beforeToolExecute: no opinion`, f.msg)

	f = fakeT{}
	h.Tool("deploy", map[string]any{}).RequireArguments(&f, map[string]any{"env": "prod"})
	assert.Equal(t, `hooktest: want the tool to see {"env":"prod"}; it saw no arguments
what the hooks decided:
  no-rm-rf beforeToolExecute: no opinion`, f.msg)

	f = fakeT{}
	h.Tool("deploy", nil).RequireArguments(&f, map[string]any{})
	assert.Empty(t, f.msg, "no arguments and {} are the same call")
}

func TestCountsAreSingularForOne(t *testing.T) {
	h := hooktest.New(t, noRmRf)
	var f fakeT
	h.RequireDiagnostics(&f, 1)
	assert.Equal(t, "hooktest: want 1 diagnostic, got 0", f.msg)
	f = fakeT{}
	h.RequireDiagnostics(&f, 2)
	assert.Equal(t, "hooktest: want 2 diagnostics, got 0", f.msg)

	err := hooktest.Check(hooktest.Fixture{Name: "counts", Point: hooks.BeforeToolExecute,
		Input:  hooktest.FixtureInput{Call: &hooks.ToolCall{Name: "shell"}},
		Expect: hooktest.FixtureExpect{Diagnostics: ptr(1), Prompts: ptr(1), Notices: ptr(3)}}, noRmRf)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "want 1 diagnostic, got 0")
	assert.Contains(t, err.Error(), "want 1 confirm prompt, got 0")
	assert.Contains(t, err.Error(), "want 3 notices, got 0")
}

func TestAFixtureIsNamedByItsFileOrItsPoint(t *testing.T) {
	call := hooktest.FixtureInput{Call: &hooks.ToolCall{Name: "shell", Arguments: map[string]any{"command": "ls"}}}
	refused := hooktest.FixtureExpect{Refused: ptr(true)}

	err := hooktest.Check(hooktest.Fixture{Point: hooks.BeforeToolExecute, Input: call, Expect: refused}, noRmRf)
	require.Error(t, err)
	assert.True(t, strings.HasPrefix(err.Error(), "hooktest: unnamed beforeToolExecute fixture:\n"), err.Error())

	fixtures, err := hooktest.LoadFixtures("testdata/policy/fixtures")
	require.NoError(t, err)
	require.Equal(t, "allows-ls", fixtures[0].Name, "named by its file")
	fixtures[0].Expect = refused
	err = hooktest.Check(fixtures[0], noRmRf)
	require.Error(t, err)
	assert.True(t, strings.HasPrefix(err.Error(), "hooktest: fixture testdata/policy/fixtures/allows-ls.json:\n"), err.Error())

	require.Equal(t, "other tools pass, whatever their arguments", fixtures[1].Name, "named in the file")
	fixtures[1].Expect = refused
	err = hooktest.Check(fixtures[1], noRmRf)
	require.Error(t, err)
	assert.True(t, strings.HasPrefix(err.Error(),
		`hooktest: fixture "other tools pass, whatever their arguments" (testdata/policy/fixtures/ignores-other-tools.json):`+"\n"), err.Error())
}

func TestCheckSaysWhatTheHooksDecidedOnce(t *testing.T) {
	f := hooktest.Fixture{Name: "wrong", Point: hooks.BeforeToolExecute,
		Input: hooktest.FixtureInput{Call: &hooks.ToolCall{Name: "shell", Arguments: map[string]any{"command": "ls"}}},
		Expect: hooktest.FixtureExpect{Refused: ptr(true), Ran: ptr(false), Diagnostics: ptr(1),
			Result: &hooks.ToolResult{Text: "no"}}}
	err := hooktest.Check(f, noRmRf)
	require.Error(t, err)
	assert.Equal(t, `hooktest: fixture "wrong":
  want the call refused; it was allowed: the tool ran with {"command":"ls"}
  want the tool not to run; it was allowed: the tool ran with {"command":"ls"}
  want the model to read {"text":"no","isError":false}; it reads {"text":"ok","isError":false}
  want 1 diagnostic, got 0
what the hooks decided:
  no-rm-rf beforeToolExecute: no opinion`, err.Error())
}

func TestModelExpectationsReadAsSentences(t *testing.T) {
	f := hooktest.Fixture{Name: "model", Point: hooks.BeforeModelRequest,
		Expect: hooktest.FixtureExpect{Called: ptr(false)}}
	err := hooktest.Check(f, noRmRf)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "\n  want the model not called; ")

	f.Input.Request = &hooks.ModelRequest{System: "stop"}
	f.Expect = hooktest.FixtureExpect{Called: ptr(true)}
	stop := hooks.Funcs{HookName: "stop", BeforeModelRequest: func(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
		return &hooks.ModelRequestPatch{End: &hooks.End{Output: "bye"}}, nil
	}}
	err = hooktest.Check(f, stop)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "\n  want the model called; the run ended with \"bye\"\n")
}

func TestAFixtureWithoutAPointSaysSo(t *testing.T) {
	err := hooktest.Check(hooktest.Fixture{Name: "x"}, noRmRf)
	assert.ErrorContains(t, err, `hooktest: fixture "x": no "point": say where the input runs: beforeToolExecute, `)
}
