package hooks_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rienda/hooks"
)

// TestJSReadsModelAndTools: request.model is the model's name and
// request.tools the tools offered, each {name, description, schema} with
// the schema parsed, read-only like messages.
func TestJSReadsModelAndTools(t *testing.T) {
	var rec recorder
	run := start(t, &rec, js(t, "tools", `
		exports.beforeModelRequest = (ctx, req) => {
			const t = req.tools;
			const out = [req.model, t.length, t[0].name, t[0].description, t[0].schema.properties.command.type,
				t[1].schema === null, Object.isFrozen(t[0].schema.properties), Array.isArray(t)];
			t[0].name = "changed"; t.length = 0;
			out.push(t.length, t[0].name);
			return { system: out.join(" ") };
		};`))
	req := hooks.ModelRequest{Model: "claude-x", Tools: []hooks.ToolSpec{
		{Name: "shell", Description: "runs a command", Schema: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}}}`)},
		{Name: "clock"},
	}}
	step, err := run.BeforeModelRequest(bg, req)
	require.NoError(t, err)
	assert.Empty(t, rec.diagnostics())
	assert.Equal(t, "claude-x 2 shell runs a command string true true true 2 shell", step.Request.System)
	assert.Equal(t, req.Tools, step.Request.Tools, "the hook cannot change the tools it reads")
}

// TestJSReturnsModelAndTools: beforeModelRequest may return model and
// tools, which replace the ones sent; a tool without a name is the hook's
// error, naming where.
func TestJSReturnsModelAndTools(t *testing.T) {
	var rec recorder
	run := start(t, &rec, js(t, "pick", `
		exports.beforeModelRequest = (ctx, req) => ({
			model: "small-model",
			tools: req.tools.filter((t) => t.name !== "shell").concat([{ name: "echo", schema: { type: "object" } }]),
		});`))
	req := hooks.ModelRequest{Model: "big-model", Tools: []hooks.ToolSpec{{Name: "shell"}, {Name: "clock", Description: "the time"}}}
	step, err := run.BeforeModelRequest(bg, req)
	require.NoError(t, err)
	assert.Empty(t, rec.diagnostics())
	assert.Equal(t, "small-model", step.Request.Model)
	assert.Equal(t, []hooks.ToolSpec{{Name: "clock", Description: "the time"}, {Name: "echo", Schema: json.RawMessage(`{"type":"object"}`)}}, step.Request.Tools)

	var rec2 recorder
	run = start(t, &rec2, js(t, "bad", `exports.beforeModelRequest = () => ({ tools: [{ description: "no name" }] });`))
	step, err = run.BeforeModelRequest(bg, req)
	require.NoError(t, err)
	assert.Equal(t, req.Tools, step.Request.Tools, "a broken return changes nothing")
	require.Len(t, rec2.diagnostics(), 1)
	assert.ErrorContains(t, rec2.diagnostics()[0].Err, "tools[0]: no name")
}

// TestJSReadsUsageAndStopReason: response.usage and response.stopReason
// are what the provider reported; usage is frozen.
func TestJSReadsUsageAndStopReason(t *testing.T) {
	var rec recorder
	run := start(t, &rec, js(t, "usage", `
		exports.afterModelResponse = (ctx, resp) => {
			const u = resp.usage;
			u.inputTokens = 0;
			return { text: [u.inputTokens, u.outputTokens, u.cachedInputTokens, resp.stopReason, Object.isFrozen(u)].join(" ") };
		};`))
	step, err := run.BeforeModelRequest(bg, hooks.ModelRequest{})
	require.NoError(t, err)
	reply, err := run.AfterModelResponse(bg, step, hooks.ModelResponse{Text: "hi",
		Usage: hooks.Usage{InputTokens: 1200, OutputTokens: 30, CachedInputTokens: 1000}, StopReason: hooks.StopMaxTokens})
	require.NoError(t, err)
	assert.Empty(t, rec.diagnostics())
	assert.Equal(t, "1200 30 1000 max_tokens true", reply.Response.Text)
}
