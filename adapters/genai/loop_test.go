package genai_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/rienda/hooks"
	hooksgenai "github.com/rienda/hooks/adapters/genai"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGuardRefusalReachesTheModelAsAnErrorResponse(t *testing.T) {
	api := newFakeAPI(t, toolReply(call{"fc_1", "delete", `{"path":"/etc/passwd"}`}), textReply("I may not."))
	del := &toolLog{result: hooks.ToolResult{Text: "deleted"}}
	guard := hooks.Funcs{HookName: "guard", BeforeToolExecute: func(_ *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		if p, _ := call.Arguments["path"].(string); strings.HasPrefix(p, "/etc") {
			return hooks.Refuse("path outside the workspace"), nil
		}
		return nil, nil
	}}

	res, _, err := runLoop(t, api, map[string]hooksgenai.Tool{"delete": del.tool}, userParams("delete it", "delete"), guard)
	require.NoError(t, err)
	assert.Empty(t, del.calls, "a refused tool does not run")
	assert.Equal(t, "I may not.", res.Output)
	r := functionResponse(t, api.part(1, 2, 0))
	assert.Equal(t, "fc_1", r["id"])
	assert.Equal(t, "delete", r["name"])
	assert.Equal(t, map[string]any{"error": "path outside the workspace"}, r["response"])
}

func TestGuardSeesCaseTwinKeysAsRefusedArguments(t *testing.T) {
	api := newFakeAPI(t, toolReply(call{"fc_1", "read", `{"path":"ok.txt","PATH":"/etc/shadow"}`}), textReply("no"))
	read := &toolLog{result: hooks.ToolResult{Text: "contents"}}
	_, _, err := runLoop(t, api, map[string]hooksgenai.Tool{"read": read.tool}, userParams("read", "read"))
	require.NoError(t, err)
	assert.Empty(t, read.calls, "arguments the hooks cannot read as one object never reach the tool")
	r := functionResponse(t, api.part(1, 2, 0))
	assert.Contains(t, r["response"], "error")
}

func TestArgumentsReachTheToolAsSentUnlessRewritten(t *testing.T) {
	const modelArgs = `{"path":"notes.txt","n":42}`
	sandbox := hooks.Funcs{HookName: "sandbox", BeforeToolExecute: func(_ *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		args := map[string]any{"n": call.Arguments["n"], "path": "sandbox/" + call.Arguments["path"].(string)}
		return &hooks.ToolCallPatch{Arguments: args}, nil
	}}
	for _, tc := range []struct {
		name  string
		hooks []hooks.Hook
		path  string
	}{
		{"untouched", nil, "notes.txt"},
		{"rewritten", []hooks.Hook{sandbox}, "sandbox/notes.txt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			api := newFakeAPI(t, toolReply(call{"fc_1", "read", modelArgs}), textReply("done"))
			read := &toolLog{result: hooks.ToolResult{Text: "contents"}}
			_, _, err := runLoop(t, api, map[string]hooksgenai.Tool{"read": read.tool}, userParams("read", "read"), tc.hooks...)
			require.NoError(t, err)
			require.Len(t, read.calls, 1)
			args := decode(t, read.calls[0])
			assert.Equal(t, tc.path, args["path"])
			assert.Equal(t, 42.0, args["n"])
			fc := api.part(1, 1, 0)["functionCall"].(map[string]any)
			assert.Equal(t, "notes.txt", fc["args"].(map[string]any)["path"], "the recorded reply keeps the model's call")
		})
	}
}

func TestCallsWithoutIDsGetDistinctOnesThatTheirResponsesCarry(t *testing.T) {
	api := newFakeAPI(t, toolReply(call{"", "read", `{"path":"a"}`}, call{"", "read", `{"path":"b"}`}), textReply("done"))
	var ids []string
	seen := hooks.Funcs{HookName: "ids", BeforeToolExecute: func(_ *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		ids = append(ids, call.ID)
		return nil, nil
	}}
	read := &toolLog{result: hooks.ToolResult{Text: "x"}}
	_, _, err := runLoop(t, api, map[string]hooksgenai.Tool{"read": read.tool}, userParams("read", "read"), seen)
	require.NoError(t, err)
	require.Len(t, ids, 2)
	assert.NotEqual(t, ids[0], ids[1])
	for i, id := range ids {
		assert.True(t, strings.HasPrefix(id, "call_hooks_"), id)
		assert.Equal(t, id, api.part(1, 1, i)["functionCall"].(map[string]any)["id"], "the call sent back")
		assert.Equal(t, id, functionResponse(t, api.part(1, 2, i))["id"], "its response")
	}
	assert.Len(t, read.calls, 2, "each call ran with its own arguments")
}

func TestRespondedCallsGetIDsAndRunWithTheHooksArguments(t *testing.T) {
	api := newFakeAPI(t, textReply("done"))
	answered := false
	respond := hooks.Funcs{HookName: "respond", BeforeModelRequest: func(*hooks.Context, hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
		if answered {
			return nil, nil
		}
		answered = true
		return &hooks.ModelRequestPatch{Respond: &hooks.ModelResponse{ToolCalls: []hooks.ToolCall{
			{Name: "read", Arguments: map[string]any{"path": "a"}}, {Name: "read", Arguments: map[string]any{"path": "b"}}}}}, nil
	}}
	read := &toolLog{result: hooks.ToolResult{Text: "x"}}
	res, _, err := runLoop(t, api, map[string]hooksgenai.Tool{"read": read.tool}, userParams("read", "read"), respond)
	require.NoError(t, err)
	assert.Equal(t, 2, res.Turns)
	assert.ElementsMatch(t, []string{`{"path":"a"}`, `{"path":"b"}`}, read.calls)
	a, b := functionResponse(t, api.part(0, 2, 0))["id"], functionResponse(t, api.part(0, 2, 1))["id"]
	assert.NotEmpty(t, a)
	assert.NotEqual(t, a, b)
	assert.Equal(t, a, api.part(0, 1, 0)["functionCall"].(map[string]any)["id"], "each response answers its own call")
	assert.Equal(t, b, api.part(0, 1, 1)["functionCall"].(map[string]any)["id"])
}

func TestRedactionCoversTextAndValue(t *testing.T) {
	api := newFakeAPI(t, toolReply(call{"fc_1", "env", `{}`}, call{"fc_2", "config", `{}`}), textReply("ok"))
	env := &toolLog{result: hooks.ToolResult{Text: "TOKEN=sk-SECRET"}}
	config := &toolLog{result: hooks.ToolResult{Value: map[string]any{"token": "sk-SECRET", "port": 8080.0}}}
	redact := hooks.Funcs{HookName: "redact", AfterToolExecute: func(_ *hooks.Context, _ hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
		text := strings.ReplaceAll(res.Text, "sk-SECRET", "[redacted]")
		p := &hooks.ToolResultPatch{Text: &text}
		if res.Value != nil {
			b, err := json.Marshal(res.Value)
			if err != nil {
				return nil, err
			}
			var v any
			if err := json.Unmarshal([]byte(strings.ReplaceAll(string(b), "sk-SECRET", "[redacted]")), &v); err != nil {
				return nil, err
			}
			p.Value = v
		}
		return p, nil
	}}

	tools := map[string]hooksgenai.Tool{"env": env.tool, "config": config.tool}
	_, _, err := runLoop(t, api, tools, userParams("show config", "env", "config"), redact)
	require.NoError(t, err)
	for i, body := range api.requests() {
		assert.NotContains(t, string(body), "sk-SECRET", "request %d", i+1)
	}
	assert.Equal(t, map[string]any{"output": "TOKEN=[redacted]"}, functionResponse(t, api.part(1, 2, 0))["response"])
	assert.Equal(t, map[string]any{"output": map[string]any{"port": 8080.0, "token": "[redacted]"}},
		functionResponse(t, api.part(1, 2, 1))["response"], "a structured value reaches the model as a value")
}

func TestToolErrorsAndUnknownToolsReadAsErrors(t *testing.T) {
	api := newFakeAPI(t, toolReply(call{"fc_1", "fail", `{}`}, call{"fc_2", "nope", `{}`}), textReply("sorry"))
	fail := func(context.Context, json.RawMessage) (hooks.ToolResult, error) {
		return hooks.ToolResult{}, errors.New("disk full")
	}
	_, _, err := runLoop(t, api, map[string]hooksgenai.Tool{"fail": fail}, userParams("go", "fail"))
	require.NoError(t, err)
	for i, want := range []string{"disk full", `unknown tool "nope"`} {
		assert.Equal(t, map[string]any{"error": want}, functionResponse(t, api.part(1, 2, i))["response"])
	}
}

func TestFailRunHookStopsTheLoopAndFailsTheRun(t *testing.T) {
	api := newFakeAPI(t, toolReply(call{"fc_1", "read", `{}`}))
	read := &toolLog{}
	boom := hooks.Funcs{HookName: "boom", BeforeToolExecute: func(*hooks.Context, hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		return nil, errors.New("policy store down")
	}}
	_, end, err := runLoop(t, api, map[string]hooksgenai.Tool{"read": read.tool}, userParams("go", "read"), boom)
	var he *hooks.HookError
	require.ErrorAs(t, err, &he)
	assert.Equal(t, "boom", he.Hook)
	assert.Equal(t, hooks.Failed, end.Outcome)
	assert.Empty(t, read.calls)
	assert.Len(t, api.requests(), 1)
}

func TestOfferedFunctionWithoutToolIsAnErrorNamingIt(t *testing.T) {
	api := newFakeAPI(t)
	_, _, err := runLoop(t, api, nil, userParams("go", "ghost"))
	require.ErrorContains(t, err, `"ghost"`)
	assert.Empty(t, api.requests(), "no model call")
}

func TestHandlerGetsItsCallIDAndHooksContext(t *testing.T) {
	api := newFakeAPI(t, toolReply(call{"fc_9", "who", `{"x":1}`}), textReply("ok"))
	var got hooksgenai.Call
	var runID string
	chain, err := hooks.NewChain(nil)
	require.NoError(t, err)
	run, err := chain.Start(t.Context(), hooks.Host{}, hooks.RunStart{})
	require.NoError(t, err)
	loop := hooksgenai.Loop{Models: api.client.Models, Handlers: map[string]hooksgenai.Handler{
		"who": func(c *hooks.Context, call hooksgenai.Call) (hooks.ToolResult, error) {
			got, runID = call, c.RunID()
			return hooks.ToolResult{Text: "me"}, nil
		}}}
	_, err = loop.Run(t.Context(), run, userParams("who", "who"))
	run.End(t.Context(), hooks.RunEnd{Err: err})
	require.NoError(t, err)
	assert.Equal(t, "fc_9", got.ID)
	assert.Equal(t, "who", got.Name)
	assert.JSONEq(t, `{"x":1}`, string(got.Arguments))
	assert.Equal(t, run.ID(), runID)
}
