package mcpsdk_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rienda/hooks"
	"github.com/rienda/hooks/internal/adapttest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// shell records the commands its tools would run: "shell" is typed (the
// SDK decodes the input struct), "shell_raw" decodes the raw arguments
// itself (encoding/json, any case).
type shell struct {
	mu   sync.Mutex
	runs []string
}

type shellIn struct {
	Command string `json:"command"`
}

func (s *shell) ran(cmd string) {
	s.mu.Lock()
	s.runs = append(s.runs, cmd)
	s.mu.Unlock()
}

func (s *shell) add(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{Name: "shell"},
		func(_ context.Context, _ *mcp.CallToolRequest, in shellIn) (*mcp.CallToolResult, any, error) {
			s.ran(in.Command)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ran " + in.Command}}}, nil, nil
		})
	srv.AddTool(&mcp.Tool{Name: "shell_raw", InputSchema: map[string]any{"type": "object"}},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var in struct{ Command string }
			if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
				return nil, err
			}
			s.ran(in.Command)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ran " + in.Command}}}, nil
		})
}

func TestRefusedArgumentsNeverReachTheTool(t *testing.T) {
	for _, tool := range []string{"shell", "shell_raw"} {
		for _, tc := range adapttest.RefusedArguments {
			t.Run(tool+"/"+tc.Name, func(t *testing.T) {
				srv, _, _ := newServer(t, adapttest.NaiveGuard())
				sh := &shell{}
				sh.add(srv)
				cs, _ := connect(t, srv)
				defer cs.Close()

				res := call(t, cs, tool, json.RawMessage(tc.JSON))

				assert.Empty(t, sh.runs, "the tool ran with arguments the guard never saw")
				assert.True(t, res.IsError)
				assert.Contains(t, text(res), tc.Key, "the model reads which key was refused")
			})
		}
	}
}

func TestToolReadsWhatTheGuardSaw(t *testing.T) {
	srv, _, _ := newServer(t, adapttest.NaiveGuard())
	sh := &shell{}
	sh.add(srv)
	cs, _ := connect(t, srv)
	defer cs.Close()

	refused := call(t, cs, "shell_raw", json.RawMessage(`{"command":"rm -rf /"}`))
	allowed := call(t, cs, "shell_raw", json.RawMessage(`{"command":"ls"}`))

	assert.True(t, refused.IsError)
	assert.Equal(t, "rm is not allowed", text(refused), "the guard's refusal stands")
	require.False(t, allowed.IsError, text(allowed))
	assert.Equal(t, []string{"ls"}, sh.runs)
}

func TestRefusedArgumentsReplacedByAHookReachTheTool(t *testing.T) {
	fix := hooks.Funcs{HookName: "fix",
		BeforeToolExecute: func(*hooks.Context, hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			return &hooks.ToolCallPatch{Arguments: map[string]any{"command": "pwd"}}, nil
		}}
	srv, _, _ := newServer(t, fix)
	sh := &shell{}
	sh.add(srv)
	cs, _ := connect(t, srv)
	defer cs.Close()

	res := call(t, cs, "shell", json.RawMessage(adapttest.RefusedArguments[0].JSON))

	require.False(t, res.IsError, text(res))
	assert.Equal(t, []string{"pwd"}, sh.runs, "the hook's own arguments replace the refused text")
}
