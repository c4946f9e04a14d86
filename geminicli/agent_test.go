package geminicli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/geminicli"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// geminiNames is geminicli.ToolNames.
func geminiNames(m map[string]string) geminicli.Option { return geminicli.ToolNames(m) }

// BeforeAgent runs once for the user's prompt: the guide's context hooks
// (bash, node) add to that message in <hook_context> tags, in this request
// and the later ones of the run, as Gemini CLI keeps it in its history.
func TestBeforeAgentAddsContext(t *testing.T) {
	var rec recorder
	log := filepath.Join(t.TempDir(), "log")
	data := settings(t, map[string][]map[string]any{"BeforeAgent": {group("*",
		handler(script(t, "inject-context.sh")), handler(script(t, "inject-memories.js")), handler(script(t, "record.sh", log)))}})
	run := start(t, &rec, host(t, &rec), data)
	m := &model{reply: hooks.ModelResponse{Text: "ok"}}
	req := user("fix the bug")
	_, err := run.CallModel(bg, req, m.call)
	require.NoError(t, err)
	want := "fix the bug<hook_context>Recent commits:\nNo git history\n\n## Relevant Memories\n- [Memory] Always use TypeScript for this project.</hook_context>"
	require.Len(t, m.reqs, 1)
	assert.Equal(t, want, m.reqs[0].Messages[0].Text)

	req.Messages = append(req.Messages, hooks.Message{Role: "assistant", Text: "ok"}, hooks.Message{Role: "tool", Text: "r"})
	_, err = run.CallModel(bg, req, m.call)
	require.NoError(t, err)
	assert.Equal(t, want, m.reqs[1].Messages[0].Text, "kept in later requests")
	ins, _ := records(t, log)
	require.Len(t, ins, 1, "once per prompt")
	assert.Equal(t, "fix the bug", ins[0]["prompt"])
	assert.Empty(t, rec.errors())
}

// A BeforeAgent deny, or exit 2, ends the run with the reason before the
// model is called.
func TestBeforeAgentBlocks(t *testing.T) {
	for _, cmd := range []string{`{"decision":"deny","reason":"off topic"}`, ""} {
		var rec recorder
		c := emit(t, cmd, "0", "")
		if cmd == "" {
			c = emit(t, "", "2", "off topic")
		}
		run := start(t, &rec, host(t, &rec), settings(t, map[string][]map[string]any{"BeforeAgent": {group("", handler(c))}}))
		m := &model{}
		reply, err := run.CallModel(bg, user("hi"), m.call)
		require.NoError(t, err)
		require.NotNil(t, reply.End)
		assert.Equal(t, "off topic", reply.End.Output)
		assert.Empty(t, m.reqs)
	}
}

// The guide's AfterAgent validator (node) sends the run on with its
// reason while the reply lacks a summary; the retry runs BeforeAgent again
// and the validator sees stop_hook_active and the turn's replies; past
// AfterAgentRetries the reply stands.
func TestAfterAgentRetries(t *testing.T) {
	var rec recorder
	log := filepath.Join(t.TempDir(), "log")
	data := settings(t, map[string][]map[string]any{
		"AfterAgent":  {group("", handler(script(t, "record.sh", log)), handler(script(t, "validate.js")))},
		"BeforeAgent": {group("", handler(script(t, "record.sh", log+"b")))},
	})
	run := start(t, &rec, host(t, &rec), data, geminicli.AfterAgentRetries(2))
	m := &model{reply: hooks.ModelResponse{Text: "did it"}}
	req := user("do it")
	reply, err := run.CallModel(bg, req, m.call)
	require.NoError(t, err)
	const ask = "Your response is missing a Summary section. Please add one."
	assert.Equal(t, ask, reply.Continue)

	req.Messages = append(req.Messages, hooks.Message{Role: "assistant", Text: "did it"}, hooks.Message{Role: "user", Text: reply.Continue})
	reply, err = run.CallModel(bg, req, m.call)
	require.NoError(t, err)
	assert.Equal(t, ask, reply.Continue)

	req.Messages = append(req.Messages, hooks.Message{Role: "assistant", Text: "did it"}, hooks.Message{Role: "user", Text: reply.Continue})
	reply, err = run.CallModel(bg, req, m.call)
	require.NoError(t, err)
	assert.Empty(t, reply.Continue, "the third time the reply stands")
	assert.Contains(t, strings.Join(rec.errors(), "\n"), "2 times in a row")

	ins, _ := records(t, log)
	require.Len(t, ins, 3)
	for i, in := range ins {
		assert.Equal(t, "AfterAgent", in["hook_event_name"])
		assert.Equal(t, "do it", in["prompt"], "the turn's prompt")
		assert.Equal(t, i > 0, in["stop_hook_active"])
	}
	assert.Equal(t, "did it\ndid it", ins[1]["prompt_response"], "every reply of the turn")
	before, _ := records(t, log+"b")
	require.Len(t, before, 3, "BeforeAgent runs for the retry's message too, as in Gemini CLI")
	assert.Equal(t, ask, before[1]["prompt"])

	m.reply.Text = "Summary: done"
	req = user("next task")
	reply, err = run.CallModel(bg, req, m.call)
	require.NoError(t, err)
	assert.Empty(t, reply.Continue)
	ins, _ = records(t, log)
	assert.Equal(t, false, ins[3]["stop_hook_active"], "a new turn")
	assert.Equal(t, "next task", ins[3]["prompt"])
}

// AfterAgent runs only at the end of a turn: a reply with tool calls is
// not its end.
func TestAfterAgentWaitsForTheTurnsEnd(t *testing.T) {
	var rec recorder
	log := filepath.Join(t.TempDir(), "log")
	run := start(t, &rec, host(t, &rec), settings(t, map[string][]map[string]any{"AfterAgent": {group("", handler(script(t, "record.sh", log)))}}))
	m := &model{reply: hooks.ModelResponse{Text: "looking", ToolCalls: []hooks.ToolCall{{ID: "1", Name: "ls"}}}}
	_, err := run.CallModel(bg, user("go"), m.call)
	require.NoError(t, err)
	m.reply = hooks.ModelResponse{Text: "found it"}
	_, err = run.CallModel(bg, hooks.ModelRequest{Messages: []hooks.Message{{Role: "user", Text: "go"}, {Role: "assistant", Text: "looking"}, {Role: "tool", Text: "x"}}}, m.call)
	require.NoError(t, err)
	ins, _ := records(t, log)
	require.Len(t, ins, 1)
	assert.Equal(t, "looking\nfound it", ins[0]["prompt_response"])
}

// SessionStart (python) runs at the run's start with source "startup",
// matched exactly; its context is prepended to the first user message of
// every request; its systemMessage is shown. SessionEnd runs at the end
// with reason "exit".
func TestSessionStartAndEnd(t *testing.T) {
	var rec recorder
	log := filepath.Join(t.TempDir(), "log")
	data := settings(t, map[string][]map[string]any{
		"SessionStart": {group("startup", handler(script(t, "session.py"))), group("resume", handler(emit(t, "", "1", "never")))},
		"SessionEnd":   {group("exit", handler(script(t, "record.sh", log)))},
	})
	hs, err := geminicli.Hooks(data, geminicli.Diagnostics(rec.diagnose))
	require.NoError(t, err)
	chain, err := hooks.NewChain(hs, hooks.WithDiagnostics(rec.diagnose))
	require.NoError(t, err)
	run, err := chain.Start(bg, host(t, &rec), hooks.RunStart{Input: "hi"})
	require.NoError(t, err)
	assert.Equal(t, []string{"loaded for startup"}, rec.shown())
	m := &model{}
	for range 2 {
		_, err = run.CallModel(bg, user("hi"), m.call)
		require.NoError(t, err)
	}
	for _, r := range m.reqs {
		assert.Equal(t, "<hook_context>project rules: be brief</hook_context>\n\nhi", r.Messages[0].Text)
	}
	run.End(bg, hooks.RunEnd{Outcome: hooks.Completed})
	ins, _ := records(t, log)
	require.Len(t, ins, 1)
	assert.Equal(t, "SessionEnd", ins[0]["hook_event_name"])
	assert.Equal(t, "exit", ins[0]["reason"])
	assert.Empty(t, rec.errors())
}

// A run's Gemini CLI state is in its snapshot: an end a BeforeTool handler
// asked for, and AfterAgent's turn, survive Snapshot and Resume in a new
// chain (a durable host's next process).
func TestStateSurvivesResume(t *testing.T) {
	var rec recorder
	log := filepath.Join(t.TempDir(), "log")
	data := settings(t, map[string][]map[string]any{
		"BeforeTool": {group("", handler(emit(t, `{"continue":false,"stopReason":"enough"}`, "0", "")))},
		"AfterAgent": {group("", handler(script(t, "record.sh", log)))},
	})
	newChain := func() *hooks.Chain {
		hs, err := geminicli.Hooks(data)
		require.NoError(t, err)
		chain, err := hooks.NewChain(hs, hooks.WithDiagnostics(rec.diagnose))
		require.NoError(t, err)
		return chain
	}
	h := host(t, &rec)
	run, err := newChain().Start(bg, h, hooks.RunStart{Input: "go"})
	require.NoError(t, err)
	m := &model{reply: hooks.ModelResponse{Text: "calling", ToolCalls: []hooks.ToolCall{{ID: "1", Name: "ls"}}}}
	_, err = run.CallModel(bg, user("the task"), m.call)
	require.NoError(t, err)
	_, err = run.CallTool(bg, hooks.ToolCall{ID: "1", Name: "ls"}, (&tool{}).run)
	require.NoError(t, err)
	snap, err := run.Snapshot()
	require.NoError(t, err)

	resumed, err := newChain().Resume(bg, h, snap)
	require.NoError(t, err)
	defer resumed.End(bg, hooks.RunEnd{})
	reply, err := resumed.CallModel(bg, hooks.ModelRequest{Messages: []hooks.Message{{Role: "user", Text: "the task"}, {Role: "tool", Text: "x"}}}, m.call)
	require.NoError(t, err)
	require.NotNil(t, reply.End)
	assert.Equal(t, "enough", reply.End.Output)

	m.reply = hooks.ModelResponse{Text: "done"}
	_, err = resumed.CallModel(bg, hooks.ModelRequest{Messages: []hooks.Message{{Role: "user", Text: "the task"}, {Role: "tool", Text: "x"}}}, m.call)
	require.NoError(t, err)
	ins, _ := records(t, log)
	require.Len(t, ins, 1)
	assert.Equal(t, "the task", ins[0]["prompt"], "the turn's prompt came through the snapshot")
	assert.Equal(t, "calling\ndone", ins[0]["prompt_response"])
}

// The scripts of Gemini CLI's best-practices page (bash) and its hooks
// extension example (node, plain text on stdout) run as they do there:
// the guards allow, the log is written, plain text is shown to the person.
func TestScriptsFromGeminiCLIDocsAndExtensionExample(t *testing.T) {
	var rec recorder
	h := host(t, &rec)
	require.NoError(t, os.MkdirAll(filepath.Join(h.Workdir, ".gemini", "hooks"), 0o755))
	data := settings(t, map[string][]map[string]any{
		"SessionStart": {group("", handler(script(t, "on-start.js")))},
		"BeforeTool":   {group("write_file|replace", handler(script(t, "debug-log.sh")), handler(script(t, "strict-json.sh")))},
	})
	run := start(t, &rec, h, data, toolNames)
	assert.Equal(t, []string{"Session Started! This is running from a script in the hooks-example extension."}, rec.shown())
	tl := &tool{text: "ok"}
	res, err := run.CallTool(bg, write("hi"), tl.run)
	require.NoError(t, err)
	assert.Equal(t, hooks.ToolResult{Text: "ok"}, res)
	log := readFile(t, filepath.Join(h.Workdir, ".gemini", "hooks", "debug.log"))
	assert.Contains(t, log, `Received input: {"session_id":"sess-1"`)
	assert.Contains(t, log, "Hook completed successfully")
	assert.Empty(t, rec.errors())
}
