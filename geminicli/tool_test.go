package geminicli_test

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/geminicli"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// write is a call of the host's "write" tool (write_file to Gemini CLI).
func write(content string) hooks.ToolCall {
	return hooks.ToolCall{ID: "c1", Name: "write", Arguments: map[string]any{"file_path": "a.txt", "content": content}}
}

var toolNames = geminicli.ToolNames(map[string]string{"write": "write_file", "shell": "run_shell_command"})

// The BeforeTool guards of Gemini CLI's own guide (bash with jq, node)
// refuse a call with their reason, in Gemini CLI's words, and let others
// run; their systemMessage reaches the person.
func TestBeforeToolGuardsFromTheGuide(t *testing.T) {
	for _, tc := range []struct{ script, bad, reason string }{
		{"block-secrets.sh", "password=hunter2", "Security Policy: Potential secret detected in content."},
		{"security.js", "SECRET_KEY=1", "Found SECRET_KEY in content"},
	} {
		t.Run(tc.script, func(t *testing.T) {
			var rec recorder
			data := settings(t, map[string][]map[string]any{"BeforeTool": {group("write_file|replace", handler(script(t, tc.script)))}})
			run := start(t, &rec, host(t, &rec), data, toolNames)
			tl := &tool{text: "written"}

			res, err := run.CallTool(bg, write(tc.bad), tl.run)
			require.NoError(t, err)
			assert.Equal(t, hooks.ToolResult{Text: "Tool execution blocked: " + tc.reason, IsError: true}, res)
			assert.Empty(t, tl.ran(), "a refused call never runs")
			assert.Len(t, rec.shown(), 1, "the systemMessage is shown")

			res, err = run.CallTool(bg, write("hello"), tl.run)
			require.NoError(t, err)
			assert.Equal(t, hooks.ToolResult{Text: "written"}, res)
			assert.Len(t, tl.ran(), 1)
			assert.Empty(t, rec.errors())
		})
	}
}

// The matcher is an unanchored regular expression on the Gemini name (or
// the host's): a guard for write_file never sees run_shell_command.
func TestBeforeToolMatcher(t *testing.T) {
	var rec recorder
	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	data := settings(t, map[string][]map[string]any{"BeforeTool": {
		group("write_", handler(script(t, "record.sh", log))),
		group("^shell$", handler(script(t, "record.sh", log+"2"))),
	}})
	run := start(t, &rec, host(t, &rec), data, toolNames)
	_, err := run.CallTool(bg, write("x"), (&tool{}).run)
	require.NoError(t, err)
	_, err = run.CallTool(bg, hooks.ToolCall{ID: "c2", Name: "shell", Arguments: map[string]any{"command": "ls"}}, (&tool{}).run)
	require.NoError(t, err)
	ins, _ := records(t, log)
	require.Len(t, ins, 1)
	assert.Equal(t, "write_file", ins[0]["tool_name"])
	ins, _ = records(t, log+"2")
	require.Len(t, ins, 1, "a matcher may name the host's tool too")
	assert.Equal(t, "run_shell_command", ins[0]["tool_name"])
}

// A BeforeTool handler's input is Gemini CLI's, field by field, and its
// environment has Gemini CLI's variables; a command's $GEMINI_PROJECT_DIR
// is replaced before bash reads it.
func TestBeforeToolInputAndEnvironment(t *testing.T) {
	var rec recorder
	h := host(t, &rec)
	h.Workdir = filepath.Join(t.TempDir(), "my project")
	require.NoError(t, os.Mkdir(h.Workdir, 0o755))
	h.Env = map[string]string{"PATH": os.Getenv("PATH"), "HOME": os.Getenv("HOME")}
	log := filepath.Join(t.TempDir(), "log")
	hd := handler(script(t, "record.sh", log) + ` && echo $GEMINI_PROJECT_DIR > $GEMINI_PROJECT_DIR/expanded`)
	hd["env"] = map[string]string{"EXTRA": "from settings"}
	run := start(t, &rec, h, settings(t, map[string][]map[string]any{"BeforeTool": {group("", hd)}}), toolNames)
	_, err := run.CallTool(bg, write("hi"), (&tool{}).run)
	require.NoError(t, err)

	ins, envs := records(t, log)
	require.Len(t, ins, 1)
	in := ins[0]
	assert.Equal(t, "sess-1", in["session_id"])
	assert.Equal(t, "", in["transcript_path"])
	assert.Equal(t, h.Workdir, in["cwd"])
	assert.Equal(t, "BeforeTool", in["hook_event_name"])
	assert.Regexp(t, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`, in["timestamp"])
	assert.Equal(t, "write_file", in["tool_name"])
	assert.Equal(t, map[string]any{"file_path": "a.txt", "content": "hi"}, in["tool_input"])
	require.Len(t, envs, 1)
	for _, kv := range []string{"GEMINI_PROJECT_DIR=", "GEMINI_CWD=", "CLAUDE_PROJECT_DIR=", "PWD="} {
		assert.Contains(t, envs[0], kv+h.Workdir)
	}
	assert.Contains(t, envs[0], "GEMINI_SESSION_ID=sess-1")
	assert.Contains(t, envs[0], "GEMINI_PLANS_DIR="+filepath.Join(h.Workdir, ".gemini", "plans"))
	assert.Contains(t, envs[0], "EXTRA=from settings")
	expanded, err := os.ReadFile(filepath.Join(h.Workdir, "expanded"))
	require.NoError(t, err, "the command's $GEMINI_PROJECT_DIR is quoted: a folder with a space works")
	assert.Equal(t, h.Workdir+"\n", string(expanded))
}

// tool_input replaces the arguments (Gemini CLI's scheduler builds the
// call from it alone), and the model reads Gemini CLI's note on the
// result; in a sequential plan the next handler sees the arguments
// merged.
func TestBeforeToolRewritesArguments(t *testing.T) {
	var rec recorder
	log := filepath.Join(t.TempDir(), "log")
	rewrite := emit(t, `{"hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"file_path":"safe/a.txt"}}}`, "0", "")
	g := group("", handler(rewrite), handler(script(t, "record.sh", log)))
	g["sequential"] = true
	run := start(t, &rec, host(t, &rec), settings(t, map[string][]map[string]any{"BeforeTool": {g}}), toolNames)
	tl := &tool{text: "ok"}
	res, err := run.CallTool(bg, write("hi"), tl.run)
	require.NoError(t, err)
	require.Len(t, tl.ran(), 1)
	assert.Equal(t, map[string]any{"file_path": "safe/a.txt"}, tl.ran()[0].Arguments)
	assert.Equal(t, "ok\n\n[System] Tool input parameters were modified by a hook before execution.", res.Text)
	ins, _ := records(t, log)
	require.Len(t, ins, 1)
	assert.Equal(t, map[string]any{"file_path": "safe/a.txt", "content": "hi"}, ins[0]["tool_input"], "sequential: merged for the next")
}

// "ask" asks a person through Host.Confirm; a no refuses the call.
func TestBeforeToolAsk(t *testing.T) {
	for _, answer := range []bool{true, false} {
		rec := recorder{answer: answer}
		ask := emit(t, `{"decision":"ask","systemMessage":"really write?"}`, "0", "")
		run := start(t, &rec, host(t, &rec), settings(t, map[string][]map[string]any{"BeforeTool": {group("", handler(ask))}}), toolNames)
		tl := &tool{text: "ok"}
		res, err := run.CallTool(bg, write("hi"), tl.run)
		require.NoError(t, err)
		require.Len(t, rec.asked, 1)
		assert.Equal(t, "really write?", rec.asked[0].Body)
		assert.Equal(t, answer, !res.IsError)
		assert.Len(t, tl.ran(), map[bool]int{true: 1, false: 0}[answer])
	}
}

// "continue": false refuses the call and ends the run at the next model
// request with the reason.
func TestBeforeToolStopEndsTheRun(t *testing.T) {
	var rec recorder
	stop := emit(t, `{"continue":false,"stopReason":"budget spent"}`, "0", "")
	run := start(t, &rec, host(t, &rec), settings(t, map[string][]map[string]any{"BeforeTool": {group("", handler(stop))}}), toolNames)
	res, err := run.CallTool(bg, write("hi"), (&tool{}).run)
	require.NoError(t, err)
	assert.Equal(t, hooks.ToolResult{Text: "Agent execution stopped by hook: budget spent", IsError: true}, res)
	m := &model{}
	reply, err := run.CallModel(bg, user("go on"), m.call)
	require.NoError(t, err)
	require.NotNil(t, reply.End)
	assert.Equal(t, "budget spent", reply.End.Output)
	assert.Empty(t, m.reqs, "the model is not called")
}

// AfterTool: a deny hides the result behind the reason, additionalContext
// is appended in <hook_context> tags (its < and > escaped), as Gemini CLI
// does; the handler reads the result as tool_response.
func TestAfterTool(t *testing.T) {
	var rec recorder
	data := settings(t, map[string][]map[string]any{"AfterTool": {group("write_file", handler(script(t, "after_tool.py")))}})
	run := start(t, &rec, host(t, &rec), data, toolNames)

	res, err := run.CallTool(bg, write("x"), (&tool{text: "token=abc"}).run)
	require.NoError(t, err)
	assert.Equal(t, hooks.ToolResult{Text: "Tool result blocked: the result held a credential", IsError: true,
		Value: "Tool result blocked: the result held a credential"}, res)

	res, err = run.CallTool(bg, write("x"), (&tool{text: "fine"}).run)
	require.NoError(t, err)
	assert.Equal(t, "fine\n\n<hook_context>checked &lt;ok&gt; by write_file</hook_context>", res.Text)
	assert.Empty(t, rec.errors())
}

// A guard that prints more than MaxOutput cannot be read, and its call is
// refused, however its output begins (here: a deny); an AfterTool one
// hides the result.
func TestOutputTooLargeNeverAllows(t *testing.T) {
	var rec recorder
	flood := handler(script(t, "flood.sh"))
	data := settings(t, map[string][]map[string]any{"BeforeTool": {group("write_file", flood)}, "AfterTool": {group("read_file", flood)}})
	run := start(t, &rec, host(t, &rec), data, geminicli.ToolNames(map[string]string{"write": "write_file", "read": "read_file"}))
	tl := &tool{text: "secret"}
	res, err := run.CallTool(bg, write("x"), tl.run)
	require.NoError(t, err)
	assert.Equal(t, hooks.ToolResult{Text: "Tool call blocked: the output of Gemini CLI hook BeforeTool[0].hooks[0] is too large to read", IsError: true}, res)
	assert.Empty(t, tl.ran())

	res, err = run.CallTool(bg, hooks.ToolCall{ID: "r", Name: "read"}, tl.run)
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.NotContains(t, res.Text, "secret")
	assert.True(t, strings.HasPrefix(res.Text, "Tool result blocked: "), res.Text)
}

// The guide's logging hook (bash, jq) runs on every tool and changes
// nothing.
func TestLogToolsFromTheGuide(t *testing.T) {
	var rec recorder
	h := host(t, &rec)
	data := settings(t, map[string][]map[string]any{"AfterTool": {group("*", handler(script(t, "log-tools.sh")))}})
	run := start(t, &rec, h, data, toolNames)
	res, err := run.CallTool(bg, write("x"), (&tool{text: "done"}).run)
	require.NoError(t, err)
	assert.Equal(t, hooks.ToolResult{Text: "done"}, res)
	log, err := os.ReadFile(filepath.Join(h.Workdir, ".gemini", "tool-log.txt"))
	require.NoError(t, err)
	assert.Contains(t, string(log), "Tool executed: write_file")
	assert.Empty(t, rec.errors())
}

// A call whose arguments cannot be sent as JSON (NaN) cannot be seen by
// its guards, so it is refused rather than run unseen; a call no guard's
// matcher takes runs.
func TestArgumentsThatCannotBeSentAreRefused(t *testing.T) {
	var rec recorder
	run := start(t, &rec, host(t, &rec), settings(t, map[string][]map[string]any{"BeforeTool": {group("write_file", handler("echo '{}'"))}}), toolNames)
	tl := &tool{text: "ran"}
	res, err := run.CallTool(bg, hooks.ToolCall{Name: "write", Arguments: map[string]any{"n": math.NaN()}}, tl.run)
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Contains(t, res.Text, "Tool call blocked: the arguments cannot be sent as JSON")
	assert.Empty(t, tl.ran())

	res, err = run.CallTool(bg, hooks.ToolCall{Name: "shell", Arguments: map[string]any{"n": math.NaN()}}, tl.run)
	require.NoError(t, err)
	assert.Equal(t, hooks.ToolResult{Text: "ran"}, res)
}
