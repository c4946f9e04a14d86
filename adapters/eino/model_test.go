package eino_test

import (
	"context"
	"testing"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/callbacks"
	"github.com/cloudwego/eino/components"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
	"github.com/rienda/hooks"
	eino "github.com/rienda/hooks/adapters/eino"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func addTool() *textTool {
	return &textTool{name: "add", run: func(_ context.Context, args string) (string, error) { return "sum of " + args, nil }}
}

// viaMiddleware makes newAgent use eino.Middleware instead of WrapModel
// and ToolMiddleware: TestAgentScenariosThroughMiddleware sets it.
var viaMiddleware bool

func newAgent(t *testing.T, m *scriptedModel, tools ...tool.BaseTool) *adk.ChatModelAgent {
	t.Helper()
	cfg := &adk.ChatModelAgentConfig{
		Name: "helper", Description: "helps", Instruction: "Be useful.",
		Model: eino.WrapModel(m),
		ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{
			Tools:               tools,
			ToolCallMiddlewares: []compose.ToolMiddleware{eino.ToolMiddleware()},
		}},
	}
	if viaMiddleware {
		cfg.Model = m
		cfg.ToolsConfig = adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{Tools: tools}}
		cfg.Handlers = []adk.ChatModelAgentMiddleware{eino.Middleware()}
	}
	agent, err := adk.NewChatModelAgent(context.Background(), cfg)
	require.NoError(t, err)
	return agent
}

func TestRespondAndEndAnswerWithoutCallingTheModel(t *testing.T) {
	var audit afterRuns
	answer := hooks.Funcs{HookName: "answer", BeforeModelRequest: func(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
		if len(req.Messages) == 1 { // the first call: answer with a tool call, without an ID
			return &hooks.ModelRequestPatch{Respond: &hooks.ModelResponse{ToolCalls: []hooks.ToolCall{
				{Name: "add", Arguments: map[string]any{"a": 2, "b": 3}}}}}, nil
		}
		return &hooks.ModelRequestPatch{End: &hooks.End{Output: "ended by a hook"}}, nil
	}}
	ctx, run := startRun(t, answer, audit.hook())
	m := &scriptedModel{}
	add := addTool()
	runner := adk.NewRunner(ctx, adk.RunnerConfig{Agent: newAgent(t, m, add)})

	final, toolMsgs, err := drain(t, runner.Query(ctx, "add two and three"))
	run.End(ctx, hooks.RunEnd{Err: err})
	require.NoError(t, err)

	assert.Empty(t, m.sent(), "the model is never called")
	assert.JSONEq(t, `{"a":2,"b":3}`, add.gotArgs(), "the tool runs the hook's call")
	require.Len(t, toolMsgs, 1)
	assert.NotEmpty(t, toolMsgs[0].ToolCallID, "a hook's call without an ID gets one")
	assert.Equal(t, "ended by a hook", final.Content, "End is the agent's last message")
	assert.Empty(t, final.ToolCalls)
	assert.Equal(t, int32(1), audit.n.Load())
}

func TestContinueSendsTheRunOnAndLaterCallsSeeTheExchange(t *testing.T) {
	for _, streaming := range []bool{false, true} {
		t.Run(map[bool]string{false: "generate", true: "stream"}[streaming], func(t *testing.T) {
			toolCall := schema.AssistantMessage("", []schema.ToolCall{call("c1", "add", `{"a":1,"b":1}`)})
			m := &scriptedModel{replies: []*schema.Message{
				schema.AssistantMessage("draft", nil), toolCall, schema.AssistantMessage("final", nil)}}
			more := hooks.Funcs{HookName: "more", AfterModelResponse: func(_ *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
				if resp.Text == "draft" {
					next := "check your work"
					return &hooks.ModelResponsePatch{Continue: &next}, nil
				}
				return nil, nil
			}}
			ctx, run := startRun(t, more)
			runner := adk.NewRunner(ctx, adk.RunnerConfig{Agent: newAgent(t, m, addTool()), EnableStreaming: streaming})

			final, _, err := drain(t, runner.Query(ctx, "add"))
			run.End(ctx, hooks.RunEnd{Err: err})
			require.NoError(t, err)
			assert.Equal(t, "final", final.Content)

			sent := m.sent()
			require.Len(t, sent, 3)
			assert.Equal(t, []string{"system:Be useful.", "user:add", "assistant:draft", "user:check your work"}, roles(sent[1]),
				"the Continue's call")
			if streaming {
				// The draft was streamed before the hook sent the run on, and
				// eino's history is the stream concatenated: the draft and the
				// next reply make one message, without the Continue's.
				assert.Equal(t, []string{"system:Be useful.", "user:add", "assistant:draft",
					"tool:sum of {\"a\":1,\"b\":1}"}, roles(sent[2]), "a later call, from eino's history")
				return
			}
			assert.Equal(t, []string{"system:Be useful.", "user:add", "assistant:draft", "user:check your work",
				"assistant:", "tool:sum of {\"a\":1,\"b\":1}"}, roles(sent[2]), "a later call, from eino's history")
		})
	}
}

func TestContinueForeverIsAnError(t *testing.T) {
	m := &scriptedModel{}
	for range 30 {
		m.replies = append(m.replies, schema.AssistantMessage("again", nil))
	}
	again := hooks.Funcs{HookName: "again", AfterModelResponse: func(*hooks.Context, hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
		next := "more"
		return &hooks.ModelResponsePatch{Continue: &next}, nil
	}}
	ctx, _ := startRun(t, again)
	_, err := eino.WrapModel(m).Generate(ctx, []*schema.Message{schema.UserMessage("go")})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "continue more than 20 times")
}

func roles(msgs []*schema.Message) []string {
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = string(m.Role) + ":" + m.Content
	}
	return out
}

func TestAMessageAHookChangedIsACopyAndTheOthersAreEinosOwn(t *testing.T) {
	url := "https://img.example/cat.png"
	system := schema.SystemMessage("sys")
	user := &schema.Message{Role: schema.User, UserInputMultiContent: []schema.MessageInputPart{
		{Type: schema.ChatMessagePartTypeText, Text: "hello " + secret},
		{Type: schema.ChatMessagePartTypeImageURL, Image: &schema.MessageInputImage{MessagePartCommon: schema.MessagePartCommon{URL: &url}}},
	}}
	assistant := schema.AssistantMessage("", []schema.ToolCall{
		{ID: "c1", Type: "function", Function: schema.FunctionCall{Name: "add", Arguments: `{"a": 1}`}, Extra: map[string]any{"k": "v"}}})
	edit := hooks.Funcs{HookName: "edit", BeforeModelRequest: func(_ *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
		msgs := []hooks.Message{{Role: "user", Text: "a note"}}
		for _, m := range req.Messages {
			if m.Role == "user" {
				m.Text = redact(m.Text, secret).(string)
			}
			if m.Role == "assistant" {
				m.ToolCalls = []hooks.ToolCall{{ID: "c1", Name: "add", Arguments: map[string]any{"a": 2}}}
			}
			msgs = append(msgs, m)
		}
		return &hooks.ModelRequestPatch{Messages: msgs}, nil
	}}
	ctx, _ := startRun(t, edit)
	m := &scriptedModel{replies: []*schema.Message{schema.AssistantMessage("ok", nil)}}

	reply, err := eino.WrapModel(m).Generate(ctx, []*schema.Message{system, user, assistant})
	require.NoError(t, err)
	assert.Equal(t, "ok", reply.Content)

	got := m.sent()[0]
	require.Len(t, got, 4)
	assert.Same(t, system, got[0], "an unchanged System is eino's own message")
	assert.Equal(t, "a note", got[1].Content, "an inserted message")
	require.Len(t, got[2].UserInputMultiContent, 2)
	assert.Equal(t, "hello [redacted]", got[2].UserInputMultiContent[0].Text, "the new text in the text part")
	assert.Same(t, user.UserInputMultiContent[1].Image, got[2].UserInputMultiContent[1].Image, "the image is kept")
	assert.Equal(t, "hello "+secret, user.UserInputMultiContent[0].Text, "eino's message is not modified")
	require.Len(t, got[3].ToolCalls, 1)
	assert.Equal(t, `{"a":2}`, got[3].ToolCalls[0].Function.Arguments, "changed arguments are encoded")
	assert.Equal(t, map[string]any{"k": "v"}, got[3].ToolCalls[0].Extra, "the call's Extra is kept")
	assert.Equal(t, `{"a": 1}`, assistant.ToolCalls[0].Function.Arguments)
}

func TestSystemMapsToTheFirstSystemMessage(t *testing.T) {
	cases := map[string]struct {
		set   string
		input []*schema.Message
		want  []string
	}{
		"injected where there was none": {"be brief", []*schema.Message{schema.UserMessage("hi")}, []string{"system:be brief", "user:hi"}},
		"replaced":                      {"be brief", []*schema.Message{schema.SystemMessage("old"), schema.UserMessage("hi")}, []string{"system:be brief", "user:hi"}},
		"emptied":                       {"", []*schema.Message{schema.SystemMessage("old"), schema.UserMessage("hi")}, []string{"user:hi"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			set := hooks.Funcs{HookName: "set", BeforeModelRequest: func(*hooks.Context, hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
				return &hooks.ModelRequestPatch{System: &tc.set}, nil
			}}
			ctx, _ := startRun(t, set)
			m := &scriptedModel{replies: []*schema.Message{schema.AssistantMessage("ok", nil)}}
			_, err := eino.WrapModel(m).Generate(ctx, tc.input)
			require.NoError(t, err)
			assert.Equal(t, tc.want, roles(m.sent()[0]))
		})
	}
}

func TestAnAfterModelResponseRewriteReachesEino(t *testing.T) {
	reword := hooks.Funcs{HookName: "reword", AfterModelResponse: func(_ *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
		text := redact(resp.Text, secret).(string)
		return &hooks.ModelResponsePatch{Text: &text}, nil
	}}
	ctx, _ := startRun(t, reword)
	reply := schema.AssistantMessage("the key is "+secret, nil)
	reply.ResponseMeta = &schema.ResponseMeta{FinishReason: "stop"}
	m := &scriptedModel{replies: []*schema.Message{reply}}

	// Generate: a streamed reply's chunks are delivered before
	// AfterModelResponse runs, so a stream is redacted by a stream hook
	// (TestStreamKeepsASecretOutOfEveryEinoChunk).
	got, err := eino.WrapModel(m).Generate(ctx, []*schema.Message{schema.UserMessage("key?")})
	require.NoError(t, err)
	assert.Equal(t, "the key is [redacted]", got.Content)
}

// reportingModel fires eino's callbacks itself, as eino's real models do
// (they say so with IsCallbacksEnabled).
type reportingModel struct{ *scriptedModel }

func (m reportingModel) IsCallbacksEnabled() bool { return true }

func (m reportingModel) Generate(ctx context.Context, input []*schema.Message, opts ...model.Option) (*schema.Message, error) {
	ctx = callbacks.EnsureRunInfo(ctx, "Reporting", components.ComponentOfChatModel)
	ctx = callbacks.OnStart(ctx, &model.CallbackInput{Messages: input})
	out, err := m.scriptedModel.Generate(ctx, input, opts...)
	if err != nil {
		callbacks.OnError(ctx, err)
		return nil, err
	}
	callbacks.OnEnd(ctx, &model.CallbackOutput{Message: out})
	return out, nil
}

func (m reportingModel) WithTools([]*schema.ToolInfo) (model.ToolCallingChatModel, error) {
	return m, nil
}

func TestTheAgentReportsEachReplyOnceAsTheHooksLeftIt(t *testing.T) {
	reword := hooks.Funcs{HookName: "reword", AfterModelResponse: func(_ *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
		text := redact(resp.Text, secret).(string)
		return &hooks.ModelResponsePatch{Text: &text}, nil
	}}
	ctx, _ := startRun(t, reword)
	m := reportingModel{&scriptedModel{replies: []*schema.Message{schema.AssistantMessage("the key is "+secret, nil)}}}
	agent, err := adk.NewChatModelAgent(ctx, &adk.ChatModelAgentConfig{Name: "helper", Description: "helps", Model: eino.WrapModel(m)})
	require.NoError(t, err)

	var replies []string
	iter := adk.NewRunner(ctx, adk.RunnerConfig{Agent: agent}).Query(ctx, "key?")
	for ev, ok := iter.Next(); ok; ev, ok = iter.Next() {
		require.NoError(t, ev.Err)
		replies = append(replies, ev.Output.MessageOutput.Message.Content)
	}
	assert.Equal(t, []string{"the key is [redacted]"}, replies)
}
