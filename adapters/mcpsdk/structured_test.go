package mcpsdk_test

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rienda/hooks"
	"github.com/rienda/hooks/adapters/mcpsdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTextOnlyRedactionLeavesNoSecretInStructuredContent(t *testing.T) {
	redact := hooks.Funcs{HookName: "redact-text",
		AfterToolExecute: func(_ *hooks.Context, _ hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
			t := strings.ReplaceAll(res.Text, "s3cr3t", "[redacted]")
			return &hooks.ToolResultPatch{Text: &t}, nil
		}}
	var diags []hooks.Diagnostic
	chain, err := hooks.NewChain([]hooks.Hook{redact})
	require.NoError(t, err)
	a := mcpsdk.New(chain, mcpsdk.Options{Diagnostics: func(d hooks.Diagnostic) { diags = append(diags, d) }})
	defer a.Close(context.Background())
	srv := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1.0.0"}, nil)
	srv.AddReceivingMiddleware(a.Middleware())
	(&tools{}).add(srv)
	cs, _ := connect(t, srv)
	defer cs.Close()

	prose := call(t, cs, "secret", struct{}{})         // text is prose: the structured content cannot follow it
	mirrored := call(t, cs, "secret_json", struct{}{}) // text is the structured content's JSON: it follows

	assert.NotContains(t, mustJSON(t, prose), "s3cr3t")
	assert.Equal(t, "token [redacted] for ann", text(prose))
	assert.Nil(t, prose.StructuredContent, "dropped")
	require.Len(t, diags, 1, "the drop is reported")
	assert.Equal(t, hooks.AfterToolExecute, diags[0].Point)
	assert.Contains(t, diags[0].Err.Error(), `"secret"`)

	assert.NotContains(t, mustJSON(t, mirrored), "s3cr3t")
	assert.JSONEq(t, `{"user":"ann","token":"[redacted]"}`, mustJSON(t, mirrored.StructuredContent), "mirrored from the rewritten JSON text")
}
