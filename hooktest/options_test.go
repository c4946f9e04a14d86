package hooktest_test

import (
	"context"
	"os"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/hooktest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// envSpy records the environment its hooks see, and asks and logs once.
func envSpy(seen *map[string]string) hooks.Funcs {
	return hooks.Funcs{HookName: "spy", BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		*seen = c.Env
		c.Log("looked")
		if !c.Confirm(hooks.Prompt{Title: "go on?"}) {
			return hooks.Refuse("not confirmed"), nil
		}
		return nil, nil
	}}
}

// The harness takes a hooks.Host, and each field means what it means
// there: Env nil is the process environment, as in production, and an
// empty map is none. The harness records Log and Confirm, then calls the
// Host's own; Answers come before Host.Confirm.
func TestOptionsHostMeansWhatHooksHostMeans(t *testing.T) {
	t.Setenv("HOOKTEST_PROBE", "from the process")
	var seen map[string]string
	h := hooktest.NewWith(t, hooktest.Options{}, envSpy(&seen))
	h.Tool("shell", nil).RequireRefused(t, "not confirmed")
	assert.Equal(t, "from the process", seen["HOOKTEST_PROBE"], "Host.Env nil: the process environment")
	assert.Equal(t, os.Getenv("PATH"), seen["PATH"])

	h = hooktest.NewWith(t, hooktest.Options{Host: hooks.Host{Env: map[string]string{}, AutoApprove: true}}, envSpy(&seen))
	h.Tool("shell", nil).RequireAllowed(t)
	assert.Empty(t, seen, "an empty map: no variables")

	var logged []string
	var asked int
	host := hooks.Host{
		Env: map[string]string{"ONLY": "this"},
		Log: func(hook, line string) { logged = append(logged, hook+": "+line) },
		Confirm: func(ctx context.Context, p hooks.Prompt) (bool, error) {
			asked++
			return false, nil
		},
	}
	h = hooktest.NewWith(t, hooktest.Options{Host: host, Answers: []bool{true}}, envSpy(&seen))
	h.Tool("shell", nil).RequireAllowed(t)                  // the scripted answer
	h.Tool("shell", nil).RequireRefused(t, "not confirmed") // then the Host's Confirm
	assert.Equal(t, map[string]string{"ONLY": "this"}, seen)
	assert.Equal(t, 1, asked, "Host.Confirm after the scripted answers")
	assert.Equal(t, []string{"spy: looked", "spy: looked"}, logged, "the Host's own Log is called")
	assert.Equal(t, []string{"spy: looked", "spy: looked"}, h.Logs(), "and the harness recorded")
	assert.Len(t, h.Prompts(), 2)
}

// A fixture's keys are read exactly: a key in another case, which
// encoding/json would take, or a key given twice is an error naming it,
// the valid keys and the line; a fixture that passed silently would test
// nothing.
func TestFixtureKeysAreExact(t *testing.T) {
	_, err := hooktest.LoadFixtures("testdata/strict/case")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `refused-in-capitals.json: expect.Refused: unknown field "Refused"; the fields are refused, reason, ran, arguments, result, called, system, text, end, continue, toolChoice, settings, reasoning, diagnostics, prompts, notices (line 4)`)

	_, err = hooktest.LoadFixtures("testdata/strict/twice")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `refused-twice.json: expect.refused: given twice: the first would be lost (line 5)`)

	fixtures, err := hooktest.LoadFixtures("testdata/policy/fixtures")
	require.NoError(t, err)
	assert.Len(t, fixtures, 4)
}
