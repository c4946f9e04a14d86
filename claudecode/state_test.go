package claudecode_test

import (
	"path/filepath"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/claudecode"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hop carries run on as a durable host does between two steps: Snapshot,
// then Rehydrate on a chain built anew from the same settings (another
// process, another worker), with nothing kept in memory between them.
func hop(t *testing.T, rec *recorder, run *hooks.Run, host hooks.Host, settings []byte, opts ...claudecode.Option) *hooks.Run {
	t.Helper()
	snap, err := run.Snapshot()
	require.NoError(t, err)
	hs, err := claudecode.Hooks(settings, opts...)
	require.NoError(t, err)
	chain, err := hooks.NewChain(hs, hooks.WithDiagnostics(rec.diagnose))
	require.NoError(t, err)
	next, err := chain.Rehydrate(host, snap)
	require.NoError(t, err)
	return next
}

// A "continue": false from a tool event ends the run at the next model
// request, also when a snapshot was taken and restored in between.
func TestContinueFalseSurvivesAHop(t *testing.T) {
	var rec recorder
	host := claudeHost(t, &ccPerson{})
	settings := claudeSettings(t, map[string][]map[string]any{"PreToolUse": {ccGroup("",
		ccEmit(t, `{"continue":false,"stopReason":"budget spent"}`, "0", ""))}})
	_, run := claudeRun(t, &rec, host, settings)
	res, err := run.CallTool(bg, ccBash("ls"), ccShell(&rec))
	require.NoError(t, err)
	assert.Equal(t, hooks.ToolResult{Text: "budget spent", IsError: true}, res)

	run = hop(t, &rec, run, host, settings)
	step, err := run.BeforeModelRequest(bg, hooks.ModelRequest{Messages: []hooks.Message{{Role: "tool", Text: "budget spent"}}})
	require.NoError(t, err)
	require.NotNil(t, step.End, "the end asked for before the hop")
	assert.Equal(t, "budget spent", step.End.Output)
	run.End(bg, hooks.RunEnd{})
	assert.Empty(t, rec.diagnostics())
}

// The standard Stop script (it sends the run on once, and lets it stop
// when stop_hook_active is true) sends the run on once when every step
// of the loop runs on a run restored from a snapshot; UserPromptSubmit
// does not take its continuation for a user's prompt either.
func TestStopHookActiveSurvivesHops(t *testing.T) {
	var rec recorder
	host := claudeHost(t, &ccPerson{})
	prompts := filepath.Join(t.TempDir(), "prompts")
	settings := claudeSettings(t, map[string][]map[string]any{
		"Stop":             {ccGroup("", claudeScript(t, "stop_until_tests.js"))},
		"UserPromptSubmit": {ccGroup("", claudeScript(t, "record.sh", prompts))},
	})
	_, run := claudeRun(t, &rec, host, settings)
	msgs := []hooks.Message{{Role: "user", Text: "fix the bug"}}
	continued := 0
	for range 12 {
		run = hop(t, &rec, run, host, settings)
		step, err := run.BeforeModelRequest(bg, hooks.ModelRequest{Messages: msgs})
		require.NoError(t, err)
		run = hop(t, &rec, run, host, settings)
		reply, err := run.AfterModelResponse(bg, step, hooks.ModelResponse{Text: "I fixed it."})
		require.NoError(t, err)
		if reply.Continue == "" {
			break
		}
		continued++
		msgs = append(msgs, hooks.Message{Role: "assistant", Text: "I fixed it."}, hooks.Message{Role: "user", Text: reply.Continue})
	}
	run.End(bg, hooks.RunEnd{})
	assert.Equal(t, 1, continued)
	inputs, _ := ccInputs(t, prompts)
	assert.Len(t, inputs, 1, "the continuation is not a user's prompt")
	assert.Empty(t, rec.diagnostics())
}

// Two settings sets (user- and project-level), each with a Stop handler
// that always blocks, do not reset each other's count: the run is sent
// on at most the bound times in a row, however many sets there are.
func TestTwoSettingsSetsKeepTheStopBound(t *testing.T) {
	for _, sets := range []int{2, 3} {
		var rec recorder
		host := claudeHost(t, &ccPerson{})
		settings := claudeSettings(t, map[string][]map[string]any{
			"Stop": {ccGroup("", ccEmit(t, `{"decision":"block","reason":"keep going"}`, "0", ""))}})
		var hs []hooks.Hook
		for i := range sets {
			set, err := claudecode.Hooks(settings, claudecode.NamePrefix(string(rune('a'+i))+":"))
			require.NoError(t, err)
			hs = append(hs, set...)
		}
		chain, err := hooks.NewChain(hs, hooks.WithDiagnostics(rec.diagnose))
		require.NoError(t, err)
		run, err := chain.Start(bg, host, hooks.RunStart{})
		require.NoError(t, err)
		msgs := []hooks.Message{{Role: "user", Text: "go"}}
		continued := 0
		for range 40 {
			_, reply := ccTurn(t, run, msgs, "done")
			if reply.Continue == "" {
				break
			}
			continued++
			msgs = append(msgs, hooks.Message{Role: "assistant", Text: "done"}, hooks.Message{Role: "user", Text: reply.Continue})
		}
		run.End(bg, hooks.RunEnd{})
		assert.Equal(t, claudecode.DefaultStopContinuations, continued, "%d sets", sets)
		assert.Len(t, rec.diagnostics(), sets, "each set says it let the reply stand")
	}
}
