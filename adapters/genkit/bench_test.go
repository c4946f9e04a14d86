package genkit_test

import (
	"context"
	"testing"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
	"github.com/rienda/hooks"
	hooksgenkit "github.com/rienda/hooks/adapters/genkit"
)

// noopHooks handle every point and change nothing.
func noopHooks() hooks.Hook {
	return hooks.Funcs{HookName: "noop",
		BeforeModelRequest: func(*hooks.Context, hooks.ModelRequest) (*hooks.ModelRequestPatch, error) { return nil, nil },
		AfterModelResponse: func(*hooks.Context, hooks.ModelResponse) (*hooks.ModelResponsePatch, error) { return nil, nil },
		BeforeToolExecute:  func(*hooks.Context, hooks.ToolCall) (*hooks.ToolCallPatch, error) { return nil, nil },
		AfterToolExecute: func(*hooks.Context, hooks.ToolCall, hooks.ToolResult) (*hooks.ToolResultPatch, error) {
			return nil, nil
		}}
}

// benchGenkit is a genkit with an in-process model answering "hi" (one
// chunk when streamed), so that the adapter's share is not hidden by HTTP.
func benchGenkit(b *testing.B) (*genkit.Genkit, ai.Model) {
	ctx, cancel := context.WithCancel(context.Background())
	b.Cleanup(cancel)
	g := genkit.Init(ctx)
	m := genkit.DefineModel(g, "bench/echo", &ai.ModelOptions{Supports: &ai.ModelSupports{Multiturn: true, Tools: true, SystemRole: true}},
		func(ctx context.Context, req *ai.ModelRequest, cb ai.ModelStreamCallback) (*ai.ModelResponse, error) {
			msg := ai.NewModelTextMessage("hi")
			if cb != nil {
				if err := cb(ctx, &ai.ModelResponseChunk{Content: msg.Content}); err != nil {
					return nil, err
				}
			}
			return &ai.ModelResponse{Message: msg, FinishReason: ai.FinishReasonStop, Request: req}, nil
		})
	return g, m
}

// benchRun starts a run of a no-op hook, ended when the benchmark ends.
func benchRun(b *testing.B) context.Context {
	chain, err := hooks.NewChain([]hooks.Hook{noopHooks()})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	run, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { run.End(ctx, hooks.RunEnd{}) })
	return hooks.ContextWithRun(ctx, run)
}

// BenchmarkModelCall compares one genkit.Generate of an in-process model,
// bare and through the middleware with a hook that changes nothing, each
// plain and streamed.
func BenchmarkModelCall(b *testing.B) {
	for _, stream := range []bool{false, true} {
		name := map[bool]string{false: "", true: "streamed/"}[stream]
		b.Run(name+"bare", func(b *testing.B) {
			g, m := benchGenkit(b)
			benchGenerate(b, context.Background(), g, stream, ai.WithModel(m))
		})
		b.Run(name+"hooked", func(b *testing.B) {
			g, m := benchGenkit(b)
			//lint:ignore SA1019 the v1.4 entry point is measured too
			benchGenerate(b, benchRun(b), g, stream, ai.WithModel(m), ai.WithMiddleware(hooksgenkit.Middleware(g, m)))
		})
		b.Run(name+"use", func(b *testing.B) {
			g, m := benchGenkit(b)
			benchGenerate(b, benchRun(b), g, stream, ai.WithModel(m), ai.WithUse(hooksgenkit.Use(g, m)))
		})
	}
}

func benchGenerate(b *testing.B, ctx context.Context, g *genkit.Genkit, stream bool, opts ...ai.GenerateOption) {
	opts = append(opts, ai.WithPrompt("hello"))
	if stream {
		opts = append(opts, ai.WithStreaming(func(context.Context, *ai.ModelResponseChunk) error { return nil }))
	}
	b.ReportAllocs()
	for b.Loop() {
		resp, err := genkit.Generate(ctx, g, opts...)
		if err != nil || resp.Text() != "hi" {
			b.Fatalf("got %v, %v", resp, err)
		}
	}
}

// BenchmarkToolCall compares one call of a genkit tool as genkit makes it
// (RunRawMultipart, the model's input decoded), bare and wrapped with a
// hook that changes nothing.
func BenchmarkToolCall(b *testing.B) {
	add := func(_ *ai.ToolContext, in struct{ A, B int }) (int, error) { return in.A + in.B, nil }
	input := map[string]any{"A": 1, "B": 2}
	b.Run("bare", func(b *testing.B) {
		g, _ := benchGenkit(b)
		benchTool(b, context.Background(), genkit.DefineTool(g, "add", "adds", add), input)
	})
	b.Run("hooked", func(b *testing.B) {
		g, _ := benchGenkit(b)
		benchTool(b, benchRun(b), hooksgenkit.DefineTool(g, "add", "adds", add), input)
	})
}

func benchTool(b *testing.B, ctx context.Context, tool ai.Tool, input any) {
	b.ReportAllocs()
	for b.Loop() {
		out, err := tool.RunRawMultipart(ctx, input)
		if err != nil || out.Output != float64(3) {
			b.Fatalf("got %v, %v", out, err)
		}
	}
}

// BenchmarkMiddleware is the middleware's own share of a model call,
// without genkit's Generate around it: a model function called bare, and
// through the middleware with a hook that changes nothing.
func BenchmarkMiddleware(b *testing.B) {
	reply := &ai.ModelResponse{Message: ai.NewModelTextMessage("hi"), FinishReason: ai.FinishReasonStop,
		Usage: &ai.GenerationUsage{InputTokens: 3, OutputTokens: 1}}
	model := func(context.Context, *ai.ModelRequest, ai.ModelStreamCallback) (*ai.ModelResponse, error) {
		return reply, nil
	}
	req := &ai.ModelRequest{Messages: []*ai.Message{ai.NewSystemTextMessage("be brief"), ai.NewUserTextMessage("hello")},
		Tools: []*ai.ToolDefinition{{Name: "shell", Description: "runs a command",
			InputSchema: map[string]any{"type": "object", "properties": map[string]any{"command": map[string]any{"type": "string"}}}}}}
	bench := func(b *testing.B, ctx context.Context, fn ai.ModelFunc) {
		b.ReportAllocs()
		for b.Loop() {
			resp, err := fn(ctx, req, nil)
			if err != nil || resp.Text() != "hi" {
				b.Fatalf("got %v, %v", resp, err)
			}
		}
	}
	b.Run("bare", func(b *testing.B) { bench(b, context.Background(), model) })
	b.Run("hooked", func(b *testing.B) {
		bench(b, benchRun(b), hooksgenkit.Middleware(nil, ai.NewModelRef("bench/echo", nil))(model))
	})
}
