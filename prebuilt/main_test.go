package prebuilt_test

import (
	"context"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// start runs hs in a run of their own, outside hooktest, for what needs
// the run itself: parallel calls, snapshots.
func start(t *testing.T, hs ...hooks.Hook) (*hooks.Chain, *hooks.Run) {
	t.Helper()
	chain, err := hooks.NewChain(hs)
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), hooks.Host{Env: map[string]string{}}, hooks.RunStart{RunID: "r1"})
	require.NoError(t, err)
	t.Cleanup(func() { run.End(context.Background(), hooks.RunEnd{}) })
	return chain, run
}

// ok is a tool that answers "ok".
func ok(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
	return hooks.ToolResult{Text: "ok"}, nil
}

// callTool runs one call of name with args through run, with the tool ok.
func callTool(t *testing.T, run *hooks.Run, name string, args map[string]any) hooks.ToolResult {
	t.Helper()
	res, err := run.CallTool(context.Background(), hooks.ToolCall{ID: "c", Name: name, Arguments: args}, ok)
	require.NoError(t, err)
	return res
}
