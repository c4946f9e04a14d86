package claudecode_test

import (
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/claudecode"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// twoSets runs the PreToolUse handler user (in a "user:" settings set)
// and guard (in a "project:" set), both for Bash, in one chain, as a host
// loads a user's and a project's settings; it returns the run.
func twoSets(t *testing.T, rec *recorder, user, guard map[string]any) *hooks.Run {
	t.Helper()
	var hs []hooks.Hook
	for prefix, hd := range map[string]map[string]any{"user:": user, "project:": guard} {
		set, err := claudecode.Hooks(claudeSettings(t, map[string][]map[string]any{
			"PreToolUse": {{"matcher": "Bash", "hooks": []map[string]any{hd}}},
		}), claudecode.NamePrefix(prefix), ccToolNames)
		require.NoError(t, err)
		if prefix == "user:" {
			hs = append(set, hs...) // the user's set first: its copy runs before the guard
		} else {
			hs = append(hs, set...)
		}
	}
	chain, err := hooks.NewChain(hs, hooks.WithDiagnostics(rec.diagnose))
	require.NoError(t, err)
	run, err := chain.Start(bg, claudeHost(t, &ccPerson{}), hooks.RunStart{})
	require.NoError(t, err)
	t.Cleanup(func() { run.End(bg, hooks.RunEnd{}) })
	return run
}

// handler is a command handler with extra fields.
func handler(command string, fields map[string]any) map[string]any {
	hd := map[string]any{"type": "command", "command": command}
	for k, v := range fields {
		hd[k] = v
	}
	return hd
}

// A copy of a guard that cannot decide as the guard does never stands in
// for it: a "once" copy that already ran (it does not run now), an async
// copy (it decides nothing), a fail-open copy of a failClosed guard (its
// failure lets the call through), a copy with a shorter timeout (it times
// out where the guard decides). In each, the guard of the other set runs
// on every call and refuses.
func TestDedupNeverLetsACopyThatCannotDecideStandInForAGuard(t *testing.T) {
	guard := claudeScript(t, "bash_guard.sh")
	failing := "cat >/dev/null; echo broken >&2; exit 3"
	slow := "cat >/dev/null; sleep 1.5; echo slow but sure >&2; exit 2"
	for _, tc := range []struct {
		name        string
		user, guard map[string]any
		first       string // a first call, that the user's copy takes
		reason      string // what the model reads of the refusal
	}{
		{"a once copy", handler(guard, map[string]any{"once": true}), handler(guard, nil), "ls", "is destructive"},
		{"an async copy", handler(guard, map[string]any{"async": true}), handler(guard, nil), "", "is destructive"},
		{"a fail-open copy of a failClosed guard", handler(failing, nil), handler(failing, map[string]any{"failClosed": true}), "",
			"Tool call blocked: Claude Code hook PreToolUse[0].hooks[0] failed"},
		{"a copy with a shorter timeout", handler(slow, map[string]any{"timeout": 1}), handler(slow, map[string]any{"timeout": 30}), "", "slow but sure"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var rec recorder
			run := twoSets(t, &rec, tc.user, tc.guard)
			if tc.first != "" {
				res, err := run.CallTool(bg, hooks.ToolCall{ID: "call-0", Name: "shell", Arguments: map[string]any{"command": tc.first}}, ccShell(&rec))
				require.NoError(t, err)
				require.False(t, res.IsError, res.Text)
			}
			res, err := run.CallTool(bg, ccBash("git push --force"), ccShell(&rec))
			require.NoError(t, err)
			assert.True(t, res.IsError, "the guard refused: %s", res.Text)
			assert.Contains(t, res.Text, tc.reason)
			for _, ran := range rec.got() {
				assert.NotEqual(t, "ran:git push --force", ran)
			}
		})
	}
}

// An identical copy that ran on the same input with the same decision
// power stands in: a once copy that runs now, and a plain twin, each
// leave the other set's guard to skip, and the refusal holds.
func TestDedupLetsACopyThatRanStandIn(t *testing.T) {
	for name, user := range map[string]map[string]any{
		"a once copy that runs now": {"once": true},
		"a plain twin":              nil,
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			log := dir + "/seen"
			var rec recorder
			run := twoSets(t, &rec, handler(claudeScript(t, "record.sh", log), user), handler(claudeScript(t, "record.sh", log), nil))
			res, err := run.CallTool(bg, ccBash("ls"), ccShell(&rec))
			require.NoError(t, err)
			assert.False(t, res.IsError, res.Text)
			inputs, _ := ccInputs(t, log)
			assert.Len(t, inputs, 1, "the identical handler ran once")
		})
	}
}

// A copy that saw other arguments (rewritten by a handler before it in
// its set) did not run on the guard's input: the user's set rewrites the
// command to ls, its copy of the guard allows that, and a later handler
// of the set writes the force push back. The project's guard still runs
// on what will run, and refuses.
func TestDedupKeysOnTheArgumentsTheHandlerSaw(t *testing.T) {
	guard := claudeScript(t, "bash_guard.sh")
	rewrite := func(command string) string {
		return ccEmit(t, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"`+command+`"}}}`, "0", "")
	}
	var hs []hooks.Hook
	for prefix, hds := range map[string][]string{"user:": {rewrite("ls"), guard, rewrite("git push --force")}, "project:": {guard}} {
		set, err := claudecode.Hooks(claudeSettings(t, map[string][]map[string]any{"PreToolUse": {ccGroup("Bash", hds...)}}),
			claudecode.NamePrefix(prefix), ccToolNames)
		require.NoError(t, err)
		if prefix == "user:" {
			hs = append(set, hs...)
		} else {
			hs = append(hs, set...)
		}
	}
	var rec recorder
	chain, err := hooks.NewChain(hs, hooks.WithDiagnostics(rec.diagnose))
	require.NoError(t, err)
	run, err := chain.Start(bg, claudeHost(t, &ccPerson{}), hooks.RunStart{})
	require.NoError(t, err)
	defer run.End(bg, hooks.RunEnd{})
	res, err := run.CallTool(bg, ccBash("git push --force"), ccShell(&rec))
	require.NoError(t, err)
	assert.True(t, res.IsError, res.Text)
	// The user's set's first handler undoes the force push its last one
	// writes back, and is run again on it (guard): the set never settles
	// and refuses before the project's guard is reached; either refusal
	// holds the call.
	assert.Regexp(t, "is destructive|kept rewriting", res.Text)
	assert.Empty(t, rec.got())
}
