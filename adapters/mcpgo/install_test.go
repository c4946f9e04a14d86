package mcpgo_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/rienda/hooks"
	"github.com/rienda/hooks/adapters/mcpgo"
	"github.com/rienda/hooks/internal/adapttest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func newAdapter(t *testing.T, hs ...hooks.Hook) *mcpgo.Adapter {
	t.Helper()
	chain, err := hooks.NewChain(hs)
	require.NoError(t, err)
	a := mcpgo.New(chain, mcpgo.Options{})
	t.Cleanup(func() { a.Close(context.Background()) })
	return a
}

func TestOneStepInstallEndsASessionsRunWhenItCloses(t *testing.T) {
	log := adapttest.NewRunLog()
	a := newAdapter(t, log.Hook())
	var registered atomic.Int32
	own := &server.Hooks{}
	own.AddOnRegisterSession(func(context.Context, server.ClientSession) { registered.Add(1) })
	opts := append([]server.ServerOption{server.WithHooks(own)}, a.ServerOptions()...)
	srv := server.NewMCPServer("test", "1.0.0", opts...)
	(&tools{}).add(srv)
	c := connect(t, srv)

	res := call(t, c, "count", nil)
	require.False(t, res.IsError, text(res))
	_, ended := log.Counts()
	require.Zero(t, ended)
	require.NoError(t, c.Close())

	started, ended := log.Counts()
	assert.Equal(t, 1, started)
	assert.Equal(t, 1, ended, "the session's end ran AfterRun")
	assert.Equal(t, hooks.Completed, log.Ends()[0].Outcome)
	assert.Equal(t, int32(1), registered.Load(), "the server's own hooks still run")
}

func TestHalfInstalledAdapterRefusesToStartRunsNothingWouldEnd(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts func(a *mcpgo.Adapter) []server.ServerOption
	}{
		{"middleware without AddHooks", func(a *mcpgo.Adapter) []server.ServerOption {
			return []server.ServerOption{server.WithToolHandlerMiddleware(a.Middleware())}
		}},
		{"AddHooks on hooks the server never got", func(a *mcpgo.Adapter) []server.ServerOption {
			a.AddHooks(&server.Hooks{})
			return []server.ServerOption{server.WithToolHandlerMiddleware(a.Middleware()), server.WithHooks(&server.Hooks{})}
		}},
		{"WithHooks after ServerOptions", func(a *mcpgo.Adapter) []server.ServerOption {
			return append(a.ServerOptions(), server.WithHooks(&server.Hooks{}))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			log := adapttest.NewRunLog()
			a := newAdapter(t, log.Hook())
			srv := server.NewMCPServer("test", "1.0.0", tc.opts(a)...)
			tl := &tools{}
			tl.add(srv)
			c := connect(t, srv)
			defer c.Close()

			_, err := c.CallTool(context.Background(), mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "echo"}})

			require.Error(t, err)
			assert.Contains(t, err.Error(), "ServerOptions", "the error says how to install")
			assert.Zero(t, tl.calls.Load())
			started, _ := log.Counts()
			assert.Zero(t, started, "no run that nothing would end")
		})
	}
}
