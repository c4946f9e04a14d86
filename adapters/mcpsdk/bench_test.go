package mcpsdk_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rienda/hooks"
)

// noop handles both tool points and changes nothing.
var noop = hooks.Funcs{HookName: "noop",
	BeforeToolExecute: func(*hooks.Context, hooks.ToolCall) (*hooks.ToolCallPatch, error) { return nil, nil },
	AfterToolExecute: func(*hooks.Context, hooks.ToolCall, hooks.ToolResult) (*hooks.ToolResultPatch, error) {
		return nil, nil
	},
}

// BenchmarkClientToolCall is one tools/call made by a client over
// in-memory transports (encoding, server, decoding), bare and through the
// adapter with one no-op hook, for a typed tool returning structured
// content (echo, secret) and a raw tool returning text (raw).
func BenchmarkClientToolCall(b *testing.B) {
	for _, tool := range []struct {
		name string
		args any
	}{{"raw", map[string]any{"path": "/tmp/x", "n": 42}}, {"echo", map[string]any{"path": "/tmp/x", "n": 42}}, {"secret", nil}} {
		b.Run(tool.name+"/bare", func(b *testing.B) {
			srv := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "1.0.0"}, nil)
			(&tools{}).add(srv)
			benchClientCalls(b, srv, tool.name, tool.args)
		})
		b.Run(tool.name+"/adapter", func(b *testing.B) {
			srv, a, _ := newServer(b, noop)
			defer a.Close(context.Background())
			benchClientCalls(b, srv, tool.name, tool.args)
		})
	}
}

func benchClientCalls(b *testing.B, srv *mcp.Server, tool string, args any) {
	cs, _ := connect(b, srv)
	defer cs.Close()
	params := &mcp.CallToolParams{Name: tool, Arguments: args}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := cs.CallTool(context.Background(), params); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMiddleware is the adapter's own cost: one tools/call of a
// handler returning text, or structured content, directly (bare) and
// through the middleware with one no-op hook, in a connected session.
func BenchmarkMiddleware(b *testing.B) {
	handlers := map[string]mcp.MethodHandler{
		"text": func(context.Context, string, mcp.Request) (mcp.Result, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: `{"path":"/tmp/x","n":42}`}}}, nil
		},
		"structured": func(context.Context, string, mcp.Request) (mcp.Result, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "token s3cr3t for ann"}},
				StructuredContent: json.RawMessage(`{"token":"s3cr3t","user":"ann"}`)}, nil
		},
	}
	for _, name := range []string{"text", "structured"} {
		for _, through := range []string{"bare", "adapter"} {
			b.Run(name+"/"+through, func(b *testing.B) {
				srv, a, _ := newServer(b, noop)
				defer a.Close(context.Background())
				cs, ss := connect(b, srv)
				defer cs.Close()
				req := &mcp.CallToolRequest{Session: ss, Params: &mcp.CallToolParamsRaw{Name: "echo",
					Arguments: json.RawMessage(`{"path":"/tmp/x","n":42}`)}}
				handler := handlers[name]
				if through == "adapter" {
					handler = a.Middleware()(handler)
				}
				ctx := context.Background()
				b.ReportAllocs()
				for b.Loop() {
					if _, err := handler(ctx, "tools/call", req); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
