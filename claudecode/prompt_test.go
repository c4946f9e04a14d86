package claudecode_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/claudecode"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// judge is a host's model for prompt handlers: it keeps each request and
// answers by what the prompt holds.
type judge struct {
	mu   sync.Mutex
	reqs []hooks.ModelRequest
}

func (j *judge) model(_ *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
	j.mu.Lock()
	j.reqs = append(j.reqs, req)
	j.mu.Unlock()
	text := req.Messages[0].Text
	switch {
	case strings.Contains(text, "rm -rf"):
		return hooks.ModelResponse{Text: "```json\n{\"ok\": false, \"reason\": \"rm -rf is destructive\"}\n```"}, nil
	case strings.Contains(text, "mumble"):
		return hooks.ModelResponse{Text: "I think it is fine."}, nil
	case strings.Contains(text, `"hook_event_name":"Stop"`) && !strings.Contains(text, "tests pass"):
		return hooks.ModelResponse{Text: `{"ok": false, "reason": "Run the tests first."}`}, nil
	}
	return hooks.ModelResponse{Text: `{"ok": true}`}, nil
}

// A "prompt" handler asks the host's model (Model) with its prompt,
// $ARGUMENTS replaced by the hook's JSON input, and the handler's model
// named; {"ok": false} refuses a tool call or sends a Stop on with the
// reason, {"ok": true} lets it be, and an answer that is not the JSON
// asked for is a diagnostic and the call goes on.
func TestPromptHandlersAskTheHostsModel(t *testing.T) {
	var rec recorder
	var j judge
	settings := []byte(`{"hooks":{
		"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"prompt","model":"claude-haiku","prompt":"Is this command safe? $ARGUMENTS"}]}],
		"Stop":[{"hooks":[{"type":"prompt","prompt":"Has the work been verified?"}]}]}}`)
	_, run := claudeRun(t, &rec, claudeHost(t, &ccPerson{}), settings, ccToolNames, claudecode.Model(j.model))
	res, err := run.CallTool(bg, ccBash("rm -rf /"), ccShell(&rec))
	require.NoError(t, err)
	assert.Equal(t, hooks.ToolResult{Text: "rm -rf is destructive", IsError: true}, res)
	_, err = run.CallTool(bg, ccBash("ls"), ccShell(&rec))
	require.NoError(t, err)
	_, err = run.CallTool(bg, ccBash("mumble"), ccShell(&rec))
	require.NoError(t, err)
	assert.Equal(t, []string{"ran:ls", "ran:mumble"}, rec.got())
	assert.Contains(t, diagnosed(&rec), `the model's answer is not {"ok": true|false`)

	_, reply := ccTurn(t, run, []hooks.Message{{Role: "user", Text: "fix it"}}, "Fixed.")
	assert.Equal(t, "Run the tests first.", reply.Continue)
	_, reply = ccTurn(t, run, []hooks.Message{{Role: "user", Text: "fix it"}, {Role: "assistant", Text: "Fixed."},
		{Role: "user", Text: reply.Continue}}, "Done, tests pass.")
	assert.Empty(t, reply.Continue)

	require.GreaterOrEqual(t, len(j.reqs), 4)
	first := j.reqs[0]
	assert.Equal(t, "claude-haiku", first.Model)
	assert.True(t, strings.HasPrefix(first.Messages[0].Text, `Is this command safe? {"session_id":"sess-1"`), first.Messages[0].Text)
	assert.Contains(t, first.Messages[0].Text, `"tool_input":{"command":"rm -rf /"}`)
	assert.Contains(t, j.reqs[3].Messages[0].Text, "Has the work been verified?\n\n{", "no $ARGUMENTS: the input is appended")
}

// Without Model, a "prompt" handler is skipped with a diagnostic; an
// "agent" handler is skipped either way, saying why.
func TestPromptWithoutAModelAndAgentAreSkipped(t *testing.T) {
	var rec recorder
	var j judge
	settings := []byte(`{"PreToolUse":[{"hooks":[{"type":"prompt","prompt":"ok?"},{"type":"agent","prompt":"check the tests"}]}]}`)
	hs, err := claudecode.Hooks(settings, claudecode.Diagnostics(rec.diagnose))
	require.NoError(t, err)
	assert.Empty(t, hs)
	d := diagnosed(&rec)
	assert.Contains(t, d, `hooks.PreToolUse[0].hooks[0]: handler type "prompt" not run by this library, skipped`)
	assert.Contains(t, d, `hooks.PreToolUse[0].hooks[1]: handler type "agent" not run by this library, skipped: it needs a subagent with tools`)

	hs, err = claudecode.Hooks(settings, claudecode.Diagnostics(rec.diagnose), claudecode.Model(j.model))
	require.NoError(t, err)
	assert.Len(t, hs, 1)
	_, err = claudecode.Hooks([]byte(`{"Stop":[{"hooks":[{"type":"prompt"}]}]}`), claudecode.Model(j.model))
	assert.ErrorContains(t, err, "hooks.Stop[0].hooks[0].prompt: missing")
}
