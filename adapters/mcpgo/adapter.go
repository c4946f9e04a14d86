package mcpgo

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/rienda/hooks"
	"github.com/rienda/hooks/internal/adapt"
)

// ErrSessionEnded is the error of a tools/call that arrives for a session
// the server has already unregistered: its run has ended, and a new one
// would never be ended.
var ErrSessionEnded = errors.New("mcpgo: the MCP session has ended")

// Options configures an Adapter. The zero value works.
type Options struct {
	// Host returns the host of a session's run. ctx is the context of the
	// session's first tools/call (server.ClientSessionFromContext works on
	// it); sessionID is "" for a call made without a session. Nil: a zero
	// hooks.Host. Either way, an empty Session.ID is set to sessionID.
	Host func(ctx context.Context, sessionID string) hooks.Host
	// Diagnostics receives what the adapter did that a hook's author
	// should know: a result's structuredContent dropped because a hook
	// rewrote its text alone. Nil: slog.
	Diagnostics func(hooks.Diagnostic)
}

// Adapter runs an mcp-go server's tool calls through a hooks.Chain, with
// one run per MCP session. Make one with New, install it with
// ServerOptions (or Middleware and AddHooks both), and Close it once the
// server has stopped.
type Adapter struct {
	chain *hooks.Chain
	host  func(ctx context.Context, sessionID string) hooks.Host
	diag  func(hooks.Diagnostic)
	runs  *hooks.Runs[string]
	ended endedSessions

	mu       sync.Mutex
	failures map[string]error // session ID → the first hook failure (FailRun) of its run
	hooks    []*server.Hooks  // the server hooks AddHooks added the session hooks to
}

// New returns an Adapter that starts a session's run with chain.Start on
// the session's first tools/call.
func New(chain *hooks.Chain, opts Options) *Adapter {
	a := &Adapter{chain: chain, host: opts.Host, diag: opts.Diagnostics, failures: map[string]error{}}
	a.runs = hooks.NewRuns(a.start)
	return a
}

// start starts sessionID's run.
func (a *Adapter) start(ctx context.Context, sessionID string) (*hooks.Run, error) {
	var host hooks.Host
	if a.host != nil {
		host = a.host(ctx, sessionID)
	}
	if host.Session.ID == "" {
		host.Session.ID = sessionID
	}
	return a.chain.Start(ctx, host, hooks.RunStart{})
}

// Middleware returns the tool middleware to install with
// server.WithToolHandlerMiddleware (or MCPServer.Use). It runs every
// tools/call through its session's run (hooks.Run.CallTool); the handler
// receives the call's own context, which carries the run
// (hooks.RunFromContext).
func (a *Adapter) Middleware() server.ToolHandlerMiddleware {
	return func(next server.ToolHandlerFunc) server.ToolHandlerFunc {
		return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			run, done, err := a.runOf(ctx)
			if err != nil {
				return nil, err
			}
			res, err := a.callTool(ctx, run, req, next)
			done(ctx, err)
			return res, err
		}
	}
}

// runOf returns the run of ctx's session, and what to do once the call
// returned its error. A call without a session gets a run of its own,
// ended with the call.
func (a *Adapter) runOf(ctx context.Context) (*hooks.Run, func(context.Context, error), error) {
	session := server.ClientSessionFromContext(ctx)
	if session == nil {
		run, err := a.start(ctx, "")
		if err != nil {
			return nil, nil, err
		}
		return run, func(ctx context.Context, err error) {
			run.End(ctx, hooks.RunEnd{Err: hookFailure(err)})
		}, nil
	}
	if !a.installedOn(ctx) {
		return nil, nil, ErrNotInstalled
	}
	id := session.SessionID()
	if a.ended.has(id) {
		return nil, nil, ErrSessionEnded
	}
	run, err := a.runs.Get(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	if a.ended.has(id) { // unregistered while its run started: end that run too
		a.endSession(ctx, id)
		return nil, nil, ErrSessionEnded
	}
	return run, func(_ context.Context, err error) { a.recordFailure(id, err) }, nil
}

// diagnose reports d to Options.Diagnostics, or slog.
func (a *Adapter) diagnose(d hooks.Diagnostic) {
	if a.diag != nil {
		a.diag(d)
		return
	}
	slog.Warn("hooks diagnostic", "point", d.Point, "err", d.Err)
}

// hookFailure returns err if a hook failed the run with it (FailRun), else nil.
func hookFailure(err error) error {
	if errors.Is(err, hooks.ErrHookFailed) {
		return err
	}
	return nil
}

// recordFailure keeps the first hook failure of a session's run, for its
// RunEnd.
func (a *Adapter) recordFailure(sessionID string, err error) {
	if err = hookFailure(err); err == nil {
		return
	}
	a.mu.Lock()
	if _, ok := a.failures[sessionID]; !ok {
		a.failures[sessionID] = err
	}
	a.mu.Unlock()
}

// AddHooks adds to h what the adapter needs to know of sessions: their
// unregistration ends their run. Pass h to server.WithHooks; ServerOptions
// does both steps in one. A session's tools/call on a server whose hooks
// are not h fails with ErrNotInstalled.
func (a *Adapter) AddHooks(h *server.Hooks) {
	a.mu.Lock()
	if !slices.Contains(a.hooks, h) {
		a.hooks = append(a.hooks, h)
	}
	a.mu.Unlock()
	h.AddOnRegisterSession(func(_ context.Context, session server.ClientSession) {
		a.ended.forget(session.SessionID()) // a transport may register an ID again (stdio)
	})
	h.AddOnUnregisterSession(func(ctx context.Context, session server.ClientSession) {
		a.ended.add(session.SessionID())
		a.endSession(ctx, session.SessionID())
	})
}

// endSession ends sessionID's run, if it has one: outcome completed, or
// failed with the first hook failure of the run.
func (a *Adapter) endSession(ctx context.Context, sessionID string) {
	a.mu.Lock()
	failure := a.failures[sessionID]
	delete(a.failures, sessionID)
	a.mu.Unlock()
	a.runs.End(ctx, sessionID, hooks.RunEnd{Err: failure, Reason: "MCP session ended"})
}

// Close ends the runs of the sessions still open, with outcome
// interrupted: call it once the server has stopped (servers do not
// unregister every session on shutdown). Tool calls after Close fail with
// hooks.ErrRunsClosed.
func (a *Adapter) Close(ctx context.Context) {
	a.runs.Close(ctx, hooks.RunEnd{Outcome: hooks.Interrupted, Reason: "MCP server closed"})
	a.mu.Lock()
	clear(a.failures)
	a.mu.Unlock()
}

// callTool runs req through run, calling next unless a hook refused or
// answered the call. Arguments hooks.ParseArguments refuses never reach
// next, and next reads exactly the arguments the hooks saw and left
// (adapt.Arguments.ForTool decides).
func (a *Adapter) callTool(ctx context.Context, run *hooks.Run, req mcp.CallToolRequest, next server.ToolHandlerFunc) (*mcp.CallToolResult, error) {
	raw, err := rawArguments(req)
	if err != nil {
		return nil, err
	}
	args := adapt.ParseArguments(raw)
	var (
		out    *mcp.CallToolResult
		before adapt.Output
	)
	res, err := run.CallTool(ctx, hooks.ToolCall{Name: req.Params.Name, Arguments: args.Map()},
		func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
			sent, refusal, err := args.ForTool(c, call)
			if err != nil {
				return hooks.ToolResult{}, fmt.Errorf("mcpgo: %w", err)
			}
			if refusal != nil {
				return *refusal, nil
			}
			if !bytes.Equal(sent, raw) {
				setArguments(&req, call.Arguments, sent)
			}
			if out, err = next(hooks.ContextWithRun(ctx, run), req); err != nil {
				return hooks.ToolResult{}, err
			}
			if out == nil {
				return hooks.ToolResult{}, fmt.Errorf("mcpgo: tool %q returned no result", req.Params.Name)
			}
			before, err = newToolOutput(req.Params.Name, out)
			return before.Result(), err
		})
	if err != nil {
		return nil, err
	}
	return a.result(before, req.Params.Name, out, res)
}

// rawArguments returns the call's arguments as the client sent them.
func rawArguments(req mcp.CallToolRequest) ([]byte, error) {
	if len(req.Params.RawArguments) > 0 {
		return req.Params.RawArguments, nil
	}
	raw, err := json.Marshal(req.Params.Arguments) // a request built in Go
	if err != nil {
		return nil, fmt.Errorf("mcpgo: arguments of tool %q do not encode as JSON: %w", req.Params.Name, err)
	}
	return raw, nil
}

// setArguments gives req the arguments the tool must read, both decoded
// and raw, so that GetArguments and BindArguments both see them.
func setArguments(req *mcp.CallToolRequest, args map[string]any, raw json.RawMessage) {
	if args == nil {
		args = map[string]any{}
	}
	req.Params.Arguments, req.Params.RawArguments = args, raw
}
