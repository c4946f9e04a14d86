package hooks_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// audited is what an after-hook saw of one call.
type audited struct {
	rewritten bool
	original  string // the path the model asked for
}

// splitChain is a chain for a framework with split callbacks: a sandbox
// rewriting absolute paths, a guard refusing "rm", and an after-hook that
// redacts secrets and records what it saw, by call ID.
func splitChain(t *testing.T) (*hooks.Run, func() map[string]audited) {
	t.Helper()
	var mu sync.Mutex
	seen := map[string]audited{}
	var rec recorder
	run := start(t, &rec,
		hooks.Funcs{HookName: "audit",
			AfterToolExecute: func(c *hooks.Context, call hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
				orig, _ := c.OriginalCall()
				path, _ := orig.Arguments["path"].(string)
				mu.Lock()
				seen[call.ID] = audited{rewritten: c.Rewritten(), original: path}
				mu.Unlock()
				text := strings.ReplaceAll(res.Text, "secret", "[redacted]")
				return &hooks.ToolResultPatch{Text: &text}, nil
			}},
		hooks.Funcs{HookName: "sandbox",
			BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
				if call.Name == "rm" {
					return hooks.Refuse("no deleting"), nil
				}
				if path, _ := call.Arguments["path"].(string); strings.HasPrefix(path, "/") {
					return &hooks.ToolCallPatch{Arguments: map[string]any{"path": "/sandbox" + path}}, nil
				}
				return nil, nil
			}})
	return run, func() map[string]audited {
		mu.Lock()
		defer mu.Unlock()
		return seen
	}
}

// readTool is the framework's tool: it reads the path it is given.
func readTool(call hooks.ToolCall) hooks.ToolResult {
	return hooks.ToolResult{Text: fmt.Sprintf("secret in %v", call.Arguments["path"])}
}

// splitCalls returns n parallel calls: every third has an absolute path
// (the sandbox rewrites it), every third is "rm" (refused), the others
// read a relative path; and the text and audit each should end with.
func splitCalls(n int) (calls []hooks.ToolCall, want map[string]string, wantSeen map[string]audited) {
	want, wantSeen = map[string]string{}, map[string]audited{}
	for i := range n {
		call := hooks.ToolCall{ID: fmt.Sprintf("c%d", i), Name: "read", Arguments: map[string]any{"path": fmt.Sprintf("f%d", i)}}
		switch i % 3 {
		case 0:
			call.Arguments["path"] = fmt.Sprintf("/f%d", i)
			want[call.ID] = fmt.Sprintf("[redacted] in /sandbox/f%d", i)
			wantSeen[call.ID] = audited{rewritten: true, original: fmt.Sprintf("/f%d", i)}
		case 1:
			want[call.ID] = fmt.Sprintf("[redacted] in f%d", i)
			wantSeen[call.ID] = audited{original: fmt.Sprintf("f%d", i)}
		case 2:
			call.Name = "rm"
			want[call.ID] = "no deleting"
		}
		calls = append(calls, call)
	}
	return calls, want, wantSeen
}

func TestToolStepsCarryStepsBetweenSplitCallbacksOfParallelCalls(t *testing.T) {
	run, seen := splitChain(t)
	var steps hooks.ToolSteps
	calls, want, wantSeen := splitCalls(9)

	// The framework's before-callbacks, one goroutine per parallel call.
	// Each says what the framework does next: run the tool, or use the
	// before-callback's result (a refusal) in its place.
	type beforeDone struct {
		call hooks.ToolCall
		skip *hooks.ToolResult
	}
	befores := make(chan beforeDone, len(calls))
	for _, call := range calls {
		go func() {
			step, err := run.BeforeToolExecute(bg, call)
			assert.NoError(t, err)
			steps.Put(step)
			befores <- beforeDone{call, step.Result}
		}()
	}
	// The framework runs each tool, then its after-callback, on other goroutines.
	results := make(chan [2]string, len(calls))
	for range calls {
		b := <-befores
		go func() {
			step, ok := steps.Take(b.call.ID)
			assert.True(t, ok, "the before-callback kept the step of %s", b.call.ID)
			var res hooks.ToolResult
			if b.skip != nil {
				res = *b.skip
			} else {
				res = readTool(step.Call)
			}
			out, err := run.AfterToolExecute(bg, step, res)
			assert.NoError(t, err)
			results <- [2]string{b.call.ID, out.Text}
		}()
	}
	got := map[string]string{}
	for range calls {
		r := <-results
		got[r[0]] = r[1]
	}
	assert.Equal(t, want, got, "each after-callback got its own call's step")
	assert.Equal(t, wantSeen, seen(), "a refused call runs no after-hook")
	assert.Equal(t, 0, steps.Len(), "every step was taken")
}

func TestToolStepsPutTakeLen(t *testing.T) {
	var steps hooks.ToolSteps // the zero value is ready
	_, ok := steps.Take("c1")
	assert.False(t, ok)
	assert.Equal(t, 0, steps.Len())

	steps.Put(hooks.ToolStep{Call: hooks.ToolCall{ID: "c1", Name: "first"}})
	steps.Put(hooks.ToolStep{Call: hooks.ToolCall{ID: "c2", Name: "other"}})
	steps.Put(hooks.ToolStep{Call: hooks.ToolCall{ID: "c1", Name: "again"}})
	assert.Equal(t, 2, steps.Len(), "a call ID is kept once")
	step, ok := steps.Take("c1")
	require.True(t, ok)
	assert.Equal(t, "again", step.Call.Name, "the last Put wins")
	_, ok = steps.Take("c1")
	assert.False(t, ok, "Take forgets")
	assert.Equal(t, 1, steps.Len(), "a step whose after-callback never came stays: Len shows it")
}

func TestToolStepsKeepTheRewriteAcrossCallbacks(t *testing.T) {
	run, seen := splitChain(t)
	var steps hooks.ToolSteps
	call := hooks.ToolCall{ID: "c1", Name: "read", Arguments: map[string]any{"path": "/etc/passwd"}}
	step, err := run.BeforeToolExecute(bg, call)
	require.NoError(t, err)
	steps.Put(step)

	kept, ok := steps.Take("c1")
	require.True(t, ok)
	assert.True(t, kept.Rewritten())
	_, err = run.AfterToolExecute(bg, kept, readTool(kept.Call))
	require.NoError(t, err)
	assert.Equal(t, audited{rewritten: true, original: "/etc/passwd"}, seen()["c1"],
		"the after-hook sees the model's call behind the rewrite")
}

// A host whose after-callback finds no kept step (its before-callback did
// not run) must still give AfterToolExecute the call: the after-hooks
// see it, and a redaction by tool name still applies.
func TestToolStepsWithoutAKeptStepGiveTheCall(t *testing.T) {
	run, seen := splitChain(t)
	var steps hooks.ToolSteps
	call := hooks.ToolCall{ID: "c9", Name: "read", Arguments: map[string]any{"path": "a"}}
	step, ok := steps.Take(call.ID)
	require.False(t, ok)
	step.Call = call // a zero step counts as every hook entered: it still needs the call
	out, err := run.AfterToolExecute(bg, step, readTool(call))
	require.NoError(t, err)
	assert.Equal(t, "[redacted] in a", out.Text)
	assert.Equal(t, audited{original: "a"}, seen()["c9"])
}
