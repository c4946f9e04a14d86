package mcpsdk

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rienda/hooks"
	"github.com/rienda/hooks/internal/adapt"
)

// methodCallTool is the MCP method the middleware runs through the hooks.
const methodCallTool = "tools/call"

// Options configures an Adapter. The zero value works.
type Options struct {
	// Host returns the host of a session's run. ctx is the context of the
	// session's first tools/call. Nil: a zero hooks.Host. Either way, an
	// empty Session.ID is set to session.ID() (which is "" on transports
	// without session IDs: stdio, in-memory).
	Host func(ctx context.Context, session *mcp.ServerSession) hooks.Host
	// Diagnostics receives what the adapter did that a hook's author
	// should know: a result's structuredContent dropped because a hook
	// rewrote its text alone. Nil: slog.
	Diagnostics func(hooks.Diagnostic)
}

// Adapter runs an official-SDK MCP server's tool calls through a
// hooks.Chain, with one run per session. Make one with New, install
// Middleware with Server.AddReceivingMiddleware, and Close it once the
// server has stopped.
type Adapter struct {
	chain *hooks.Chain
	host  func(ctx context.Context, session *mcp.ServerSession) hooks.Host
	diag  func(hooks.Diagnostic)
	runs  *hooks.Runs[*mcp.ServerSession]

	mu       sync.Mutex
	failures map[*mcp.ServerSession]error // the first hook failure (FailRun) of a session's run
}

// New returns an Adapter that starts a session's run with chain.Start on
// the session's first tools/call.
func New(chain *hooks.Chain, opts Options) *Adapter {
	a := &Adapter{chain: chain, host: opts.Host, diag: opts.Diagnostics, failures: map[*mcp.ServerSession]error{}}
	a.runs = hooks.NewRuns(a.start)
	return a
}

// start starts session's run, and a goroutine that ends it when the
// session ends (ServerSession.Wait returns; the SDK then runs no more of
// its handlers).
func (a *Adapter) start(ctx context.Context, session *mcp.ServerSession) (*hooks.Run, error) {
	run, err := a.startRun(ctx, session)
	if err != nil || session == nil {
		return run, err
	}
	go func() {
		_ = session.Wait() // how the connection ended does not change the run's outcome
		a.endSession(context.WithoutCancel(ctx), session)
	}()
	return run, nil
}

func (a *Adapter) startRun(ctx context.Context, session *mcp.ServerSession) (*hooks.Run, error) {
	var host hooks.Host
	if a.host != nil {
		host = a.host(ctx, session)
	}
	if host.Session.ID == "" && session != nil {
		host.Session.ID = session.ID()
	}
	return a.chain.Start(ctx, host, hooks.RunStart{})
}

// Middleware returns the receiving middleware to install with
// Server.AddReceivingMiddleware. It runs every tools/call through its
// session's run (hooks.Run.CallTool) and passes every other method on;
// the tool handler receives the call's own context, which carries the run
// (hooks.RunFromContext).
func (a *Adapter) Middleware() mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			creq, ok := req.(*mcp.CallToolRequest)
			if method != methodCallTool || !ok || creq.Params == nil {
				return next(ctx, method, req)
			}
			run, done, err := a.runOf(ctx, creq.Session)
			if err != nil {
				return nil, err
			}
			res, err := a.callTool(ctx, run, creq, func(ctx context.Context, req *mcp.CallToolRequest) (mcp.Result, error) {
				return next(ctx, method, req)
			})
			done(ctx, err)
			if err != nil { // not a nil *CallToolResult in a non-nil Result
				return nil, err
			}
			return res, nil
		}
	}
}

// runOf returns session's run, and what to do once the call returned its
// error. A request without a session gets a run of its own, ended with
// the call.
func (a *Adapter) runOf(ctx context.Context, session *mcp.ServerSession) (*hooks.Run, func(context.Context, error), error) {
	if session == nil {
		run, err := a.startRun(ctx, nil)
		if err != nil {
			return nil, nil, err
		}
		return run, func(ctx context.Context, err error) {
			run.End(ctx, hooks.RunEnd{Err: hookFailure(err)})
		}, nil
	}
	run, err := a.runs.Get(ctx, session)
	if err != nil {
		return nil, nil, err
	}
	return run, func(_ context.Context, err error) { a.recordFailure(session, err) }, nil
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
func (a *Adapter) recordFailure(session *mcp.ServerSession, err error) {
	if err = hookFailure(err); err == nil {
		return
	}
	a.mu.Lock()
	if _, ok := a.failures[session]; !ok {
		a.failures[session] = err
	}
	a.mu.Unlock()
}

// endSession ends session's run, if it has one: outcome completed, or
// failed with the first hook failure of the run.
func (a *Adapter) endSession(ctx context.Context, session *mcp.ServerSession) {
	a.mu.Lock()
	failure := a.failures[session]
	delete(a.failures, session)
	a.mu.Unlock()
	a.runs.End(ctx, session, hooks.RunEnd{Err: failure, Reason: "MCP session ended"})
}

// Close ends the runs of the sessions still open, with outcome
// interrupted, for a server stopped without closing its sessions. Tool
// calls after Close fail with hooks.ErrRunsClosed. The goroutine waiting
// for each such session's end still returns only when the session ends.
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
func (a *Adapter) callTool(ctx context.Context, run *hooks.Run, req *mcp.CallToolRequest,
	next func(context.Context, *mcp.CallToolRequest) (mcp.Result, error)) (*mcp.CallToolResult, error) {
	tool := req.Params.Name
	args := adapt.ParseArguments(req.Params.Arguments)
	var (
		out    *mcp.CallToolResult
		before adapt.Output
	)
	res, err := run.CallTool(ctx, hooks.ToolCall{Name: tool, Arguments: args.Map()},
		func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
			sent, refusal, err := args.ForTool(c, call)
			if err != nil {
				return hooks.ToolResult{}, fmt.Errorf("mcpsdk: %w", err)
			}
			if refusal != nil {
				return *refusal, nil
			}
			result, err := next(hooks.ContextWithRun(ctx, run), withArguments(req, sent))
			if err != nil {
				return hooks.ToolResult{}, err
			}
			if out, _ = result.(*mcp.CallToolResult); out == nil {
				return hooks.ToolResult{}, fmt.Errorf("mcpsdk: tool %q returned %T, not a *mcp.CallToolResult", tool, result)
			}
			before, err = newToolOutput(tool, out)
			return before.Result(), err
		})
	if err != nil {
		return nil, err
	}
	return a.result(before, tool, out, res)
}

// withArguments returns req when the tool reads its arguments as sent,
// else a copy carrying args; req itself stays as the client sent it.
func withArguments(req *mcp.CallToolRequest, args json.RawMessage) *mcp.CallToolRequest {
	if bytes.Equal(args, req.Params.Arguments) {
		return req
	}
	params := *req.Params
	params.Arguments = args
	rewritten := *req
	rewritten.Params = &params
	return &rewritten
}
