package mcpsdk_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rienda/hooks"
	"github.com/rienda/hooks/internal/adapttest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

func guard(tool, reason string) hooks.Funcs {
	return hooks.Funcs{HookName: "guard",
		BeforeToolExecute: func(_ *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			if call.Name == tool {
				return hooks.Refuse(reason), nil
			}
			return nil, nil
		}}
}

func TestGuardRefusalIsAnErrorResultAndTheToolDoesNotRun(t *testing.T) {
	srv, _, tl := newServer(t, guard("echo", "paths outside the sandbox are not allowed"))
	cs, _ := connect(t, srv)
	defer cs.Close()

	res := call(t, cs, "echo", map[string]any{"path": "/etc/passwd"})

	assert.True(t, res.IsError)
	assert.Equal(t, "paths outside the sandbox are not allowed", text(res))
	assert.Zero(t, tl.calls.Load())
}

func TestArgumentRewriteReachesTypedAndRawHandlers(t *testing.T) {
	sandbox := hooks.Funcs{HookName: "sandbox",
		BeforeToolExecute: func(_ *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			return &hooks.ToolCallPatch{Arguments: map[string]any{"path": "/sandbox" + call.Arguments["path"].(string), "n": 7}}, nil
		}}
	srv, _, tl := newServer(t, sandbox)
	cs, _ := connect(t, srv)
	defer cs.Close()

	typed := call(t, cs, "echo", map[string]any{"path": "/etc/passwd"})
	raw := call(t, cs, "raw", map[string]any{"path": "/etc/passwd"})

	require.False(t, typed.IsError, text(typed))
	assert.JSONEq(t, `{"path":"/sandbox/etc/passwd","n":7}`, mustJSON(t, typed.StructuredContent))
	assert.JSONEq(t, `{"path":"/sandbox/etc/passwd","n":7}`, text(raw))
	assert.Len(t, tl.raw, 1)
}

func TestRewriteIsValidatedByTheTypedTool(t *testing.T) {
	wrong := hooks.Funcs{HookName: "wrong",
		BeforeToolExecute: func(*hooks.Context, hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			return &hooks.ToolCallPatch{Arguments: map[string]any{"n": "not a number"}}, nil
		}}
	srv, _, tl := newServer(t, wrong)
	cs, _ := connect(t, srv)
	defer cs.Close()

	res := call(t, cs, "echo", map[string]any{"n": 1})

	assert.True(t, res.IsError)
	assert.Contains(t, text(res), "validating")
	assert.Zero(t, tl.calls.Load())
}

func TestBigIntegerReachesTheHandlerUnchangedWithoutRewrite(t *testing.T) {
	var seen any
	reader := hooks.Funcs{HookName: "reader",
		BeforeToolExecute: func(_ *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			seen = call.Arguments["n"]
			return nil, nil
		}}
	srv, _, tl := newServer(t, reader)
	cs, _ := connect(t, srv)
	defer cs.Close()

	res := call(t, cs, "raw", json.RawMessage(`{"n":9007199254740993}`))

	require.False(t, res.IsError, text(res))
	assert.Equal(t, float64(9007199254740992), seen, "hooks see numbers as float64")
	require.Len(t, tl.raw, 1)
	assert.Equal(t, `{"n":9007199254740993}`, tl.raw[0])
}

func TestCachedAnswerSkipsTheTool(t *testing.T) {
	cache := hooks.Funcs{HookName: "cache",
		BeforeToolExecute: func(*hooks.Context, hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			return &hooks.ToolCallPatch{Result: &hooks.ToolResult{Text: "cached", Value: map[string]any{"hits": 1}}}, nil
		}}
	srv, _, tl := newServer(t, cache)
	cs, _ := connect(t, srv)
	defer cs.Close()

	res := call(t, cs, "secret", nil)

	assert.False(t, res.IsError)
	assert.Equal(t, "cached", text(res))
	assert.JSONEq(t, `{"hits":1}`, mustJSON(t, res.StructuredContent))
	assert.Zero(t, tl.calls.Load())
}

func redactor(text, value bool) hooks.Funcs {
	return hooks.Funcs{HookName: "redact",
		AfterToolExecute: func(_ *hooks.Context, _ hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
			p := &hooks.ToolResultPatch{}
			if text {
				t := strings.ReplaceAll(res.Text, "s3cr3t", "[redacted]")
				p.Text = &t
			}
			if m, ok := res.Value.(map[string]any); ok && value {
				m["token"] = "[redacted]" // in place, and given back
				p.Value = m
			}
			return p, nil
		}}
}

func TestRedactionReachesTextAndStructuredContent(t *testing.T) {
	srv, _, _ := newServer(t, redactor(true, true))
	cs, _ := connect(t, srv)
	defer cs.Close()

	res := call(t, cs, "secret", nil)

	assert.Equal(t, "token [redacted] for ann", text(res))
	assert.JSONEq(t, `{"user":"ann","token":"[redacted]"}`, mustJSON(t, res.StructuredContent))
	assert.NotContains(t, mustJSON(t, res), "s3cr3t")
}

func TestRedactingStructuredContentAlsoRedactsItsJSONText(t *testing.T) {
	srv, _, _ := newServer(t, redactor(false, true))
	cs, _ := connect(t, srv)
	defer cs.Close()

	res := call(t, cs, "secret_json", nil)

	assert.JSONEq(t, `{"user":"ann","token":"[redacted]"}`, text(res))
	assert.NotContains(t, mustJSON(t, res), "s3cr3t")
}

func TestOneRunPerSessionEndedWhenTheSessionCloses(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	log := adapttest.NewRunLog()
	srv, a, _ := newServer(t, log.Hook())
	first, _ := connect(t, srv)
	second, _ := connect(t, srv)
	for range 3 {
		call(t, first, "count", nil)
		call(t, second, "count", nil)
	}
	started, ended := log.Counts()
	require.Equal(t, 2, started)
	require.Zero(t, ended)

	require.NoError(t, first.Close())
	assert.Equal(t, hooks.Completed, log.NextEnd(t).Outcome)
	require.NoError(t, second.Close())
	assert.Equal(t, hooks.Completed, log.NextEnd(t).Outcome)
	a.Close(context.Background())

	started, ended = log.Counts()
	assert.Equal(t, 2, started)
	assert.Equal(t, 2, ended)
}

func TestCloseEndsTheRunsOfOpenSessionsAsInterrupted(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	log := adapttest.NewRunLog()
	srv, a, _ := newServer(t, log.Hook())
	cs, ss := connect(t, srv)
	call(t, cs, "count", nil)

	a.Close(context.Background())
	assert.Equal(t, hooks.Interrupted, log.NextEnd(t).Outcome)
	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "count"})
	require.NoError(t, cs.Close())
	_ = ss.Wait()

	assert.ErrorContains(t, err, hooks.ErrRunsClosed.Error())
	_, ended := log.Counts()
	assert.Equal(t, 1, ended, "the session's end after Close ends nothing")
}

func TestParallelCallsOfOneSessionShareItsRun(t *testing.T) {
	log := adapttest.NewRunLog()
	srv, a, _ := newServer(t, log.Hook())
	cs, _ := connect(t, srv)
	const calls = 16
	texts := make([]string, calls)
	var wg sync.WaitGroup
	for i := range calls {
		wg.Go(func() { texts[i] = text(call(t, cs, "count", nil)) })
	}
	wg.Wait()
	require.NoError(t, cs.Close())
	end := log.NextEnd(t)
	a.Close(context.Background())

	started, ended := log.Counts()
	assert.Equal(t, 1, started)
	assert.Equal(t, 1, ended)
	for _, text := range texts {
		assert.Equal(t, "ran in "+end.RunID, text, "one run, carried by the handler's context")
	}
}

func TestHookFailureFailsTheCallAndTheSessionsRun(t *testing.T) {
	log := adapttest.NewRunLog()
	broken := hooks.Funcs{HookName: "broken",
		BeforeToolExecute: func(*hooks.Context, hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			return nil, errors.New("policy server unreachable")
		}}
	srv, _, tl := newServer(t, log.Hook(), broken) // Go hooks fail the run (FailRun)
	cs, _ := connect(t, srv)

	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "secret"})
	require.NoError(t, cs.Close())

	assert.ErrorContains(t, err, "policy server unreachable")
	assert.Zero(t, tl.calls.Load())
	assert.Equal(t, hooks.Failed, log.NextEnd(t).Outcome)
}

func TestOtherMethodsPassThrough(t *testing.T) {
	srv, _, _ := newServer(t, guard("echo", "no"))
	cs, _ := connect(t, srv)
	defer cs.Close()

	tools, err := cs.ListTools(context.Background(), nil)

	require.NoError(t, err)
	assert.Len(t, tools.Tools, 5)
}
