package hooks_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPostToolCallObservesTheFinalResult: an advisory command event sees
// what the model finally read, whatever its place in the list (seed 004:
// "the post hook observes the final result").
func TestPostToolCallObservesTheFinalResult(t *testing.T) {
	saved := filepath.Join(t.TempDir(), "envelope.json")
	upper := hooks.Funcs{HookName: "upper",
		AfterToolExecute: func(c *hooks.Context, call hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
			text := "RAW RESULT"
			return &hooks.ToolResultPatch{Text: &text}, nil
		}}
	for name, list := range map[string][]hooks.Hook{
		"listed first": append(commandHooks(t, entry("post_tool_call", script(t, "save.sh"), saved)), upper),
		"listed last":  append([]hooks.Hook{upper}, commandHooks(t, entry("post_tool_call", script(t, "save.sh"), saved))...),
	} {
		var rec recorder
		run := start(t, &rec, list...)
		res, err := run.CallTool(bg, hooks.ToolCall{Name: "x", Arguments: map[string]any{"text": "raw result"}}, echoTool(&rec))
		require.NoError(t, err)
		require.Equal(t, "RAW RESULT", res.Text, name)
		data, err := os.ReadFile(saved)
		require.NoError(t, err)
		var env struct{ Result hooks.ToolResult }
		require.NoError(t, json.Unmarshal(data, &env))
		assert.Equal(t, "RAW RESULT", env.Result.Text, "%s: the command saw what the model reads", name)
	}
}

// TestCommandFailuresNameTheArgvAndBlockShortly: a failing command's
// diagnostic names its whole argv and keeps its stderr; under failClosed
// the model reads a short reason naming the hook.
func TestCommandFailuresNameTheArgvAndBlockShortly(t *testing.T) {
	var rec recorder
	fail := script(t, "fail.sh")
	run := start(t, &rec, commandHooks(t, with(with(entry("pre_tool_call", "sh", fail), "failClosed", true), "name", "guard"))...)
	res, err := run.CallTool(bg, shellCall("ls"), echoTool(&rec))
	require.NoError(t, err)
	assert.Equal(t, "Tool call blocked: hook guard failed: exit status 3", res.Text)
	require.Len(t, rec.diagnostics(), 1)
	d := rec.diagnostics()[0]
	assert.Equal(t, "guard", d.Hook)
	assert.Contains(t, d.Err.Error(), `command ["sh" "`+fail+`"]`)
	assert.Contains(t, d.Err.Error(), "something broke", "the diagnostic keeps stderr")
}

func TestCommandFailuresAreMatchableFromOutside(t *testing.T) {
	dir := t.TempDir()
	script := func(name, body string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755))
		return p
	}
	cases := []struct {
		name, body string
		timeoutMs  int
		match      func(error) bool
	}{
		{"slow.sh", "exec sleep 5", 50, func(err error) bool { return errors.Is(err, hooks.ErrCommandTimeout) }},
		{"exit3.sh", "echo broken >&2; exit 3", 0, func(err error) bool {
			var exit *exec.ExitError
			return errors.As(err, &exit) && exit.ExitCode() == 3
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			settings := fmt.Sprintf(`{"hooks":[{"event":"pre_tool_call","command":[%q],"timeoutMs":%d}]}`, script(tc.name, tc.body), tc.timeoutMs)
			hs, err := hooks.CommandHooks([]byte(settings))
			require.NoError(t, err)
			var got []hooks.Diagnostic
			chain, err := hooks.NewChain(hs, hooks.WithDiagnostics(func(d hooks.Diagnostic) { got = append(got, d) }))
			require.NoError(t, err)
			run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{})
			require.NoError(t, err)
			_, err = run.BeforeToolExecute(context.Background(), hooks.ToolCall{Name: "shell"})
			require.NoError(t, err)
			require.Len(t, got, 1)
			assert.True(t, tc.match(got[0].Err), "diagnostic %v", got[0].Err)
		})
	}
}
