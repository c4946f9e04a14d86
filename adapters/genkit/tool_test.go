package genkit_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
	"github.com/rienda/hooks"
	hooksgenkit "github.com/rienda/hooks/adapters/genkit"
	"github.com/rienda/hooks/internal/adapttest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGuardRefusesToolAndTheModelReadsWhy(t *testing.T) {
	f := newFakeAPI(t, toolReply(call{"call_1", "shell", `{"command":"rm -rf /"}`}), textReply("I may not delete files."))
	shell := &shellLog{}
	tool := hooksgenkit.DefineTool(f.g, "shell", "runs a command", shell.run)

	resp, err := generate(t, f, []hooks.Hook{guard()}, ai.WithTools(tool))
	require.NoError(t, err)
	assert.Equal(t, "I may not delete files.", resp.Text())
	assert.Empty(t, shell.commands(), "a refused call never reaches the tool")
	assert.Equal(t, `"deleting files is not allowed"`, toolMessage(t, f, 1), "the model reads the reason as the tool's output")
}

func TestAllowedToolRunsWithTheArgumentsAHookWrote(t *testing.T) {
	f := newFakeAPI(t, toolReply(call{"call_1", "shell", `{"command":"ls"}`}), textReply("done"))
	shell := &shellLog{}
	tool := hooksgenkit.DefineTool(f.g, "shell", "runs a command", shell.run)
	var seen hooks.ToolCall
	rewrite := hooks.Funcs{HookName: "rewrite",
		BeforeToolExecute: func(_ *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			seen = call
			return &hooks.ToolCallPatch{Arguments: map[string]any{"command": "ls -la"}}, nil
		}}

	_, err := generate(t, f, []hooks.Hook{rewrite}, ai.WithTools(tool))
	require.NoError(t, err)
	assert.Equal(t, "shell", seen.Name)
	assert.Equal(t, map[string]any{"command": "ls"}, seen.Arguments)
	assert.Equal(t, []string{"ls -la"}, shell.commands())
	assert.Equal(t, `"ran ls -la"`, toolMessage(t, f, 1))
}

// report is a structured tool output.
type report struct {
	Owner string `json:"owner"`
	Token string `json:"token"`
}

func TestRedactionReachesStructuredToolOutput(t *testing.T) {
	f := newFakeAPI(t, toolReply(call{"call_1", "lookup", `{}`}), textReply("ok"))
	tool := hooksgenkit.DefineTool(f.g, "lookup", "looks up the owner",
		func(_ *ai.ToolContext, _ struct{}) (report, error) {
			return report{Owner: "ann", Token: "sk-SECRET"}, nil
		})

	_, err := generate(t, f, []hooks.Hook{redact("sk-SECRET")}, ai.WithTools(tool))
	require.NoError(t, err)
	sent := toolMessage(t, f, 1)
	assert.NotContains(t, sent, "sk-SECRET")
	assert.JSONEq(t, `{"owner":"ann","token":"[redacted]"}`, sent, "the output stays structured")
}

// TestArgumentsAGuardCannotReadNeverReachTheTool sends each text a guard
// and a tool could read differently to a tool of a map, which would see
// both spellings: it never runs, and the model reads why. (A tool of a
// struct is safe by genkit itself: its input schema refuses a property
// the struct does not have, before the tool runs.)
func TestArgumentsAGuardCannotReadNeverReachTheTool(t *testing.T) {
	for _, c := range adapttest.RefusedArguments {
		t.Run(c.Name, func(t *testing.T) {
			f := newFakeAPI(t, toolReply(call{"call_1", "shell", c.JSON}), textReply("done"))
			var mu sync.Mutex
			var got []map[string]any
			tool := hooksgenkit.DefineTool(f.g, "shell", "runs a command", func(_ *ai.ToolContext, in map[string]any) (string, error) {
				mu.Lock()
				defer mu.Unlock()
				got = append(got, in)
				return "ran", nil
			})

			_, err := generate(t, f, []hooks.Hook{adapttest.NaiveGuard()}, ai.WithTools(tool))
			require.NoError(t, err)
			assert.Empty(t, got, "the map tool would read both spellings: it never runs")
			var reasons []string
			for _, m := range f.messages(1) {
				if m["role"] == "tool" && m["tool_call_id"] == "call_1" {
					reasons = append(reasons, m["content"].(string))
				}
			}
			require.Len(t, reasons, 1)
			assert.Regexp(t, `rm is not allowed|was not run: its arguments were refused`, reasons[0])
		})
	}
}

func TestToolWithoutRunFails(t *testing.T) {
	f := newFakeAPI(t)
	shell := &shellLog{}
	fn := hooksgenkit.WrapTool("shell", shell.run)
	_, err := fn(&ai.ToolContext{Context: context.Background()}, shellArgs{Command: "ls"})
	require.ErrorIs(t, err, hooksgenkit.ErrNoRun)
	assert.ErrorContains(t, err, `"shell"`)
	assert.Empty(t, shell.commands())

	_, err = genkit.Generate(context.Background(), f.g, ai.WithModel(f.model), ai.WithPrompt("hi"),
		//lint:ignore SA1019 the v1.4 entry point is tested too
		ai.WithMiddleware(hooksgenkit.Middleware(f.g, f.model)))
	assert.True(t, errors.Is(err, hooksgenkit.ErrNoRun), "a model call without a run fails: %v", err)
	assert.Empty(t, f.requests())
}

// TestInterruptPassesThroughTheWrapper: a tool's interrupt (genkit's
// human-in-the-loop) is not a failure the wrapper hides: the Generate
// stops interrupted, as without hooks.
func TestInterruptPassesThroughTheWrapper(t *testing.T) {
	f := newFakeAPI(t, toolReply(call{"call_1", "approve", `{"command":"deploy"}`}))
	tool := hooksgenkit.DefineTool(f.g, "approve", "asks a person", func(tc *ai.ToolContext, _ shellArgs) (string, error) {
		return "", tc.Interrupt(&ai.InterruptOptions{Metadata: map[string]any{"why": "needs a person"}})
	})
	resp, err := generate(t, f, nil, ai.WithTools(tool))
	require.NoError(t, err)
	assert.Equal(t, ai.FinishReasonInterrupted, resp.FinishReason)
	require.Len(t, resp.Interrupts(), 1)
	assert.Equal(t, map[string]any{"why": "needs a person"}, resp.Interrupts()[0].Metadata["interrupt"])
}

// TestToolHooksSeeTheCallID: genkit does not give a tool its call's ID;
// the tool hooks see the ID the model gave, also for two calls of one
// tool in one reply.
func TestToolHooksSeeTheCallID(t *testing.T) {
	f := newFakeAPI(t, toolReply(call{"call_ls", "shell", `{"command":"ls"}`}, call{"call_pwd", "shell", `{"command":"pwd"}`}),
		textReply("done"))
	shell := &shellLog{}
	tool := hooksgenkit.DefineTool(f.g, "shell", "runs a command", shell.run)
	var mu sync.Mutex
	ids := map[string]string{}
	record := hooks.Funcs{HookName: "record",
		AfterToolExecute: func(_ *hooks.Context, call hooks.ToolCall, _ hooks.ToolResult) (*hooks.ToolResultPatch, error) {
			mu.Lock()
			defer mu.Unlock()
			ids[call.Arguments["command"].(string)] = call.ID
			return nil, nil
		}}
	_, err := generate(t, f, []hooks.Hook{record}, ai.WithTools(tool))
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"ls": "call_ls", "pwd": "call_pwd"}, ids)
}
