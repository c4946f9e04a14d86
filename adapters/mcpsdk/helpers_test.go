package mcpsdk_test

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rienda/hooks"
	"github.com/rienda/hooks/adapters/mcpsdk"
	"github.com/stretchr/testify/require"
)

// tools are the handlers of the test server, with what they saw.
type tools struct {
	calls atomic.Int64
	mu    sync.Mutex
	raw   []string // the arguments of each raw call, as the handler got them
}

type echoIn struct {
	Path string `json:"path"`
	N    int64  `json:"n"`
}

type secret struct {
	User  string `json:"user"`
	Token string `json:"token"`
}

// newServer returns an SDK server running its tool calls through an
// adapter over the given hooks.
func newServer(t testing.TB, hs ...hooks.Hook) (*mcp.Server, *mcpsdk.Adapter, *tools) {
	t.Helper()
	chain, err := hooks.NewChain(hs)
	require.NoError(t, err)
	a := mcpsdk.New(chain, mcpsdk.Options{})
	srv := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1.0.0"}, nil)
	srv.AddReceivingMiddleware(a.Middleware())
	tl := &tools{}
	tl.add(srv)
	return srv, a, tl
}

func (tl *tools) add(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{Name: "echo"},
		func(_ context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, echoIn, error) {
			tl.calls.Add(1)
			return nil, in, nil
		})
	srv.AddTool(&mcp.Tool{Name: "raw", InputSchema: map[string]any{"type": "object"}},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			tl.calls.Add(1)
			tl.mu.Lock()
			tl.raw = append(tl.raw, string(req.Params.Arguments))
			tl.mu.Unlock()
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(req.Params.Arguments)}}}, nil
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "secret"},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, secret, error) {
			tl.calls.Add(1)
			text := &mcp.TextContent{Text: "token s3cr3t for ann"}
			return &mcp.CallToolResult{Content: []mcp.Content{text}}, secret{User: "ann", Token: "s3cr3t"}, nil
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "secret_json"},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, secret, error) {
			tl.calls.Add(1)
			return nil, secret{User: "ann", Token: "s3cr3t"}, nil // the SDK writes the JSON as text
		})
	srv.AddTool(&mcp.Tool{Name: "count", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			text := "ran"
			if run, ok := hooks.RunFromContext(ctx); ok {
				text += " in " + run.ID()
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
		})
}

// connect returns a client session of srv over in-memory transports, and
// the server's side of it.
func connect(t testing.TB, srv *mcp.Server) (*mcp.ClientSession, *mcp.ServerSession) {
	t.Helper()
	ctx := context.Background()
	serverSide, clientSide := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, serverSide, nil)
	require.NoError(t, err)
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1.0.0"}, nil)
	cs, err := client.Connect(ctx, clientSide, nil)
	require.NoError(t, err)
	return cs, ss
}

// call calls tool with args (any value that encodes as the arguments).
func call(t testing.TB, cs *mcp.ClientSession, tool string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	require.NoError(t, err)
	return res
}

// text returns the text items of res, joined.
func text(res *mcp.CallToolResult) string {
	var s string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			s += t.Text
		}
	}
	return s
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}
