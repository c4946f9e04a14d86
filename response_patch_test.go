package hooks_test

import (
	"context"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An AfterModelResponse hook rewrites the reply's tool calls: the
// arguments the host runs, and what the hooks after it see, are the
// rewritten ones; the hook's own slice is not kept.
func TestModelResponsePatchToolCalls(t *testing.T) {
	var seen []hooks.ToolCall
	mine := []hooks.ToolCall{{ID: "c1", Name: "mail", Arguments: map[string]any{"to": "[EMAIL]"}}}
	redactCalls := hooks.Funcs{HookName: "redact", // listed first: runs last, sees the final reply
		AfterModelResponse: func(c *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
			return &hooks.ModelResponsePatch{ToolCalls: mine}, nil
		}}
	watch := hooks.Funcs{HookName: "watch",
		AfterModelResponse: func(c *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
			seen = resp.ToolCalls
			return nil, nil
		}}
	var events []hooks.TraceEvent
	chain, err := hooks.NewChain([]hooks.Hook{watch, redactCalls}, hooks.WithTrace(func(e hooks.TraceEvent) { events = append(events, e) }))
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{})
	require.NoError(t, err)
	model := func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
		return hooks.ModelResponse{ToolCalls: []hooks.ToolCall{{ID: "c1", Name: "mail", Arguments: map[string]any{"to": "a@b.example"}}}}, nil
	}
	reply, err := run.CallModel(context.Background(), hooks.ModelRequest{}, model)
	require.NoError(t, err)
	require.Len(t, reply.Response.ToolCalls, 1)
	assert.Equal(t, "[EMAIL]", reply.Response.ToolCalls[0].Arguments["to"])
	require.Len(t, seen, 1, "the hook after the redactor sees its calls")
	assert.Equal(t, "[EMAIL]", seen[0].Arguments["to"])
	mine[0] = hooks.ToolCall{Name: "changed-later"}
	assert.Equal(t, "mail", reply.Response.ToolCalls[0].Name, "the reply keeps a copy, not the hook's slice")
	var changed []string
	for _, e := range events {
		if e.Hook == "redact" {
			changed = e.Changed
		}
	}
	assert.Equal(t, []string{"toolCalls"}, changed)
}

// A non-empty ToolCalls that is empty drops every call: the reply is
// then final, and a Continue applies to it.
func TestModelResponsePatchDropsToolCalls(t *testing.T) {
	rec := &recorder{}
	drop := hooks.Funcs{HookName: "drop",
		AfterModelResponse: func(c *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
			return &hooks.ModelResponsePatch{ToolCalls: []hooks.ToolCall{}, Continue: ptr("go on")}, nil
		}}
	run := start(t, rec, drop)
	model := func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
		return hooks.ModelResponse{Text: "t", ToolCalls: []hooks.ToolCall{{ID: "c1", Name: "shell"}}}, nil
	}
	reply, err := run.CallModel(context.Background(), hooks.ModelRequest{}, model)
	require.NoError(t, err)
	assert.Empty(t, reply.Response.ToolCalls)
	assert.Equal(t, "go on", reply.Continue)
	assert.Empty(t, rec.diagnostics())
}
