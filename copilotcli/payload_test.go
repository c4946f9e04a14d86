package copilotcli_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/copilotcli"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A PascalCase event sends the VS Code compatible payload (snake_case,
// tool_input an object, an ISO timestamp); its camelCase twin sends
// toolName and toolArgs.
func TestPascalCaseSelectsTheVSCodePayload(t *testing.T) {
	needJQ(t)
	settings := file(t, map[string][]map[string]any{
		"PreToolUse": {bash(`jq -c '{e: .hook_event_name, n: .tool_name, c: .tool_input.command, s: .session_id, iso: (.timestamp|type)}' > pascal.json`)},
		"preToolUse": {bash(`jq -c '{n: .toolName, c: .toolArgs.command, s: .sessionId, ms: (.timestamp|type)}' > camel.json`)},
	})
	h := start(t, settings, copilotcli.ToolNames(map[string]string{"shell": "bash"}))
	require.False(t, h.call(t, "shell", map[string]any{"command": "ls"}).Refused, h.diag.text())
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join(h.dir, name))
		require.NoError(t, err, h.diag.text())
		return string(data)
	}
	assert.JSONEq(t, `{"e":"PreToolUse","n":"bash","c":"ls","s":"s1","iso":"string"}`, read("pascal.json"))
	assert.JSONEq(t, `{"n":"bash","c":"ls","s":"s1","ms":"number"}`, read("camel.json"))
}

// LoadDir reads every .json file of the folder in name order; an entry's
// relative cwd is entered from the workdir; env values expand.
func TestLoadDirCwdAndEnv(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "b.json"), []byte(`{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"cat >/dev/null; echo \"$WHO\" > seen.txt","cwd":"sub","env":{"WHO":"x-${HOME}"}}]}}`), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.json"), []byte(`{"version":1,"hooks":{"sessionEnd":[{"type":"command","bash":"true"}]}}`), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.txt"), []byte(`not a hook file`), 0o600))
	hs, err := copilotcli.LoadDir(dir)
	require.NoError(t, err)
	require.Len(t, hs, 2)
	assert.Equal(t, "copilot:a.json:sessionEnd", hs[0].Name())
	assert.Equal(t, "copilot:b.json:preToolUse", hs[1].Name())

	chain, err := hooks.NewChain(hs)
	require.NoError(t, err)
	work := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(work, "sub"), 0o700))
	run, err := chain.Start(bg, hooks.Host{Workdir: work}, hooks.RunStart{})
	require.NoError(t, err)
	defer run.End(bg, hooks.RunEnd{Outcome: hooks.Completed})
	step, err := run.BeforeToolExecute(bg, hooks.ToolCall{Name: "bash"})
	require.NoError(t, err)
	require.False(t, step.Refused)
	data, err := os.ReadFile(filepath.Join(work, "sub", "seen.txt"))
	require.NoError(t, err)
	assert.Equal(t, "x-"+os.Getenv("HOME")+"\n", string(data))

	require.NoError(t, os.WriteFile(filepath.Join(dir, "c.json"), []byte(`{"version":1,"hooks":{"preToolUse":[{"bash":"x","timeoutSec":"5"}]}}`), 0o600))
	_, err = copilotcli.LoadDir(dir)
	assert.ErrorContains(t, err, filepath.Join(dir, "c.json")+": line 1: hooks.preToolUse[0]")
}

// A postToolUseFailure entry that exits 2 gives the model its stderr as
// recovery guidance; postToolUse entries run only for results that are
// not errors.
func TestPostToolUseFailureGuidance(t *testing.T) {
	settings := file(t, map[string][]map[string]any{
		"postToolUseFailure": {bash(`cat >/dev/null; echo "try --force" >&2; exit 2`)},
		"postToolUse":        {bash(`cat >/dev/null; touch post-ran`)},
	})
	h := start(t, settings)
	step := h.call(t, "bash", map[string]any{"command": "git push"})
	res, err := h.run.AfterToolExecute(bg, step, hooks.ToolResult{Text: "rejected", IsError: true})
	require.NoError(t, err)
	assert.Equal(t, "rejected\n\ntry --force", res.Text)
	assert.True(t, res.IsError)
	_, err = os.Stat(filepath.Join(h.dir, "post-ran"))
	assert.True(t, os.IsNotExist(err), "postToolUse does not run for an error")
}

// userPromptSubmitted runs once per prompt of the user, not for a
// request after a tool result.
func TestUserPromptSubmittedOncePerPrompt(t *testing.T) {
	h := start(t, file(t, map[string][]map[string]any{"userPromptSubmitted": {bash(`cat >/dev/null; echo x >> prompts`)}}))
	msgs := []hooks.Message{{Role: "user", Text: "hi"}}
	_, err := h.run.BeforeModelRequest(bg, hooks.ModelRequest{Messages: msgs})
	require.NoError(t, err)
	msgs = append(msgs, hooks.Message{Role: "assistant", Text: "", ToolCalls: []hooks.ToolCall{{ID: "1", Name: "bash"}}}, hooks.Message{Role: "tool", ToolCallID: "1", Text: "ok"})
	_, err = h.run.BeforeModelRequest(bg, hooks.ModelRequest{Messages: msgs})
	require.NoError(t, err)
	data, err := os.ReadFile(filepath.Join(h.dir, "prompts"))
	require.NoError(t, err)
	assert.Equal(t, "x\n", string(data))
}

// A cwd that cannot be entered fails the entry: a preToolUse entry then
// refuses, as an errored hook does.
func TestMissingCwdFailsThePreToolUseEntry(t *testing.T) {
	h := start(t, file(t, map[string][]map[string]any{"preToolUse": {{"type": "command", "bash": "true", "cwd": "no/such/dir"}}}))
	step := h.call(t, "bash", nil)
	assert.True(t, step.Refused)
	assert.Equal(t, "Denied by preToolUse hook (hook errored)", step.Reason)
}

// "ask" asks the host's person: a no, or nobody to ask, refuses; a yes
// runs the call.
func TestAskAsksTheHost(t *testing.T) {
	settings := file(t, map[string][]map[string]any{"preToolUse": {bash(`cat >/dev/null; echo '{"permissionDecision":"ask","permissionDecisionReason":"Push to main?"}'`)}})
	for _, yes := range []bool{false, true} {
		hs, err := copilotcli.Hooks(settings)
		require.NoError(t, err)
		chain, err := hooks.NewChain(hs)
		require.NoError(t, err)
		var asked string
		host := hooks.Host{Workdir: t.TempDir(), Confirm: func(_ context.Context, p hooks.Prompt) (bool, error) {
			asked = p.Body
			return yes, nil
		}}
		run, err := chain.Start(bg, host, hooks.RunStart{})
		require.NoError(t, err)
		step, err := run.BeforeToolExecute(bg, hooks.ToolCall{Name: "bash", Arguments: map[string]any{"command": "git push"}})
		require.NoError(t, err)
		assert.Equal(t, !yes, step.Refused)
		assert.Equal(t, "Push to main?", asked)
		run.End(bg, hooks.RunEnd{Outcome: hooks.Completed})
	}
}
