package prebuilt_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/prebuilt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lines decodes JSON lines.
func lines(t *testing.T, data string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(data), "\n") {
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(l), &m), l)
		out = append(out, m)
	}
	return out
}

func TestAuditWritesEveryCallAndDecisionRedacted(t *testing.T) {
	var buf bytes.Buffer
	audit := prebuilt.Audit(prebuilt.AuditConfig{Writer: &buf})
	guard := hooks.Funcs{HookName: "guard", BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		if call.Name == "deploy" {
			return hooks.Refuse("not with key " + openaiKey), nil
		}
		return nil, nil
	}}
	chain, err := hooks.NewChain([]hooks.Hook{audit, guard}, hooks.WithTrace(audit.Trace))
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), hooks.Host{Env: map[string]string{}}, hooks.RunStart{RunID: "r1", Input: "mail a@example.com"})
	require.NoError(t, err)
	_, err = run.CallTool(context.Background(), hooks.ToolCall{ID: "c1", Name: "read", Arguments: map[string]any{"token": githubToken}},
		func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
			return hooks.ToolResult{Text: "12345"}, nil
		})
	require.NoError(t, err)
	_, err = run.CallTool(context.Background(), hooks.ToolCall{ID: "c2", Name: "deploy"}, ok)
	require.NoError(t, err)
	_, err = run.CallTool(context.Background(), hooks.ToolCall{ID: "c3", Name: "fetch"}, failing(errors.New("GET with "+awsKey+" failed")))
	require.Error(t, err)
	_, err = run.CallModel(context.Background(), hooks.ModelRequest{Model: "m", Messages: []hooks.Message{{Role: "user", Text: "hi"}}},
		func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
			return hooks.ModelResponse{Text: "hello", Usage: hooks.Usage{InputTokens: 5, OutputTokens: 2}, StopReason: hooks.StopEndTurn}, nil
		})
	require.NoError(t, err)
	run.End(context.Background(), hooks.RunEnd{})

	out := buf.String()
	for _, secret := range []string{openaiKey, githubToken, awsKey, "a@example.com"} {
		assert.NotContains(t, out, secret)
	}
	recs := lines(t, out)
	var events []string
	for _, r := range recs {
		events = append(events, r["event"].(string))
		assert.NotEmpty(t, r["time"])
	}
	assert.Equal(t, []string{"run.start", "tool.request", "tool.call", "tool.request", "decision", "tool.request", "tool.call", "model.call", "run.end"}, events)
	assert.Equal(t, "mail [REDACTED:email]", recs[0]["input"])
	assert.Equal(t, "read", recs[1]["tool"])
	assert.JSONEq(t, `{"token":"[REDACTED:github_token]"}`, recs[1]["arguments"].(string))
	assert.EqualValues(t, 5, recs[2]["resultBytes"])
	assert.Contains(t, recs[2], "durationMs")
	assert.Equal(t, "refused", recs[4]["decision"])
	assert.Equal(t, "guard", recs[4]["hook"])
	assert.Equal(t, "c2", recs[4]["callId"])
	assert.Equal(t, "not with key [REDACTED:openai_key]", recs[4]["reason"])
	assert.Equal(t, "GET with [REDACTED:aws_key] failed", recs[6]["error"])
	assert.Equal(t, "m", recs[7]["model"])
	assert.EqualValues(t, 5, recs[7]["inputTokens"])
	assert.Equal(t, "end_turn", recs[7]["stopReason"])
	assert.Equal(t, "completed", recs[8]["outcome"])
}

func TestAuditToASlogHandler(t *testing.T) {
	var buf bytes.Buffer
	audit := prebuilt.Audit(prebuilt.AuditConfig{Handler: slog.NewJSONHandler(&buf, nil)})
	_, run := start(t, audit)
	callTool(t, run, "read", map[string]any{"p": "sk-ant-" + strings.Repeat("x", 30)})
	recs := lines(t, buf.String())
	require.Len(t, recs, 3)
	assert.Equal(t, "tool.request", recs[1]["msg"])
	assert.Equal(t, `{"p":"[REDACTED:anthropic_key]"}`, recs[1]["arguments"])
	assert.Equal(t, "tool.call", recs[2]["msg"])
}

func TestAuditLinesAreJSONWhateverTheText(t *testing.T) {
	for _, in := range []string{"plain", `quote " and \ backslash`, "line\nbreak\ttab\r\x00\x1f", "héllo ✓ 日本", "bad \xff utf-8", "</script>&", "\u2028"} {
		var buf bytes.Buffer
		audit := prebuilt.Audit(prebuilt.AuditConfig{Writer: &buf})
		chain, err := hooks.NewChain([]hooks.Hook{audit})
		require.NoError(t, err)
		run, err := chain.Start(context.Background(), hooks.Host{Env: map[string]string{}}, hooks.RunStart{RunID: "r", Input: in})
		require.NoError(t, err)
		run.End(context.Background(), hooks.RunEnd{})
		recs := lines(t, buf.String())
		require.Len(t, recs, 2, "%q", in)
		assert.Equal(t, strings.ToValidUTF8(in, "\uFFFD"), recs[0]["input"], "%q", in)
	}
}
