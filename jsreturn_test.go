package hooks_test

import (
	"context"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

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

// TestAJSRefusalRefusesWhateverComesWithIt: a refusal beside a field of
// the wrong type, or beside a value that cannot be read, refuses the call;
// the bad field is a diagnostic. What evidently means a refusal but is not
// well formed (an allow that is not a boolean, a block that is not a
// string) refuses too.
func TestAJSRefusalRefusesWhateverComesWithIt(t *testing.T) {
	for ret, want := range map[string]struct{ reason, diag string }{
		`{allow: false, reason: 404}`:                     {"refused by hook", "returned reason: 404; want a string"},
		`{block: "x", reason: 5}`:                         {"x", ""},
		`{block: 5}`:                                      {"refused by hook", "returned block: 5; want a string: read as a refusal"},
		`{block: true}`:                                   {"refused by hook", ""},
		`{allow: false, arguments: "x"}`:                  {"refused by hook", `returned arguments: "x"; want an object`},
		`{allow: false, reason: "no", result: 7}`:         {"no", "returned result: 7; want an object"},
		`{allow: false, reason: "no", result: {text: 1}}`: {"no", "returned result.text: 1; want a string"},
		`{allow: "false", reason: "no"}`:                  {"no", `returned allow: "false"; want true or false: read as a refusal`},
		`{allow: 0}`:                                      {"refused by hook", "returned allow: 0; want true or false: read as a refusal"},
		`{allow: false, reason: "no", arguments: {n: {get v() { throw new RangeError("deep"); }}}}`:                      {"no", "deep"},
		`(() => { const a = {}; a.self = a; return {allow: false, reason: "no", arguments: a}; })()`:                     {"no", "cycle"},
		`({allow: false, reason: "no", get arguments() { throw new Error("boom"); }})`:                                   {"no", "boom"},
		`({allow: false, get reason() { throw new Error("boom"); }})`:                                                    {"refused by hook", "boom"},
		`({get block() { return "x"; }, result: {get text() { throw new Error("bad"); }}})`:                              {"x", "bad"},
		`Promise.resolve((() => { const a = {}; a.self = a; return {allow: false, reason: "async", arguments: a}; })())`: {"async", "cycle"},
		`new Proxy({allow: false, reason: "proxied"}, {ownKeys() { throw new Error("keys"); }})`:                         {"proxied", "keys"},
	} {
		t.Run(ret, func(t *testing.T) {
			var rec recorder
			h, err := hooks.CompileJS("guard", "exports.beforeToolExecute = () => ("+ret+");", rec.diagnose)
			require.NoError(t, err)
			run := start(t, &rec, h)
			res, err := run.CallTool(bg, hooks.ToolCall{Name: "shell", Arguments: map[string]any{"text": "ran"}}, echoTool(&rec))
			require.NoError(t, err)
			assert.Empty(t, rec.got(), "the tool did not run")
			assert.True(t, res.IsError)
			assert.Contains(t, res.Text, want.reason)
			msgs := strings.Join(diagTexts(rec.diagnostics()), "\n")
			if want.diag == "" {
				assert.Empty(t, msgs)
			} else {
				assert.Contains(t, msgs, want.diag)
			}
		})
	}
}

// TestJSAllowWithBadFieldsStillReportsThem: beside an allow, a field of
// the wrong type is the hook's error (no opinion), as before.
func TestJSAllowWithBadFieldsStillReportsThem(t *testing.T) {
	var rec recorder
	run := start(t, &rec, js(t, "bad", `exports.beforeToolExecute = () => ({allow: true, arguments: "x"});`))
	res, err := run.CallTool(bg, hooks.ToolCall{Name: "shell", Arguments: map[string]any{"text": "ran"}}, echoTool(&rec))
	require.NoError(t, err)
	assert.Equal(t, "ran", res.Text)
	assert.Contains(t, strings.Join(diagTexts(rec.diagnostics()), "\n"), `returned arguments: "x"; want an object`)
}

// TestJSDiagnosticsQuoteReturnsReadably: a diagnostic quotes what a hook
// returned as the hook wrote it (no HTML escaping), cut to a bounded
// length on a character's boundary.
func TestJSDiagnosticsQuoteReturnsReadably(t *testing.T) {
	for ret, want := range map[string]string{
		`"garbage-<run-1> & more"`:          `returned "garbage-<run-1> & more"; want an object`,
		`"é".repeat(100000)`:                `returned "éééé`,
		`{allow: true, reason: ["<b>"]}`:    `returned reason: ["<b>"]; want a string`,
		`{allow: true, arguments: "a<b>c"}`: `returned arguments: "a<b>c"; want an object`,
	} {
		t.Run(ret, func(t *testing.T) {
			var rec recorder
			h, err := hooks.CompileJS("q", "exports.beforeToolExecute = () => ("+ret+");", rec.diagnose)
			require.NoError(t, err)
			run := start(t, &rec, h)
			_, err = run.BeforeToolExecute(bg, hooks.ToolCall{Name: "x"})
			require.NoError(t, err)
			msgs := diagTexts(rec.diagnostics())
			require.Len(t, msgs, 1)
			assert.Contains(t, msgs[0], want)
			assert.NotContains(t, msgs[0], `\u00`)
			assert.True(t, utf8.ValidString(msgs[0]))
			assert.Less(t, len(msgs[0]), 600, "bounded")
		})
	}
}
