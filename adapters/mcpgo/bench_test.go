package mcpgo_test

import (
	"context"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/rienda/hooks"
	"github.com/stretchr/testify/require"
)

// noop handles both tool points and changes nothing.
var noop = hooks.Funcs{HookName: "noop",
	BeforeToolExecute: func(*hooks.Context, hooks.ToolCall) (*hooks.ToolCallPatch, error) { return nil, nil },
	AfterToolExecute: func(*hooks.Context, hooks.ToolCall, hooks.ToolResult) (*hooks.ToolResultPatch, error) {
		return nil, nil
	},
}

// BenchmarkToolCall is one tools/call handled by an mcp-go server (from
// the request's bytes to the response), bare and through the adapter with
// one no-op hook, for a tool returning text and one returning structured
// content.
func BenchmarkToolCall(b *testing.B) {
	for _, tool := range []struct{ name, request string }{
		{"echo", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"path":"/tmp/x","n":42}}}`},
		{"secret", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"secret"}}`},
	} {
		b.Run(tool.name+"/bare", func(b *testing.B) {
			srv := server.NewMCPServer("bench", "1.0.0")
			(&tools{}).add(srv)
			benchCalls(b, srv, tool.request)
		})
		b.Run(tool.name+"/adapter", func(b *testing.B) {
			srv, a, _ := newServer(b, noop)
			defer a.Close(context.Background())
			benchCalls(b, srv, tool.request)
		})
	}
}

func benchCalls(b *testing.B, srv *server.MCPServer, request string) {
	ctx := context.Background()
	session := server.NewInProcessSession("bench", nil)
	require.NoError(b, srv.RegisterSession(ctx, session))
	defer srv.UnregisterSession(ctx, "bench")
	ctx = srv.WithContext(ctx, session)
	msg := []byte(request)
	resp, ok := srv.HandleMessage(ctx, msg).(mcp.JSONRPCResponse)
	require.True(b, ok, "%#v", resp)
	b.ReportAllocs()
	for b.Loop() {
		srv.HandleMessage(ctx, msg)
	}
}

// BenchmarkClientToolCall is one tools/call made by an in-process client
// (encoding, server, decoding), bare and through the adapter with one
// no-op hook.
func BenchmarkClientToolCall(b *testing.B) {
	for _, tool := range []struct {
		name string
		args any
	}{{"echo", map[string]any{"path": "/tmp/x", "n": 42}}, {"secret", nil}} {
		b.Run(tool.name+"/bare", func(b *testing.B) {
			srv := server.NewMCPServer("bench", "1.0.0")
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

func benchClientCalls(b *testing.B, srv *server.MCPServer, tool string, args any) {
	c := connect(b, srv)
	defer c.Close()
	req := mcp.CallToolRequest{Params: mcp.CallToolParams{Name: tool, Arguments: args}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.CallTool(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMiddleware is the adapter's own cost: one call of a handler
// returning text, or structured content, directly (bare) and through the
// middleware with one no-op hook, in a registered session.
func BenchmarkMiddleware(b *testing.B) {
	handlers := map[string]server.ToolHandlerFunc{
		"text": func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(`{"path":"/tmp/x","n":42}`), nil
		},
		"structured": func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultStructured(map[string]any{"user": "ann", "token": "s3cr3t"}, "token s3cr3t for ann"), nil
		},
	}
	req := mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "echo",
		Arguments:    map[string]any{"path": "/tmp/x", "n": float64(42)},
		RawArguments: []byte(`{"path":"/tmp/x","n":42}`)}}
	for _, name := range []string{"text", "structured"} {
		for _, through := range []string{"bare", "adapter"} {
			b.Run(name+"/"+through, func(b *testing.B) {
				srv, a, _ := newServer(b, noop)
				defer a.Close(context.Background())
				ctx := context.Background()
				session := server.NewInProcessSession("bench", nil)
				require.NoError(b, srv.RegisterSession(ctx, session))
				ctx = srv.WithContext(ctx, session)
				handler := handlers[name]
				if through == "adapter" {
					handler = a.Middleware()(handler)
				}
				b.ReportAllocs()
				for b.Loop() {
					if _, err := handler(ctx, req); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
