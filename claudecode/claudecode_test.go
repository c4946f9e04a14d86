package claudecode_test

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/claudecode"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// claudeInterpreters are the interpreters of testdata's scripts,
// by extension.
var claudeInterpreters = map[string]string{".sh": "bash", ".py": "python3", ".js": "node"}

// claudeScript is the command that runs testdata/<name> with its
// interpreter and args, shell-quoted for a Claude Code "command". The test
// is skipped, with the reason, when the interpreter is not installed.
func claudeScript(t testing.TB, name string, args ...string) string {
	t.Helper()
	interp := claudeInterpreters[filepath.Ext(name)]
	if _, err := exec.LookPath(interp); err != nil {
		t.Skipf("%s needs %s, which is not installed: %v", name, interp, err)
	}
	path, err := filepath.Abs(filepath.Join("testdata", name))
	require.NoError(t, err)
	words := []string{interp, ccQuote(path)}
	for _, a := range args {
		words = append(words, ccQuote(a))
	}
	return strings.Join(words, " ")
}

// ccQuote quotes s for sh.
func ccQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// emit is a command whose script prints out, writes errText to stderr and
// exits with code.
func ccEmit(t testing.TB, out string, code string, errText string) string {
	return claudeScript(t, "emit.sh", out, code, errText)
}

// group is one matcher group of Claude Code settings.
func ccGroup(matcher string, commands ...string) map[string]any {
	var hs []map[string]any
	for _, c := range commands {
		hs = append(hs, map[string]any{"type": "command", "command": c})
	}
	return map[string]any{"matcher": matcher, "hooks": hs}
}

// claudeSettings is a settings.json with these groups per event.
func claudeSettings(t testing.TB, events map[string][]map[string]any) []byte {
	data, err := json.Marshal(map[string]any{"permissions": map[string]any{"allow": []string{"Bash(ls)"}}, "hooks": events})
	require.NoError(t, err)
	return data
}

// ccPerson records what a run asked and showed a ccPerson, and answers yes
// or no.
type ccPerson struct {
	mu      sync.Mutex
	answer  bool
	asked   []hooks.Prompt
	notices []hooks.Notice
}

func (p *ccPerson) confirm(_ context.Context, q hooks.Prompt) (bool, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.asked = append(p.asked, q)
	return p.answer, nil
}

func (p *ccPerson) notify(_ string, n hooks.Notice) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.notices = append(p.notices, n)
}

func (p *ccPerson) prompts() []hooks.Prompt {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]hooks.Prompt(nil), p.asked...)
}

func (p *ccPerson) shown() []hooks.Notice {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]hooks.Notice(nil), p.notices...)
}

// claudeHost is a host whose ccPerson is p, working in a fresh folder.
func claudeHost(t testing.TB, p *ccPerson) hooks.Host {
	return hooks.Host{Workdir: t.TempDir(), Session: hooks.Session{ID: "sess-1"},
		Confirm: p.confirm, Notify: p.notify}
}

// claudeRun starts a run of the hooks of settings on host.
func claudeRun(t *testing.T, rec *recorder, host hooks.Host, settings []byte, opts ...claudecode.Option) (*hooks.Chain, *hooks.Run) {
	t.Helper()
	hs, err := claudecode.Hooks(settings, opts...)
	require.NoError(t, err)
	chain, err := hooks.NewChain(hs, hooks.WithDiagnostics(rec.diagnose))
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), host, hooks.RunStart{Input: "test"})
	require.NoError(t, err)
	t.Cleanup(func() { run.End(context.Background(), hooks.RunEnd{}) })
	return chain, run
}

// ccBash is a call of the host's "shell" tool, Bash to Claude Code.
func ccBash(command string) hooks.ToolCall {
	return hooks.ToolCall{ID: "call-1", Name: "shell", Arguments: map[string]any{"command": command}}
}

// ccShell records the command it was asked to run and answers "ran".
func ccShell(rec *recorder) hooks.ToolFunc {
	return func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		cmd, _ := call.Arguments["command"].(string)
		rec.add("ran:" + cmd)
		return hooks.ToolResult{Text: "ran"}, nil
	}
}

// ccToolNames maps the host's shell tool to Claude Code's Bash.
var ccToolNames = claudecode.ToolNames(map[string]string{"shell": "Bash", "write_file": "Write"})

// A bash guard in the style of the public ones refuses with exit 2, its
// stderr the reason the model reads, and lets other commands run.
func TestPreToolUseExit2RefusesWithStderr(t *testing.T) {
	var rec recorder
	_, run := claudeRun(t, &rec, claudeHost(t, &ccPerson{}),
		claudeSettings(t, map[string][]map[string]any{"PreToolUse": {ccGroup("Bash", claudeScript(t, "bash_guard.sh"))}}), ccToolNames)
	res, err := run.CallTool(bg, ccBash("rm -rf /tmp/x"), ccShell(&rec))
	require.NoError(t, err)
	assert.Equal(t, hooks.ToolResult{Text: "Blocked: 'rm -rf /tmp/x' is destructive. Use a safer alternative.", IsError: true}, res)
	res, err = run.CallTool(bg, ccBash("ls -la"), ccShell(&rec))
	require.NoError(t, err)
	assert.Equal(t, "ran", res.Text)
	assert.Equal(t, []string{"ran:ls -la"}, rec.got())
	assert.Empty(t, rec.diagnostics())
}

// Exit 2 with an empty stderr takes the reason of the JSON on stdout, else
// a fixed text naming the handler.
func TestExit2ReasonFallbacks(t *testing.T) {
	for name, tc := range map[string]struct{ out, want string }{
		"stdout reason": {`{"reason":"from stdout"}`, "from stdout"},
		"nothing":       {"", "blocked by Claude Code hook PreToolUse[0].hooks[0]"},
	} {
		t.Run(name, func(t *testing.T) {
			var rec recorder
			_, run := claudeRun(t, &rec, claudeHost(t, &ccPerson{}),
				claudeSettings(t, map[string][]map[string]any{"PreToolUse": {ccGroup("", ccEmit(t, tc.out, "2", ""))}}))
			res, err := run.CallTool(bg, ccBash("ls"), ccShell(&rec))
			require.NoError(t, err)
			assert.Equal(t, hooks.ToolResult{Text: tc.want, IsError: true}, res)
		})
	}
}

// A python3 guard that denies edits to .env with permissionDecision, and a
// legacy "decision": "block", both refuse with their reason.
func TestPreToolUseJSONDenyAndLegacyBlock(t *testing.T) {
	var rec recorder
	settings := claudeSettings(t, map[string][]map[string]any{"PreToolUse": {
		ccGroup("Write|Edit|MultiEdit", claudeScript(t, "protect_env.py")),
		ccGroup("Bash", ccEmit(t, `{"decision":"block","reason":"no shell today"}`, "0", "")),
	}})
	_, run := claudeRun(t, &rec, claudeHost(t, &ccPerson{}), settings, ccToolNames)
	write := func(path string) hooks.ToolCall {
		return hooks.ToolCall{Name: "write_file", Arguments: map[string]any{"file_path": path, "content": "x"}}
	}
	res, err := run.CallTool(bg, write("/repo/.env"), echoTool(&rec))
	require.NoError(t, err)
	assert.Equal(t, hooks.ToolResult{Text: "/repo/.env holds secrets or repository internals; edit it by hand", IsError: true}, res)
	res, err = run.CallTool(bg, write("/repo/main.go"), echoTool(&rec))
	require.NoError(t, err)
	assert.False(t, res.IsError)
	res, err = run.CallTool(bg, ccBash("ls"), ccShell(&rec))
	require.NoError(t, err)
	assert.Equal(t, hooks.ToolResult{Text: "no shell today", IsError: true}, res)
	assert.Equal(t, []string{"tool:write_file"}, rec.got())
}

// "ask" asks the ccPerson through Host.Confirm: yes runs the call, no
// refuses it.
func TestPreToolUseAsk(t *testing.T) {
	ask := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"this touches the network"}}`
	for _, answer := range []bool{true, false} {
		var rec recorder
		p := &ccPerson{answer: answer}
		_, run := claudeRun(t, &rec, claudeHost(t, p),
			claudeSettings(t, map[string][]map[string]any{"PreToolUse": {ccGroup("Bash", ccEmit(t, ask, "0", ""))}}), ccToolNames)
		res, err := run.CallTool(bg, ccBash("curl example.com"), ccShell(&rec))
		require.NoError(t, err)
		require.Len(t, p.prompts(), 1)
		assert.Contains(t, p.prompts()[0].Body, "this touches the network")
		assert.Contains(t, p.prompts()[0].Body, `Bash {"command":"curl example.com"}`)
		if answer {
			assert.Equal(t, hooks.ToolResult{Text: "ran"}, res)
		} else {
			assert.Equal(t, hooks.ToolResult{Text: "The user declined this Bash call: this touches the network", IsError: true}, res)
			assert.Empty(t, rec.got())
		}
	}
}

// Deny beats ask: nobody is asked about a call a later handler denies.
func TestDenyBeatsAsk(t *testing.T) {
	var rec recorder
	p := &ccPerson{answer: true}
	ask := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"}}`
	deny := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"denied later"}}`
	_, run := claudeRun(t, &rec, claudeHost(t, p), claudeSettings(t, map[string][]map[string]any{"PreToolUse": {
		ccGroup("*", ccEmit(t, ask, "0", "")), ccGroup("", ccEmit(t, deny, "0", ""))}}))
	res, err := run.CallTool(bg, ccBash("ls"), ccShell(&rec))
	require.NoError(t, err)
	assert.Equal(t, hooks.ToolResult{Text: "denied later", IsError: true}, res)
	assert.Empty(t, p.prompts())
}

// updatedInput replaces the arguments; handlers run in the file's order,
// each seeing the arguments as rewritten before it, and the tool sees the
// last rewrite while OriginalCall keeps the model's.
func TestUpdatedInputInFileOrder(t *testing.T) {
	var rec recorder
	log := filepath.Join(t.TempDir(), "seen")
	rewrite := claudeScript(t, "rewrite_timeout.py")
	_, run := claudeRun(t, &rec, claudeHost(t, &ccPerson{}), claudeSettings(t, map[string][]map[string]any{"PreToolUse": {
		ccGroup("Bash", rewrite, claudeScript(t, "record.sh", log)), ccGroup("Bash", rewrite)}}), ccToolNames)
	res, err := run.CallTool(bg, ccBash("make test"), func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		orig, _ := c.OriginalCall()
		rec.add("original:" + orig.Arguments["command"].(string))
		return ccShell(&rec)(c, call)
	})
	require.NoError(t, err)
	assert.Equal(t, "ran", res.Text)
	assert.Equal(t, []string{"original:make test", "ran:timeout 60 make test"}, rec.got(), "the second rewrite saw the first")
	data, err := os.ReadFile(log)
	require.NoError(t, err)
	assert.Contains(t, string(data), `"tool_input":{"command":"timeout 60 make test"}`)
}

// A script that prints its input back (cat) ends because stdin is closed,
// and its output, unknown keys only, is no opinion.
func TestCatEndsAndUnknownKeysAreIgnored(t *testing.T) {
	var rec recorder
	_, run := claudeRun(t, &rec, claudeHost(t, &ccPerson{}),
		claudeSettings(t, map[string][]map[string]any{"PreToolUse": {ccGroup("", "cat")}, "PostToolUse": {ccGroup("", "cat")}}))
	res, err := run.CallTool(bg, ccBash("ls"), ccShell(&rec))
	require.NoError(t, err)
	assert.Equal(t, hooks.ToolResult{Text: "ran"}, res)
	assert.Empty(t, rec.diagnostics())
}

// An exit code other than 0 and 2 fails open with a diagnostic naming the
// handler; with "failClosed" it refuses the call.
func TestOtherExitCodesFailOpen(t *testing.T) {
	for _, failClosed := range []bool{false, true} {
		var rec recorder
		settings, err := json.Marshal(map[string]any{"PreToolUse": []any{map[string]any{"hooks": []any{
			map[string]any{"type": "command", "command": ccEmit(t, "", "3", "oops"), "failClosed": failClosed}}}}})
		require.NoError(t, err)
		_, run := claudeRun(t, &rec, claudeHost(t, &ccPerson{}), settings)
		res, err := run.CallTool(bg, ccBash("ls"), ccShell(&rec))
		require.NoError(t, err)
		require.Len(t, rec.diagnostics(), 1)
		d := rec.diagnostics()[0]
		assert.Equal(t, "claude:PreToolUse", d.Hook)
		assert.Contains(t, d.Err.Error(), "PreToolUse[0].hooks[0]")
		assert.Contains(t, d.Err.Error(), "exit status 3: oops")
		if failClosed {
			assert.Equal(t, hooks.ToolResult{Text: "Tool call blocked: Claude Code hook PreToolUse[0].hooks[0] failed", IsError: true}, res)
		} else {
			assert.Equal(t, hooks.ToolResult{Text: "ran"}, res)
		}
	}
}

// "continue": false from a tool event refuses the call with stopReason and
// ends the run at the next model request; systemMessage reaches Notify.
func TestContinueFalseFromAToolEvent(t *testing.T) {
	var rec recorder
	p := &ccPerson{}
	out := `{"continue":false,"stopReason":"budget spent","systemMessage":"stopping the run"}`
	_, run := claudeRun(t, &rec, claudeHost(t, p),
		claudeSettings(t, map[string][]map[string]any{"PreToolUse": {ccGroup("", ccEmit(t, out, "0", ""))}}))
	res, err := run.CallTool(bg, ccBash("ls"), ccShell(&rec))
	require.NoError(t, err)
	assert.Equal(t, hooks.ToolResult{Text: "budget spent", IsError: true}, res)
	assert.Equal(t, []hooks.Notice{{Title: "Claude Code hook (PreToolUse)", Body: "stopping the run"}}, p.shown())
	step, err := run.BeforeModelRequest(bg, hooks.ModelRequest{Messages: []hooks.Message{{Role: "tool", Text: "budget spent"}}})
	require.NoError(t, err)
	require.NotNil(t, step.End)
	assert.Equal(t, "budget spent", step.End.Output)
	step, err = run.BeforeModelRequest(bg, hooks.ModelRequest{})
	require.NoError(t, err)
	assert.Nil(t, step.End, "the end is asked for once")
}

// Arguments JSON cannot carry exactly (NaN) never reach a handler changed:
// the handler fails, open by default, closed with "failClosed".
func TestArgumentsThatCannotBeSentFailTheHandler(t *testing.T) {
	for _, failClosed := range []bool{false, true} {
		var rec recorder
		settings, err := json.Marshal(map[string]any{"PreToolUse": []any{map[string]any{"hooks": []any{
			map[string]any{"type": "command", "command": "cat", "failClosed": failClosed}}}}})
		require.NoError(t, err)
		_, run := claudeRun(t, &rec, claudeHost(t, &ccPerson{}), settings)
		step, err := run.BeforeToolExecute(bg, hooks.ToolCall{Name: "calc", Arguments: map[string]any{"x": math.NaN()}})
		require.NoError(t, err)
		assert.Equal(t, failClosed, step.Refused)
		require.Len(t, rec.diagnostics(), 1)
		assert.Contains(t, rec.diagnostics()[0].Err.Error(), "cannot be sent as JSON")
	}
}
