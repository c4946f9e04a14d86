package adk_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/adk/v2/tool"
	"google.golang.org/genai"

	"github.com/rienda/hooks"
)

func TestGuardRefusalIsWhatTheModelReadsAndTheToolDoesNotRun(t *testing.T) {
	m := &fakeModel{replies: []*genai.Content{callReply("delete", map[string]any{"path": "/etc/passwd"}), textReply("I may not.")}}
	del := &toolLog{out: map[string]any{"result": "deleted"}}
	var seenID string
	guard := hooks.Funcs{HookName: "guard", BeforeToolExecute: func(_ *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		seenID = call.ID
		if p, _ := call.Arguments["path"].(string); strings.HasPrefix(p, "/etc") {
			return hooks.Refuse("path outside the workspace"), nil
		}
		return nil, nil
	}}
	a := newApp(t, m, []tool.Tool{del.tool(t, "delete")}, guard)
	evs, err := a.run(t.Context(), "delete it")
	require.NoError(t, err)
	assert.Empty(t, del.calls, "a refused tool does not run")
	rs := functionResponses(m.request(t, 1).Contents)
	require.Len(t, rs, 1)
	assert.NotEmpty(t, seenID)
	var answered []string
	for _, ev := range evs {
		if ev.Content != nil {
			for _, r := range functionResponses([]*genai.Content{ev.Content}) {
				answered = append(answered, r.ID)
			}
		}
	}
	assert.Equal(t, []string{seenID}, answered, "the hook saw the ID of the call the response answers")
	assert.Equal(t, map[string]any{"error": "path outside the workspace"}, rs[0].Response)
	require.Len(t, a.ends, 1)
	assert.Equal(t, "I may not.", a.ends[0].Output)
	assert.Equal(t, hooks.Completed, a.ends[0].Outcome)
}

func TestRewrittenArgumentsReachTheTool(t *testing.T) {
	m := &fakeModel{replies: []*genai.Content{callReply("read", map[string]any{"path": "notes.txt"}), textReply("done")}}
	read := &toolLog{out: map[string]any{"result": "contents"}}
	sandbox := hooks.Funcs{HookName: "sandbox", BeforeToolExecute: func(_ *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		return &hooks.ToolCallPatch{Arguments: map[string]any{"path": "sandbox/" + call.Arguments["path"].(string)}}, nil
	}}
	a := newApp(t, m, []tool.Tool{read.tool(t, "read")}, sandbox)
	_, err := a.run(t.Context(), "read")
	require.NoError(t, err)
	require.Len(t, read.calls, 1)
	assert.Equal(t, map[string]any{"path": "sandbox/notes.txt"}, read.calls[0])
}

func TestRedactionCoversTextAndStructuredResults(t *testing.T) {
	m := &fakeModel{replies: []*genai.Content{callReply("env", nil), callReply("config", nil), textReply("ok")}}
	env := &toolLog{out: map[string]any{"result": "TOKEN=sk-SECRET"}}
	config := &toolLog{out: map[string]any{"token": "sk-SECRET", "port": 8080.0}}
	redact := hooks.Funcs{HookName: "redact", AfterToolExecute: func(_ *hooks.Context, _ hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
		text := strings.ReplaceAll(res.Text, "sk-SECRET", "[redacted]")
		p := &hooks.ToolResultPatch{Text: &text}
		if v, ok := res.Value.(map[string]any); ok {
			out := map[string]any{}
			for k, x := range v {
				if s, ok := x.(string); ok {
					x = strings.ReplaceAll(s, "sk-SECRET", "[redacted]")
				}
				out[k] = x
			}
			p.Value = out
		}
		return p, nil
	}}
	a := newApp(t, m, []tool.Tool{env.tool(t, "env"), config.tool(t, "config")}, redact)
	_, err := a.run(t.Context(), "show")
	require.NoError(t, err)
	rs := functionResponses(m.request(t, 2).Contents)
	require.Len(t, rs, 2)
	assert.Equal(t, map[string]any{"result": "TOKEN=[redacted]"}, rs[0].Response)
	assert.Equal(t, map[string]any{"token": "[redacted]", "port": 8080.0}, rs[1].Response)
}

func TestToolErrorIsAnErrorResultTheHooksSee(t *testing.T) {
	m := &fakeModel{replies: []*genai.Content{callReply("fail", nil), textReply("sorry")}}
	fail := &toolLog{err: errors.New("disk full at /secret/path")}
	var seen hooks.ToolResult
	watch := hooks.Funcs{HookName: "watch", AfterToolExecute: func(_ *hooks.Context, _ hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
		seen = res
		text := "disk full"
		return &hooks.ToolResultPatch{Text: &text}, nil
	}}
	a := newApp(t, m, []tool.Tool{fail.tool(t, "fail")}, watch)
	_, err := a.run(t.Context(), "go")
	require.NoError(t, err)
	assert.True(t, seen.IsError)
	assert.Equal(t, "disk full at /secret/path", seen.Text)
	rs := functionResponses(m.request(t, 1).Contents)
	require.Len(t, rs, 1)
	assert.Equal(t, map[string]any{"error": "disk full"}, rs[0].Response)
}

func TestHooksSeeAndChangeModelAndTools(t *testing.T) {
	m := &fakeModel{replies: []*genai.Content{textReply("ok")}}
	var req hooks.ModelRequest
	var resp hooks.ModelResponse
	narrow := hooks.Funcs{HookName: "narrow",
		BeforeModelRequest: func(_ *hooks.Context, r hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
			req = r
			tools := slices.DeleteFunc(slices.Clone(r.Tools), func(s hooks.ToolSpec) bool { return s.Name == "delete" })
			model := "gemini-cheap"
			return &hooks.ModelRequestPatch{Tools: tools, Model: &model}, nil
		},
		AfterModelResponse: func(_ *hooks.Context, r hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
			resp = r
			return nil, nil
		}}
	a := newApp(t, m, []tool.Tool{(&toolLog{}).tool(t, "read"), (&toolLog{}).tool(t, "delete")}, narrow)
	_, err := a.run(t.Context(), "go")
	require.NoError(t, err)
	assert.Equal(t, "fake-model", req.Model)
	assert.Contains(t, req.System, "Be terse.")
	var names []string
	for _, s := range req.Tools {
		names = append(names, s.Name)
	}
	assert.ElementsMatch(t, []string{"read", "delete"}, names)
	sent := m.request(t, 0)
	assert.Equal(t, "gemini-cheap", sent.Model)
	assert.Equal(t, []string{"read"}, toolNames(sent))
	assert.Equal(t, hooks.StopEndTurn, resp.StopReason)
	assert.Equal(t, int64(5), resp.Usage.InputTokens)
}

func TestEndStopsTheInvocation(t *testing.T) {
	m := &fakeModel{replies: []*genai.Content{callReply("read", nil), textReply("never")}}
	read := &toolLog{out: map[string]any{"result": "x"}}
	budget := hooks.Funcs{HookName: "budget", BeforeModelRequest: func(c *hooks.Context, _ hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
		if c.ModelCalls() >= 1 {
			return &hooks.ModelRequestPatch{End: &hooks.End{Output: "budget spent"}}, nil
		}
		return nil, nil
	}}
	a := newApp(t, m, []tool.Tool{read.tool(t, "read")}, budget)
	_, err := a.run(t.Context(), "go")
	require.NoError(t, err)
	assert.Equal(t, 1, m.count(), "no model call after End")
	assert.Len(t, read.calls, 1)
	require.Len(t, a.ends, 1)
	assert.Equal(t, "budget spent", a.ends[0].Output)
}

func TestFailRunHookFailsTheInvocation(t *testing.T) {
	m := &fakeModel{replies: []*genai.Content{callReply("read", nil), textReply("never")}}
	read := &toolLog{}
	broken := hooks.Funcs{HookName: "broken", BeforeToolExecute: func(*hooks.Context, hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		return nil, errors.New("policy store unreachable")
	}}
	a := newApp(t, m, []tool.Tool{read.tool(t, "read")}, broken)
	_, _ = a.run(t.Context(), "go")
	assert.Empty(t, read.calls)
	require.Len(t, a.ends, 1)
	assert.Equal(t, hooks.Failed, a.ends[0].Outcome)
	var herr *hooks.HookError
	assert.ErrorAs(t, a.ends[0].Err, &herr)
}

func TestHostRunTravelsInTheInvocationContext(t *testing.T) {
	m := &fakeModel{replies: []*genai.Content{callReply("read", nil), textReply("done")}}
	read := &toolLog{out: map[string]any{"result": "x"}}
	a := newApp(t, m, []tool.Tool{read.tool(t, "read")})
	chain, err := hooks.NewChain(nil)
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{})
	require.NoError(t, err)
	_, err = a.run(hooks.ContextWithRun(t.Context(), run), "go")
	require.NoError(t, err)
	require.Len(t, read.ctxs, 1)
	got, ok := hooks.RunFromContext(read.ctxs[0])
	require.True(t, ok)
	assert.Same(t, run, got, "the tool finds the host's run")
	assert.Empty(t, a.ends, "the host ends its own run")
	run.End(context.Background(), hooks.RunEnd{})
}
