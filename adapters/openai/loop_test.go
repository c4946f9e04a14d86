package openai_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/rienda/hooks"
	hooksopenai "github.com/rienda/hooks/adapters/openai"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGuardRefusalReachesTheModelAsAnErrorToolMessage(t *testing.T) {
	api := newFakeAPI(t, toolReply(call{"call_1", "delete", `{"path":"/etc/passwd"}`}), textReply("I may not."))
	del := &toolLog{result: hooks.ToolResult{Text: "deleted"}}
	guard := hooks.Funcs{HookName: "guard", BeforeToolExecute: func(_ *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		if p, _ := call.Arguments["path"].(string); strings.HasPrefix(p, "/etc") {
			return hooks.Refuse("path outside the workspace"), nil
		}
		return nil, nil
	}}

	res, _, err := runLoop(t, api, map[string]hooksopenai.Tool{"delete": del.tool}, userParams("delete it"), guard)
	require.NoError(t, err)
	assert.Empty(t, del.calls, "a refused tool does not run")
	assert.Equal(t, "I may not.", res.Output)
	msg := api.sent(1, 2)
	assert.Equal(t, map[string]any{"role": "tool", "tool_call_id": "call_1",
		"content": "Error: path outside the workspace"}, msg)
}

func TestArgumentsReachTheToolAsTheModelWroteThemUnlessRewritten(t *testing.T) {
	const modelArgs = `{"path":"notes.txt","n":9007199254740993}`
	sandbox := hooks.Funcs{HookName: "sandbox", BeforeToolExecute: func(_ *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		args := map[string]any{"n": call.Arguments["n"], "path": "sandbox/" + call.Arguments["path"].(string)}
		return &hooks.ToolCallPatch{Arguments: args}, nil
	}}
	for _, tc := range []struct {
		name  string
		hooks []hooks.Hook
		want  func(t *testing.T, args string)
	}{
		{"untouched", nil, func(t *testing.T, args string) {
			assert.Equal(t, modelArgs, args, "the model's text, big integer included")
		}},
		{"rewritten", []hooks.Hook{sandbox}, func(t *testing.T, args string) {
			assert.Equal(t, "sandbox/notes.txt", decode(t, []byte(args))["path"])
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			api := newFakeAPI(t, toolReply(call{"call_1", "read", modelArgs}), textReply("done"))
			read := &toolLog{result: hooks.ToolResult{Text: "contents"}}
			_, _, err := runLoop(t, api, map[string]hooksopenai.Tool{"read": read.tool}, userParams("read"), tc.hooks...)
			require.NoError(t, err)
			require.Len(t, read.calls, 1)
			tc.want(t, read.calls[0])
			fn := firstToolCall(t, api.sent(1, 1))["function"].(map[string]any)
			assert.Equal(t, modelArgs, fn["arguments"], "the recorded reply keeps the model's arguments")
		})
	}
}

func TestCachedAnswerDoesNotRunTheTool(t *testing.T) {
	api := newFakeAPI(t, toolReply(call{"call_1", "weather", `{"city":"Oslo"}`}), textReply("Rainy."))
	weather := &toolLog{result: hooks.ToolResult{Text: "live"}}
	cache := hooks.Funcs{HookName: "cache", BeforeToolExecute: func(*hooks.Context, hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		return &hooks.ToolCallPatch{Result: &hooks.ToolResult{Text: "cached: rain"}}, nil
	}}

	_, _, err := runLoop(t, api, map[string]hooksopenai.Tool{"weather": weather.tool}, userParams("weather?"), cache)
	require.NoError(t, err)
	assert.Empty(t, weather.calls)
	assert.Equal(t, "cached: rain", api.sent(1, 2)["content"])
}

func TestRedactionCoversTextAndValue(t *testing.T) {
	api := newFakeAPI(t, toolReply(call{"call_1", "env", `{}`}, call{"call_2", "config", `{}`}), textReply("ok"))
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

	tools := map[string]hooksopenai.Tool{"env": env.tool, "config": config.tool}
	_, _, err := runLoop(t, api, tools, userParams("show config"), redact)
	require.NoError(t, err)
	for i, body := range api.requests() {
		assert.NotContains(t, string(body), "sk-SECRET", "request %d", i+1)
	}
	assert.Equal(t, "TOKEN=[redacted]", api.sent(1, 2)["content"])
	assert.JSONEq(t, `{"port":8080,"token":"[redacted]"}`, api.sent(1, 3)["content"].(string))
}

func TestToolErrorsAndUnknownToolsReadAsErrors(t *testing.T) {
	api := newFakeAPI(t, toolReply(call{"call_1", "fail", `{}`}, call{"call_2", "nope", `{}`}), textReply("sorry"))
	fail := func(context.Context, json.RawMessage) (hooks.ToolResult, error) {
		return hooks.ToolResult{}, errors.New("disk full")
	}

	_, _, err := runLoop(t, api, map[string]hooksopenai.Tool{"fail": fail}, userParams("go"))
	require.NoError(t, err)
	assert.Equal(t, "Error: disk full", api.sent(1, 2)["content"])
	assert.Equal(t, `Error: unknown tool "nope"`, api.sent(1, 3)["content"])
}

func TestBrokenArgumentsReachTheGuardAsTheModelsText(t *testing.T) {
	api := newFakeAPI(t, toolReply(call{"call_1", "read", `{"path": `}), textReply("ok"))
	read := &toolLog{}
	var seen map[string]any
	guard := hooks.Funcs{HookName: "guard", BeforeToolExecute: func(_ *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		seen = call.Arguments
		return hooks.Refuse("arguments are not JSON"), nil
	}}

	_, _, err := runLoop(t, api, map[string]hooksopenai.Tool{"read": read.tool}, userParams("read"), guard)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{hooks.InvalidArgumentsKey: `{"path": `}, seen)
	assert.Empty(t, read.calls)
	fn := firstToolCall(t, api.sent(1, 1))["function"].(map[string]any)
	assert.Equal(t, `{"path": `, fn["arguments"], "the recorded reply keeps the model's text")
}

func TestFailRunHookStopsTheLoopAndFailsTheRun(t *testing.T) {
	api := newFakeAPI(t, toolReply(call{"call_1", "read", `{}`}))
	read := &toolLog{}
	broken := hooks.Funcs{HookName: "broken", BeforeToolExecute: func(*hooks.Context, hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		return nil, errors.New("policy store unreachable")
	}}

	_, end, err := runLoop(t, api, map[string]hooksopenai.Tool{"read": read.tool}, userParams("read"), broken)
	var herr *hooks.HookError
	require.ErrorAs(t, err, &herr)
	assert.Equal(t, "broken", herr.Hook)
	assert.Empty(t, read.calls)
	assert.Equal(t, hooks.Failed, end.Outcome)
	assert.Len(t, api.requests(), 1)
}
