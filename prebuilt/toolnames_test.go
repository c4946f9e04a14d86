package prebuilt_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/hooktest"
	"github.com/rienda/hooks/prebuilt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func diagTexts(ds []hooks.Diagnostic) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.Err.Error()
	}
	return out
}

// PerTool {"Shell": 0} on a run whose tool is "shell": the user meant it,
// so "shell" is limited, and a Diagnostic says the name is misspelt.
func TestToolCallLimitPerToolInAnotherCaseLimitsTheToolLoudly(t *testing.T) {
	h := hooktest.New(t, prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{PerTool: map[string]int{"Shell": 1}}))
	h.Tool("shell", nil).RequireAllowed(t)
	o := h.Tool("shell", nil)
	assert.False(t, o.Ran, "shell is limited by the entry Shell")
	h.Tool("SHELL", nil).RequireRefused(t, `Tool call limit reached: "SHELL" may be called 1 times in this run, and it has been. Do not call "SHELL" again in this run; go on without it.`)
	assert.Equal(t, []string{
		`setting PerTool names "Shell", but the tool called is "shell": applying it to "shell" (names match exactly; spell it "shell")`,
		`setting PerTool names "Shell", but the tool called is "SHELL": applying it to "SHELL" (names match exactly; spell it "SHELL")`,
	}, diagTexts(h.Diagnostics()), "once per run and spelling")

	spec, err := prebuilt.FromSpec("toolCallLimit", settingsOf(t, `{perTool: {Shell: 0}}`))
	require.NoError(t, err)
	h = hooktest.New(t, spec)
	assert.False(t, h.Tool("shell", nil).Ran)
	assert.Len(t, h.Diagnostics(), 1)
}

// Two entries that differ only in case name two tools, each exactly; a
// third spelling may be either (which one the host runs cannot be
// known), so it gets the strictest of their limits, loudly.
func TestToolCallLimitPerToolCaseVariantsBothSetStayExact(t *testing.T) {
	h := hooktest.New(t, prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{PerTool: map[string]int{"Shell": 0, "shell": 1}}))
	h.Tool("shell", nil).RequireAllowed(t)
	assert.False(t, h.Tool("Shell", nil).Ran)
	assert.False(t, h.Tool("SHELL", nil).Ran, "the strictest: Shell's 0")
	assert.Equal(t, []string{`setting PerTool names "Shell" and "shell", and the tool called is "SHELL", none of them as written: applying the strictest (names match exactly; one entry per tool)`},
		diagTexts(h.Diagnostics()))

	h = hooktest.New(t, prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{PerTool: map[string]int{"Shell": 2, "shell": 1}}))
	h.Tool("SHELL", nil).RequireAllowed(t)
	assert.False(t, h.Tool("shell", nil).Ran, "SHELL counted against shell's 1, the strictest")
	h.Tool("Shell", nil).RequireAllowed(t)

	// An agent with the third spelling as a tool of its own: not limited.
	h = hooktest.NewWith(t, hooktest.Options{Host: hooks.Host{Agent: &hooks.Agent{Tools: []string{"Shell", "shell", "SHELL"}}}},
		prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{PerTool: map[string]int{"Shell": 0, "shell": 0}}))
	h.Tool("SHELL", nil).RequireAllowed(t)
}

// An agent with both spellings as tools: the entry is the one tool's.
func TestToolCallLimitDoesNotFoldOntoAnotherToolOfTheAgent(t *testing.T) {
	h := hooktest.NewWith(t, hooktest.Options{Host: hooks.Host{Agent: &hooks.Agent{Tools: []string{"Shell", "shell"}}}},
		prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{PerTool: map[string]int{"Shell": 0}}))
	h.Tool("shell", nil).RequireAllowed(t)
	assert.False(t, h.Tool("Shell", nil).Ran)
	assert.Empty(t, h.Diagnostics())
}

// A name no tool of the run has is said, with the closest name: from the
// tools a model request offers, or the agent's.
func TestToolCallLimitPerToolNamingNoToolIsADiagnostic(t *testing.T) {
	h := hooktest.New(t, prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{PerTool: map[string]int{"write-file": 1, "search": 2}}))
	req := hooks.ModelRequest{Tools: []hooks.ToolSpec{{Name: "write_file"}, {Name: "search"}}}
	h.Model(req, hooks.ModelResponse{Text: "r"})
	h.Model(req, hooks.ModelResponse{Text: "r"})
	assert.Equal(t, []string{`setting PerTool names "write-file", which no tool of this run is (tools: write_file, search) (did you mean "write_file"?)`},
		diagTexts(h.Diagnostics()))

	agent := hooktest.NewWith(t, hooktest.Options{Host: hooks.Host{Agent: &hooks.Agent{Tools: []string{"shell", "read"}}}},
		prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{PerTool: map[string]int{"Shell": 0, "raed": 1}}))
	assert.False(t, agent.Tool("shell", nil).Ran)
	assert.ElementsMatch(t, []string{
		`setting PerTool names "Shell", which no tool of this run is (tools: shell, read); it is applied to "shell", the tool of that name in another case`,
		`setting PerTool names "raed", which no tool of this run is (tools: shell, read) (did you mean "read"?)`,
		`setting PerTool names "Shell", but the tool called is "shell": applying it to "shell" (names match exactly; spell it "shell")`,
	}, diagTexts(agent.Diagnostics()))
}

// Without a list of the run's tools, a call within a typo of a name is
// said (not applied: only case is forgiven).
func TestToolCallLimitNearMissAtTheCallIsSaid(t *testing.T) {
	h := hooktest.New(t, prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{PerTool: map[string]int{"write-file": 0}}))
	h.Tool("write_file", nil).RequireAllowed(t)
	h.Tool("write_file", nil).RequireAllowed(t)
	assert.Equal(t, []string{`setting PerTool names "write-file", which matches no tool called so far; the tool "write_file" was called (did you mean "write_file"?)`},
		diagTexts(h.Diagnostics()))
}

func TestToolRetryAndToolErrorsToolsMatchAsMeant(t *testing.T) {
	attempts := 0
	failing := func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		attempts++
		return hooks.ToolResult{}, errors.New("flaky")
	}
	retry := prebuilt.ToolRetry(prebuilt.ToolRetryConfig{Tools: []string{"Fetch"}, MaxAttempts: 3, Backoff: prebuilt.Backoff{Initial: 1, Max: 1, Jitter: -1}})
	h := hooktest.New(t, prebuilt.ToolErrors(prebuilt.ToolErrorsConfig{Tools: []string{"FETCH"}}), retry)
	res, err := h.Run().CallTool(t.Context(), hooks.ToolCall{ID: "1", Name: "fetch"}, failing)
	require.NoError(t, err, "ToolErrors applies to fetch")
	assert.True(t, res.IsError)
	assert.Equal(t, 3, attempts, "ToolRetry applies to fetch")
	assert.Len(t, h.Diagnostics(), 2)

	h.Model(hooks.ModelRequest{Tools: []hooks.ToolSpec{{Name: "fetch"}, {Name: "serch"}}}, hooks.ModelResponse{Text: "r"})
	assert.Len(t, h.Diagnostics(), 4, "each hook says its name names no tool of the run")
}

// Each hook says its own: two hooks with the same misspelt name each
// report it, wraps included.
func TestToolNamesEachHookReportsItsOwnName(t *testing.T) {
	cfg := func(name string) prebuilt.ToolRetryConfig {
		return prebuilt.ToolRetryConfig{Name: name, Tools: []string{"Fetch"}, Backoff: fast}
	}
	h := hooktest.New(t, prebuilt.ToolRetry(cfg("outer")), prebuilt.ToolRetry(cfg("inner")),
		prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{Name: "a", PerTool: map[string]int{"Fetch": 5}}),
		prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{Name: "b", PerTool: map[string]int{"Fetch": 5}}))
	h.Tool("fetch", nil).RequireAllowed(t)
	h.Tool("fetch", nil).RequireAllowed(t)
	hooksSaid := map[string]int{}
	for _, d := range h.Diagnostics() {
		hooksSaid[d.Hook]++
	}
	assert.Equal(t, map[string]int{"outer": 1, "inner": 1, "a": 1, "b": 1}, hooksSaid)
}

// A run with hundreds of tools: the Diagnostic names some, not all.
func TestToolNamesDiagnosticListsSomeOfManyTools(t *testing.T) {
	var specs []hooks.ToolSpec
	for i := range 500 {
		specs = append(specs, hooks.ToolSpec{Name: fmt.Sprintf("mcp__server__tool_%03d", i)})
	}
	h := hooktest.New(t, prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{PerTool: map[string]int{"mcp__server__tool_1000": 1}}))
	h.Model(hooks.ModelRequest{Tools: specs}, hooks.ModelResponse{Text: "r"})
	require.Len(t, h.Diagnostics(), 1)
	msg := h.Diagnostics()[0].Err.Error()
	assert.Contains(t, msg, "mcp__server__tool_019 and 480 more)")
	assert.Less(t, len(msg), 1000)
}
