package mcpgo

import (
	"context"
	"errors"
	"slices"

	"github.com/mark3labs/mcp-go/server"
)

// ErrNotInstalled is the error of a tools/call on a server whose session
// hooks are not the adapter's: its sessions' runs would never end (no
// AfterRun, runs piling up). Install with ServerOptions, or pass the hooks
// given to AddHooks to server.WithHooks.
var ErrNotInstalled = errors.New("mcpgo: the adapter's session hooks are not installed on this server " +
	"(install it with server.NewMCPServer(..., adapter.ServerOptions()...), " +
	"or pass the *server.Hooks given to AddHooks to server.WithHooks)")

// ServerOptions returns the server options that install the adapter in
// one step: its tool middleware, and its session hooks added to the
// server's own (server.Hooks are made when the server has none yet):
//
//	a := mcpgo.New(chain, mcpgo.Options{})
//	srv := server.NewMCPServer("name", "1.0.0", a.ServerOptions()...)
//	defer a.Close(ctx)
//
// Put them after any server.WithHooks of yours: WithHooks replaces the
// server's hooks, and a tools/call on a server without the adapter's
// fails with ErrNotInstalled rather than start a run nothing would end.
func (a *Adapter) ServerOptions() []server.ServerOption {
	return []server.ServerOption{
		server.WithToolHandlerMiddleware(a.Middleware()),
		func(s *server.MCPServer) {
			h := s.GetHooks()
			if h == nil {
				h = &server.Hooks{}
				server.WithHooks(h)(s)
			}
			a.AddHooks(h)
		},
	}
}

// installedOn reports whether the server handling ctx's call runs the
// adapter's session hooks. A call without a server in its context (a
// handler called directly) is not checked.
func (a *Adapter) installedOn(ctx context.Context) bool {
	srv := server.ServerFromContext(ctx)
	if srv == nil {
		return true
	}
	h := srv.GetHooks()
	a.mu.Lock()
	defer a.mu.Unlock()
	return h != nil && slices.Contains(a.hooks, h)
}
