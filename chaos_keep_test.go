package hooks

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// Keeping the *Context is an everyday Go habit (an async audit log, an
// errgroup, a client that finishes in the background). Every Context the
// library hands out — to a hook at each point, a wrap, a tool, a model —
// is kept here and used from goroutines while and after later calls run.
// Before Contexts stopped being recycled this crashed the host (a nil
// dereference in another goroutine): it runs in a child process.
func TestKeptContextsNeverCrashTheHost(t *testing.T) {
	if !inChild(t) {
		return
	}
	var (
		mu   sync.Mutex
		kept []*Context
	)
	keep := func(c *Context) {
		mu.Lock()
		kept = append(kept, c)
		mu.Unlock()
	}
	h := Funcs{HookName: "keeper",
		BeforeRun: func(c *Context, s RunStart) (*RunPatch, error) { keep(c); return &RunPatch{State: "mine"}, nil },
		BeforeModelRequest: func(c *Context, r ModelRequest) (*ModelRequestPatch, error) {
			keep(c)
			return nil, nil
		},
		AfterModelResponse: func(c *Context, r ModelResponse) (*ModelResponsePatch, error) { keep(c); return nil, nil },
		BeforeToolExecute:  func(c *Context, call ToolCall) (*ToolCallPatch, error) { keep(c); return nil, nil },
		AfterToolExecute: func(c *Context, call ToolCall, res ToolResult) (*ToolResultPatch, error) {
			keep(c)
			return nil, nil
		},
		WrapTool: func(c *Context, call ToolCall, next ToolFunc) (ToolResult, error) { keep(c); return next(c, call) },
		AfterRun: func(c *Context, e RunEnd) error { keep(c); return nil },
	}
	other := Funcs{HookName: "other", BeforeToolExecute: func(c *Context, call ToolCall) (*ToolCallPatch, error) {
		return nil, nil
	}}
	chain, err := NewChain([]Hook{h, other})
	require.NoError(t, err)
	type key struct{}
	var wg sync.WaitGroup
	use := func(c *Context) { // what a background goroutine does with a kept context
		defer wg.Done()
		_ = c.Err()
		_ = c.Value(key{})
		_, _ = c.Deadline()
		<-c.Done() // every kept Context's call ends
		_ = c.Hook()
		_ = c.State()
		_ = c.RunID()
	}
	for i := range 20 {
		ctx := context.WithValue(context.Background(), key{}, i)
		run, err := chain.Start(ctx, Host{}, RunStart{})
		require.NoError(t, err)
		_, err = run.CallModel(ctx, ModelRequest{}, func(c *Context, r ModelRequest) (ModelResponse, error) {
			keep(c)
			return ModelResponse{Text: "ok"}, nil
		})
		require.NoError(t, err)
		_, err = run.CallTool(ctx, ToolCall{ID: "1", Name: "t"}, func(c *Context, call ToolCall) (ToolResult, error) {
			keep(c)
			return ToolResult{Text: "ok"}, nil
		})
		require.NoError(t, err)
		mu.Lock()
		for _, c := range kept {
			wg.Add(1)
			go use(c)
		}
		kept = nil
		mu.Unlock()
		run.End(ctx, RunEnd{})
	}
	mu.Lock()
	for _, c := range kept { // AfterRun's
		wg.Add(1)
		go use(c)
	}
	mu.Unlock()
	wg.Wait() // every goroutine saw its call end: a Done that never closed would hang here
}
