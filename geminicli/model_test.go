package geminicli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// BeforeModel reads the request as Gemini CLI's stable LLMRequest
// (assistant messages as "model", tool results left out) and may rewrite
// its model and messages; the tool calls of a message it rewrote stay.
func TestBeforeModelRewritesTheRequest(t *testing.T) {
	var rec recorder
	log := filepath.Join(t.TempDir(), "log")
	g := group("", handler(script(t, "record.sh", log)), handler(script(t, "model.py", "swap")))
	g["sequential"] = true
	run := start(t, &rec, host(t, &rec), settings(t, map[string][]map[string]any{"BeforeModel": {g}}))
	call := hooks.ToolCall{ID: "t1", Name: "ls"}
	req := hooks.ModelRequest{System: "sys", Model: "gemini-2.5-pro", Messages: []hooks.Message{
		{Role: "user", Text: "list files"},
		{Role: "assistant", Text: "listing", ToolCalls: []hooks.ToolCall{call}},
		{Role: "tool", Text: "a.txt", ToolCallID: "t1"},
		{Role: "user", Text: "now read a.txt"},
	}}
	m := &model{reply: hooks.ModelResponse{Text: "done"}}
	_, err := run.CallModel(bg, req, m.call)
	require.NoError(t, err)

	ins, _ := records(t, log)
	require.Len(t, ins, 1)
	assert.Equal(t, map[string]any{"model": "gemini-2.5-pro", "config": map[string]any{}, "messages": []any{
		map[string]any{"role": "user", "content": "list files"},
		map[string]any{"role": "model", "content": "listing"},
		map[string]any{"role": "user", "content": "now read a.txt"},
	}}, ins[0]["llm_request"])

	require.Len(t, m.reqs, 1)
	sent := m.reqs[0]
	assert.Equal(t, "gemini-2.5-flash-lite", sent.Model)
	assert.Equal(t, "sys", sent.System)
	require.Len(t, sent.Messages, 4)
	assert.Equal(t, "NOW READ A.TXT", sent.Messages[3].Text)
	assert.Equal(t, []hooks.ToolCall{call}, sent.Messages[1].ToolCalls, "tool calls stay")
	assert.Equal(t, hooks.Message{Role: "tool", Text: "a.txt", ToolCallID: "t1"}, sent.Messages[2])
	assert.Empty(t, rec.errors())
}

// A BeforeModel deny with an llm_response answers without the model; a
// deny without one ends the run with its reason.
func TestBeforeModelAnswersOrBlocks(t *testing.T) {
	var rec recorder
	run := start(t, &rec, host(t, &rec), settings(t, map[string][]map[string]any{"BeforeModel": {group("", handler(script(t, "model.py", "mock")))}}))
	m := &model{}
	reply, err := run.CallModel(bg, user("hi"), m.call)
	require.NoError(t, err)
	assert.Empty(t, m.reqs)
	assert.Equal(t, hooks.ModelResponse{Text: "canned answer", StopReason: hooks.StopEndTurn,
		Usage: hooks.Usage{InputTokens: 3, OutputTokens: 2}}, reply.Response)

	run = start(t, &rec, host(t, &rec), settings(t, map[string][]map[string]any{"BeforeModel": {group("", handler(script(t, "model.py", "block")))}}))
	reply, err = run.CallModel(bg, user("hi"), m.call)
	require.NoError(t, err)
	require.NotNil(t, reply.End)
	assert.Equal(t, "quota exceeded", reply.End.Output)
	assert.Empty(t, m.reqs)
}

// BeforeModel and AfterModel merge by field replacement, as Gemini CLI's
// aggregator does: a later handler's "allow" overrides an earlier deny,
// in settings order, whichever finished first.
func TestModelEventsMergeByReplacement(t *testing.T) {
	var rec recorder
	deny := emit(t, `{"decision":"deny","reason":"no"}`, "0", "")
	allow := handler("sleep 0.2; echo '{\"decision\":\"allow\"}'")
	run := start(t, &rec, host(t, &rec), settings(t, map[string][]map[string]any{"BeforeModel": {group("", handler(deny), allow)}}))
	m := &model{reply: hooks.ModelResponse{Text: "ok"}}
	reply, err := run.CallModel(bg, user("hi"), m.call)
	require.NoError(t, err)
	assert.Nil(t, reply.End)
	assert.Equal(t, "ok", reply.Response.Text)
}

// AfterModel reads the reply as an LLMResponse and may replace its text
// (python); the guide's recording hook (node) sees request and reply.
func TestAfterModel(t *testing.T) {
	var rec recorder
	h := host(t, &rec)
	data := settings(t, map[string][]map[string]any{"AfterModel": {group("", handler(script(t, "redact.py")), handler(script(t, "record.js")))}})
	run := start(t, &rec, h, data)
	m := &model{reply: hooks.ModelResponse{Text: "the secret is 42", StopReason: hooks.StopEndTurn, Usage: hooks.Usage{InputTokens: 10, OutputTokens: 5}}}
	req := user("tell me")
	req.Model = "gemini-2.5-pro"
	reply, err := run.CallModel(bg, req, m.call)
	require.NoError(t, err)
	assert.Equal(t, "the [REDACTED] is 42", reply.Response.Text)

	data2, err := os.ReadFile(filepath.Join(h.Workdir, ".gemini", "memory", "session.jsonl"))
	require.NoError(t, err)
	var line map[string]any
	require.NoError(t, json.Unmarshal([]byte(strings.TrimSpace(string(data2))), &line))
	assert.Equal(t, "gemini-2.5-pro", line["request"].(map[string]any)["model"])
	assert.Equal(t, map[string]any{"text": "the secret is 42", "candidates": []any{map[string]any{
		"content": map[string]any{"role": "model", "parts": []any{"the secret is 42"}}, "finishReason": "STOP"}},
		"usageMetadata": map[string]any{"promptTokenCount": 10.0, "candidatesTokenCount": 5.0, "totalTokenCount": 15.0}}, line["response"])
	assert.Empty(t, rec.errors())
}

// An AfterModel deny ends the run with the reason.
func TestAfterModelDenyEnds(t *testing.T) {
	var rec recorder
	run := start(t, &rec, host(t, &rec), settings(t, map[string][]map[string]any{"AfterModel": {group("", handler(emit(t, "", "2", "unsafe reply")))}}))
	reply, err := run.CallModel(bg, user("hi"), (&model{reply: hooks.ModelResponse{Text: "x"}}).call)
	require.NoError(t, err)
	require.NotNil(t, reply.End)
	assert.Equal(t, "unsafe reply", reply.End.Output)
}

// The guide's BeforeToolSelection filter (node) narrows the tools offered
// to those it allows; several handlers' lists are united; "NONE" offers
// none.
func TestBeforeToolSelection(t *testing.T) {
	tools := []hooks.ToolSpec{{Name: "read"}, {Name: "ls"}, {Name: "shell"}, {Name: "write"}}
	names := map[string]string{"read": "read_file", "ls": "list_directory", "shell": "run_shell_command", "write": "write_file"}
	for _, tc := range []struct {
		name     string
		handlers []map[string]any
		prompt   string
		want     []string // nil: unchanged
	}{
		{"guide", []map[string]any{handler(script(t, "filter-tools.js"))}, "please read the config", []string{"read", "ls"}},
		{"guide, no intent", []map[string]any{handler(script(t, "filter-tools.js"))}, "hello", nil},
		{"union", []map[string]any{handler(script(t, "filter-tools.js")),
			handler(emit(t, `{"hookSpecificOutput":{"toolConfig":{"mode":"AUTO","allowedFunctionNames":["write_file"]}}}`, "0", ""))},
			"please read", []string{"read", "ls", "write"}},
		{"none wins", []map[string]any{handler(script(t, "filter-tools.js")),
			handler(emit(t, `{"hookSpecificOutput":{"toolConfig":{"mode":"NONE"}}}`, "0", ""))}, "please read", []string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var rec recorder
			run := start(t, &rec, host(t, &rec), settings(t, map[string][]map[string]any{"BeforeToolSelection": {group("", tc.handlers...)}}),
				geminiNames(names))
			req := user(tc.prompt)
			req.Tools = tools
			m := &model{}
			_, err := run.CallModel(bg, req, m.call)
			require.NoError(t, err)
			require.Len(t, m.reqs, 1)
			if tc.want == nil {
				assert.Equal(t, tools, m.reqs[0].Tools)
				return
			}
			got := []string{}
			for _, ts := range m.reqs[0].Tools {
				got = append(got, ts.Name)
			}
			assert.Equal(t, tc.want, got)
		})
	}
}
