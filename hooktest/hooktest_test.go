package hooktest_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/hooktest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// noRmRf is the policy in Go: it refuses shell calls whose arguments
// mention rm -rf. testdata/policy holds the same policy in JavaScript and
// as a command.
var noRmRf = hooks.Funcs{
	HookName: "no-rm-rf",
	BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		args, _ := json.Marshal(call.Arguments)
		if call.Name == "shell" && strings.Contains(string(args), "rm -rf") {
			return hooks.Refuse("rm -rf is not allowed"), nil
		}
		return nil, nil
	},
}

func TestOnePolicyThreeWaysOneSetOfFixtures(t *testing.T) {
	js, err := (&hooks.Loader{Dir: "testdata/policy/js"}).Load("no-rm-rf")
	require.NoError(t, err)
	script, err := filepath.Abs("testdata/policy/command/no-rm-rf.sh")
	require.NoError(t, err)
	command, err := hooks.CommandHooks([]byte(fmt.Sprintf(`{"hooks":[{"event":"pre_tool_call","matcher":"shell","command":[%q]}]}`, script)))
	require.NoError(t, err)

	for name, h := range map[string]hooks.Hook{"go": noRmRf, "js": js, "command": command[0]} {
		t.Run(name, func(t *testing.T) {
			hooktest.RunFixtures(t, h, "testdata/policy/fixtures")
		})
	}
}

func TestHarnessReadsLikeThePolicy(t *testing.T) {
	guard, err := (&hooks.Loader{Dir: "../testdata/hooks"}).Load("guard")
	require.NoError(t, err)
	h := hooktest.NewWith(t, hooktest.Options{Answers: []bool{false, true}}, guard)
	h.Tool("shell", map[string]any{"command": "rm -rf /"}).RequireRefused(t, "refused by the user")
	h.Tool("shell", map[string]any{"command": "rm -rf /tmp/x"}).RequireAllowed(t)
	h.Tool("shell", map[string]any{"command": "ls"}).RequireArguments(t, map[string]any{"command": "ls"})
	require.Len(t, h.Prompts(), 2, "only the dangerous calls asked")
	assert.Equal(t, "Dangerous command", h.Prompts()[0].Title)
	h.End(hooks.RunEnd{})
	require.Len(t, h.Notices(), 1)
	assert.Equal(t, "run finished: completed", h.Notices()[0].Body)
	h.RequireDiagnostics(t, 0)
}

func TestHarnessModelPoints(t *testing.T) {
	h := hooktest.New(t, hooks.Funcs{
		HookName: "m",
		BeforeModelRequest: func(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
			switch req.System {
			case "stop":
				return &hooks.ModelRequestPatch{End: &hooks.End{Output: "done"}}, nil
			case "cached":
				return &hooks.ModelRequestPatch{Respond: &hooks.ModelResponse{Text: "from cache"}}, nil
			}
			s := req.System + "!"
			return &hooks.ModelRequestPatch{System: &s}, nil
		},
		AfterModelResponse: func(c *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
			if resp.Text == "final" {
				return &hooks.ModelResponsePatch{Continue: ptr("check your work")}, nil
			}
			return &hooks.ModelResponsePatch{Text: ptr(strings.ToUpper(resp.Text))}, nil
		},
	})
	o := h.Model(hooks.ModelRequest{System: "hi"}, hooks.ModelResponse{Text: "hello"})
	o.RequireSystem(t, "hi!")
	o.RequireText(t, "HELLO")
	h.Model(hooks.ModelRequest{System: "stop"}, hooks.ModelResponse{}).RequireEnded(t, "done")
	cached := h.Model(hooks.ModelRequest{System: "cached"}, hooks.ModelResponse{Text: "unused"})
	cached.RequireNotCalled(t)
	cached.RequireText(t, "FROM CACHE")
	h.Model(hooks.ModelRequest{}, hooks.ModelResponse{Text: "final"}).RequireContinue(t, "check your work")
}

func TestHarnessAnsweredAndResult(t *testing.T) {
	h := hooktest.New(t,
		hooks.Funcs{HookName: "redact", AfterToolExecute: func(c *hooks.Context, call hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
			text := strings.ReplaceAll(res.Text, "secret", "[redacted]")
			return &hooks.ToolResultPatch{Text: &text}, nil
		}},
		hooks.Funcs{HookName: "cache", BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			if call.Name == "cached" {
				return &hooks.ToolCallPatch{Result: &hooks.ToolResult{Text: "the secret"}}, nil
			}
			return nil, nil
		}})
	h.Tool("cached", nil).RequireAnswered(t, "the [redacted]")
	h.ToolCall(hooks.ToolCall{Name: "read"}, hooks.ToolResult{Text: "my secret"}).RequireResult(t, "my [redacted]")
}

// fakeT records a failure instead of stopping the test, to check messages.
type fakeT struct {
	testing.TB
	msg string
}

func (f *fakeT) Helper()           {}
func (f *fakeT) Fatal(args ...any) { f.msg = fmt.Sprint(args...) }

func TestFailuresSayWhatTheHooksDecided(t *testing.T) {
	h := hooktest.New(t, noRmRf, hooks.Funcs{HookName: "rewrite", BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		return &hooks.ToolCallPatch{Arguments: map[string]any{"command": "ls -l"}}, nil
	}})
	var f fakeT
	h.Tool("shell", map[string]any{"command": "ls"}).RequireRefused(&f, "rm -rf is not allowed")
	assert.Equal(t, `hooktest: want the call refused with "rm -rf is not allowed"; it was allowed: the tool ran with {"command":"ls -l"}
what the hooks decided:
  no-rm-rf beforeToolExecute: no opinion
  rewrite beforeToolExecute: changed arguments`, f.msg)

	f = fakeT{}
	h.Tool("shell", map[string]any{"command": "rm -rf /"}).RequireAllowed(&f)
	assert.Contains(t, f.msg, `it was refused: "rm -rf is not allowed"`)
	assert.Contains(t, f.msg, "no-rm-rf beforeToolExecute: refused: rm -rf is not allowed")

	f = fakeT{}
	h.RequireDiagnostics(&f, 1)
	assert.Equal(t, "hooktest: want 1 diagnostic, got 0", f.msg)
}

func TestFixtureMismatchesAreListed(t *testing.T) {
	f := hooktest.Fixture{Name: "wrong", Point: hooks.BeforeToolExecute,
		Input:  hooktest.FixtureInput{Call: &hooks.ToolCall{Name: "shell", Arguments: map[string]any{"command": "ls"}}},
		Expect: hooktest.FixtureExpect{Refused: ptr(true), Diagnostics: ptr(2)}}
	err := hooktest.Check(f, noRmRf)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `fixture "wrong"`)
	assert.Contains(t, err.Error(), "it was allowed")
	assert.Contains(t, err.Error(), "want 2 diagnostics, got 0")

	_, err = hooktest.LoadFixtures(t.TempDir())
	assert.ErrorContains(t, err, "no fixtures")
	assert.ErrorContains(t, hooktest.Check(hooktest.Fixture{Name: "x", Point: "beforeRun"}, noRmRf), `point "beforeRun"`)
}

func ptr[T any](v T) *T { return &v }
