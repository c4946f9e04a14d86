package openai_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	oai "github.com/openai/openai-go/v3"
	"github.com/rienda/hooks"
	hooksopenai "github.com/rienda/hooks/adapters/openai"
	"github.com/rienda/hooks/internal/adapttest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runWith runs params through loop (its Completions set to api's) under a
// chain of hs, and ends the run.
func runWith(t *testing.T, api *fakeAPI, loop hooksopenai.Loop, params oai.ChatCompletionNewParams, hs ...hooks.Hook) (hooksopenai.Result, error) {
	t.Helper()
	chain, err := hooks.NewChain(hs)
	require.NoError(t, err)
	ctx := context.Background()
	run, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{Input: "test"})
	require.NoError(t, err)
	loop.Completions = api.completions()
	res, err := loop.Run(ctx, run, params)
	run.End(ctx, hooks.RunEnd{Output: res.Output, Err: err})
	return res, err
}

func TestRefusedArgumentsNeverReachTheTool(t *testing.T) {
	for _, tc := range adapttest.RefusedArguments {
		t.Run(tc.Name, func(t *testing.T) {
			api := newFakeAPI(t, toolReply(call{"call_1", "shell", tc.JSON}), textReply("ok"))
			shell := &toolLog{result: hooks.ToolResult{Text: "ran"}}

			_, _, err := runLoop(t, api, map[string]hooksopenai.Tool{"shell": shell.tool}, userParams("list"), adapttest.NaiveGuard())

			require.NoError(t, err)
			assert.Empty(t, shell.calls, "the tool ran with arguments the guard never saw")
			msg := api.sent(1, 2)
			assert.Equal(t, "call_1", msg["tool_call_id"])
			assert.Contains(t, msg["content"], hooksopenai.ErrorPrefix)
			assert.Contains(t, msg["content"], tc.Key, "the model reads which key was refused")
		})
	}
}

// respondTwice answers the first model call with two tool calls without
// IDs, as a hook's canned answer may.
func respondTwice() hooks.Hook {
	answered := false
	return hooks.Funcs{HookName: "canned", BeforeModelRequest: func(*hooks.Context, hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
		if answered {
			return nil, nil
		}
		answered = true
		return &hooks.ModelRequestPatch{Respond: &hooks.ModelResponse{ToolCalls: []hooks.ToolCall{
			{Name: "read", Arguments: map[string]any{"path": "a"}},
			{Name: "read", Arguments: map[string]any{"path": "b"}},
		}}}, nil
	}}
}

func TestRespondedToolCallsGetDistinctIDs(t *testing.T) {
	api := newFakeAPI(t, textReply("done"))
	read := &toolLog{result: hooks.ToolResult{Text: "contents"}}

	_, _, err := runLoop(t, api, map[string]hooksopenai.Tool{"read": read.tool}, userParams("read"), respondTwice())

	require.NoError(t, err)
	assert.Equal(t, []string{`{"path":"a"}`, `{"path":"b"}`}, read.calls)
	calls := api.sent(0, 1)["tool_calls"].([]any)
	require.Len(t, calls, 2)
	first, second := calls[0].(map[string]any)["id"], calls[1].(map[string]any)["id"]
	assert.NotEmpty(t, first)
	assert.NotEmpty(t, second)
	assert.NotEqual(t, first, second)
	assert.Equal(t, first, api.sent(0, 2)["tool_call_id"], "each result answers its own call")
	assert.Equal(t, second, api.sent(0, 3)["tool_call_id"])
}

func TestParallelToolCallsRunAtOnceAndAnswerInOrder(t *testing.T) {
	api := newFakeAPI(t, toolReply(call{"call_a", "first", `{}`}, call{"call_b", "second", `{}`}), textReply("done"))
	bStarted, bDone := make(chan struct{}), make(chan struct{})
	wait := func(ch chan struct{}) error {
		select {
		case <-ch:
			return nil
		case <-time.After(10 * time.Second): // a deadline, not a synchronisation: one after another never gets here
			return assert.AnError
		}
	}
	loop := hooksopenai.Loop{Parallel: 2, Tools: map[string]hooksopenai.Tool{
		"first": func(context.Context, json.RawMessage) (hooks.ToolResult, error) {
			if err := wait(bDone); err != nil {
				return hooks.ToolResult{}, err
			}
			return hooks.ToolResult{Text: "a"}, nil
		},
		"second": func(context.Context, json.RawMessage) (hooks.ToolResult, error) {
			close(bStarted)
			defer close(bDone)
			return hooks.ToolResult{Text: "b"}, nil
		},
	}}

	_, err := runWith(t, api, loop, userParams("both"))

	require.NoError(t, err)
	require.NoError(t, wait(bStarted))
	assert.Equal(t, "call_a", api.sent(1, 2)["tool_call_id"], "results keep the reply's order")
	assert.Equal(t, "a", api.sent(1, 2)["content"], "the second call finished first, while the first waited for it")
	assert.Equal(t, "b", api.sent(1, 3)["content"])
}

func TestHandlerGetsItsCallIDAndHooksContext(t *testing.T) {
	api := newFakeAPI(t, toolReply(call{"call_7", "read", `{"path":"x"}`}), textReply("done"))
	var mu sync.Mutex
	var got hooksopenai.Call
	var runID string
	var original hooks.ToolCall
	loop := hooksopenai.Loop{Handlers: map[string]hooksopenai.Handler{
		"read": func(c *hooks.Context, call hooksopenai.Call) (hooks.ToolResult, error) {
			mu.Lock()
			defer mu.Unlock()
			got, runID = call, c.RunID()
			original, _ = c.OriginalCall()
			return hooks.ToolResult{Text: "contents"}, nil
		}}}

	_, err := runWith(t, api, loop, userParams("read"))

	require.NoError(t, err)
	assert.Equal(t, "call_7", got.ID)
	assert.Equal(t, "read", got.Name)
	assert.JSONEq(t, `{"path":"x"}`, string(got.Arguments))
	assert.NotEmpty(t, runID)
	assert.Equal(t, "x", original.Arguments["path"])
}

func TestOfferedToolWithoutFunctionIsAnErrorNamingIt(t *testing.T) {
	api := newFakeAPI(t)
	params := userParams("hi")
	params.Tools = []oai.ChatCompletionToolUnionParam{
		oai.ChatCompletionFunctionTool(oai.FunctionDefinitionParam{Name: "read"}),
		oai.ChatCompletionFunctionTool(oai.FunctionDefinitionParam{Name: "write"}),
	}
	loop := hooksopenai.Loop{Tools: map[string]hooksopenai.Tool{"read": (&toolLog{}).tool}}

	_, err := runWith(t, api, loop, params)

	require.Error(t, err)
	assert.Contains(t, err.Error(), `"write"`)
	assert.Empty(t, api.requests(), "no model call with a tool the loop cannot run")
}

func TestInjectedSystemPromptIsOneMessageWhenAsked(t *testing.T) {
	inject := hooks.Funcs{HookName: "inject", BeforeModelRequest: func(_ *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
		s := req.System + "\n\nAlways answer in French."
		return &hooks.ModelRequestPatch{System: &s}, nil
	}}
	params := userParams("hi")
	params.Messages = append([]oai.ChatCompletionMessageParamUnion{oai.SystemMessage("You are terse.")}, params.Messages...)
	for _, tc := range []struct {
		one  bool
		want []string
	}{
		{false, []string{"You are terse.", "Always answer in French."}},
		{true, []string{"You are terse.\n\nAlways answer in French."}},
	} {
		api := newFakeAPI(t, textReply("Bonjour."))
		_, err := runWith(t, api, hooksopenai.Loop{OneSystemMessage: tc.one}, params, inject)
		require.NoError(t, err)
		var system []string
		for i := range api.sentMessages(0) {
			if m := api.sent(0, i); m["role"] == "system" {
				system = append(system, m["content"].(string))
			}
		}
		assert.Equal(t, tc.want, system, "OneSystemMessage: %v", tc.one)
	}
}
