package genai_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/rienda/hooks"
	hooksgenai "github.com/rienda/hooks/adapters/genai"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStreamModelDeliversChunksAndAssemblesTheReply(t *testing.T) {
	api := newFakeAPI(t, streamReply([]string{"Hello", ", ", "world"}))
	got := &received{}
	reply, r, err := hooksgenai.StreamModel(context.Background(), startRun(t), api.client.Models, userParams("hi"), got.Deliver)
	require.NoError(t, err)
	assert.Equal(t, "/v1/models/gemini-test:streamGenerateContent", api.path(0))
	assert.Equal(t, []hooks.Chunk{{Text: "Hello"}, {Text: ", "}, {Text: "world"}}, got.Chunks())
	assert.Equal(t, "Hello, world", reply.Response.Text)
	assert.Equal(t, hooks.StopEndTurn, reply.Response.StopReason)
	assert.Equal(t, int64(11), reply.Response.Usage.InputTokens)
	content, err := hooksgenai.AssistantMessage(r, reply.Response)
	require.NoError(t, err)
	require.Len(t, content.Parts, 1, "the text chunks make one part")
	assert.Equal(t, "Hello, world", content.Parts[0].Text)
}

func TestStreamModelKeepsASecretOutOfEveryChunk(t *testing.T) {
	text := "Here is the key: " + secret + " and once more " + secret + "."
	for _, size := range []int{1, 3, 7, 16, len(text)} {
		api := newFakeAPI(t, streamReply(split(text, size)))
		got := &received{}
		reply, r, err := hooksgenai.StreamModel(context.Background(), startRun(t, redactor{}), api.client.Models, userParams("key?"), got.Deliver)
		require.NoError(t, err)
		for _, ch := range got.Chunks() {
			assert.NotContains(t, ch.Text, "sk-live", "chunk size %d", size)
		}
		assert.Equal(t, "Here is the key: [REDACTED] and once more [REDACTED].", got.Text(), "chunk size %d", size)
		rec, err := hooksgenai.AssistantMessage(r, reply.Response)
		require.NoError(t, err)
		raw, err := json.Marshal(rec)
		require.NoError(t, err)
		assert.NotContains(t, string(raw), secret, "the recorded reply is redacted too")
	}
}

func TestStreamModelDeliversFunctionCallsWithIDs(t *testing.T) {
	api := newFakeAPI(t, streamReply([]string{"Reading."}, call{"", "read", `{"path":"a"}`}, call{"fc_2", "read", `{"path":"b"}`}))
	got := &received{}
	reply, _, err := hooksgenai.StreamModel(context.Background(), startRun(t), api.client.Models, userParams("read", "read"), got.Deliver)
	require.NoError(t, err)
	require.Len(t, got.Chunks(), 3)
	first, second := got.Chunks()[1].ToolCall, got.Chunks()[2].ToolCall
	require.NotNil(t, first)
	require.NotNil(t, second)
	assert.Equal(t, 0, first.Index)
	assert.NotEmpty(t, first.ID, "a call without an ID gets one as it streams")
	assert.Equal(t, hooks.ToolCallDelta{Index: 1, ID: "fc_2", Name: "read", Arguments: `{"path":"b"}`}, *second)
	require.Len(t, reply.Response.ToolCalls, 2)
	assert.Equal(t, first.ID, reply.Response.ToolCalls[0].ID, "the delta's ID is the call's")
	assert.Equal(t, hooks.StopToolUse, reply.Response.StopReason)
}

func TestStreamModelEndStopsBeforeTheStreamOpens(t *testing.T) {
	api := newFakeAPI(t)
	end := hooks.Funcs{HookName: "end", BeforeModelRequest: func(*hooks.Context, hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
		return &hooks.ModelRequestPatch{End: &hooks.End{Output: "stopped"}}, nil
	}}
	reply, r, err := hooksgenai.StreamModel(context.Background(), startRun(t, end), api.client.Models, userParams("hi"), (&received{}).Deliver)
	require.NoError(t, err)
	require.NotNil(t, reply.End)
	assert.Equal(t, "stopped", reply.End.Output)
	assert.Nil(t, r)
	assert.Empty(t, api.requests())
}

func TestStreamModelStopsWhenDeliverFails(t *testing.T) {
	api := newFakeAPI(t, streamReply([]string{"a", "b", "c"}))
	stop := errors.New("client gone")
	n := 0
	_, _, err := hooksgenai.StreamModel(context.Background(), startRun(t), api.client.Models, userParams("hi"), func(hooks.Chunk) error {
		n++
		return stop
	})
	require.ErrorIs(t, err, stop)
	assert.Equal(t, 1, n, "no chunk after the failed one")
}

func TestLoopRunStreamStreamsEveryTurnThroughTheHooks(t *testing.T) {
	api := newFakeAPI(t, streamReply(nil, call{"fc_1", "env", `{}`}), streamReply(split("The key is "+secret+".", 5)))
	env := &toolLog{result: hooks.ToolResult{Text: "KEY=" + secret}}
	run := startRun(t, redactor{})
	loop := hooksgenai.Loop{Models: api.client.Models, Tools: map[string]hooksgenai.Tool{"env": env.tool}}
	got := &received{}
	res, err := loop.RunStream(context.Background(), run, userParams("key?", "env"), got.Deliver)
	run.End(context.Background(), hooks.RunEnd{Output: res.Output, Err: err})
	require.NoError(t, err)
	assert.Equal(t, 2, res.Turns)
	assert.Equal(t, "The key is [REDACTED].", res.Output)
	assert.Equal(t, "The key is [REDACTED].", got.Text())
	for _, ch := range got.Chunks() {
		assert.NotContains(t, ch.Text, "sk-live")
	}
	require.Len(t, env.calls, 1)
	for i := range 2 {
		assert.Equal(t, "/v1/models/gemini-test:streamGenerateContent", api.path(i))
	}
}
