package eino_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
	"github.com/rienda/hooks"
	eino "github.com/rienda/hooks/adapters/eino"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// toolsNode is eino's tool node with the hooks' middleware.
func toolsNode(t testing.TB, tools ...tool.BaseTool) *compose.ToolsNode {
	t.Helper()
	node, err := compose.NewToolNode(context.Background(), &compose.ToolsNodeConfig{
		Tools: tools, ToolCallMiddlewares: []compose.ToolMiddleware{eino.ToolMiddleware()}})
	require.NoError(t, err)
	return node
}

func TestWithoutARunInTheContextNothingRuns(t *testing.T) {
	add := addTool()
	_, err := toolsNode(t, add).Invoke(context.Background(),
		schema.AssistantMessage("", []schema.ToolCall{call("c1", "add", `{}`)}))
	require.ErrorIs(t, err, eino.ErrNoRun)
	assert.Contains(t, err.Error(), `tool "add"`)
	assert.Contains(t, err.Error(), "hooks.ContextWithRun")
	assert.Zero(t, add.calls.Load())

	m := &scriptedModel{replies: []*schema.Message{schema.AssistantMessage("ok", nil)}}
	_, err = eino.WrapModel(m).Generate(context.Background(), []*schema.Message{schema.UserMessage("hi")})
	require.ErrorIs(t, err, eino.ErrNoRun)
	assert.Empty(t, m.sent())
}

func TestAFailingHookFailsTheAgentAndTheRun(t *testing.T) {
	var audit afterRuns
	broken := hooks.Funcs{HookName: "policy", BeforeToolExecute: func(*hooks.Context, hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		return nil, errors.New("policy store unreachable")
	}}
	ctx, run := startRun(t, broken, audit.hook())
	m := &scriptedModel{replies: []*schema.Message{
		schema.AssistantMessage("", []schema.ToolCall{call("c1", "add", `{"a":1}`)}), schema.AssistantMessage("never", nil)}}
	add := addTool()
	runner := adk.NewRunner(ctx, adk.RunnerConfig{Agent: newAgent(t, m, add)})

	_, _, err := drain(t, runner.Query(ctx, "add"))
	run.End(ctx, hooks.RunEnd{Err: err})

	require.ErrorIs(t, err, hooks.ErrHookFailed, "eino keeps the hook's error")
	assert.Contains(t, err.Error(), "policy store unreachable")
	assert.Zero(t, add.calls.Load())
	assert.Len(t, m.sent(), 1, "the agent stops")
	assert.Equal(t, int32(1), audit.n.Load())
	assert.Equal(t, hooks.Failed, audit.last().Outcome)
}

func TestArgumentsTheHooksCannotReadNeverReachTheTool(t *testing.T) {
	var seen []map[string]any
	var mu sync.Mutex
	look := hooks.Funcs{HookName: "look", BeforeToolExecute: func(_ *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		mu.Lock()
		seen = append(seen, call.Arguments)
		mu.Unlock()
		if call.Name == "fix" {
			return &hooks.ToolCallPatch{Arguments: map[string]any{"a": 1}}, nil
		}
		return nil, nil
	}}
	ctx, _ := startRun(t, look)
	add, fix := addTool(), addTool()
	fix.name = "fix"
	out, err := toolsNode(t, add, fix).Invoke(ctx, schema.AssistantMessage("", []schema.ToolCall{
		call("c1", "add", `{"a":`), call("c2", "add", `{"path":"/tmp","PATH":"/etc"}`), call("c3", "fix", `{"a":`)}))
	require.NoError(t, err)
	require.Len(t, out, 3)

	assert.Contains(t, seen, map[string]any{hooks.InvalidArgumentsKey: `{"a":`}, "the hooks see the model's text")
	assert.Zero(t, add.calls.Load(), "the tool never runs arguments the hooks could not read")
	assert.Contains(t, out[0].Content, "not a JSON object", "the model reads why")
	assert.Contains(t, out[1].Content, "appears twice")
	assert.Equal(t, `{"a":1}`, fix.gotArgs(), "arguments a hook rewrote run")
}

// streamTool streams its answer in pieces that split the secret.
type streamTool struct{}

func (streamTool) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{Name: "tail", Desc: "streams"}, nil
}

func (streamTool) StreamableRun(context.Context, string, ...tool.Option) (*schema.StreamReader[string], error) {
	return schema.StreamReaderFromArray([]string{"log: SECR", "ET-42 end"}), nil
}

func TestAStreamedResultIsRedactedWhole(t *testing.T) {
	redactor := hooks.Funcs{HookName: "redact", AfterToolExecute: func(_ *hooks.Context, _ hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
		text := strings.ReplaceAll(res.Text, secret, "[redacted]")
		return &hooks.ToolResultPatch{Text: &text}, nil
	}}
	ctx, _ := startRun(t, redactor)
	node := toolsNode(t, streamTool{})
	in := schema.AssistantMessage("", []schema.ToolCall{call("c1", "tail", `{}`)})

	out, err := node.Invoke(ctx, in)
	require.NoError(t, err)
	require.Len(t, out, 1)
	assert.Equal(t, "log: [redacted] end", out[0].Content)

	sr, err := node.Stream(ctx, in)
	require.NoError(t, err)
	chunks, err := sr.Recv()
	require.NoError(t, err)
	sr.Close()
	assert.Equal(t, "log: [redacted] end", chunks[0].Content)
}

func TestAStructuredCachedAnswerAndABadValue(t *testing.T) {
	report := &partsTool{name: "report", result: &schema.ToolResult{Parts: []schema.ToolOutputPart{{Type: schema.ToolPartTypeText, Text: "fresh"}}}}
	cache := hooks.Funcs{HookName: "cache", BeforeToolExecute: func(*hooks.Context, hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		return &hooks.ToolCallPatch{Result: &hooks.ToolResult{Text: "cached"}}, nil
	}}
	ctx, _ := startRun(t, cache)
	in := schema.AssistantMessage("", []schema.ToolCall{call("c1", "report", `{}`)})
	out, err := toolsNode(t, report).Invoke(ctx, in)
	require.NoError(t, err)
	require.Len(t, out[0].UserInputMultiContent, 1)
	assert.Equal(t, "cached", out[0].UserInputMultiContent[0].Text)

	bad := hooks.Funcs{HookName: "bad", AfterToolExecute: func(*hooks.Context, hooks.ToolCall, hooks.ToolResult) (*hooks.ToolResultPatch, error) {
		return &hooks.ToolResultPatch{Value: "not parts"}, nil
	}}
	ctx, _ = startRun(t, bad)
	_, err = toolsNode(t, report).Invoke(ctx, in)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `tool "report": the result's Value is not a schema.ToolResult`)
}

func TestWrappingANilModelIsAnError(t *testing.T) {
	ctx, _ := startRun(t)
	_, err := eino.WrapModel(nil).Generate(ctx, []*schema.Message{schema.UserMessage("hi")})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "WrapModel was given a nil model")
}

// partsStreamTool streams a structured result whose text and image both
// hold the secret.
type partsStreamTool struct{}

func (partsStreamTool) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{Name: "shot", Desc: "streams parts"}, nil
}

func (partsStreamTool) StreamableRun(context.Context, *schema.ToolArgument, ...tool.Option) (*schema.StreamReader[*schema.ToolResult], error) {
	url := "https://img.example/" + secret + ".png"
	return schema.StreamReaderFromArray([]*schema.ToolResult{
		{Parts: []schema.ToolOutputPart{{Type: schema.ToolPartTypeText, Text: "shot of " + secret}}},
		{Parts: []schema.ToolOutputPart{{Type: schema.ToolPartTypeImage, Image: &schema.ToolOutputImage{MessagePartCommon: schema.MessagePartCommon{URL: &url}}}}},
	}), nil
}

func TestAStreamedStructuredResultIsRedactedInValue(t *testing.T) {
	valueOnly := hooks.Funcs{HookName: "redact", AfterToolExecute: func(_ *hooks.Context, _ hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
		return &hooks.ToolResultPatch{Value: redact(res.Value, secret)}, nil
	}}
	ctx, _ := startRun(t, valueOnly)
	out, err := toolsNode(t, partsStreamTool{}).Invoke(ctx, schema.AssistantMessage("", []schema.ToolCall{call("c1", "shot", `{}`)}))
	require.NoError(t, err)
	parts := out[0].UserInputMultiContent
	require.Len(t, parts, 2)
	assert.Equal(t, "shot of [redacted]", parts[0].Text, "a Value-only redaction reaches the text too")
	assert.Equal(t, "https://img.example/[redacted].png", *parts[1].Image.URL)
}
