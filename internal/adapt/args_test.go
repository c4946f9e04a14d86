package adapt_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/internal/adapt"
	"github.com/rienda/hooks/internal/adapttest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// forTool runs call through a run of hs and returns what ForTool decided
// inside its ToolFunc for the arguments text raw (nil: none).
func forTool(t *testing.T, raw []byte, call hooks.ToolCall, hs ...hooks.Hook) (json.RawMessage, *hooks.ToolResult) {
	t.Helper()
	chain, err := hooks.NewChain(hs)
	require.NoError(t, err)
	ctx := context.Background()
	run, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{})
	require.NoError(t, err)
	defer run.End(ctx, hooks.RunEnd{})
	var args adapt.Arguments
	if raw != nil {
		args = adapt.ParseArguments(raw)
		call.Arguments = args.Map()
	}
	var sent json.RawMessage
	var refusal *hooks.ToolResult
	_, err = run.CallTool(ctx, call, func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		var err error
		sent, refusal, err = args.ForTool(c, call)
		return hooks.ToolResult{}, err
	})
	require.NoError(t, err)
	return sent, refusal
}

func rewrite(args map[string]any) hooks.Hook {
	return hooks.Funcs{HookName: "rewrite", BeforeToolExecute: func(*hooks.Context, hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		return &hooks.ToolCallPatch{Arguments: args}, nil
	}}
}

func TestForToolRefusesWhatParseArgumentsRefuses(t *testing.T) {
	for _, tc := range adapttest.RefusedArguments {
		sent, refusal := forTool(t, []byte(tc.JSON), hooks.ToolCall{Name: "shell"})
		assert.Nil(t, sent, tc.Name)
		require.NotNil(t, refusal, tc.Name)
		assert.True(t, refusal.IsError)
		assert.Contains(t, refusal.Text, tc.Key)
		assert.Contains(t, refusal.Text, `"shell"`)
	}
}

func TestForToolKeepsTheRawTextOnlyWhenTheHooksSawIt(t *testing.T) {
	const big = `{"n":9007199254740993}`
	sent, refusal := forTool(t, []byte(big), hooks.ToolCall{Name: "t"})
	require.Nil(t, refusal)
	assert.Equal(t, big, string(sent), "untouched: the text as sent, precision kept")

	sent, refusal = forTool(t, []byte(big), hooks.ToolCall{Name: "t"}, rewrite(map[string]any{"n": 1}))
	require.Nil(t, refusal)
	assert.JSONEq(t, `{"n":1}`, string(sent), "rewritten: the hooks' arguments")

	sent, refusal = forTool(t, nil, hooks.ToolCall{Name: "t", Arguments: map[string]any{"a": "b"}})
	require.Nil(t, refusal)
	assert.JSONEq(t, `{"a":"b"}`, string(sent), "no text: the hooks' arguments")

	sent, refusal = forTool(t, nil, hooks.ToolCall{Name: "t"})
	require.Nil(t, refusal)
	assert.Equal(t, `{}`, string(sent))
}

func TestForToolRawTextThatIsNotTheCallIsNotSent(t *testing.T) {
	args := adapt.ParseArguments([]byte(`{"command":"rm -rf /"}`))
	chain, err := hooks.NewChain(nil)
	require.NoError(t, err)
	ctx := context.Background()
	run, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{})
	require.NoError(t, err)
	defer run.End(ctx, hooks.RunEnd{})
	var sent json.RawMessage
	_, err = run.CallTool(ctx, hooks.ToolCall{Name: "shell", Arguments: map[string]any{"command": "ls"}},
		func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
			sent, _, err = args.ForTool(c, call)
			return hooks.ToolResult{}, err
		})
	require.NoError(t, err)
	assert.JSONEq(t, `{"command":"ls"}`, string(sent), "the tool reads the call the hooks saw, not other text")
}

func TestForToolRefusesWhenAHookOnlyAddedToRefusedText(t *testing.T) {
	bad := adapttest.RefusedArguments[0].JSON
	addKey := hooks.Funcs{HookName: "add", BeforeToolExecute: func(_ *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		args := map[string]any{"extra": true}
		for k, v := range call.Arguments {
			args[k] = v
		}
		return &hooks.ToolCallPatch{Arguments: args}, nil
	}}
	_, refusal := forTool(t, []byte(bad), hooks.ToolCall{Name: "shell"}, addKey)
	require.NotNil(t, refusal, "the model's refused text is still what the tool would read")

	sent, refusal := forTool(t, []byte(bad), hooks.ToolCall{Name: "shell"}, rewrite(map[string]any{"command": "pwd"}))
	require.Nil(t, refusal)
	assert.JSONEq(t, `{"command":"pwd"}`, string(sent), "a hook that replaced the text decides")
}

func TestFillCallIDs(t *testing.T) {
	calls := []hooks.ToolCall{{Name: "a"}, {ID: "kept", Name: "b"}, {Name: "c"}}
	out := adapt.FillCallIDs(calls, "call_")
	require.Len(t, out, 3)
	assert.Empty(t, calls[0].ID, "the hooks' calls are not modified")
	assert.Equal(t, "kept", out[1].ID)
	assert.NotEmpty(t, out[0].ID)
	assert.NotEqual(t, out[0].ID, out[2].ID)
	assert.Regexp(t, `^call_[0-9a-f]{24}$`, out[0].ID)
	same := []hooks.ToolCall{{ID: "x"}}
	assert.Same(t, &same[0], &adapt.FillCallIDs(same, "call_")[0], "nothing to fill: no copy")
}
