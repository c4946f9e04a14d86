package mcpgo_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/rienda/hooks"
	"github.com/rienda/hooks/internal/adapttest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
	c := connect(t, srv)
	defer c.Close()

	res := call(t, c, "echo", map[string]any{"path": "/etc/passwd"})

	assert.True(t, res.IsError)
	assert.Equal(t, "paths outside the sandbox are not allowed", text(res))
	assert.Zero(t, tl.calls.Load())
}

func TestArgumentRewriteReachesTypedAndUntypedHandlers(t *testing.T) {
	sandbox := hooks.Funcs{HookName: "sandbox",
		BeforeToolExecute: func(_ *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			return &hooks.ToolCallPatch{Arguments: map[string]any{"path": "/sandbox" + call.Arguments["path"].(string), "n": 7}}, nil
		}}
	srv, _, tl := newServer(t, sandbox)
	c := connect(t, srv)
	defer c.Close()

	res := call(t, c, "echo", map[string]any{"path": "/etc/passwd"})

	require.False(t, res.IsError, text(res))
	assert.JSONEq(t, `{"path":"/sandbox/etc/passwd","n":7}`, text(res), "BindArguments sees the rewrite")
	require.Len(t, tl.decoded, 1)
	assert.Equal(t, "/sandbox/etc/passwd", tl.decoded[0]["path"], "GetArguments sees the rewrite")
	assert.JSONEq(t, `{"path":"/sandbox/etc/passwd","n":7}`, tl.raw[0])
}

func TestBigIntegerReachesTheHandlerUnchangedWithoutRewrite(t *testing.T) {
	var seen any
	reader := hooks.Funcs{HookName: "reader",
		BeforeToolExecute: func(_ *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			seen = call.Arguments["n"]
			return nil, nil
		}}
	srv, _, tl := newServer(t, reader)
	c := connect(t, srv)
	defer c.Close()

	res := call(t, c, "echo", json.RawMessage(`{"path":"a","n":9007199254740993}`))

	require.False(t, res.IsError, text(res))
	assert.Equal(t, float64(9007199254740992), seen, "hooks see numbers as float64")
	assert.JSONEq(t, `{"path":"a","n":9007199254740993}`, text(res))
	assert.Contains(t, tl.raw[0], "9007199254740993")
}

func TestCachedAnswerSkipsTheTool(t *testing.T) {
	cache := hooks.Funcs{HookName: "cache",
		BeforeToolExecute: func(*hooks.Context, hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			return &hooks.ToolCallPatch{Result: &hooks.ToolResult{Text: "cached", Value: map[string]any{"hits": 1}}}, nil
		}}
	srv, _, tl := newServer(t, cache)
	c := connect(t, srv)
	defer c.Close()

	res := call(t, c, "secret", nil)

	assert.False(t, res.IsError)
	assert.Equal(t, "cached", text(res))
	assert.JSONEq(t, `{"hits":1}`, string(mustJSON(t, res.StructuredContent)))
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
	c := connect(t, srv)
	defer c.Close()

	res := call(t, c, "secret", nil)

	assert.Equal(t, "token [redacted] for ann", text(res))
	assert.JSONEq(t, `{"user":"ann","token":"[redacted]"}`, string(mustJSON(t, res.StructuredContent)))
	assert.NotContains(t, wire(t, res), "s3cr3t")
}

func TestRedactingStructuredContentAlsoRedactsItsJSONText(t *testing.T) {
	srv, _, _ := newServer(t, redactor(false, true))
	c := connect(t, srv)
	defer c.Close()

	res := call(t, c, "secret_json", nil)

	assert.JSONEq(t, `{"user":"ann","token":"[redacted]"}`, text(res))
	assert.NotContains(t, wire(t, res), "s3cr3t")
}

func TestUnchangedResultReachesTheClientAsTheToolGaveIt(t *testing.T) {
	srv, _, _ := newServer(t, redactor(true, true))
	c := connect(t, srv)
	defer c.Close()

	res := call(t, c, "echo", map[string]any{"path": "p"})

	assert.Equal(t, `{"path":"p","n":0}`, text(res))
	assert.Nil(t, res.StructuredContent)
}

func TestOneRunPerSessionEndedWhenTheSessionCloses(t *testing.T) {
	log := adapttest.NewRunLog()
	srv, a, _ := newServer(t, log.Hook())
	first, second := connect(t, srv), connect(t, srv)
	for range 3 {
		call(t, first, "count", nil)
		call(t, second, "count", nil)
	}
	started, ended := log.Counts()
	require.Equal(t, 2, started)
	require.Zero(t, ended)

	require.NoError(t, first.Close())
	_, ended = log.Counts()
	assert.Equal(t, 1, ended)
	require.NoError(t, second.Close())
	a.Close(context.Background())

	started, ended = log.Counts()
	assert.Equal(t, 2, started)
	require.Equal(t, 2, ended)
	for _, end := range log.Ends() {
		assert.Equal(t, hooks.Completed, end.Outcome)
	}
	assert.ElementsMatch(t, log.Started(), log.EndedRuns(), "each session's run ends once")
}

func TestCloseEndsTheRunsOfOpenSessionsAsInterrupted(t *testing.T) {
	log := adapttest.NewRunLog()
	srv, a, _ := newServer(t, log.Hook())
	c := connect(t, srv)
	call(t, c, "count", nil)

	a.Close(context.Background())
	_, err := c.CallTool(context.Background(), mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "count"}})
	require.NoError(t, c.Close())

	assert.ErrorContains(t, err, hooks.ErrRunsClosed.Error())
	ends := log.Ends()
	require.Len(t, ends, 1, "the session's unregistration after Close ends nothing")
	assert.Equal(t, hooks.Interrupted, ends[0].Outcome)
}

func TestParallelCallsOfOneSessionShareItsRun(t *testing.T) {
	log := adapttest.NewRunLog()
	var mu sync.Mutex
	runIDs := map[string]int{}
	seen := hooks.Funcs{HookName: "seen",
		BeforeToolExecute: func(c *hooks.Context, _ hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			mu.Lock()
			runIDs[c.RunID()]++
			mu.Unlock()
			return nil, nil
		}}
	srv, a, _ := newServer(t, log.Hook(), seen)
	c := connect(t, srv)
	const calls = 16
	var wg sync.WaitGroup
	texts := make([]string, calls)
	for i := range calls {
		wg.Go(func() { texts[i] = text(call(t, c, "count", nil)) })
	}
	wg.Wait()
	require.NoError(t, c.Close())
	a.Close(context.Background())

	started, ended := log.Counts()
	assert.Equal(t, 1, started)
	assert.Equal(t, 1, ended)
	require.Len(t, runIDs, 1)
	for id, n := range runIDs {
		assert.Equal(t, calls, n)
		for _, text := range texts {
			assert.Equal(t, "ran in "+id, text, "the handler's context carries the run")
		}
	}
}

func TestHookFailureFailsTheCallAndTheSessionsRun(t *testing.T) {
	log := adapttest.NewRunLog()
	broken := hooks.Funcs{HookName: "broken",
		BeforeToolExecute: func(*hooks.Context, hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			return nil, errors.New("policy server unreachable")
		}}
	srv, _, tl := newServer(t, log.Hook(), broken) // Go hooks fail the run (FailRun)
	c := connect(t, srv)

	_, err := c.CallTool(context.Background(), mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "secret"}})
	require.NoError(t, c.Close())

	assert.ErrorContains(t, err, "policy server unreachable")
	assert.Zero(t, tl.calls.Load())
	ends := log.Ends()
	require.Len(t, ends, 1)
	assert.Equal(t, hooks.Failed, ends[0].Outcome)
}

func TestCallRacingItsSessionsEndStartsNoRun(t *testing.T) {
	log := adapttest.NewRunLog()
	srv, a, _ := newServer(t, log.Hook())
	ctx := context.Background()
	session := server.NewInProcessSession("late", nil)
	require.NoError(t, srv.RegisterSession(ctx, session))
	srv.UnregisterSession(ctx, "late")

	resp := srv.HandleMessage(srv.WithContext(ctx, session),
		[]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"count"}}`))
	a.Close(ctx)

	assert.Contains(t, string(mustJSON(t, resp)), "session has ended")
	started, _ := log.Counts()
	assert.Zero(t, started)
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}
