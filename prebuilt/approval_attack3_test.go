package prebuilt_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/hooktest"
	"github.com/rienda/hooks/prebuilt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A person's edit that a Sandbox listed before the Approval would refuse
// from the model is refused from the person, in every spelling of its
// arguments the Sandbox reads: key case, - and _ variants, argv lists,
// lists of paths.
func TestAttack3EditsInEverySpellingMeetTheSandbox(t *testing.T) {
	dir := t.TempDir()
	sandbox := prebuilt.Sandbox(prebuilt.SandboxConfig{Roots: []string{dir}})
	approval := prebuilt.Approval(prebuilt.ApprovalConfig{})
	edits := map[string]struct {
		tool string
		args map[string]any
	}{
		"Command":         {"shell", map[string]any{"Command": "rm -rf /"}},
		"CMD":             {"shell", map[string]any{"CMD": "rm -rf /"}},
		"argv":            {"shell", map[string]any{"argv": []any{"rm", "-rf", "/"}}},
		"command as argv": {"shell", map[string]any{"command": []any{"bash", "-c", "rm -rf /"}}},
		"wrapped":         {"shell", map[string]any{"command": "sudo -u root sh -c 'rm -rf /'"}},
		"Bash tool":       {"Bash", map[string]any{"command": "rm -rf /"}},
		"path":            {"write_file", map[string]any{"path": "/etc/passwd"}},
		"Path":            {"write_file", map[string]any{"Path": "/etc/passwd"}},
		"file-path":       {"write_file", map[string]any{"file-path": "/etc/passwd"}},
		"FILE_PATH":       {"write_file", map[string]any{"FILE_PATH": "/etc/passwd"}},
		"filePath":        {"write_file", map[string]any{"filePath": "/etc/passwd"}},
		"paths list":      {"write_file", map[string]any{"paths": []any{filepath.Join(dir, "a"), "/etc/passwd"}}},
		"dot-dot":         {"write_file", map[string]any{"path": dir + "/../../etc/passwd"}},
		"double slash":    {"write_file", map[string]any{"path": "//etc//passwd"}},
	}
	for name, e := range edits {
		t.Run(name, func(t *testing.T) {
			h := hooktest.NewWith(t, hooktest.Options{Host: hooks.Host{Workdir: dir, Env: map[string]string{}},
				Verdicts: []hooks.Verdict{{Approved: true, Arguments: e.args}}}, sandbox, approval)
			okArgs := map[string]any{"command": "ls"}
			if e.tool == "write_file" {
				okArgs = map[string]any{"path": filepath.Join(dir, "a")}
			}
			// The model's own call passes the sandbox: only the edit is at fault.
			out := h.Tool(e.tool, okArgs)
			assert.False(t, out.Ran, "the edit %v ran", e.args)
			require.NotEmpty(t, out.Decisions)
			last := out.Decisions[len(out.Decisions)-1]
			assert.Equal(t, "sandbox", last.Hook)
			assert.Equal(t, hooks.DecisionRefused, last.Decision)
		})
	}
}

// Remember keeps a person's edit; a resumed run whose Sandbox is stricter
// than the one the person's edit passed refuses the replayed edit: the
// kept verdict is applied again, and checked again, never trusted.
func TestAttack3ARememberedEditMeetsTheResumedRunsStricterSandbox(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	asked := 0
	edited := map[string]any{"path": filepath.Join(other, "notes.txt")}
	host := hooks.Host{Workdir: dir, Env: map[string]string{}, Review: func(context.Context, hooks.Review) (hooks.Verdict, error) {
		asked++
		return hooks.Verdict{Approved: true, Arguments: edited}, nil
	}}
	approval := prebuilt.ApprovalConfig{Remember: true}
	lenient, err := hooks.NewChain([]hooks.Hook{prebuilt.Sandbox(prebuilt.SandboxConfig{Roots: []string{dir, other}}), prebuilt.Approval(approval)})
	require.NoError(t, err)
	strict, err := hooks.NewChain([]hooks.Hook{prebuilt.Sandbox(prebuilt.SandboxConfig{Roots: []string{dir}}), prebuilt.Approval(approval)})
	require.NoError(t, err)

	call := hooks.ToolCall{ID: "call-1", Name: "write_file", Arguments: map[string]any{"path": filepath.Join(dir, "notes.txt")}}
	ran := 0
	tool := func(*hooks.Context, hooks.ToolCall) (hooks.ToolResult, error) {
		ran++
		return hooks.ToolResult{Text: "ok"}, nil
	}
	run, err := lenient.Start(context.Background(), host, hooks.RunStart{RunID: "r"})
	require.NoError(t, err)
	_, err = run.CallTool(context.Background(), call, tool)
	require.NoError(t, err)
	require.Equal(t, 1, ran, "the edit ran under the lenient sandbox")
	snap, err := run.Snapshot()
	require.NoError(t, err)

	resumed, err := strict.Resume(context.Background(), host, snap)
	require.NoError(t, err)
	defer resumed.End(context.Background(), hooks.RunEnd{})
	res, err := resumed.CallTool(context.Background(), call, tool)
	require.NoError(t, err)
	assert.Equal(t, 1, asked, "the kept verdict is replayed, not asked again")
	assert.Equal(t, 1, ran, "the replayed edit is refused by the stricter sandbox")
	assert.True(t, res.IsError)
}

// An Approval whose Responses do not allow an edit refuses an edit the
// host makes anyway, and never runs the edited call; a person's answer it
// does not allow is no answer either (the model reads a refusal, an error).
func TestAttack3AnEditOrAnswerTheApprovalDoesNotAllowNeverRuns(t *testing.T) {
	for name, v := range map[string]hooks.Verdict{
		"edit":                 {Approved: true, Arguments: map[string]any{"command": "rm -rf ~"}},
		"answer without error": {Approved: true, Result: &hooks.ToolResult{Text: "done, all good"}},
	} {
		t.Run(name, func(t *testing.T) {
			h := hooktest.NewWith(t, hooktest.Options{Verdicts: []hooks.Verdict{v}},
				prebuilt.Approval(prebuilt.ApprovalConfig{Require: []prebuilt.Rule{{Tool: "shell", Responses: []prebuilt.Response{prebuilt.Approve, prebuilt.Reject}}}}))
			out := h.Tool("shell", map[string]any{"command": "ls"})
			assert.False(t, out.Ran)
			assert.True(t, out.Result.IsError, "the model reads a refusal, not the person's text as a success")
			assert.NotContains(t, out.Result.Text, "all good")
		})
	}
}

// A limit listed before an Approval counts an edited call on each look
// (documented): edits use the budget up faster, but never get a call past
// it, whatever the person edits, and edits of edits cannot either.
func TestAttack3EditsNeverGetACallPastALimitListedBefore(t *testing.T) {
	var n atomic.Int32
	host := hooks.Host{Env: map[string]string{}, Review: func(_ context.Context, r hooks.Review) (hooks.Verdict, error) {
		return hooks.Verdict{Approved: true, Arguments: map[string]any{"command": fmt.Sprintf("echo %d", n.Add(1))}}, nil
	}}
	const limit = 3
	chain, err := hooks.NewChain([]hooks.Hook{
		prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{Run: limit}),
		prebuilt.Approval(prebuilt.ApprovalConfig{}),
	})
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), host, hooks.RunStart{RunID: "r"})
	require.NoError(t, err)
	defer run.End(context.Background(), hooks.RunEnd{})
	ran := 0
	for i := range 2 * limit {
		res, err := run.CallTool(context.Background(), hooks.ToolCall{ID: fmt.Sprint(i), Name: "shell", Arguments: map[string]any{"command": "ls"}},
			func(*hooks.Context, hooks.ToolCall) (hooks.ToolResult, error) {
				ran++
				return hooks.ToolResult{Text: "ok"}, nil
			})
		require.NoError(t, err)
		if res.IsError {
			assert.Contains(t, res.Text, "limit")
		}
	}
	assert.LessOrEqual(t, ran, limit)
	assert.Positive(t, ran, "an edited call within the limit runs")
}

// A Go host builds its edit with Go's own types ([]string, map[string]string,
// a pointer), not JSON's: the Sandbox before the Approval still reads
// (or refuses) it, and the host's later writes to its values do not reach
// the call that runs.
func TestAttack3AnEditInGoTypesMeetsTheSandbox(t *testing.T) {
	dir := t.TempDir()
	sandbox := prebuilt.Sandbox(prebuilt.SandboxConfig{Roots: []string{dir}})
	for name, args := range map[string]map[string]any{
		"argv []string":        {"argv": []string{"rm", "-rf", "/"}},
		"command []string":     {"command": []string{"rm", "-rf", "/"}},
		"paths []string":       {"paths": []string{"/etc/passwd"}},
		"nested map of string": {"command": "ls", "opts": map[string]string{"path": "/etc/passwd"}},
	} {
		t.Run(name, func(t *testing.T) {
			tool := "shell"
			if _, ok := args["paths"]; ok {
				tool = "write_file"
			}
			h := hooktest.NewWith(t, hooktest.Options{Host: hooks.Host{Workdir: dir, Env: map[string]string{}},
				Verdicts: []hooks.Verdict{{Approved: true, Arguments: args}}}, sandbox, prebuilt.Approval(prebuilt.ApprovalConfig{}))
			out := h.Tool(tool, map[string]any{"command": "ls"})
			assert.False(t, out.Ran && name != "nested map of string", "the edit %v ran", args)
		})
	}

	// The host reuses its buffer after answering: what runs is what the
	// sandbox checked.
	buf := []string{"ls"}
	var mu sync.Mutex
	host := hooks.Host{Workdir: dir, Env: map[string]string{}, Review: func(context.Context, hooks.Review) (hooks.Verdict, error) {
		mu.Lock()
		defer mu.Unlock()
		return hooks.Verdict{Approved: true, Arguments: map[string]any{"argv": buf}}, nil
	}}
	chain, err := hooks.NewChain([]hooks.Hook{sandbox, prebuilt.Approval(prebuilt.ApprovalConfig{})})
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), host, hooks.RunStart{RunID: "r"})
	require.NoError(t, err)
	defer run.End(context.Background(), hooks.RunEnd{})
	step, err := run.BeforeToolExecute(context.Background(), hooks.ToolCall{ID: "1", Name: "shell", Arguments: map[string]any{"argv": []any{"pwd"}}})
	require.NoError(t, err)
	mu.Lock()
	buf[0] = "rm" // the host's next answer is being written into the same buffer
	mu.Unlock()
	if !step.Refused {
		assert.NotContains(t, fmt.Sprint(step.Call.Arguments["argv"]), "rm", "the host's later write reached the call that runs")
	}
}
