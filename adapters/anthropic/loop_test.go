package anthropic_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/rienda/hooks"
	hooksanthropic "github.com/rienda/hooks/adapters/anthropic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGuardRefusalReachesTheModelAsAnErrorToolResult(t *testing.T) {
	api := newFakeAPI(t, toolReply(call{"toolu_1", "delete", `{"path":"/etc/passwd"}`}), textReply("I may not."))
	del := &toolLog{result: hooks.ToolResult{Text: "deleted"}}
	guard := hooks.Funcs{HookName: "guard", BeforeToolExecute: func(_ *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		if p, _ := call.Arguments["path"].(string); strings.HasPrefix(p, "/etc") {
			return hooks.Refuse("path outside the workspace"), nil
		}
		return nil, nil
	}}

	res, _, err := runLoop(t, api, map[string]hooksanthropic.Tool{"delete": del.tool}, userParams("delete it"), guard)
	require.NoError(t, err)
	assert.Empty(t, del.calls, "a refused tool does not run")
	assert.Equal(t, "I may not.", res.Output)
	b := block(t, api.sent(1, 2), 0)
	assert.Equal(t, "toolu_1", b["tool_use_id"])
	assert.Equal(t, true, b["is_error"])
	assert.Equal(t, "path outside the workspace", resultText(t, b))
}

func TestInputReachesTheToolAsTheModelWroteItUnlessRewritten(t *testing.T) {
	const modelInput = `{"path":"notes.txt","n":9007199254740993}`
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
			assert.Equal(t, modelInput, args, "the model's JSON, big integer included")
		}},
		{"rewritten", []hooks.Hook{sandbox}, func(t *testing.T, args string) {
			assert.Equal(t, "sandbox/notes.txt", decode(t, []byte(args))["path"])
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			api := newFakeAPI(t, toolReply(call{"toolu_1", "read", modelInput}), textReply("done"))
			read := &toolLog{result: hooks.ToolResult{Text: "contents"}}
			_, _, err := runLoop(t, api, map[string]hooksanthropic.Tool{"read": read.tool}, userParams("read"), tc.hooks...)
			require.NoError(t, err)
			require.Len(t, read.calls, 1)
			tc.want(t, read.calls[0])
			assert.Contains(t, string(api.sentMessages(1)[1]), `"input":`+modelInput, "the recorded reply keeps the model's input")
		})
	}
}

func TestCachedAnswerDoesNotRunTheTool(t *testing.T) {
	api := newFakeAPI(t, toolReply(call{"toolu_1", "weather", `{"city":"Oslo"}`}), textReply("Rainy."))
	weather := &toolLog{result: hooks.ToolResult{Text: "live"}}
	cache := hooks.Funcs{HookName: "cache", BeforeToolExecute: func(*hooks.Context, hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		return &hooks.ToolCallPatch{Result: &hooks.ToolResult{Text: "cached: rain"}}, nil
	}}

	_, _, err := runLoop(t, api, map[string]hooksanthropic.Tool{"weather": weather.tool}, userParams("weather?"), cache)
	require.NoError(t, err)
	assert.Empty(t, weather.calls)
	b := block(t, api.sent(1, 2), 0)
	assert.Equal(t, "cached: rain", resultText(t, b))
	assert.NotContains(t, b, "is_error")
}

func TestRedactionCoversTextAndValue(t *testing.T) {
	api := newFakeAPI(t, toolReply(call{"toolu_1", "env", `{}`}, call{"toolu_2", "config", `{}`}), textReply("ok"))
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

	tools := map[string]hooksanthropic.Tool{"env": env.tool, "config": config.tool}
	_, _, err := runLoop(t, api, tools, userParams("show config"), redact)
	require.NoError(t, err)
	for i, body := range api.requests() {
		assert.NotContains(t, string(body), "sk-SECRET", "request %d", i+1)
	}
	results := api.sent(1, 2)
	assert.Equal(t, "TOKEN=[redacted]", resultText(t, block(t, results, 0)))
	assert.JSONEq(t, `{"port":8080,"token":"[redacted]"}`, resultText(t, block(t, results, 1)))
}

func TestToolErrorsAndUnknownToolsReadAsErrors(t *testing.T) {
	api := newFakeAPI(t, toolReply(call{"toolu_1", "fail", `{}`}, call{"toolu_2", "nope", `{}`}), textReply("sorry"))
	fail := func(context.Context, json.RawMessage) (hooks.ToolResult, error) {
		return hooks.ToolResult{}, errors.New("disk full")
	}

	_, _, err := runLoop(t, api, map[string]hooksanthropic.Tool{"fail": fail}, userParams("go"))
	require.NoError(t, err)
	results := api.sent(1, 2)
	for i, want := range []string{"disk full", `unknown tool "nope"`} {
		b := block(t, results, i)
		assert.Equal(t, want, resultText(t, b))
		assert.Equal(t, true, b["is_error"])
	}
}

func TestFailRunHookStopsTheLoopAndFailsTheRun(t *testing.T) {
	api := newFakeAPI(t, toolReply(call{"toolu_1", "read", `{}`}))
	read := &toolLog{}
	broken := hooks.Funcs{HookName: "broken", BeforeToolExecute: func(*hooks.Context, hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		return nil, errors.New("policy store unreachable")
	}}

	_, end, err := runLoop(t, api, map[string]hooksanthropic.Tool{"read": read.tool}, userParams("read"), broken)
	var herr *hooks.HookError
	require.ErrorAs(t, err, &herr)
	assert.Equal(t, "broken", herr.Hook)
	assert.Empty(t, read.calls)
	assert.Equal(t, hooks.Failed, end.Outcome)
	assert.Len(t, api.requests(), 1)
}
