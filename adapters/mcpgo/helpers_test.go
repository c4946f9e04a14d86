package mcpgo_test

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/rienda/hooks"
	"github.com/rienda/hooks/adapters/mcpgo"
	"github.com/stretchr/testify/require"
)

// tools are the handlers of the test server, with what they saw.
type tools struct {
	calls   atomic.Int64
	mu      sync.Mutex
	raw     []string // RawArguments of each echo call
	decoded []map[string]any
}

// newServer returns an mcp-go server running its tool calls through an
// adapter over the given hooks.
func newServer(t testing.TB, hs ...hooks.Hook) (*server.MCPServer, *mcpgo.Adapter, *tools) {
	t.Helper()
	chain, err := hooks.NewChain(hs)
	require.NoError(t, err)
	a := mcpgo.New(chain, mcpgo.Options{})
	sh := &server.Hooks{}
	a.AddHooks(sh)
	srv := server.NewMCPServer("test", "1.0.0", server.WithHooks(sh),
		server.WithToolHandlerMiddleware(a.Middleware()))
	tl := &tools{}
	tl.add(srv)
	return srv, a, tl
}

func (tl *tools) add(srv *server.MCPServer) {
	srv.AddTool(mcp.NewTool("echo", mcp.WithString("path"), mcp.WithNumber("n")),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			tl.calls.Add(1)
			var in struct {
				Path string `json:"path"`
				N    int64  `json:"n"`
			}
			if err := req.BindArguments(&in); err != nil {
				return mcp.NewToolResultError(err.Error()), nil
			}
			tl.mu.Lock()
			tl.raw = append(tl.raw, string(req.Params.RawArguments))
			tl.decoded = append(tl.decoded, req.GetArguments())
			tl.mu.Unlock()
			out, _ := json.Marshal(in)
			return mcp.NewToolResultText(string(out)), nil
		})
	srv.AddTool(mcp.NewTool("secret"),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			tl.calls.Add(1)
			return mcp.NewToolResultStructured(map[string]any{"user": "ann", "token": "s3cr3t"},
				"token s3cr3t for ann"), nil
		})
	srv.AddTool(mcp.NewTool("secret_json"),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			tl.calls.Add(1)
			return mcp.NewToolResultStructuredOnly(map[string]any{"user": "ann", "token": "s3cr3t"}), nil
		})
	srv.AddTool(mcp.NewTool("count"),
		func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if run, ok := hooks.RunFromContext(ctx); ok {
				return mcp.NewToolResultText("ran in " + run.ID()), nil
			}
			return mcp.NewToolResultText("ran"), nil
		})
}

// connect returns an initialized in-process client of srv: one MCP session.
func connect(t testing.TB, srv *server.MCPServer) *client.Client {
	t.Helper()
	c, err := client.NewInProcessClient(srv)
	require.NoError(t, err)
	ctx := context.Background()
	require.NoError(t, c.Start(ctx))
	_, err = c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{
		ProtocolVersion: mcp.LATEST_PROTOCOL_VERSION,
		ClientInfo:      mcp.Implementation{Name: "test", Version: "1.0.0"},
	}})
	require.NoError(t, err)
	return c
}

// call calls tool with args (any value that encodes as the arguments).
func call(t testing.TB, c *client.Client, tool string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := c.CallTool(context.Background(), mcp.CallToolRequest{
		Params: mcp.CallToolParams{Name: tool, Arguments: args}})
	require.NoError(t, err)
	return res
}

// text returns the text items of res, joined.
func text(res *mcp.CallToolResult) string {
	var s string
	for _, c := range res.Content {
		if t, ok := mcp.AsTextContent(c); ok {
			s += t.Text
		}
	}
	return s
}

// wire returns res as the client received it, encoded again.
func wire(t testing.TB, res *mcp.CallToolResult) string {
	t.Helper()
	b, err := json.Marshal(res)
	require.NoError(t, err)
	return string(b)
}
