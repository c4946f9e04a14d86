package hooks

import (
	"context"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestJSHooksLeaveNoGoroutines: a call leaves nothing running, and
// nothing runs in the background between calls.
func TestJSHooksLeaveNoGoroutines(t *testing.T) {
	h, err := (&Loader{Dir: "testdata/hooks"}).Load("guard")
	require.NoError(t, err)
	before := runtime.NumGoroutine()

	chain, err := NewChain([]Hook{h})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	run, err := chain.Start(ctx, Host{}, RunStart{})
	require.NoError(t, err)
	for range 20 {
		_, err := run.CallTool(ctx, ToolCall{Name: "shell", Arguments: map[string]any{"command": "ls"}},
			func(c *Context, call ToolCall) (ToolResult, error) { return ToolResult{}, nil })
		require.NoError(t, err)
	}
	run.End(ctx, RunEnd{})
	assert.LessOrEqual(t, runtime.NumGoroutine(), before)
}
