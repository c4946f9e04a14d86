package anthropic_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/rienda/hooks"
	hooksanthropic "github.com/rienda/hooks/adapters/anthropic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runLoop runs params through a Loop with hs and an auditing hook, ends
// the run as a host would (twice: the second End must do nothing), and
// checks that AfterRun ran exactly once, with the loop's outcome.
func runLoop(t *testing.T, api *fakeAPI, tools map[string]hooksanthropic.Tool, params sdk.MessageNewParams,
	hs ...hooks.Hook) (hooksanthropic.Result, hooks.RunEnd, error) {
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

	loop := hooksanthropic.Loop{Messages: api.messages(), Tools: tools}
	res, err := loop.Run(ctx, run, params)
	run.End(ctx, hooks.RunEnd{Output: res.Output, Err: err})
	run.End(ctx, hooks.RunEnd{Output: "ended twice"})

	require.Len(t, ends, 1, "AfterRun runs exactly once")
	assert.Equal(t, res.Output, ends[0].Output)
	return res, ends[0], err
}

// userParams is a request of one user message.
func userParams(text string) sdk.MessageNewParams {
	return sdk.MessageNewParams{Model: "claude-test", MaxTokens: 256,
		Messages: []sdk.MessageParam{sdk.NewUserMessage(sdk.NewTextBlock(text))}}
}

// toolLog is a tool that records the input it was called with.
type toolLog struct {
	calls  []string
	result hooks.ToolResult
}

func (l *toolLog) tool(_ context.Context, args json.RawMessage) (hooks.ToolResult, error) {
	l.calls = append(l.calls, string(args))
	return l.result, nil
}

// pixel is testdata/pixel.png in base64.
func pixel(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("testdata/pixel.png")
	require.NoError(t, err)
	return base64.StdEncoding.EncodeToString(b)
}

// decode is a JSON value decoded.
func decode(t *testing.T, raw []byte) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(raw, &m))
	return m
}

// block is a sent message's content block i.
func block(t *testing.T, msg map[string]any, i int) map[string]any {
	t.Helper()
	content, ok := msg["content"].([]any)
	require.True(t, ok, "no content blocks in %v", msg)
	require.Greater(t, len(content), i)
	return content[i].(map[string]any)
}

// resultText is the text of a sent tool_result block.
func resultText(t *testing.T, b map[string]any) string {
	t.Helper()
	require.Equal(t, "tool_result", b["type"])
	content, _ := b["content"].([]any)
	require.Len(t, content, 1)
	return content[0].(map[string]any)["text"].(string)
}
