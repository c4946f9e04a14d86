package hooks_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// js compiles a JS hook whose load must be clean.
func js(t *testing.T, name, source string) hooks.Hook {
	t.Helper()
	var rec recorder
	h, err := hooks.CompileJS(name, source, rec.diagnose)
	require.NoError(t, err)
	require.Empty(t, rec.diagnostics(), "load diagnostics")
	return h
}

var bg = context.Background()

func TestJSToolCallShapesAndReturns(t *testing.T) {
	var rec recorder
	run := start(t, &rec, js(t, "tools", `
		exports.beforeToolExecute = (ctx, call) => {
			if (call.name === "refuse") return { allow: false, reason: "no " + call.arguments.what };
			if (call.name === "answer") return { result: { text: "cached " + call.id, isError: false } };
			if (call.name === "rewrite") return { arguments: { ...call.arguments, text: call.arguments.text.toUpperCase(), n: 3 } };
			return undefined;
		};
		exports.afterToolExecute = (ctx, call, result) => {
			if (call.name === "keep") return null;
			return { text: "[" + call.name + "] " + result.text };
		};`))
	tool := echoTool(&rec)

	res, err := run.CallTool(bg, hooks.ToolCall{Name: "refuse", Arguments: map[string]any{"what": "way"}}, tool)
	require.NoError(t, err)
	assert.Equal(t, hooks.ToolResult{Text: "no way", IsError: true}, res)

	res, err = run.CallTool(bg, hooks.ToolCall{ID: "7", Name: "answer"}, tool)
	require.NoError(t, err)
	assert.Equal(t, "[answer] cached 7", res.Text)

	var seen hooks.ToolCall
	res, err = run.CallTool(bg, hooks.ToolCall{Name: "rewrite", Arguments: map[string]any{"text": "hi"}},
		func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
			seen = call
			return hooks.ToolResult{Text: call.Arguments["text"].(string)}, nil
		})
	require.NoError(t, err)
	assert.Equal(t, "[rewrite] HI", res.Text)
	assert.Equal(t, map[string]any{"text": "HI", "n": 3.0}, seen.Arguments, "numbers come back as JSON gives them: float64")

	res, err = run.CallTool(bg, hooks.ToolCall{Name: "keep", Arguments: map[string]any{"text": "as is"}}, tool)
	require.NoError(t, err)
	assert.Equal(t, "as is", res.Text, "undefined and null keep")
	assert.Equal(t, []string{"tool:keep"}, rec.got(), "only the kept call reached the echo tool")
	assert.Empty(t, rec.diagnostics())
}

func TestJSHookCannotChangeWhatItWasGiven(t *testing.T) {
	var rec recorder
	run := start(t, &rec, js(t, "mutate", `
		exports.beforeToolExecute = (ctx, call) => { call.arguments.text = "changed"; };
		exports.beforeModelRequest = (ctx, req) => { req.messages[0].text = "changed"; req.messages.length = 0; };`))
	args := map[string]any{"text": "original"}
	_, err := run.BeforeToolExecute(bg, hooks.ToolCall{Name: "x", Arguments: args})
	require.NoError(t, err)
	assert.Equal(t, "original", args["text"], "the Go map is not written through")

	msgs := []hooks.Message{{Role: "user", Text: "hello"}}
	step, err := run.BeforeModelRequest(bg, hooks.ModelRequest{Messages: msgs})
	require.NoError(t, err)
	assert.Equal(t, msgs, step.Request.Messages)
	assert.Empty(t, rec.diagnostics(), "writes to frozen messages do nothing in sloppy mode")
}

func TestJSModelPoints(t *testing.T) {
	var rec recorder
	run := start(t, &rec, js(t, "model", `
		exports.beforeModelRequest = (ctx, req) => {
			if (req.messages.length > 1) return { respond: { text: "from the hook", toolCalls: [] } };
			if (Object.isFrozen(req.messages) && Object.isFrozen(req.messages[0]))
				return { system: req.system + " +" + req.messages[0].role };
		};
		exports.afterModelResponse = (ctx, resp) => {
			if (resp.text === "stop") return { end: { output: "ended by js" } };
			if (resp.toolCalls.length === 0 && Object.isFrozen(resp.toolCalls)) return { text: resp.text.replace(/\d{4}/g, "####"), continue: "go on" };
			return { text: resp.toolCalls[0].name + " " + resp.toolCalls[0].arguments.q };
		};`))
	var got hooks.ModelRequest
	model := func(text string, calls ...hooks.ToolCall) hooks.ModelFunc {
		return func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
			got = req
			return hooks.ModelResponse{Text: text, ToolCalls: calls}, nil
		}
	}
	one := []hooks.Message{{Role: "user", Text: "hi"}}

	reply, err := run.CallModel(bg, hooks.ModelRequest{System: "sys", Messages: one}, model("pin 1234"))
	require.NoError(t, err)
	assert.Equal(t, "sys +user", got.System)
	assert.Equal(t, "pin ####", reply.Response.Text)
	assert.Equal(t, "go on", reply.Continue)

	reply, err = run.CallModel(bg, hooks.ModelRequest{Messages: one}, model("calls", hooks.ToolCall{Name: "search", Arguments: map[string]any{"q": "go"}}))
	require.NoError(t, err)
	assert.Equal(t, "search go", reply.Response.Text)

	reply, err = run.CallModel(bg, hooks.ModelRequest{Messages: one}, model("stop"))
	require.NoError(t, err)
	require.NotNil(t, reply.End)
	assert.Equal(t, "ended by js", reply.End.Output)

	got = hooks.ModelRequest{}
	reply, err = run.CallModel(bg, hooks.ModelRequest{Messages: append(one, one...)}, model("unused"))
	require.NoError(t, err)
	assert.Equal(t, "from the hook", reply.Response.Text)
	assert.Empty(t, got.Messages, "respond calls no model")
}

func TestJSReturnedMessagesAreIgnoredWithADiagnostic(t *testing.T) {
	var rec recorder
	run := start(t, &rec, js(t, "msgs", `exports.beforeModelRequest = () => ({ messages: [], system: "s" })`))
	step, err := run.BeforeModelRequest(bg, hooks.ModelRequest{Messages: []hooks.Message{{Role: "user", Text: "x"}}})
	require.NoError(t, err)
	assert.Equal(t, "s", step.Request.System, "the other fields still apply")
	assert.Len(t, step.Request.Messages, 1)
	require.Len(t, rec.diagnostics(), 1)
	d := rec.diagnostics()[0]
	assert.Equal(t, "msgs", d.Hook)
	assert.Equal(t, hooks.BeforeModelRequest, d.Point)
	assert.Contains(t, d.Err.Error(), "messages are read-only")
}

func TestJSRunPointsAndState(t *testing.T) {
	var rec recorder
	var notices []string
	var mu sync.Mutex
	host := hooks.Host{Notify: func(hook string, n hooks.Notice) {
		mu.Lock()
		defer mu.Unlock()
		notices = append(notices, hook+": "+n.Title+": "+n.Body)
	}}
	run := startWith(t, &rec, host, js(t, "life", `
		exports.beforeRun = (ctx, start) => ({ state: { input: start.input, resumed: start.resumed, runId: start.runId } });
		exports.beforeToolExecute = (ctx, call) => ({ result: { text: ctx.state.input + " " + ctx.state.resumed + " " + (ctx.state.runId === ctx.session.id || ctx.state.runId.length > 0) } });
		exports.afterRun = (ctx, event) => { ctx.notify({ title: event.outcome, body: event.reason + " " + event.output }); };`))
	res, err := run.CallTool(bg, hooks.ToolCall{Name: "x"}, echoTool(&rec))
	require.NoError(t, err)
	assert.Equal(t, "test false true", res.Text)
	run.End(bg, hooks.RunEnd{Output: "out"})
	assert.Equal(t, []string{"life: completed: completed out"}, notices)
	assert.Empty(t, rec.diagnostics())
}

func TestJSEveryCallStartsFresh(t *testing.T) {
	var rec recorder
	run := start(t, &rec, js(t, "fresh", `
		let calls = 0;
		exports.beforeToolExecute = () => {
			calls++;
			globalThis.seen = (globalThis.seen || 0) + 1;
			return { result: { text: calls + "/" + globalThis.seen } };
		};`))
	for range 5 {
		res, err := run.CallTool(bg, hooks.ToolCall{Name: "x"}, echoTool(&rec))
		require.NoError(t, err)
		assert.Equal(t, "1/1", res.Text, "module variables and the globals a call wrote start over")
	}
}

func TestJSAsyncIsAwaited(t *testing.T) {
	var rec recorder
	run := start(t, &rec, js(t, "async", `
		exports.beforeToolExecute = async (ctx, call) => {
			if (call.name === "never") return new Promise(() => {});
			if (call.name === "reject") throw new Error("async boom");
			const v = await Promise.resolve("later");
			return { allow: false, reason: v };
		};`))
	res, err := run.CallTool(bg, hooks.ToolCall{Name: "x"}, echoTool(&rec))
	require.NoError(t, err)
	assert.Equal(t, "later", res.Text)

	_, err = run.CallTool(bg, hooks.ToolCall{Name: "never"}, echoTool(&rec))
	require.NoError(t, err, "policy Report: the run goes on")
	_, err = run.CallTool(bg, hooks.ToolCall{Name: "reject"}, echoTool(&rec))
	require.NoError(t, err)
	msgs := diagTexts(rec.diagnostics())
	require.Len(t, msgs, 2)
	assert.Contains(t, msgs[0], "still pending")
	assert.Contains(t, msgs[1], "async boom")
	assert.Equal(t, []string{"tool:never", "tool:reject"}, rec.got(), "a failed hook has no opinion")
}

func TestJSThrowIsADiagnosticWithStack(t *testing.T) {
	var rec recorder
	h := js(t, "thrower", "exports.beforeToolExecute = (ctx, call) => {\n  return helper(call);\n};\nfunction helper(call) {\n  throw new TypeError('bad call ' + call.name);\n}")
	run := start(t, &rec, h)
	res, err := run.CallTool(bg, hooks.ToolCall{Name: "x", Arguments: map[string]any{"text": "ran"}}, echoTool(&rec))
	require.NoError(t, err)
	assert.Equal(t, "ran", res.Text, "the tool runs as if the hook returned nothing")
	require.Len(t, rec.diagnostics(), 1)
	d := rec.diagnostics()[0]
	assert.Equal(t, "thrower", d.Hook)
	assert.Equal(t, hooks.BeforeToolExecute, d.Point)
	msg := d.Err.Error()
	assert.Contains(t, msg, "TypeError: bad call x")
	assert.Contains(t, msg, "helper (thrower:5:")
	assert.Contains(t, msg, "thrower:2:")

	strict := start(t, &rec, hooks.WithPolicy(h, hooks.FailRun))
	_, err = strict.CallTool(bg, hooks.ToolCall{Name: "x"}, echoTool(&rec))
	require.ErrorIs(t, err, hooks.ErrHookFailed, "WithPolicy overrides the JS default")
}

func TestJSBadReturnsAreDiagnostics(t *testing.T) {
	var rec recorder
	run := start(t, &rec, js(t, "bad", `
		exports.beforeToolExecute = (ctx, call) => call.name === "s" ? "yes" : { allow: "no" };`))
	for _, name := range []string{"s", "t"} {
		_, err := run.CallTool(bg, hooks.ToolCall{Name: name}, echoTool(&rec))
		require.NoError(t, err)
	}
	msgs := diagTexts(rec.diagnostics())
	require.Len(t, msgs, 2)
	assert.Contains(t, msgs[0], `returned "yes"; want an object`)
	assert.Contains(t, msgs[1], `returned allow: "no"; want true or false`)
}

func TestJSCancelInterruptsARunningHook(t *testing.T) {
	var rec recorder
	entered := make(chan struct{})
	host := hooks.Host{Log: func(hook, line string) { close(entered) }}
	run := startWith(t, &rec, host, js(t, "spin", `exports.beforeToolExecute = (ctx) => { ctx.log("spinning"); for (;;) {} }`))
	ctx, cancel := context.WithCancel(bg)
	done := make(chan error)
	go func() {
		_, err := run.CallTool(ctx, hooks.ToolCall{Name: "x"}, echoTool(&rec))
		done <- err
	}()
	<-entered
	cancel()
	err := <-done
	assert.ErrorIs(t, err, context.Canceled)
	assert.Empty(t, rec.got(), "no tool runs after the interruption")
}

func TestJSInfiniteRecursionIsADiagnostic(t *testing.T) {
	var rec recorder
	run := start(t, &rec, js(t, "deep", `exports.beforeToolExecute = function f(ctx) { return f(ctx) }`))
	_, err := run.CallTool(bg, hooks.ToolCall{Name: "x"}, echoTool(&rec))
	require.NoError(t, err)
	require.Len(t, rec.diagnostics(), 1)
	assert.Contains(t, rec.diagnostics()[0].Err.Error(), "stack overflow")
}

func TestJSParallelToolCalls(t *testing.T) {
	var rec recorder
	run := start(t, &rec, js(t, "par", `
		let mine;
		exports.beforeToolExecute = (ctx, call) => {
			if (mine !== undefined) throw new Error("runtime shared");
			mine = call.id;
			return { result: { text: mine } };
		};`))
	var wg sync.WaitGroup
	results := make([]string, 32)
	for i := range results {
		wg.Go(func() {
			res, err := run.CallTool(bg, hooks.ToolCall{ID: fmt.Sprint(i), Name: "x"}, echoTool(&rec))
			assert.NoError(t, err)
			results[i] = res.Text
		})
	}
	wg.Wait()
	for i, r := range results {
		assert.Equal(t, fmt.Sprint(i), r)
	}
	assert.Empty(t, rec.diagnostics())
}

func TestJSContext(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "in.txt"), []byte("file text"), 0o644))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Reply", "yes")
		body := make([]byte, r.ContentLength)
		_, _ = r.Body.Read(body)
		_, _ = fmt.Fprintf(w, "%s %s %s %s", r.Method, r.URL.Path, r.Header.Get("Content-Type"), body)
	}))
	defer srv.Close()
	var logs []string
	var mu sync.Mutex
	host := hooks.Host{
		Workdir: dir,
		Session: hooks.Session{ID: "s1"},
		Agent:   &hooks.Agent{Name: "careful", Tools: []string{"shell"}, Hooks: []string{"ctx"}},
		Config:  map[string]any{"level": 2.0},
		Env:     map[string]string{"HOME": "/home/x"},
		System:  hooks.System{OS: "plan9", Arch: "mips", Hostname: "box", Clock: func() time.Time { return time.UnixMilli(86_400_000).UTC() }},
		Log: func(hook, line string) {
			mu.Lock()
			defer mu.Unlock()
			logs = append(logs, hook+": "+line)
		},
		Confirm: func(ctx context.Context, p hooks.Prompt) (bool, error) { return p.Title == "ok?", nil },
	}
	var rec recorder
	run := startWith(t, &rec, host, js(t, "ctx", `
		exports.beforeToolExecute = (ctx, call) => {
			const out = {};
			out.workdir = ctx.workdir === `+"`"+dir+"`"+`;
			out.session = ctx.session.id;
			out.agent = ctx.agent.name + " " + ctx.agent.tools.join(",") + " " + ctx.agent.hooks.join(",");
			out.config = ctx.config.level;
			out.env = ctx.env.HOME;
			out.system = [ctx.system.os, ctx.system.arch, ctx.system.hostname, ctx.system.now().toISOString()].join(" ");
			out.read = ctx.file.read("in.txt");
			ctx.file.write("sub/out.txt", "one");
			ctx.file.append("sub/out.txt", " two");
			out.exists = [ctx.file.exists("sub/out.txt"), ctx.file.exists("nope")];
			try { ctx.file.read("nope"); } catch (e) { out.readError = String(e).includes("nope"); }
			out.confirm = [ctx.confirm({ title: "ok?" }), ctx.confirm({ title: "no?" })];
			const g = ctx.http.get(call.arguments.url + "/g", { headers: { "Content-Type": "text/plain" } });
			out.get = [g.status, g.headers["x-reply"], g.body];
			out.post = ctx.http.post(call.arguments.url + "/p", { a: 1 }).body;
			out.request = ctx.http.request({ method: "put", url: call.arguments.url + "/r", body: "raw" }).body;
			ctx.log("object", { a: 1 }, 3);
			out.memo = [ctx.memo("k", () => 1), ctx.memo("k", () => 2)];
			return { result: { text: JSON.stringify(out) } };
		};`))
	res, err := run.CallTool(bg, hooks.ToolCall{Name: "x", Arguments: map[string]any{"url": srv.URL}}, echoTool(&rec))
	require.NoError(t, err)
	require.Empty(t, rec.diagnostics())
	assert.JSONEq(t, `{
		"workdir": true, "session": "s1", "agent": "careful shell ctx", "config": 2, "env": "/home/x",
		"system": "plan9 mips box 1970-01-02T00:00:00.000Z",
		"read": "file text", "exists": [true, false], "readError": true,
		"confirm": [true, false],
		"get": [200, "yes", "GET /g text/plain "],
		"post": "POST /p application/json {\"a\":1}",
		"request": "PUT /r  raw",
		"memo": [1, 1]
	}`, res.Text)
	data, err := os.ReadFile(filepath.Join(dir, "sub", "out.txt"))
	require.NoError(t, err)
	assert.Equal(t, "one two", string(data))
	assert.Equal(t, []string{`ctx: object {"a":1} 3`}, logs)
}

func TestJSMemoIsOncePerRunAcrossCalls(t *testing.T) {
	var rec recorder
	var asked int
	var mu sync.Mutex
	host := hooks.Host{Confirm: func(ctx context.Context, p hooks.Prompt) (bool, error) {
		mu.Lock()
		defer mu.Unlock()
		asked++
		return true, nil
	}}
	run := startWith(t, &rec, host, js(t, "approve", `
		exports.beforeToolExecute = (ctx, call) => {
			if (!ctx.memo("approved", () => ctx.confirm({ title: "run tools?" }))) return { allow: false };
		};`))
	for range 3 {
		res, err := run.CallTool(bg, hooks.ToolCall{Name: "x", Arguments: map[string]any{"text": "ok"}}, echoTool(&rec))
		require.NoError(t, err)
		assert.Equal(t, "ok", res.Text)
	}
	assert.Equal(t, 1, asked)
}

func TestSeedGuardHook(t *testing.T) {
	var rec recorder
	guard, err := testLoader(&rec).Load("guard")
	require.NoError(t, err)
	for _, approve := range []bool{false, true} {
		var notices []string
		host := hooks.Host{AutoApprove: approve, Notify: func(hook string, n hooks.Notice) { notices = append(notices, n.Body) }}
		run := startWith(t, &rec, host, guard)
		res, err := run.CallTool(bg, hooks.ToolCall{Name: "shell", Arguments: map[string]any{"command": "rm -rf /tmp/x", "text": "done"}}, echoTool(&rec))
		require.NoError(t, err)
		if approve {
			assert.Equal(t, hooks.ToolResult{Text: "done"}, res)
		} else {
			assert.Equal(t, hooks.ToolResult{Text: "refused by the user", IsError: true}, res)
		}
		run.End(bg, hooks.RunEnd{})
		assert.Equal(t, []string{"run finished: completed"}, notices)
	}
	assert.Equal(t, []string{"tool:shell"}, rec.got(), "only the approved call ran")
	assert.Empty(t, rec.diagnostics())
}

func TestAuditHookRequiresAndWritesFiles(t *testing.T) {
	var rec recorder
	audit, err := testLoader(&rec).Load("audit")
	require.NoError(t, err)
	dir := t.TempDir()
	run := startWith(t, &rec, hooks.Host{Workdir: dir, Session: hooks.Session{ID: "s9"}}, audit)
	_, err = run.CallTool(bg, hooks.ToolCall{Name: "shell"}, echoTool(&rec))
	require.NoError(t, err)
	run.End(bg, hooks.RunEnd{Err: errors.New("model down")})
	data, err := os.ReadFile(filepath.Join(dir, "audit.log"))
	require.NoError(t, err)
	assert.Equal(t, `{"run":"s9","tool":"shell","error":false}`+"\n"+`{"run":"s9","outcome":"failed"}`+"\n", string(data))
	assert.Empty(t, rec.diagnostics())
}

func TestJSLogReachesTheHostWhileTheHookRuns(t *testing.T) {
	var rec recorder
	release := make(chan struct{})
	logged := make(chan string)
	host := hooks.Host{
		Log: func(hook, line string) { logged <- hook + ": " + line },
		Confirm: func(ctx context.Context, p hooks.Prompt) (bool, error) {
			<-release
			return true, nil
		},
	}
	run := startWith(t, &rec, host, js(t, "slow", `exports.beforeToolExecute = (ctx) => { ctx.log("working…"); ctx.confirm({ title: "wait" }); }`))
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, err := run.CallTool(bg, hooks.ToolCall{Name: "x"}, echoTool(&rec))
		assert.NoError(t, err)
	}()
	assert.Equal(t, "slow: working…", <-logged, "the line arrives before the hook returns")
	close(release)
	<-done
	assert.True(t, strings.HasPrefix(strings.Join(rec.got(), ","), "tool:x"))
}
