package hooks_test

import (
	"context"
	"testing"
	"time"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBlockReturnRefusesTheCall: {block: reason} refuses the call with the
// reason as the tool's error result, and the tool does not run.
func TestBlockReturnRefusesTheCall(t *testing.T) {
	var rec recorder
	run := start(t, &rec, js(t, "no-force-push", `
		const FORCE_PUSH = /git\s+push\s+.*--force/;
		exports.beforeToolExecute = (ctx, call) =>
			call.name === "bash" && FORCE_PUSH.test(call.arguments.command || "")
				? { block: "Force-pushing is turned off here." }
				: undefined;`))
	res, err := run.CallTool(bg, hooks.ToolCall{Name: "bash", Arguments: map[string]any{"command": "git push --force"}}, echoTool(&rec))
	require.NoError(t, err)
	assert.Equal(t, hooks.ToolResult{Text: "Force-pushing is turned off here.", IsError: true}, res)
	assert.Empty(t, rec.got(), "the tool did not run")
	assert.Empty(t, rec.diagnostics())
}

// TestUnknownReturnedFieldsAreDiagnostics: a field the point's shape does
// not have is named, with the valid ones, and names match exactly.
func TestUnknownReturnedFieldsAreDiagnostics(t *testing.T) {
	var rec recorder
	run := start(t, &rec, js(t, "typo", `
		exports.beforeToolExecute = () => ({ Allow: false, resaon: "no" });`))
	res, err := run.CallTool(bg, hooks.ToolCall{Name: "shell", Arguments: map[string]any{"text": "ran"}}, echoTool(&rec))
	require.NoError(t, err)
	assert.Equal(t, "ran", res.Text, "Allow is not allow: the call goes on")
	msgs := diagTexts(rec.diagnostics())
	require.Len(t, msgs, 2)
	assert.Equal(t, "beforeToolExecute", string(rec.diagnostics()[0].Point))
	assert.Equal(t, "typo", rec.diagnostics()[0].Hook)
	assert.Contains(t, msgs[0], `returned an unknown field "Allow" (did you mean "allow"? names match exactly): ignored; the fields are allow, reason, block, arguments, result, state`)
	assert.Contains(t, msgs[1], `unknown field "resaon"`)
}

// TestJSDatesReadTheHostsClock: Date.now() and new Date() in a hook read
// Host.System.Clock, so that a date-injecting hook can be pinned in a test.
func TestJSDatesReadTheHostsClock(t *testing.T) {
	var rec recorder
	at := time.Date(2026, 2, 3, 4, 5, 6, 0, time.UTC)
	host := hooks.Host{System: hooks.System{Clock: func() time.Time { return at }}}
	run := startWith(t, &rec, host, js(t, "date", `
		exports.beforeModelRequest = (ctx, request) => {
			const today = new Date().toISOString().slice(0, 10);
			return { system: request.system + " Today is " + today + ". " + Date.now() };
		};`))
	step, err := run.BeforeModelRequest(bg, hooks.ModelRequest{System: "Be brief."})
	require.NoError(t, err)
	assert.Equal(t, "Be brief. Today is 2026-02-03. 1770091506000", step.Request.System)
}

// TestAThrowingJSHandlerIsANoticeToo: seed 000 reports a throwing handler
// as a notice, besides the diagnostic, while the run goes on.
func TestAThrowingJSHandlerIsANoticeToo(t *testing.T) {
	var rec recorder
	var notices []hooks.Notice
	host := hooks.Host{Notify: func(hook string, n hooks.Notice) { notices = append(notices, n) }}
	run := startWith(t, &rec, host, js(t, "thrower", `exports.afterToolExecute = () => { throw new Error("disk full") }`))
	res, err := run.CallTool(context.Background(), hooks.ToolCall{Name: "x", Arguments: map[string]any{"text": "ok"}}, echoTool(&rec))
	require.NoError(t, err)
	assert.Equal(t, "ok", res.Text)
	require.Len(t, notices, 1)
	assert.Equal(t, hooks.Notice{Title: "hook thrower failed at afterToolExecute", Body: "Error: disk full"}, notices[0])
	require.Len(t, rec.diagnostics(), 1)
}

// TestEndTrueBesideOutputEndsTheRun: {end: true, output} ends the run, like
// {end: {output}}.
func TestEndTrueBesideOutputEndsTheRun(t *testing.T) {
	var rec recorder
	run := start(t, &rec, js(t, "budget", `
		exports.beforeModelRequest = (ctx) => ({ end: true, output: "Stopped after 10 model calls." });`))
	step, err := run.BeforeModelRequest(bg, hooks.ModelRequest{})
	require.NoError(t, err)
	require.NotNil(t, step.End)
	assert.Equal(t, "Stopped after 10 model calls.", step.End.Output)
	assert.Empty(t, rec.diagnostics())
}

// TestJSErrorsShowNoGoStructs: goja's message for an object without a
// primitive value printed the Go struct behind it.
func TestJSErrorsShowNoGoStructs(t *testing.T) {
	var rec recorder
	run := start(t, &rec, js(t, "prim", `exports.beforeToolExecute = () => { "" + Object.create(null) }`))
	_, err := run.BeforeToolExecute(bg, hooks.ToolCall{Name: "x"})
	require.NoError(t, err)
	msgs := diagTexts(rec.diagnostics())
	require.Len(t, msgs, 1)
	assert.Contains(t, msgs[0], "TypeError: Cannot convert object to primitive value")
	assert.NotContains(t, msgs[0], "0xc")
}
