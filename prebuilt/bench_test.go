package prebuilt_test

import (
	"context"
	"io"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/prebuilt"
)

// The cost of each hook when it has no opinion, side by side with an empty
// chain: one tool call (Run.CallTool) or one model call (Run.CallModel)
// that the hook lets through unchanged.

func benchHooks(b *testing.B) []struct {
	name string
	h    hooks.Hook
} {
	work := b.TempDir()
	return []struct {
		name string
		h    hooks.Hook
	}{
		{"empty", nil},
		{"nopGoHook", nop}, // a Go hook at all four points that returns nil: the chain's own cost of one hook
		{"toolCallLimit", prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{Run: 1 << 30, PerTool: map[string]int{"read": 1 << 30}})},
		{"modelCallLimit", prebuilt.ModelCallLimit(prebuilt.ModelCallLimitConfig{Run: 1 << 30})},
		{"toolRetry", prebuilt.ToolRetry(prebuilt.ToolRetryConfig{})},
		{"modelRetry", prebuilt.ModelRetry(prebuilt.ModelRetryConfig{})},
		{"modelFallback", prebuilt.ModelFallback(prebuilt.ModelFallbackConfig{Models: []string{"b"}})},
		{"toolErrors", prebuilt.ToolErrors(prebuilt.ToolErrorsConfig{})},
		{"redact", prebuilt.Redact(prebuilt.RedactConfig{})},
		{"approval", prebuilt.Approval(prebuilt.ApprovalConfig{Require: []prebuilt.Rule{{Tool: "deploy"}}})},
		{"loopGuard", prebuilt.LoopGuard(prebuilt.LoopGuardConfig{})},
		{"budget", prebuilt.Budget(prebuilt.BudgetConfig{MaxTokens: 1 << 62})},
		{"audit", prebuilt.Audit(prebuilt.AuditConfig{Writer: io.Discard})},
		{"sandbox", prebuilt.Sandbox(prebuilt.SandboxConfig{Roots: []string{work}, AllowHosts: []string{"example.com"}})},
	}
}

var nop = hooks.Funcs{HookName: "nop",
	BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) { return nil, nil },
	AfterToolExecute: func(c *hooks.Context, call hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
		return nil, nil
	},
	BeforeModelRequest: func(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) { return nil, nil },
	AfterModelResponse: func(c *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) { return nil, nil },
}

func benchRun(b *testing.B, h hooks.Hook) *hooks.Run {
	var hs []hooks.Hook
	if h != nil {
		hs = append(hs, h)
	}
	chain, err := hooks.NewChain(hs)
	if err != nil {
		b.Fatal(err)
	}
	run, err := chain.Start(context.Background(), hooks.Host{Env: map[string]string{}}, hooks.RunStart{RunID: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { run.End(context.Background(), hooks.RunEnd{}) })
	return run
}

func BenchmarkNoOpinionToolCall(b *testing.B) {
	res := hooks.ToolResult{Text: "total 12\ndrwxr-xr-x  4 ann staff  128 Jan  2 10:00 src\n-rw-r--r--  1 ann staff 1024 Jan  2 10:00 go.mod"}
	tool := func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) { return res, nil }
	// Three calls in turn, so that the loop guard sees no repetition.
	calls := []hooks.ToolCall{
		{ID: "1", Name: "read", Arguments: map[string]any{"q": "a"}},
		{ID: "2", Name: "read", Arguments: map[string]any{"q": "b"}},
		{ID: "3", Name: "read", Arguments: map[string]any{"q": "c"}},
	}
	for _, tc := range benchHooks(b) {
		b.Run(tc.name, func(b *testing.B) {
			run := benchRun(b, tc.h)
			ctx := context.Background()
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := run.CallTool(ctx, calls[i%3], tool); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

func BenchmarkNoOpinionModelCall(b *testing.B) {
	req := hooks.ModelRequest{Model: "m", System: "You are helpful.", Messages: []hooks.Message{{Role: "user", Text: "list the files"}}}
	resp := hooks.ModelResponse{Text: "Here are the files: src and go.mod.", Usage: hooks.Usage{InputTokens: 20, OutputTokens: 10}}
	model := func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) { return resp, nil }
	for _, tc := range benchHooks(b) {
		b.Run(tc.name, func(b *testing.B) {
			run := benchRun(b, tc.h)
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := run.CallModel(ctx, req, model); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
