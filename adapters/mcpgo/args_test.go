package mcpgo_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/rienda/hooks"
	"github.com/rienda/hooks/internal/adapttest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// shell is a tool that records the command it would run, read as a
// handler reads it (BindArguments: encoding/json, any case).
type shell struct {
	mu   sync.Mutex
	runs []string
}

func (s *shell) add(srv *server.MCPServer) {
	srv.AddTool(mcp.NewTool("shell", mcp.WithString("command")),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var in struct{ Command string }
			if err := req.BindArguments(&in); err != nil {
				return mcp.NewToolResultError(err.Error()), nil
			}
			s.mu.Lock()
			s.runs = append(s.runs, in.Command)
			s.mu.Unlock()
			return mcp.NewToolResultText("ran " + in.Command), nil
		})
}

func TestRefusedArgumentsNeverReachTheTool(t *testing.T) {
	for _, tc := range adapttest.RefusedArguments {
		t.Run(tc.Name, func(t *testing.T) {
			srv, _, _ := newServer(t, adapttest.NaiveGuard())
			sh := &shell{}
			sh.add(srv)
			c := connect(t, srv)
			defer c.Close()

			res := call(t, c, "shell", json.RawMessage(tc.JSON))

			assert.Empty(t, sh.runs, "the tool ran with arguments the guard never saw")
			assert.True(t, res.IsError)
			assert.Contains(t, text(res), tc.Key, "the model reads which key was refused")
			assert.Contains(t, text(res), `"shell"`)
		})
	}
}

func TestToolReadsWhatTheGuardSaw(t *testing.T) {
	var seen []map[string]any
	spy := hooks.Funcs{HookName: "spy",
		BeforeToolExecute: func(_ *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			seen = append(seen, call.Arguments)
			return nil, nil
		}}
	srv, _, _ := newServer(t, adapttest.NaiveGuard(), spy)
	sh := &shell{}
	sh.add(srv)
	c := connect(t, srv)
	defer c.Close()

	refused := call(t, c, "shell", json.RawMessage(`{"command":"rm -rf /"}`))
	allowed := call(t, c, "shell", json.RawMessage(`{"command":"ls"}`))

	assert.True(t, refused.IsError)
	assert.Equal(t, "rm is not allowed", text(refused), "the guard's refusal stands")
	require.False(t, allowed.IsError, text(allowed))
	assert.Equal(t, []string{"ls"}, sh.runs)
	require.Len(t, seen, 1)
	assert.Equal(t, map[string]any{"command": "ls"}, seen[0])
}

func TestRefusedArgumentsReplacedByAHookReachTheTool(t *testing.T) {
	fix := hooks.Funcs{HookName: "fix",
		BeforeToolExecute: func(*hooks.Context, hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			return &hooks.ToolCallPatch{Arguments: map[string]any{"command": "pwd"}}, nil
		}}
	srv, _, _ := newServer(t, fix)
	sh := &shell{}
	sh.add(srv)
	c := connect(t, srv)
	defer c.Close()

	res := call(t, c, "shell", json.RawMessage(adapttest.RefusedArguments[0].JSON))

	require.False(t, res.IsError, text(res))
	assert.Equal(t, []string{"pwd"}, sh.runs, "the hook's own arguments replace the refused text")
}
