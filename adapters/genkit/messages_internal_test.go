package genkit

import (
	"testing"

	"github.com/firebase/genkit/go/ai"
	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// conversation is a genkit history: a system prompt, a user message, a
// reply asking for two tools, and the tool message answering both.
func conversation() []*ai.Message {
	return []*ai.Message{
		ai.NewSystemTextMessage("sys"),
		ai.NewUserTextMessage("hi"),
		ai.NewModelMessage(
			ai.NewToolRequestPart(&ai.ToolRequest{Ref: "c1", Name: "a", Input: map[string]any{"x": 1.0}}),
			ai.NewToolRequestPart(&ai.ToolRequest{Ref: "c2", Name: "b", Input: map[string]any{}})),
		{Role: ai.RoleTool, Content: []*ai.Part{
			ai.NewToolResponsePart(&ai.ToolResponse{Ref: "c1", Name: "a", Output: "one"}),
			ai.NewToolResponsePart(&ai.ToolResponse{Ref: "c2", Name: "b", Output: map[string]any{"n": 2.0}}),
		}},
	}
}

func TestUnchangedMessagesComeBackAsGenkitsOwnValues(t *testing.T) {
	in := conversation()
	req, system := toRequest(in)
	require.Len(t, req.Messages, 4, "one hooks message per tool response")
	assert.Equal(t, "sys", req.System)
	assert.Equal(t, "c2", req.Messages[3].ToolCallID)
	assert.Equal(t, `{"n":2}`, req.Messages[3].Text, "a structured output reads as its JSON")
	assert.Equal(t, "assistant", req.Messages[1].Role)
	assert.Equal(t, map[string]any{"x": 1.0}, req.Messages[1].ToolCalls[0].Arguments)

	out, err := fromRequest(req, system)
	require.NoError(t, err)
	require.Len(t, out, 4)
	for i := range in {
		assert.Same(t, in[i], out[i], "message %d", i)
	}
}

func TestAChangedToolResponseSplitsItsMessage(t *testing.T) {
	in := conversation()
	req, system := toRequest(in)
	req.Messages[3].Text = "[redacted]"

	out, err := fromRequest(req, system)
	require.NoError(t, err)
	require.Len(t, out, 5)
	assert.Equal(t, ai.RoleTool, out[3].Role)
	assert.Same(t, in[3].Content[0], out[3].Content[0], "the unchanged response keeps genkit's part")
	require.Len(t, out[4].Content, 1)
	got := out[4].Content[0].ToolResponse
	assert.Equal(t, &ai.ToolResponse{Ref: "c2", Name: "b", Output: "[redacted]"}, got)
	assert.Equal(t, map[string]any{"n": 2.0}, in[3].Content[1].ToolResponse.Output, "genkit's message is not modified")
}

func TestAHookWrittenToolMessageNamesItsTool(t *testing.T) {
	req := hooks.ModelRequest{Messages: []hooks.Message{
		{Role: "assistant", ToolCalls: []hooks.ToolCall{{ID: "k", Name: "shell", Arguments: map[string]any{"command": "ls"}}}},
		{Role: "tool", ToolCallID: "k", Text: "ok"},
		{Role: "robot", Text: "?"},
	}}
	_, err := fromRequest(req, nil)
	require.ErrorContains(t, err, `message 2 (robot): unknown role "robot"`)

	req.Messages = req.Messages[:2]
	out, err := fromRequest(req, nil)
	require.NoError(t, err)
	require.Len(t, out, 2)
	assert.Equal(t, ai.RoleModel, out[0].Role)
	assert.Equal(t, &ai.ToolRequest{Ref: "k", Name: "shell", Input: map[string]any{"command": "ls"}}, out[0].Content[0].ToolRequest)
	assert.Equal(t, &ai.ToolResponse{Ref: "k", Name: "shell", Output: "ok"}, out[1].Content[0].ToolResponse)
}

func TestSystemChanges(t *testing.T) {
	in := conversation()[:2]
	req, system := toRequest(in)
	req.System = "new"
	out, err := fromRequest(req, system)
	require.NoError(t, err)
	assert.Equal(t, "new", out[0].Text())
	assert.Equal(t, "sys", in[0].Text(), "genkit's message is not modified")

	req.System = ""
	out, err = fromRequest(req, system)
	require.NoError(t, err)
	require.Len(t, out, 1)
	assert.Equal(t, ai.RoleUser, out[0].Role)
}

func TestStopReasons(t *testing.T) {
	assert.Equal(t, hooks.StopToolUse, stopReason(ai.FinishReasonStop, true))
	assert.Equal(t, hooks.StopEndTurn, stopReason(ai.FinishReasonStop, false))
	assert.Equal(t, hooks.StopMaxTokens, stopReason(ai.FinishReasonLength, false))
	assert.Equal(t, hooks.StopContentFilter, stopReason(ai.FinishReasonBlocked, false))
	assert.Equal(t, hooks.StopReason("interrupted"), stopReason(ai.FinishReasonInterrupted, false))
}
