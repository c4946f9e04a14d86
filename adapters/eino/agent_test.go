package eino_test

import (
	"context"
	"encoding/json"
	"maps"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
	"github.com/rienda/hooks"
	eino "github.com/rienda/hooks/adapters/eino"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const secret = "SECRET-42"

// agentCase is one ChatModelAgent with six parallel tool calls, every hook
// of the scenario, and what it saw.
type agentCase struct {
	model                      *scriptedModel
	deleteTool, readTool       *textTool
	weatherTool, addTool, echo *textTool
	report                     *partsTool
	audit                      afterRuns
	userMsg, toolCallMsg       *schema.Message
	mu                         sync.Mutex
	requests                   []hooks.ModelRequest // as the hooks saw them
	handler                    bool                 // through eino.Middleware, not WrapModel and ToolMiddleware
}

// echoArgs is the arguments of the echo call: spacing and a number past
// float64's precision that only an untouched text keeps.
const echoArgs = `{"n": 9007199254740993}`

func newAgentCase() *agentCase {
	a := &agentCase{userMsg: schema.UserMessage("do the six things")}
	a.toolCallMsg = schema.AssistantMessage("", []schema.ToolCall{
		call("c1", "delete", `{"path":"/etc"}`),
		call("c2", "read", `{"path":"notes.txt"}`),
		call("c3", "weather", `{"city":"Paris"}`),
		call("c4", "add", `{"a":1,"b":2}`),
		call("c5", "echo", echoArgs),
		call("c6", "report", `{}`),
	})
	a.model = &scriptedModel{replies: []*schema.Message{a.toolCallMsg, schema.AssistantMessage("fini", nil)}}
	// read and add wait for each other: the test hangs (and fails at its
	// deadline) unless eino runs the calls in parallel.
	readIn, addIn := make(chan struct{}), make(chan struct{})
	meet := func(ctx context.Context, mine, theirs chan struct{}) error {
		close(mine)
		select {
		case <-theirs:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	a.deleteTool = &textTool{name: "delete", run: func(context.Context, string) (string, error) { return "deleted", nil }}
	a.readTool = &textTool{name: "read", run: func(ctx context.Context, _ string) (string, error) {
		return "the key is " + secret, meet(ctx, readIn, addIn)
	}}
	a.weatherTool = &textTool{name: "weather", run: func(context.Context, string) (string, error) { return "rain", nil }}
	a.addTool = &textTool{name: "add", run: func(ctx context.Context, args string) (string, error) {
		var in struct{ A, B int }
		if err := json.Unmarshal([]byte(args), &in); err != nil {
			return "", err
		}
		return jsonInt(in.A + in.B), meet(ctx, addIn, readIn)
	}}
	a.echo = &textTool{name: "echo", run: func(_ context.Context, args string) (string, error) { return args, nil }}
	url := "https://files.example/" + secret + ".png"
	a.report = &partsTool{name: "report", result: &schema.ToolResult{Parts: []schema.ToolOutputPart{
		{Type: schema.ToolPartTypeText, Text: "report: " + secret},
		{Type: schema.ToolPartTypeImage, Image: &schema.ToolOutputImage{MessagePartCommon: schema.MessagePartCommon{URL: &url}}},
	}}}
	return a
}

func jsonInt(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// hooks are, in list order: a redaction (first, so that it also redacts a
// cached answer), a guard, an argument rewrite, a cache, a system-prompt
// injection, and an audit.
func (a *agentCase) hooks() []hooks.Hook {
	return []hooks.Hook{
		hooks.Funcs{HookName: "redact", AfterToolExecute: func(_ *hooks.Context, _ hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
			text := strings.ReplaceAll(res.Text, secret, "[redacted]")
			return &hooks.ToolResultPatch{Text: &text, Value: redact(res.Value, secret)}, nil
		}},
		hooks.Funcs{HookName: "guard", BeforeToolExecute: func(_ *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			if call.Name == "delete" {
				return hooks.Refuse("deleting files is not allowed"), nil
			}
			return nil, nil
		}},
		hooks.Funcs{HookName: "rewrite", BeforeToolExecute: func(_ *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			if call.Name == "add" {
				return &hooks.ToolCallPatch{Arguments: map[string]any{"a": call.Arguments["a"], "b": 40}}, nil
			}
			return nil, nil
		}},
		hooks.Funcs{HookName: "cache", BeforeToolExecute: func(_ *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			if call.Name == "weather" {
				return &hooks.ToolCallPatch{Result: &hooks.ToolResult{Text: "cached: sunny, " + secret}}, nil
			}
			return nil, nil
		}},
		hooks.Funcs{HookName: "system", BeforeModelRequest: func(_ *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
			a.mu.Lock()
			a.requests = append(a.requests, req)
			a.mu.Unlock()
			system := req.System + "\nAnswer in French."
			return &hooks.ModelRequestPatch{System: &system}, nil
		}},
		a.audit.hook(),
	}
}

func (a *agentCase) agent(t *testing.T, ctx context.Context) *adk.ChatModelAgent {
	tools := []tool.BaseTool{a.deleteTool, a.readTool, a.weatherTool, a.addTool, a.echo, a.report}
	cfg := &adk.ChatModelAgentConfig{
		Name: "helper", Description: "helps", Instruction: "You are a helper.",
		Model: eino.WrapModel(a.model),
		ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{
			Tools:               tools,
			ToolCallMiddlewares: []compose.ToolMiddleware{eino.ToolMiddleware()},
		}},
	}
	if a.handler {
		cfg.Model = a.model
		cfg.ToolsConfig = adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{Tools: tools}}
		cfg.Handlers = []adk.ChatModelAgentMiddleware{eino.Middleware()}
	}
	agent, err := adk.NewChatModelAgent(ctx, cfg)
	require.NoError(t, err)
	return agent
}

func TestAChatModelAgentRunsItsParallelToolCallsAndModelCallsThroughTheHooks(t *testing.T) {
	for _, handler := range []bool{false, true} {
		for _, streaming := range []bool{false, true} {
			name := map[bool]string{false: "wrappers/", true: "middleware/"}[handler] + map[bool]string{false: "generate", true: "stream"}[streaming]
			t.Run(name, func(t *testing.T) { runAgentCase(t, handler, streaming) })
		}
	}
}

func runAgentCase(t *testing.T, handler, streaming bool) {
	{
		{
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second) // a failure guard, not a wait
			defer cancel()
			a := newAgentCase()
			a.handler = handler
			hctx, run := startRun(t, a.hooks()...)
			ctx = hooks.ContextWithRun(ctx, run)
			runner := adk.NewRunner(ctx, adk.RunnerConfig{Agent: a.agent(t, ctx), EnableStreaming: streaming})

			final, toolMsgs, err := drain(t, runner.Run(ctx, []adk.Message{a.userMsg}))
			run.End(hctx, hooks.RunEnd{Err: err, Output: final.Content})
			require.NoError(t, err)
			assert.Equal(t, "fini", final.Content)
			a.check(t, toolMsgs)
		}
	}
}

func (a *agentCase) check(t *testing.T, events []*schema.Message) {
	sent := a.model.sent()
	require.Len(t, sent, 2, "model calls")
	for i, msgs := range sent {
		require.NotEmpty(t, msgs)
		assert.Equal(t, schema.System, msgs[0].Role, "call %d", i+1)
		assert.Equal(t, "You are a helper.\nAnswer in French.", msgs[0].Content, "call %d: the injected system prompt", i+1)
		assert.Same(t, a.userMsg, msgs[1], "call %d: an untouched message is eino's own", i+1)
	}
	second := sent[1]
	require.Len(t, second, 2+1+6, "system, user, tool calls, six tool results")
	assert.Equal(t, withoutMessageID(a.toolCallMsg), withoutMessageID(second[2]), "the assistant's tool calls reach the model as they were")
	results := map[string]*schema.Message{}
	for _, m := range second[3:] {
		results[m.ToolCallID] = m
	}
	assert.Equal(t, "deleting files is not allowed", results["c1"].Content, "a refusal reads as the tool's result")
	assert.Equal(t, "the key is [redacted]", results["c2"].Content)
	assert.Equal(t, "cached: sunny, [redacted]", results["c3"].Content, "a cached answer, redacted")
	assert.Equal(t, "41", results["c4"].Content, "the rewritten arguments")
	assert.Equal(t, echoArgs, results["c5"].Content, "arguments no hook rewrote, byte for byte")
	parts := results["c6"].UserInputMultiContent
	require.Len(t, parts, 2, "the structured result's parts")
	assert.Equal(t, "report: [redacted]", parts[0].Text)
	require.NotNil(t, parts[1].Image)
	assert.Equal(t, "https://files.example/[redacted].png", *parts[1].Image.URL, "structured content is redacted too")

	assert.Zero(t, a.deleteTool.calls.Load(), "a refused tool does not run")
	assert.Zero(t, a.weatherTool.calls.Load(), "a cached answer does not run the tool")
	assert.JSONEq(t, `{"a":1,"b":40}`, a.addTool.gotArgs())
	assert.Equal(t, echoArgs, a.echo.gotArgs())

	var eventTexts []string
	for _, m := range events {
		eventTexts = append(eventTexts, m.Content)
		for _, p := range m.UserInputMultiContent {
			eventTexts = append(eventTexts, p.Text)
		}
	}
	assert.NotContains(t, strings.Join(eventTexts, " "), secret, "the agent's tool events are redacted")

	a.mu.Lock()
	req := a.requests[1]
	a.mu.Unlock()
	assert.Equal(t, "You are a helper.", req.System, "the hooks see the instruction as System")
	require.Len(t, req.Messages, 8)
	assert.Equal(t, "assistant", req.Messages[1].Role)
	require.Len(t, req.Messages[1].ToolCalls, 6, "the hooks see the assistant's tool calls")
	assert.Equal(t, map[string]any{"path": "/etc"}, req.Messages[1].ToolCalls[0].Arguments)
	assert.Equal(t, "tool", req.Messages[2].Role)
	assert.NotEmpty(t, req.Messages[2].ToolCallID, "the hooks see a tool message's call ID")
	assert.Equal(t, adk.GetMessageID(second[2]), req.Messages[1].ID, "the hooks see the message ID eino's agent gave")
	assert.NotEmpty(t, req.Messages[1].ID)

	assert.Equal(t, int32(1), a.audit.n.Load(), "exactly one AfterRun")
	assert.Equal(t, hooks.Completed, a.audit.last().Outcome)
}

// withoutMessageID is a copy of m without the message ID eino (since v0.9)
// gives every message of an agent's history in its Extra.
func withoutMessageID(m *schema.Message) *schema.Message {
	c := *m
	c.Extra = maps.Clone(m.Extra)
	for k := range c.Extra {
		if adk.GetMessageID(&schema.Message{Extra: map[string]any{k: c.Extra[k]}}) != "" {
			delete(c.Extra, k)
		}
	}
	if len(c.Extra) == 0 {
		c.Extra = nil
	}
	return &c
}
