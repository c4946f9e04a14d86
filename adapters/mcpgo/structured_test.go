package mcpgo_test

import (
	"context"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/server"
	"github.com/rienda/hooks"
	"github.com/rienda/hooks/adapters/mcpgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// textRedactor rewrites the result's Text only: the mistake a hook's
// author makes when the tool also returns structured content.
func textRedactor() hooks.Funcs {
	return hooks.Funcs{HookName: "redact-text",
		AfterToolExecute: func(_ *hooks.Context, _ hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
			t := strings.ReplaceAll(res.Text, "s3cr3t", "[redacted]")
			return &hooks.ToolResultPatch{Text: &t}, nil
		}}
}

func TestTextOnlyRedactionLeavesNoSecretInStructuredContent(t *testing.T) {
	var diags []hooks.Diagnostic
	chain, err := hooks.NewChain([]hooks.Hook{textRedactor()})
	require.NoError(t, err)
	a := mcpgo.New(chain, mcpgo.Options{Diagnostics: func(d hooks.Diagnostic) { diags = append(diags, d) }})
	defer a.Close(context.Background())
	srv := server.NewMCPServer("test", "1.0.0", a.ServerOptions()...)
	(&tools{}).add(srv)
	c := connect(t, srv)
	defer c.Close()

	prose := call(t, c, "secret", nil)         // text is prose: the structured content cannot follow it
	mirrored := call(t, c, "secret_json", nil) // text is the structured content's JSON: it follows

	assert.NotContains(t, wire(t, prose), "s3cr3t")
	assert.Equal(t, "token [redacted] for ann", text(prose))
	assert.Nil(t, prose.StructuredContent, "dropped")
	require.Len(t, diags, 1, "the drop is reported")
	assert.Equal(t, hooks.AfterToolExecute, diags[0].Point)
	assert.Contains(t, diags[0].Err.Error(), `"secret"`)
	assert.Contains(t, diags[0].Err.Error(), "structuredContent")

	assert.NotContains(t, wire(t, mirrored), "s3cr3t")
	assert.JSONEq(t, `{"user":"ann","token":"[redacted]"}`, string(mustJSON(t, mirrored.StructuredContent)), "mirrored from the rewritten JSON text")
}
