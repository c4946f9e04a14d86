package dialect_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/dialect"
	"github.com/rienda/hooks/hooktest"
)

// matchedGuard is guardHooks with a matcher read as mode says.
func matchedGuard(t *testing.T, spec *dialect.Spec, matcher string, script string) []hooks.Hook {
	t.Helper()
	o, err := dialect.NewOptions(spec, nil)
	require.NoError(t, err)
	m, err := dialect.NewMatcher("hooks.guard[0].matcher", matcher, dialect.NamesOrPattern)
	require.NoError(t, err)
	return dialect.Build(spec, o, map[string][]*dialect.Handler{"guard": {{
		Where: "guard[0]", Matcher: m, Argv: []string{"sh", "-c", script}, Timeout: 5 * time.Second,
	}}})
}

// names: a matcher that names the tool in another case still guards it,
// and says so; one that names another tool does not run.
func TestKitMatcherInAnotherCaseStillGuards(t *testing.T) {
	deny := `cat >/dev/null; echo '{"deny": true, "reason": "no"}'`
	for _, tc := range []struct {
		matcher string
		runs    bool
	}{{"shell", true}, {"Shell", true}, {"SHELL|write", true}, {"web", false}, {"sh.*", true}, {"Sh.*", false}} {
		t.Run(tc.matcher, func(t *testing.T) {
			h := hooktest.New(t, matchedGuard(t, guardSpec(false), tc.matcher, deny)...)
			out := h.Tool("shell", map[string]any{"command": "rm -rf /"})
			assert.Equal(t, !tc.runs, out.Ran)
			if tc.matcher != "shell" && tc.runs && !strings.Contains(tc.matcher, "*") {
				require.NotEmpty(t, h.Diagnostics())
				assert.Contains(t, h.Diagnostics()[0].Err.Error(), "is not the tool \"shell\" as written")
			}
		})
	}
}

// shape, encoding: a call whose arguments cannot be shown to the guard is
// refused, also in a dialect that fails open: it would run unseen.
func TestKitACallTheGuardCannotSeeIsRefused(t *testing.T) {
	spec := guardSpec(false)
	o, err := dialect.NewOptions(spec, nil)
	require.NoError(t, err)
	spec.Events[0].Input = func(c *hooks.Context, at *dialect.At) (any, error) { return at.Call.Arguments, nil }
	hs := dialect.Build(spec, o, map[string][]*dialect.Handler{"guard": {{Where: "guard[0]", Argv: []string{"true"}, Timeout: 5 * time.Second}}})
	run := startRun(t, hs)
	ran := false
	res, err := run.CallTool(t.Context(), hooks.ToolCall{ID: "1", Name: "shell", Arguments: map[string]any{"n": math.NaN()}},
		func(*hooks.Context, hooks.ToolCall) (hooks.ToolResult, error) {
			ran = true
			return hooks.ToolResult{}, nil
		})
	require.NoError(t, err)
	assert.False(t, ran)
	assert.True(t, res.IsError)
	assert.Contains(t, res.Text, "Test hook guard[0] failed")
}

// time: a deny printed before a hang refuses, whatever the dialect's
// policy; size: a reason quoting a huge input is cut for the model.
func TestKitDenyBeforeHangAndHugeReason(t *testing.T) {
	h := hooktest.New(t, guardHooks(t, guardSpec(false), `cat >/dev/null; echo '{"deny": true}'; exec sleep 30`, 2*time.Second)...)
	assert.False(t, h.Tool("shell", map[string]any{"command": "x"}).Ran)

	spec := guardSpec(false)
	o, err := dialect.NewOptions(spec, nil)
	require.NoError(t, err)
	hs := dialect.Build(spec, o, map[string][]*dialect.Handler{"guard": {{Where: "guard[0]", Timeout: 5 * time.Second, MaxOutput: 1 << 20,
		Argv: []string{"sh", "-c", `cat >/dev/null; r=$(head -c 204800 /dev/zero | tr '\0' y); printf '{"deny": true, "reason": "%s"}' "$r"`}}}})
	out := hooktest.New(t, hs...).Tool("shell", map[string]any{"command": "x"})
	assert.False(t, out.Ran)
	assert.Less(t, len(out.Result.Text), 20<<10)
	assert.Contains(t, out.Result.Text, "[…cut:")
}

// order: the first block at a ToolCall stops the handlers after it; a
// rewrite is the next handler's input.
func TestKitHandlersRunInSettingsOrder(t *testing.T) {
	spec := &dialect.Spec{Name: "Test", Prefix: "test:", Events: []dialect.Event{{
		Name: "guard", When: dialect.ToolCall,
		Input: func(c *hooks.Context, at *dialect.At) (any, error) { return at.Call.Arguments, nil },
		Decide: func(c *hooks.Context, at *dialect.At, r *dialect.Result) (dialect.Decision, error) {
			var o struct {
				Args map[string]any `json:"args"`
				Deny bool           `json:"deny"`
			}
			_, err := dialect.Decode(r.Stdout, &o)
			return dialect.Decision{Arguments: o.Args, Block: o.Deny}, err
		},
	}}}
	o, err := dialect.NewOptions(spec, nil)
	require.NoError(t, err)
	hd := func(where, script string) *dialect.Handler {
		return &dialect.Handler{Where: where, Argv: []string{"sh", "-c", script}, Timeout: 5 * time.Second}
	}
	hs := dialect.Build(spec, o, map[string][]*dialect.Handler{"guard": {
		hd("guard[0]", `cat >/dev/null; echo '{"args": {"command": "rm -rf /"}}'`),
		hd("guard[1]", `grep -q 'rm -rf' && echo '{"deny": true}' || echo '{}'`),
	}})
	out := hooktest.New(t, hs...).Tool("shell", map[string]any{"command": "ls"})
	assert.False(t, out.Ran, "the second guard sees the first one's rewrite")
	assert.Contains(t, out.Result.Text, "refused by Test hook guard[1]", "an empty reason names the handler")
}

// startRun starts a run of hs that ends with the test.
func startRun(t *testing.T, hs []hooks.Hook) *hooks.Run {
	t.Helper()
	chain, err := hooks.NewChain(hs)
	require.NoError(t, err)
	run, err := chain.Start(t.Context(), hooks.Host{Workdir: t.TempDir(), Env: map[string]string{"PATH": "/usr/bin:/bin"}}, hooks.RunStart{})
	require.NoError(t, err)
	t.Cleanup(func() { run.End(t.Context(), hooks.RunEnd{}) })
	return run
}

// An Ask at a ToolCall asks a person; a no refuses, and so does nobody to
// ask (Host.AutoApprove false).
func TestKitAskAsksAPerson(t *testing.T) {
	spec := &dialect.Spec{Name: "Test", Prefix: "test:", Events: []dialect.Event{{Name: "guard", When: dialect.ToolCall,
		Decide: func(*hooks.Context, *dialect.At, *dialect.Result) (dialect.Decision, error) {
			return dialect.Decision{Ask: "run rm?"}, nil
		}}}}
	o, err := dialect.NewOptions(spec, nil)
	require.NoError(t, err)
	hs := dialect.Build(spec, o, map[string][]*dialect.Handler{"guard": {{Where: "guard[0]", Argv: []string{"true"}, Timeout: 5 * time.Second}}})
	for _, yes := range []bool{true, false} {
		h := hooktest.NewWith(t, hooktest.Options{Answers: []bool{yes}}, hs...)
		out := h.Tool("shell", map[string]any{"command": "rm x"})
		assert.Equal(t, yes, out.Ran)
		require.Len(t, h.Prompts(), 1)
		assert.Equal(t, "run rm?", h.Prompts()[0].Body)
	}
	out := hooktest.New(t, hs...).Tool("shell", map[string]any{"command": "rm x"})
	assert.False(t, out.Ran, "nobody to ask is a no")
}

// size: a handler drained past its cap still decides by its exit (exit 2
// blocks with stderr), and what it printed is never read as an allow.
func TestKitDrainedOutputDecidesByExitOnly(t *testing.T) {
	spec := &dialect.Spec{Name: "Test", Prefix: "test:", Events: []dialect.Event{{Name: "guard", When: dialect.ToolCall,
		Decide: func(c *hooks.Context, at *dialect.At, r *dialect.Result) (dialect.Decision, error) {
			if r.ExitCode == 2 {
				return dialect.Decision{Block: true, Reason: r.Stderr}, nil
			}
			return dialect.Decision{}, nil // reads the start of stdout as an allow
		}}}}
	o, err := dialect.NewOptions(spec, nil)
	require.NoError(t, err)
	flood := `cat >/dev/null; head -c 50000 /dev/zero | tr '\0' 'x'; `
	for _, tc := range []struct{ script, want string }{
		{flood + `echo 'no floods' >&2; exit 2`, "no floods"},
		{flood + `exit 0`, "too large to read"},
	} {
		hs := dialect.Build(spec, o, map[string][]*dialect.Handler{"guard": {{Where: "guard[0]", Argv: []string{"sh", "-c", tc.script},
			Timeout: 10 * time.Second, MaxOutput: 1 << 10, DrainOutput: 1 << 20}}})
		out := hooktest.New(t, hs...).Tool("shell", map[string]any{"command": "x"})
		assert.False(t, out.Ran)
		assert.Contains(t, out.Result.Text, tc.want)
	}
}

// state: what RunStart handlers add is in the run's snapshot, and a
// resumed run still adds it.
func TestKitStateSurvivesASnapshot(t *testing.T) {
	spec := &dialect.Spec{Name: "Test", Prefix: "test:", Events: []dialect.Event{{Name: "start", When: dialect.RunStart,
		Decide: func(*hooks.Context, *dialect.At, *dialect.Result) (dialect.Decision, error) {
			return dialect.Decision{Context: "on branch main"}, nil
		}}}}
	o, err := dialect.NewOptions(spec, nil)
	require.NoError(t, err)
	hs := dialect.Build(spec, o, map[string][]*dialect.Handler{"start": {{Where: "start[0]", Argv: []string{"true"}, Timeout: 5 * time.Second}}})
	run := startRun(t, hs)
	snap, err := run.Snapshot()
	require.NoError(t, err)
	assert.Contains(t, string(snap), "on branch main")

	chain, err := hooks.NewChain(dialect.Build(spec, o, map[string][]*dialect.Handler{"start": {{Where: "start[0]", Argv: []string{"false"}, Timeout: 5 * time.Second}}}))
	require.NoError(t, err)
	resumed, err := chain.Resume(t.Context(), hooks.Host{Workdir: t.TempDir()}, snap)
	require.NoError(t, err)
	defer resumed.End(t.Context(), hooks.RunEnd{})
	var system string
	_, err = resumed.CallModel(t.Context(), hooks.ModelRequest{Messages: []hooks.Message{{Role: "user", Text: "hi"}}},
		func(_ *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
			system = req.System
			return hooks.ModelResponse{Text: "ok"}, nil
		})
	require.NoError(t, err)
	assert.Equal(t, "on branch main", system, "kept once, though the handler failed on resume")

	again, err := hooks.NewChain(hs)
	require.NoError(t, err)
	twice, err := again.Resume(t.Context(), hooks.Host{Workdir: t.TempDir()}, snap)
	require.NoError(t, err)
	defer twice.End(t.Context(), hooks.RunEnd{})
	_, err = twice.CallModel(t.Context(), hooks.ModelRequest{Messages: []hooks.Message{{Role: "user", Text: "hi"}}},
		func(_ *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
			system = req.System
			return hooks.ModelResponse{Text: "ok"}, nil
		})
	require.NoError(t, err)
	assert.Equal(t, "on branch main", system, "given afresh on resume, not added twice")
}

// Patterns are read as the JavaScript CLIs read them (a lookahead
// compiles), and one that backtracks without end takes the tool rather
// than hold or skip the guard.
func TestKitPatternsAreJavaScriptsAndBounded(t *testing.T) {
	m, err := dialect.NewMatcher("m", "^(?!read).*", dialect.Search)
	require.NoError(t, err)
	assert.True(t, m.Match("shell"))
	assert.False(t, m.Match("read_file"))
	slow, err := dialect.NewMatcher("m", "(a+)+$", dialect.Search)
	require.NoError(t, err)
	start := time.Now()
	assert.True(t, slow.Match(strings.Repeat("a", 40)+"!"), "a match out of time counts as a match")
	assert.Less(t, time.Since(start), 5*time.Second)
}

// paths: a handler's relative folder is in the run's folder, never the
// process's.
func TestKitRelativeDirIsInTheRunsFolder(t *testing.T) {
	work := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(work, "scripts"), 0o755))
	spec := &dialect.Spec{Name: "Test", Prefix: "test:", Events: []dialect.Event{{Name: "guard", When: dialect.ToolCall,
		Decide: func(c *hooks.Context, at *dialect.At, r *dialect.Result) (dialect.Decision, error) {
			return dialect.Decision{Block: true, Reason: strings.TrimSpace(string(r.Stdout))}, nil
		}}}}
	o, err := dialect.NewOptions(spec, nil)
	require.NoError(t, err)
	hs := dialect.Build(spec, o, map[string][]*dialect.Handler{"guard": {{Where: "guard[0]", Dir: "scripts", Argv: []string{"pwd"}, Timeout: 5 * time.Second}}})
	h := hooktest.NewWith(t, hooktest.Options{Host: hooks.Host{Workdir: work}}, hs...)
	out := h.Tool("shell", map[string]any{"command": "x"})
	real, err := filepath.EvalSymlinks(filepath.Join(work, "scripts"))
	require.NoError(t, err)
	assert.Contains(t, []string{filepath.Join(work, "scripts"), real}, out.Result.Text)
}

// time: a cancelled call runs no handler and no tool.
func TestKitCancelledCallRunsNothing(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "ran")
	hs := guardHooks(t, guardSpec(false), "touch "+marker, 5*time.Second)
	run := startRun(t, hs)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	ran := false
	_, err := run.CallTool(ctx, hooks.ToolCall{ID: "1", Name: "shell"}, func(*hooks.Context, hooks.ToolCall) (hooks.ToolResult, error) {
		ran = true
		return hooks.ToolResult{}, nil
	})
	assert.Error(t, err)
	assert.False(t, ran)
	assert.NoFileExists(t, marker)
}

// decoding: keys are read as JSON.parse reads them: an escaped key is the
// key, one in another case is not, the last of a repeated key wins.
func TestKitDecodeReadsKeysAsJSONParse(t *testing.T) {
	var o struct {
		Decision string `json:"decision"`
	}
	unknown, err := dialect.Decode([]byte(`{"\u0064ecision": "deny", "Decision": "allow"}`), &o)
	require.NoError(t, err)
	assert.Equal(t, "deny", o.Decision)
	assert.Equal(t, []string{"Decision"}, unknown)
	_, err = dialect.Decode([]byte(`{"decision": "deny", "decision": "allow"}`), &o)
	require.NoError(t, err)
	assert.Equal(t, "allow", o.Decision)
}
