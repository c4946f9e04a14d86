package anthropic_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/rienda/hooks"
	hooksanthropic "github.com/rienda/hooks/adapters/anthropic"
	"github.com/rienda/hooks/internal/adapttest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runWith runs params through loop (its Messages set to api's) under a
// chain of hs, and ends the run.
func runWith(t *testing.T, api *fakeAPI, loop hooksanthropic.Loop, params sdk.MessageNewParams, hs ...hooks.Hook) (hooksanthropic.Result, error) {
	t.Helper()
	chain, err := hooks.NewChain(hs)
	require.NoError(t, err)
	ctx := context.Background()
	run, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{Input: "test"})
	require.NoError(t, err)
	loop.Messages = api.messages()
	res, err := loop.Run(ctx, run, params)
	run.End(ctx, hooks.RunEnd{Output: res.Output, Err: err})
	return res, err
}

func TestRefusedArgumentsNeverReachTheTool(t *testing.T) {
	for _, tc := range adapttest.RefusedArguments {
		t.Run(tc.Name, func(t *testing.T) {
			api := newFakeAPI(t, toolReply(call{"toolu_1", "shell", tc.JSON}), textReply("ok"))
			shell := &toolLog{result: hooks.ToolResult{Text: "ran"}}

			_, _, err := runLoop(t, api, map[string]hooksanthropic.Tool{"shell": shell.tool}, userParams("list"), adapttest.NaiveGuard())

			require.NoError(t, err)
			assert.Empty(t, shell.calls, "the tool ran with arguments the guard never saw")
			b := block(t, api.sent(1, 2), 0)
			assert.Equal(t, "toolu_1", b["tool_use_id"])
			assert.Equal(t, true, b["is_error"])
			assert.Contains(t, resultText(t, b), tc.Key, "the model reads which key was refused")
		})
	}
}

func TestRespondedToolCallsGetDistinctIDs(t *testing.T) {
	api := newFakeAPI(t, textReply("done"))
	read := &toolLog{result: hooks.ToolResult{Text: "contents"}}
	answered := false
	canned := hooks.Funcs{HookName: "canned", BeforeModelRequest: func(*hooks.Context, hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
		if answered {
			return nil, nil
		}
		answered = true
		return &hooks.ModelRequestPatch{Respond: &hooks.ModelResponse{ToolCalls: []hooks.ToolCall{
			{Name: "read", Arguments: map[string]any{"path": "a"}},
			{Name: "read", Arguments: map[string]any{"path": "b"}},
		}}}, nil
	}}

	_, _, err := runLoop(t, api, map[string]hooksanthropic.Tool{"read": read.tool}, userParams("read"), canned)

	require.NoError(t, err)
	assert.Len(t, read.calls, 2)
	uses := api.sent(0, 1)
	first, second := block(t, uses, 0)["id"], block(t, uses, 1)["id"]
	assert.NotEmpty(t, first)
	assert.NotEmpty(t, second)
	assert.NotEqual(t, first, second)
	results := api.sent(0, 2)
	assert.Equal(t, first, block(t, results, 0)["tool_use_id"], "each result answers its own call")
	assert.Equal(t, second, block(t, results, 1)["tool_use_id"])
}

func TestParallelToolCallsRunAtOnceAndAnswerInOrder(t *testing.T) {
	api := newFakeAPI(t, toolReply(call{"toolu_a", "first", `{}`}, call{"toolu_b", "second", `{}`}), textReply("done"))
	bDone := make(chan struct{})
	loop := hooksanthropic.Loop{Parallel: 2, Tools: map[string]hooksanthropic.Tool{
		"first": func(context.Context, json.RawMessage) (hooks.ToolResult, error) {
			select {
			case <-bDone:
				return hooks.ToolResult{Text: "a"}, nil
			case <-time.After(10 * time.Second): // a deadline, not a synchronisation: one after another never gets past it
				return hooks.ToolResult{}, assert.AnError
			}
		},
		"second": func(context.Context, json.RawMessage) (hooks.ToolResult, error) {
			defer close(bDone)
			return hooks.ToolResult{Text: "b"}, nil
		},
	}}

	_, err := runWith(t, api, loop, userParams("both"))

	require.NoError(t, err)
	results := api.sent(1, 2)
	assert.Equal(t, "toolu_a", block(t, results, 0)["tool_use_id"], "results keep the reply's order")
	assert.Equal(t, "a", resultText(t, block(t, results, 0)), "the second call finished first, while the first waited for it")
	assert.Equal(t, "b", resultText(t, block(t, results, 1)))
}

func TestHandlerGetsItsCallIDAndHooksContext(t *testing.T) {
	api := newFakeAPI(t, toolReply(call{"toolu_7", "read", `{"path":"x"}`}), textReply("done"))
	var mu sync.Mutex
	var got hooksanthropic.Call
	var runID string
	loop := hooksanthropic.Loop{Handlers: map[string]hooksanthropic.Handler{
		"read": func(c *hooks.Context, call hooksanthropic.Call) (hooks.ToolResult, error) {
			mu.Lock()
			defer mu.Unlock()
			got, runID = call, c.RunID()
			return hooks.ToolResult{Text: "contents"}, nil
		}}}

	_, err := runWith(t, api, loop, userParams("read"))

	require.NoError(t, err)
	assert.Equal(t, "toolu_7", got.ID)
	assert.JSONEq(t, `{"path":"x"}`, string(got.Arguments))
	assert.NotEmpty(t, runID)
}

func TestOfferedToolWithoutFunctionIsAnErrorNamingIt(t *testing.T) {
	api := newFakeAPI(t)
	params := userParams("hi")
	params.Tools = []sdk.ToolUnionParam{
		{OfTool: &sdk.ToolParam{Name: "read", InputSchema: sdk.ToolInputSchemaParam{}}},
		{OfTool: &sdk.ToolParam{Name: "write", InputSchema: sdk.ToolInputSchemaParam{}}},
		{OfWebSearchTool20250305: &sdk.WebSearchTool20250305Param{}}, // the API runs it
	}
	loop := hooksanthropic.Loop{Tools: map[string]hooksanthropic.Tool{"read": (&toolLog{}).tool}}

	_, err := runWith(t, api, loop, params)

	require.Error(t, err)
	assert.Contains(t, err.Error(), `"write"`)
	assert.Empty(t, api.requests(), "no model call with a tool the loop cannot run")
}

func TestInjectedSystemPromptIsOneBlockWhenAsked(t *testing.T) {
	inject := hooks.Funcs{HookName: "inject", BeforeModelRequest: func(_ *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
		s := req.System + "\n\nAlways answer in French."
		return &hooks.ModelRequestPatch{System: &s}, nil
	}}
	params := userParams("hi")
	params.System = []sdk.TextBlockParam{{Text: "You are terse."}}
	for _, tc := range []struct {
		one  bool
		want []string
	}{
		{false, []string{"You are terse.", "Always answer in French."}},
		{true, []string{"You are terse.\n\nAlways answer in French."}},
	} {
		api := newFakeAPI(t, textReply("Bonjour."))
		_, err := runWith(t, api, hooksanthropic.Loop{OneSystemBlock: tc.one}, params, inject)
		require.NoError(t, err)
		var blocks []struct{ Text string }
		require.NoError(t, json.Unmarshal(api.body(0)["system"], &blocks))
		var texts []string
		for _, b := range blocks {
			texts = append(texts, b.Text)
		}
		assert.Equal(t, tc.want, texts, "OneSystemBlock: %v", tc.one)
	}
}

func TestPauseTurnIsSentBackAndResumed(t *testing.T) {
	paused := reply(`{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"go 1.26"}},`+
		`{"type":"text","text":"Searching. "}`, "pause_turn")
	api := newFakeAPI(t, paused, textReply("Go 1.26 is out."))

	res, _, err := runLoop(t, api, nil, userParams("news?"))

	require.NoError(t, err)
	assert.Equal(t, "Go 1.26 is out.", res.Output)
	assert.Equal(t, 2, res.Turns)
	msgs := api.sentMessages(1)
	require.Len(t, msgs, 2, "the paused reply goes back as the last message, no user message after it")
	last := api.sent(1, 1)
	assert.Equal(t, "assistant", last["role"])
	assert.Equal(t, "server_tool_use", block(t, last, 0)["type"], "sent back as it was")
	assert.Equal(t, "srvtoolu_1", block(t, last, 0)["id"])
}
