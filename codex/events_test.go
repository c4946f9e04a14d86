package codex_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/codex"
	"github.com/rienda/hooks/hooktest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var bg = context.Background()

func one(event, matcher, script string) string {
	m := ""
	if matcher != "" {
		m = `"matcher":` + quote(matcher) + `,`
	}
	return `{"hooks":{"` + event + `":[{` + m + `"hooks":[{"type":"command","command":` + quote(script) + `}]}]}}`
}

func userTurn(text string) hooks.ModelRequest {
	return hooks.ModelRequest{Model: "gpt-5", Messages: []hooks.Message{{Role: "user", Text: text}}}
}

// PostToolUse: a block's reason (or exit 2's stderr) replaces the result
// the model reads; updatedToolOutput replaces it; additionalContext
// follows it; continue:false replaces it and ends the run at the next
// request; output Codex refuses changes nothing (diagnosed).
func TestPostToolUse(t *testing.T) {
	for _, tc := range []struct {
		name, script, want string
		diags              int
		ends               bool
	}{
		{name: "block", script: printf(`{"decision":"block","reason":"hidden"}`), want: "hidden"},
		{name: "exit 2", script: "printf hidden >&2; exit 2", want: "hidden"},
		{name: "exit 2 without stderr", script: "exit 2", want: "secret", diags: 1},
		{name: "updated", script: printf(`{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":"[redacted]"}}`), want: "[redacted]"},
		{name: "context", script: printf(`{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"note"}}`), want: "secret\n\nnote"},
		{name: "stop", script: printf(`{"continue":false,"stopReason":"enough"}`), want: "enough", ends: true},
		{name: "block without reason", script: printf(`{"decision":"block"}`), want: "secret", diags: 1},
		{name: "reason without decision", script: printf(`{"reason":"x"}`), want: "secret", diags: 1},
		{name: "unknown key", script: printf(`{"decision":"block","reason":"hidden","Decision":"allow"}`), want: "secret", diags: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := harness(t, one("PostToolUse", "Bash", tc.script))
			out := h.ToolCall(hooks.ToolCall{ID: "1", Name: "Bash", Arguments: map[string]any{"command": "cat"}}, hooks.ToolResult{Text: "secret"})
			out.RequireResult(t, tc.want)
			h.RequireDiagnostics(t, tc.diags)
			m := h.Model(userTurn("next"), hooks.ModelResponse{Text: "ok"})
			if tc.ends {
				m.RequireEnded(t, "enough")
			} else {
				require.NotNil(t, m.Sent)
			}
		})
	}
}

// UserPromptSubmit: a block, exit 2 (with or without stderr: here exit 2
// refuses), continue:false or output too large end the run before the
// prompt is sent; plain stdout and additionalContext are added to that
// request only; stdin carries prompt, turn_id and model.
func TestUserPromptSubmit(t *testing.T) {
	for _, tc := range []struct {
		name, script, ended, system string
	}{
		{name: "block", script: printf(`{"decision":"block","reason":"no keys"}`), ended: "no keys"},
		{name: "exit 2", script: "printf 'no keys' >&2; exit 2", ended: "no keys"},
		{name: "exit 2 without stderr", script: "exit 2", ended: "refused it (exit 2)"},
		{name: "stop", script: printf(`{"continue":false,"stopReason":"paused"}`), ended: "paused"},
		{name: "evident refusal in broken JSON", script: printf(`{"decision":"block","reason":"a "quote""}`), ended: "refused it"},
		{name: "plain text", script: `jq -r '"prompt=" + .prompt + " model=" + .model + " turn=" + (.turn_id|length|tostring)'`, system: "prompt=hello model=gpt-5 turn="},
		{name: "context", script: printf(`{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"ctx"}}`), system: "ctx"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := harness(t, one("UserPromptSubmit", "", tc.script))
			m := h.Model(userTurn("hello"), hooks.ModelResponse{Text: "ok"})
			if tc.ended != "" {
				require.Nil(t, m.Sent, "%s", m)
				require.NotNil(t, m.Reply.End)
				assert.Contains(t, m.Reply.End.Output, tc.ended)
				return
			}
			require.NotNil(t, m.Sent)
			assert.Contains(t, m.Sent.System, tc.system)
			m = h.Model(hooks.ModelRequest{Messages: []hooks.Message{{Role: "user", Text: "hello"}, {Role: "assistant", Text: "ok"}, {Role: "tool", Text: "r"}}}, hooks.ModelResponse{Text: "ok"})
			require.NotNil(t, m.Sent)
			assert.NotContains(t, m.Sent.System, tc.system, "that request only")
		})
	}
}

// Stop: a block sends the run on with its reason, stop_hook_active is
// true on the continuation, and a script that never lets the run stop is
// bounded by StopContinuations; continue:false takes precedence over a
// block of another handler.
func TestStop(t *testing.T) {
	always := one("Stop", "", `jq -c '{decision:"block",reason:("active=" + (.stop_hook_active|tostring))}'`)
	h := harness(t, always, codex.StopContinuations(2))
	h.Model(userTurn("go"), hooks.ModelResponse{Text: "done"}).RequireContinue(t, "active=false")
	h.Model(userTurn("go"), hooks.ModelResponse{Text: "done"}).RequireContinue(t, "active=true")
	h.Model(userTurn("go"), hooks.ModelResponse{Text: "done"}).RequireText(t, "done")
	h.RequireDiagnostics(t, 1)

	both := `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":` + quote(printf(`{"decision":"block","reason":"more"}`)) +
		`},{"type":"command","command":` + quote(printf(`{"continue":false}`)) + `}]}]}}`
	h = harness(t, both)
	h.Model(userTurn("go"), hooks.ModelResponse{Text: "done"}).RequireText(t, "done")
}

// SessionStart: its matcher reads the source; its context reaches every
// request of the run; continue:false ends the run at its first request.
func TestSessionStart(t *testing.T) {
	h := harness(t, one("SessionStart", "startup", printf("remember this")))
	for range 2 {
		m := h.Model(userTurn("hi"), hooks.ModelResponse{Text: "ok"})
		require.NotNil(t, m.Sent)
		assert.Equal(t, "remember this", m.Sent.System)
	}
	h = harness(t, one("SessionStart", "resume", printf("only on resume")))
	m := h.Model(userTurn("hi"), hooks.ModelResponse{Text: "ok"})
	require.NotNil(t, m.Sent)
	assert.Empty(t, m.Sent.System)
	h = harness(t, one("SessionStart", "", printf(`{"continue":false,"stopReason":"not today"}`)))
	h.Model(userTurn("hi"), hooks.ModelResponse{Text: "ok"}).RequireEnded(t, "not today")
}

// A run's state (SessionStart's context) is the hooks' run state: a
// snapshot carries it to a chain built anew from the same settings, in
// which the startup-only handler does not run again.
func TestStateSurvivesASnapshot(t *testing.T) {
	settings := one("SessionStart", "startup", printf("ctx from start"))
	host := hooks.Host{Env: hermetic(t.TempDir())}
	chain := func() *hooks.Chain {
		hs, err := codex.Hooks([]byte(settings))
		require.NoError(t, err)
		c, err := hooks.NewChain(hs)
		require.NoError(t, err)
		return c
	}
	run, err := chain().Start(bg, host, hooks.RunStart{Input: "x"})
	require.NoError(t, err)
	snap, err := run.Snapshot()
	require.NoError(t, err)
	run.End(bg, hooks.RunEnd{Outcome: hooks.Suspended})

	resumed, err := chain().Resume(bg, host, snap)
	require.NoError(t, err)
	defer resumed.End(bg, hooks.RunEnd{})
	step, err := resumed.BeforeModelRequest(bg, userTurn("hi"))
	require.NoError(t, err)
	assert.Equal(t, "ctx from start", step.Request.System)

	// A resume handler adds its context to what startup's gave.
	settings = `{"hooks":{"SessionStart":[{"matcher":"startup","hooks":[{"type":"command","command":"printf first"}]},` +
		`{"matcher":"resume","hooks":[{"type":"command","command":"printf again"}]}]}}`
	run, err = chain().Start(bg, host, hooks.RunStart{Input: "x"})
	require.NoError(t, err)
	snap, err = run.Snapshot()
	require.NoError(t, err)
	run.End(bg, hooks.RunEnd{Outcome: hooks.Suspended})
	resumed2, err := chain().Resume(bg, host, snap)
	require.NoError(t, err)
	defer resumed2.End(bg, hooks.RunEnd{})
	step, err = resumed2.BeforeModelRequest(bg, userTurn("hi"))
	require.NoError(t, err)
	assert.Equal(t, "first\n\nagain", step.Request.System)
}

// What a PreToolUse handler reads on stdin: Codex's fields, the Codex
// tool name, the run's id as turn_id, the last request's model,
// transcript_path null.
func TestPreToolUseStdin(t *testing.T) {
	script := `jq -c '{session_id, turn_id, transcript_path, cwd, hook_event_name, model, permission_mode, tool_name, tool_input, tool_use_id}' >&2; exit 2`
	dir := t.TempDir()
	h := harnessWith(t, hooktest.Options{Host: hooks.Host{Workdir: dir, Session: hooks.Session{ID: "s1"}, Env: hermetic(t.TempDir())}},
		guard("Bash", script), codex.ToolNames(map[string]string{"shell": "Bash"}))
	h.Model(userTurn("hi"), hooks.ModelResponse{Text: "ok"})
	out := h.ToolCall(hooks.ToolCall{ID: "call-1", Name: "shell", Arguments: map[string]any{"command": "ls"}}, hooks.ToolResult{})
	require.False(t, out.Ran)
	var got map[string]any
	require.NoError(t, json.Unmarshal([]byte(out.Result.Text), &got), out.Result.Text)
	assert.Equal(t, map[string]any{"session_id": "s1", "turn_id": h.Run().ID(), "transcript_path": nil, "cwd": dir,
		"hook_event_name": "PreToolUse", "model": "gpt-5", "permission_mode": "default", "tool_name": "Bash",
		"tool_input": map[string]any{"command": "ls"}, "tool_use_id": "call-1"}, got)
}
