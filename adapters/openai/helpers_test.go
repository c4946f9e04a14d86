package openai_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"testing"

	oai "github.com/openai/openai-go/v3"
	"github.com/rienda/hooks"
	hooksopenai "github.com/rienda/hooks/adapters/openai"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runLoop runs params through a Loop with hs and an auditing hook, ends
// the run as a host would (twice: the second End must do nothing), and
// checks that AfterRun ran exactly once, with the loop's outcome.
func runLoop(t *testing.T, api *fakeAPI, tools map[string]hooksopenai.Tool, params oai.ChatCompletionNewParams,
	hs ...hooks.Hook) (hooksopenai.Result, hooks.RunEnd, error) {
	t.Helper()
	var ends []hooks.RunEnd
	audit := hooks.Funcs{HookName: "audit", AfterRun: func(_ *hooks.Context, end hooks.RunEnd) error {
		ends = append(ends, end)
		return nil
	}}
	chain, err := hooks.NewChain(append([]hooks.Hook{audit}, hs...),
		hooks.WithDiagnostics(func(d hooks.Diagnostic) { t.Logf("diagnostic: %s at %s: %v", d.Hook, d.Point, d.Err) }))
	require.NoError(t, err)
	ctx := context.Background()
	run, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{Input: "test"})
	require.NoError(t, err)

	loop := hooksopenai.Loop{Completions: api.completions(), Tools: tools}
	res, err := loop.Run(ctx, run, params)
	run.End(ctx, hooks.RunEnd{Output: res.Output, Err: err})
	run.End(ctx, hooks.RunEnd{Output: "ended twice"})

	require.Len(t, ends, 1, "AfterRun runs exactly once")
	assert.Equal(t, res.Output, ends[0].Output)
	return res, ends[0], err
}

// userParams is a request of one user message.
func userParams(text string) oai.ChatCompletionNewParams {
	return oai.ChatCompletionNewParams{Model: "gpt-test", Messages: []oai.ChatCompletionMessageParamUnion{oai.UserMessage(text)}}
}

// toolLog is a tool that records the argument text it was called with.
type toolLog struct {
	calls  []string
	result hooks.ToolResult
}

func (l *toolLog) tool(_ context.Context, args json.RawMessage) (hooks.ToolResult, error) {
	l.calls = append(l.calls, string(args))
	return l.result, nil
}

// pixel is testdata/pixel.png as a data URL.
func pixel(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("testdata/pixel.png")
	require.NoError(t, err)
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(b)
}

// decode is a JSON value decoded.
func decode(t *testing.T, raw []byte) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(raw, &m))
	return m
}

// firstToolCall is a sent assistant message's first tool call.
func firstToolCall(t *testing.T, msg map[string]any) map[string]any {
	t.Helper()
	calls, ok := msg["tool_calls"].([]any)
	require.True(t, ok, "no tool_calls in %v", msg)
	require.NotEmpty(t, calls)
	return calls[0].(map[string]any)
}
