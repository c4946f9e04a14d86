package hooks_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// script is the absolute path of a testdata/commands script.
func script(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("testdata", "commands", name))
	require.NoError(t, err)
	return p
}

// commandHooks builds the hooks of a settings file with the given entries.
func commandHooks(t *testing.T, entries ...map[string]any) []hooks.Hook {
	t.Helper()
	data, err := json.Marshal(map[string]any{"hooks": entries})
	require.NoError(t, err)
	hs, err := hooks.CommandHooks(data)
	require.NoError(t, err)
	return hs
}

func entry(event string, argv ...string) map[string]any {
	return map[string]any{"event": event, "command": argv}
}

func with(e map[string]any, k string, v any) map[string]any {
	e[k] = v
	return e
}

func shellCall(cmd string) hooks.ToolCall {
	return hooks.ToolCall{ID: "c1", Name: "shell", Arguments: map[string]any{"command": cmd, "text": "ran"}}
}

func TestCommandBlocksWithReasonAndAllows(t *testing.T) {
	var rec recorder
	hs := commandHooks(t, entry("pre_tool_call", script(t, "block.sh")))
	require.Len(t, hs, 1)
	assert.Equal(t, "pre_tool_call#0", hs[0].Name())
	run := start(t, &rec, hs...)

	res, err := run.CallTool(bg, shellCall("rm -rf /"), echoTool(&rec))
	require.NoError(t, err)
	assert.Equal(t, hooks.ToolResult{Text: "rm -rf is not allowed", IsError: true}, res)

	res, err = run.CallTool(bg, shellCall("ls"), echoTool(&rec))
	require.NoError(t, err)
	assert.Equal(t, "ran", res.Text)
	assert.Equal(t, []string{"tool:shell"}, rec.got())
	assert.Empty(t, rec.diagnostics())
}

func TestCommandSeesTheEnvelope(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "envelope.json")
	var rec recorder
	host := hooks.Host{Workdir: dir, Session: hooks.Session{ID: "s-42"},
		System: hooks.System{Clock: func() time.Time { return time.UnixMilli(1_700_000_000_123) }}}
	run := startWith(t, &rec, host, commandHooks(t,
		entry("pre_tool_call", script(t, "save.sh"), out),
		entry("post_tool_call", script(t, "save.sh"), out+".post"))...)
	_, err := run.CallTool(bg, shellCall("ls"), echoTool(&rec))
	require.NoError(t, err)

	var pre map[string]any
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &pre))
	assert.Equal(t, map[string]any{
		"event": "pre_tool_call", "cwd": dir, "sessionId": "s-42", "timestamp": 1_700_000_000_123.0,
		"subject": "shell", "toolName": "shell", "arguments": `{"command":"ls","text":"ran"}`,
	}, pre)

	var post map[string]any
	data, err = os.ReadFile(out + ".post")
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &post))
	assert.Equal(t, "post_tool_call", post["event"])
	assert.Equal(t, map[string]any{"text": "ran", "isError": false}, post["result"])
	assert.Empty(t, rec.diagnostics())
}

func TestCommandRunsInWorkdirWithTheRunsEnvironment(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "env.txt")
	hs := commandHooks(t, entry("session_start", "/bin/sh", "-c", `cat >/dev/null; echo "$PWD $HOOK_FLAG" >`+out))
	var rec recorder
	startWith(t, &rec, hooks.Host{Workdir: dir, Env: map[string]string{"HOOK_FLAG": "on", "PATH": os.Getenv("PATH")}}, hs...)
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	real, err := filepath.EvalSymlinks(dir)
	require.NoError(t, err)
	assert.Equal(t, real+" on\n", string(data))
}

func TestAdvisoryOutputGoesToTheLog(t *testing.T) {
	var rec recorder
	var logs []string
	var mu sync.Mutex
	host := hooks.Host{Log: func(hook, line string) {
		mu.Lock()
		defer mu.Unlock()
		logs = append(logs, hook+": "+line)
	}}
	run := startWith(t, &rec, host, commandHooks(t,
		entry("turn_start", script(t, "say.sh")),
		entry("post_tool_call", script(t, "block.sh")))...) // its block is only advice here
	_, err := run.CallModel(bg, hooks.ModelRequest{System: "s"}, func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
		assert.Equal(t, "s", req.System, "advisory output changes nothing")
		return hooks.ModelResponse{Text: "ok"}, nil
	})
	require.NoError(t, err)
	res, err := run.CallTool(bg, shellCall("rm -rf /"), echoTool(&rec))
	require.NoError(t, err)
	assert.Equal(t, "ran", res.Text, "post_tool_call cannot block or rewrite")
	assert.Equal(t, []string{"turn_start#0: first line", "turn_start#0: second line",
		`post_tool_call#1: {"decision":"block","reason":"rm -rf is not allowed"}`}, logs)
}

// A command that fails without printing a decision (a non-zero exit, a
// start failure) fails open, or closed with failClosed, as its entry says.
func TestCommandFailuresFailOpenOrClosed(t *testing.T) {
	for name, tc := range map[string]struct {
		script, want, blocked string // blocked: what the model reads under failClosed
	}{
		"non-zero exit": {"fail.sh", "exit status 3: something broke", "hook pre_tool_call#0 failed: exit status 3"},
		"cannot start":  {"no-such-script.sh", "no such file", "no such file"},
	} {
		t.Run(name, func(t *testing.T) {
			var rec recorder
			open := start(t, &rec, commandHooks(t, entry("pre_tool_call", script(t, tc.script)))...)
			res, err := open.CallTool(bg, shellCall("ls"), echoTool(&rec))
			require.NoError(t, err)
			assert.Equal(t, "ran", res.Text, "fail open")
			require.Len(t, rec.diagnostics(), 1)
			d := rec.diagnostics()[0]
			assert.Equal(t, "pre_tool_call#0", d.Hook)
			assert.Contains(t, d.Err.Error(), tc.script)
			assert.Contains(t, d.Err.Error(), tc.want)

			closed := start(t, &rec, commandHooks(t, with(entry("pre_tool_call", script(t, tc.script)), "failClosed", true))...)
			res, err = closed.CallTool(bg, shellCall("ls"), echoTool(&rec))
			require.NoError(t, err)
			assert.True(t, res.IsError)
			assert.True(t, strings.HasPrefix(res.Text, "Tool call blocked: hook pre_tool_call#0 failed: "), res.Text)
			assert.Contains(t, res.Text, tc.blocked)
			assert.NotContains(t, res.Text, "something broke", "stderr stays in the diagnostic")
			assert.Equal(t, []string{"tool:shell"}, rec.got(), "only the fail-open call ran")
		})
	}
}

// The timeout must come once hang.sh has started its child: on a machine
// too busy for that within the first timeout, the test runs again with
// more.
func TestHangingCommandIsKilledWithItsChild(t *testing.T) {
	for _, ms := range []int{300, 2000, 8000} {
		pidFile := filepath.Join(t.TempDir(), "child.pid")
		var rec recorder
		run := start(t, &rec, commandHooks(t, with(entry("pre_tool_call", script(t, "hang.sh"), pidFile), "timeoutMs", ms))...)
		_, err := run.CallTool(bg, shellCall("ls"), echoTool(&rec))
		require.NoError(t, err, "a timeout fails open")
		require.Len(t, rec.diagnostics(), 1)
		assert.Contains(t, rec.diagnostics()[0].Err.Error(), fmt.Sprintf("timed out after %s", time.Duration(ms)*time.Millisecond))

		data, err := os.ReadFile(pidFile)
		if os.IsNotExist(err) || (err == nil && strings.TrimSpace(string(data)) == "") {
			continue // killed before it recorded its child: again, with more time
		}
		require.NoError(t, err)
		var pid int
		_, err = fmt.Sscan(string(data), &pid)
		require.NoError(t, err)
		// No waiting here: a command hook returns only once nothing the
		// command started runs. Checking right after a kill signal, which
		// takes effect later, is what made this test flaky.
		assert.False(t, alive(pid), "the child that slept is gone too, when the call returns")
		return
	}
	t.Fatal("hang.sh never got to start its child")
}

// alive reports whether pid is a process that has not exited (a zombie has).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z"
}

func TestCancellingTheCallKillsTheCommand(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "started")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	var rec recorder
	run := start(t, &rec, commandHooks(t, entry("pre_tool_call", script(t, "wait.sh"), fifo))...)
	ctx, cancel := context.WithCancel(bg)
	done := make(chan error)
	go func() {
		_, err := run.CallTool(ctx, shellCall("ls"), echoTool(&rec))
		done <- err
	}()
	started, err := os.ReadFile(fifo) // returns once the command has written to it
	require.NoError(t, err)
	require.Equal(t, "started\n", string(started))
	cancel()
	err = <-done
	assert.ErrorIs(t, err, context.Canceled)
	assert.Empty(t, rec.got(), "no tool runs after the cancellation")
}

func TestMatcher(t *testing.T) {
	var rec recorder
	hs := commandHooks(t,
		with(entry("pre_tool_call", script(t, "block.sh")), "matcher", "shell"),       // exact
		with(entry("pre_tool_call", script(t, "block.sh")), "matcher", "file"),        // substring of read_file
		with(entry("pre_tool_call", script(t, "block.sh")), "matcher", "nothing"),     // never
		with(entry("pre_tool_call", script(t, "fail.sh")), "matcher", "no-such-tool"), // would fail if it ran
	)
	run := start(t, &rec, hs...)
	for _, tool := range []string{"shell", "read_file", "http"} {
		res, err := run.CallTool(bg, hooks.ToolCall{Name: tool, Arguments: map[string]any{"command": "rm -rf /", "text": "ran"}}, echoTool(&rec))
		require.NoError(t, err)
		if tool == "http" {
			assert.Equal(t, "ran", res.Text, "no matcher takes http")
		} else {
			assert.Equal(t, "rm -rf is not allowed", res.Text, tool)
		}
	}
	assert.Empty(t, rec.diagnostics(), "the failing entry never ran")

	all := start(t, &rec, commandHooks(t, entry("pre_tool_call", script(t, "block.sh")))...)
	res, err := all.CallTool(bg, hooks.ToolCall{Name: "anything", Arguments: map[string]any{"x": "rm -rf"}}, echoTool(&rec))
	require.NoError(t, err)
	assert.True(t, res.IsError, "no matcher: every subject")
}

func TestDisabledEntriesAreSkippedAndKeepTheirIndex(t *testing.T) {
	hs := commandHooks(t,
		with(entry("pre_tool_call", script(t, "fail.sh")), "enabled", false),
		with(entry("session_end", script(t, "say.sh")), "enabled", true))
	require.Len(t, hs, 1)
	assert.Equal(t, "session_end#1", hs[0].Name())
}

func TestCommandSettingsAreStrict(t *testing.T) {
	for name, tc := range map[string]struct{ settings, want string }{
		"unknown event": {`{"hooks":[{"event":"pre_tool_use","command":["x"]}]}`, `hooks[0].event: unknown event "pre_tool_use"; the events are post_tool_call, pre_tool_call, pre_trust_decision, session_end, session_start, turn_end, turn_start`},
		"missing event": {`{"hooks":[{"command":["x"]}]}`, "hooks[0].event: missing"},
		"unknown field": {`{"hooks":[{"event":"turn_end","command":["x"]},{"event":"turn_end","command":["x"],"timeout":5}]}`, `hooks[1].timeout: unknown field`},
		"case differs":  {`{"hooks":[{"Event":"turn_end","command":["x"]}]}`, `hooks[0].Event: unknown field`},
		"empty command": {`{"hooks":[{"event":"turn_end","command":[]}]}`, "hooks[0].command: empty"},
		"empty argv0":   {`{"hooks":[{"event":"turn_end","command":[""]}]}`, "hooks[0].command: the executable (command[0]) is empty"},
		"no command":    {`{"hooks":[{"event":"turn_end"}]}`, "hooks[0].command: empty"},
		"negative":      {`{"hooks":[{"event":"turn_end","command":["x"],"timeoutMs":-1}]}`, "hooks[0].timeoutMs: negative (-1)"},
		"wrong type":    {`{"hooks":[{"event":"turn_end","command":"x"}]}`, "hooks[0].command: json: cannot unmarshal string"},
		"not an object": {`{"hooks":["x"]}`, "hooks[0]: an entry must be an object"},
		"not json":      {`{"hooks":`, "hooks: settings: unexpected end of JSON input"},
	} {
		_, err := hooks.ParseCommandSettings([]byte(tc.settings))
		require.Error(t, err, name)
		assert.Contains(t, err.Error(), tc.want, name)
	}
	_, err := hooks.ParseCommandSettings([]byte(`{"theme":"dark","hooks":[]}`))
	require.ErrorContains(t, err, `theme: unknown key "theme"`, "a misspelt or foreign top-level key is not silently ignored")
	cfgs, err := hooks.ParseCommandSettings([]byte(`{"hooks":[{"event":"pre_tool_call","matcher":"read","command":["/opt/guard","--strict"],"timeoutMs":1200,"failClosed":true}]}`))
	require.NoError(t, err)
	assert.Equal(t, []hooks.CommandHookConfig{{Event: "pre_tool_call", Matcher: "read", Command: []string{"/opt/guard", "--strict"}, TimeoutMs: 1200, FailClosed: true}}, cfgs)
}

func TestTrustDecisions(t *testing.T) {
	project := t.TempDir()
	recommend := func(name string) hooks.Hook {
		return trustHook{name: name, approve: true}
	}
	jsRecommend, err := hooks.CompileJS("js-trust", `exports.beforeTrustDecision = (ctx, req) => ({ approve: req.isNew && req.decision === "ask" && req.path.length > 0 })`, nil)
	require.NoError(t, err)
	blockAll := commandHooks(t, entry("pre_trust_decision", "/bin/sh", "-c", `cat >/dev/null; echo '{"decision":"block","reason":"no"}'`))
	allowAll := commandHooks(t, entry("pre_trust_decision", script(t, "allow.sh")))
	failing := commandHooks(t, with(entry("pre_trust_decision", script(t, "fail.sh")), "failClosed", true))

	for name, tc := range map[string]struct {
		hooks []hooks.Hook
		in    hooks.TrustDecision
		want  hooks.TrustDecision
	}{
		"recommendation upgrades ask":           {[]hooks.Hook{recommend("r")}, hooks.Ask, hooks.Trusted},
		"recommendation never weakens a deny":   {[]hooks.Hook{recommend("r")}, hooks.Untrusted, hooks.Untrusted},
		"a command block denies, first":         {append([]hooks.Hook{recommend("r")}, blockAll...), hooks.Ask, hooks.Untrusted},
		"a command block denies even trusted":   {blockAll, hooks.Trusted, hooks.Untrusted},
		"a command allow leaves it to the rest": {append(allowAll, recommend("r")), hooks.Ask, hooks.Trusted},
		"failClosed denies on failure":          {failing, hooks.Ask, hooks.Untrusted},
		"no hooks keep the tentative decision":  {nil, hooks.Ask, hooks.Ask},
		"a JS recommendation upgrades ask":      {[]hooks.Hook{jsRecommend}, hooks.Ask, hooks.Trusted},
		"a JS recommendation is only that":      {append(blockAll, jsRecommend), hooks.Ask, hooks.Untrusted},
	} {
		var rec recorder
		chain, err := hooks.NewChain(tc.hooks, hooks.WithDiagnostics(rec.diagnose))
		require.NoError(t, err, name)
		got, err := chain.DecideTrust(bg, hooks.Host{}, hooks.TrustRequest{Path: project, Decision: tc.in, IsNew: true})
		require.NoError(t, err, name)
		assert.Equal(t, tc.want, got, name)
	}
}

func TestTrustEnvelope(t *testing.T) {
	project := t.TempDir()
	out := filepath.Join(t.TempDir(), "trust.json")
	chain, err := hooks.NewChain(commandHooks(t, with(entry("pre_trust_decision", script(t, "save.sh"), out), "matcher", filepath.Base(project))))
	require.NoError(t, err)
	got, err := chain.DecideTrust(bg, hooks.Host{}, hooks.TrustRequest{Path: project + "/.", Decision: hooks.Ask, IsNew: true})
	require.NoError(t, err)
	assert.Equal(t, hooks.Ask, got)
	var env map[string]any
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &env))
	real, err := filepath.EvalSymlinks(project)
	require.NoError(t, err)
	assert.Equal(t, "pre_trust_decision", env["event"])
	assert.Equal(t, real, env["path"], "the canonical path")
	assert.Equal(t, real, env["subject"])
	assert.Equal(t, "ask", env["decision"])
	assert.Equal(t, true, env["isNew"])
}

// trustHook is a Go hook that recommends approval.
type trustHook struct {
	name    string
	approve bool
}

func (h trustHook) Name() string { return h.name }
func (h trustHook) BeforeTrustDecision(c *hooks.Context, req hooks.TrustRequest) (*hooks.TrustPatch, error) {
	return &hooks.TrustPatch{Approve: h.approve}, nil
}

func TestEventSubjects(t *testing.T) {
	var logs []string
	var mu sync.Mutex
	host := hooks.Host{Session: hooks.Session{ID: "sess-7"}, Log: func(hook, line string) {
		mu.Lock()
		defer mu.Unlock()
		logs = append(logs, hook)
	}}
	var rec recorder
	say := script(t, "say.sh")
	run := startWith(t, &rec, host, commandHooks(t,
		with(entry("turn_start", say), "matcher", "user"),
		with(entry("turn_start", say), "matcher", "assistant"), // never: turn_start's subject is "user"
		with(entry("turn_end", say), "matcher", "assistant"),
		with(entry("session_start", say), "matcher", "sess-7"),
		with(entry("session_end", say), "matcher", "sess"),
		with(entry("session_end", say), "matcher", "other-session"), // never
	)...)
	_, err := run.CallModel(bg, hooks.ModelRequest{}, func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
		return hooks.ModelResponse{Text: "hi"}, nil
	})
	require.NoError(t, err)
	run.End(bg, hooks.RunEnd{})
	assert.Equal(t, []string{
		"session_start#3", "session_start#3",
		"turn_start#0", "turn_start#0",
		"turn_end#2", "turn_end#2",
		"session_end#4", "session_end#4",
	}, logs, "two lines from each hook whose matcher takes its event's subject")
	assert.Empty(t, rec.diagnostics())
}
