package prebuilt_test

import (
	"context"
	"fmt"
	"io"
	"sync"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/prebuilt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// every returns one of each hook, configured so that none trips on the
// calls of TestEveryHookUnderParallelRunsAndCalls.
func every(t *testing.T) (*prebuilt.Auditor, []hooks.Hook) {
	audit := prebuilt.Audit(prebuilt.AuditConfig{Writer: io.Discard})
	return audit, []hooks.Hook{
		audit,
		prebuilt.Redact(prebuilt.RedactConfig{Requests: true}),
		prebuilt.Sandbox(prebuilt.SandboxConfig{Roots: []string{t.TempDir()}, AllowHosts: []string{"example.com"}}),
		prebuilt.Approval(prebuilt.ApprovalConfig{Require: []prebuilt.Rule{{Tool: "deploy"}}}),
		prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{Run: 1000}),
		prebuilt.ModelCallLimit(prebuilt.ModelCallLimitConfig{Run: 1000}),
		prebuilt.LoopGuard(prebuilt.LoopGuardConfig{Repeats: 1000}),
		prebuilt.Budget(prebuilt.BudgetConfig{MaxTokens: 1 << 40}),
		prebuilt.ToolErrors(prebuilt.ToolErrorsConfig{}),
		prebuilt.ToolRetry(prebuilt.ToolRetryConfig{Backoff: fast}),
		prebuilt.ModelFallback(prebuilt.ModelFallbackConfig{Models: []string{"b"}}),
		prebuilt.ModelRetry(prebuilt.ModelRetryConfig{Backoff: fast}),
	}
}

func TestEveryHookUnderParallelRunsAndCalls(t *testing.T) {
	audit, hs := every(t)
	chain, err := hooks.NewChain(hs, hooks.WithTrace(audit.Trace))
	require.NoError(t, err)
	const runs, calls = 4, 16
	var wg sync.WaitGroup
	for r := range runs {
		run, err := chain.Start(context.Background(), hooks.Host{Env: map[string]string{}}, hooks.RunStart{RunID: fmt.Sprint(r)})
		require.NoError(t, err)
		for i := range calls {
			wg.Go(func() {
				res, err := run.CallTool(context.Background(), hooks.ToolCall{ID: fmt.Sprint(i), Name: "read", Arguments: map[string]any{"n": i}},
					func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
						return hooks.ToolResult{Text: "key " + openaiKey}, nil
					})
				assert.NoError(t, err)
				assert.Equal(t, "key [REDACTED:openai_key]", res.Text)
				_, err = run.CallModel(context.Background(), hooks.ModelRequest{}, func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
					return hooks.ModelResponse{Text: "x", Usage: hooks.Usage{InputTokens: 1}}, nil
				})
				assert.NoError(t, err)
				_, err = run.Snapshot() // a snapshot taken while the state changes
				assert.NoError(t, err)
			})
		}
		t.Cleanup(func() { run.End(context.Background(), hooks.RunEnd{}) })
	}
	wg.Wait()
}
