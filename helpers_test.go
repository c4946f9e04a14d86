package hooks_test

import (
	"context"
	"sync"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/require"
)

// recorder collects what a chain reports and what ran, safely from many goroutines.
type recorder struct {
	mu    sync.Mutex
	calls []string
	diags []hooks.Diagnostic
}

func (r *recorder) add(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, s)
}

func (r *recorder) got() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.calls...)
}

func (r *recorder) diagnose(d hooks.Diagnostic) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.diags = append(r.diags, d)
}

func (r *recorder) diagnostics() []hooks.Diagnostic {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]hooks.Diagnostic(nil), r.diags...)
}

// layer is a Funcs hook that records each point it passes as "name:point".
func layer(rec *recorder, name string) hooks.Funcs {
	return hooks.Funcs{
		HookName: name,
		BeforeRun: func(c *hooks.Context, s hooks.RunStart) (*hooks.RunPatch, error) {
			rec.add(name + ":beforeRun")
			return nil, nil
		},
		AfterRun: func(c *hooks.Context, e hooks.RunEnd) error {
			rec.add(name + ":afterRun:" + string(e.Outcome))
			return nil
		},
		BeforeModelRequest: func(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
			rec.add(name + ":beforeModel")
			return nil, nil
		},
		AfterModelResponse: func(c *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
			rec.add(name + ":afterModel")
			return nil, nil
		},
		BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			rec.add(name + ":beforeTool")
			return nil, nil
		},
		AfterToolExecute: func(c *hooks.Context, call hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
			rec.add(name + ":afterTool")
			return nil, nil
		},
	}
}

// start builds a chain of hs reporting to rec and starts a run on it.
func start(t *testing.T, rec *recorder, hs ...hooks.Hook) *hooks.Run {
	t.Helper()
	return startWith(t, rec, hooks.Host{}, hs...)
}

func startWith(t *testing.T, rec *recorder, host hooks.Host, hs ...hooks.Hook) *hooks.Run {
	t.Helper()
	chain, err := hooks.NewChain(hs, hooks.WithDiagnostics(rec.diagnose))
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), host, hooks.RunStart{Input: "test"})
	require.NoError(t, err)
	return run
}

// echoTool is a tool that records its call and echoes its "text" argument.
func echoTool(rec *recorder) hooks.ToolFunc {
	return func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		rec.add("tool:" + call.Name)
		text, _ := call.Arguments["text"].(string)
		return hooks.ToolResult{Text: text}, nil
	}
}

func ptr[T any](v T) *T { return &v }
