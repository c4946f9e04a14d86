package codex_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/codex"
	"github.com/rienda/hooks/hooktest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A call whose context is already cancelled runs no handler and returns
// the context's error.
func TestCancelledCallRunsNoHandler(t *testing.T) {
	marker := t.TempDir() + "/ran"
	hs, err := codex.Hooks([]byte(guard("", "touch "+marker)))
	require.NoError(t, err)
	chain, err := hooks.NewChain(hs)
	require.NoError(t, err)
	run, err := chain.Start(bg, hooks.Host{Env: hermetic(t.TempDir())}, hooks.RunStart{})
	require.NoError(t, err)
	defer run.End(bg, hooks.RunEnd{})
	ctx, cancel := context.WithCancel(bg)
	cancel()
	_, err = run.CallTool(ctx, hooks.ToolCall{ID: "1", Name: "Bash"}, func(*hooks.Context, hooks.ToolCall) (hooks.ToolResult, error) {
		return hooks.ToolResult{Text: "ran"}, nil
	})
	require.ErrorIs(t, err, context.Canceled)
	_, statErr := os.Stat(marker)
	assert.True(t, os.IsNotExist(statErr), "a handler ran under a cancelled context")
}

// Parallel tool calls of one run each add their context: none is lost
// to another's write of the run state.
func TestParallelCallsKeepEveryContext(t *testing.T) {
	script := `jq -c '{hookSpecificOutput:{hookEventName:"PreToolUse",additionalContext:("ctx-" + .tool_use_id)}}'`
	hs, err := codex.Hooks([]byte(guard("", script)))
	require.NoError(t, err)
	chain, err := hooks.NewChain(hs)
	require.NoError(t, err)
	run, err := chain.Start(bg, hooks.Host{Env: hermetic(t.TempDir())}, hooks.RunStart{})
	require.NoError(t, err)
	defer run.End(bg, hooks.RunEnd{})
	var wg sync.WaitGroup
	for i := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := run.CallTool(bg, hooks.ToolCall{ID: fmt.Sprint(i), Name: "Bash"}, func(*hooks.Context, hooks.ToolCall) (hooks.ToolResult, error) {
				return hooks.ToolResult{Text: "ran"}, nil
			})
			assert.NoError(t, err)
		}()
	}
	wg.Wait()
	step, err := run.BeforeModelRequest(bg, userTurn("next"))
	require.NoError(t, err)
	for i := range 6 {
		assert.Contains(t, step.Request.System, fmt.Sprintf("ctx-%d", i))
	}
}

// A reason quoting a huge call is cut, never dropped: the refusal stands.
func TestAHugeReasonIsCut(t *testing.T) {
	script := `python3 -c 'import json; print(json.dumps({"decision":"block","reason":"x"*300000}))'`
	h := harness(t, guard("", script))
	out := h.Tool("Bash", nil)
	require.False(t, out.Ran)
	assert.Less(t, len(out.Result.Text), 20000)
	assert.Contains(t, out.Result.Text, "cut: 300000 bytes in all")
}

// A SHELL that cannot run is a failed handler: the call goes on with a
// diagnostic, as in Codex, or is refused under failClosed.
func TestAShellThatCannotRun(t *testing.T) {
	env := map[string]string{"PATH": os.Getenv("PATH"), "SHELL": "/nonexistent/sh"}
	h := harnessWith(t, hooktest.Options{Host: hooks.Host{Env: env}}, guard("", "exit 2"))
	h.Tool("Bash", nil).RequireAllowed(t)
	require.Len(t, h.Diagnostics(), 1)
	assert.Contains(t, h.Diagnostics()[0].Err.Error(), "/nonexistent/sh")

	closed := strings.Replace(guard("", "exit 2"), `"type":"command"`, `"type":"command","failClosed":true`, 1)
	h = harnessWith(t, hooktest.Options{Host: hooks.Host{Env: env}}, closed)
	out := h.Tool("Bash", nil)
	require.False(t, out.Ran)
	assert.Contains(t, out.Result.Text, "Tool call blocked: Codex hook PreToolUse[0].hooks[0] failed")
}

// A call whose arguments cannot be sent as JSON (a host's NaN) is refused:
// its guard would not see the call that runs.
func TestACallThatCannotBeSentIsRefused(t *testing.T) {
	hs, err := codex.Hooks([]byte(guard("", "true")))
	require.NoError(t, err)
	chain, err := hooks.NewChain(hs)
	require.NoError(t, err)
	run, err := chain.Start(bg, hooks.Host{Env: hermetic(t.TempDir())}, hooks.RunStart{})
	require.NoError(t, err)
	defer run.End(bg, hooks.RunEnd{})
	ran := false
	res, err := run.CallTool(bg, hooks.ToolCall{ID: "1", Name: "Bash", Arguments: map[string]any{"n": math.NaN()}},
		func(*hooks.Context, hooks.ToolCall) (hooks.ToolResult, error) {
			ran = true
			return hooks.ToolResult{}, nil
		})
	require.NoError(t, err)
	assert.False(t, ran)
	assert.True(t, res.IsError)
	assert.Contains(t, res.Text, "cannot be shown to its Codex PreToolUse hooks")
}
