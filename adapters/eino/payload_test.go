package eino_test

import (
	"context"
	"sync"
	"testing"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
	"github.com/rienda/hooks"
	eino "github.com/rienda/hooks/adapters/eino"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// optionsModel records the model name and tools each call was made with,
// as eino's common options give them to a model, and answers with usage.
type optionsModel struct {
	bound []*schema.ToolInfo
	rec   *sent
}

// sent is what an optionsModel and the models it bound were called with.
type sent struct {
	mu     sync.Mutex
	models []string
	tools  [][]string
}

func (m *optionsModel) Generate(_ context.Context, _ []*schema.Message, opts ...model.Option) (*schema.Message, error) {
	o := model.GetCommonOptions(&model.Options{Tools: m.bound}, opts...)
	m.rec.mu.Lock()
	defer m.rec.mu.Unlock()
	name := ""
	if o.Model != nil {
		name = *o.Model
	}
	m.rec.models = append(m.rec.models, name)
	var names []string
	for _, t := range o.Tools {
		names = append(names, t.Name+":"+t.Desc)
	}
	m.rec.tools = append(m.rec.tools, names)
	msg := schema.AssistantMessage("hello", nil)
	msg.ResponseMeta = &schema.ResponseMeta{FinishReason: "length", Usage: &schema.TokenUsage{PromptTokens: 12,
		CompletionTokens: 3, PromptTokenDetails: schema.PromptTokenDetails{CachedTokens: 8}}}
	return msg, nil
}

func (m *optionsModel) Stream(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	msg, err := m.Generate(ctx, in, opts...)
	return schema.StreamReaderFromArray([]*schema.Message{msg}), err
}

func (m *optionsModel) WithTools(tools []*schema.ToolInfo) (model.ToolCallingChatModel, error) {
	return &optionsModel{bound: tools, rec: m.rec}, nil
}

var offeredTools = []*schema.ToolInfo{
	{Name: "read", Desc: "Read a file", ParamsOneOf: schema.NewParamsOneOfByParams(map[string]*schema.ParameterInfo{
		"path": {Type: schema.String, Required: true}})},
	{Name: "delete", Desc: "Delete a file"},
}

func TestHooksSeeAndChangeModelToolsUsageAndStopReason(t *testing.T) {
	var req hooks.ModelRequest
	var resp hooks.ModelResponse
	narrow := hooks.Funcs{HookName: "narrow",
		BeforeModelRequest: func(_ *hooks.Context, r hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
			req = r
			name := "fallback-model"
			read := r.Tools[0]
			read.Description = "Read a workspace file"
			return &hooks.ModelRequestPatch{Model: &name, Tools: []hooks.ToolSpec{read}}, nil
		},
		AfterModelResponse: func(_ *hooks.Context, r hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
			resp = r
			return nil, nil
		}}
	ctx, run := startRun(t, narrow)
	defer run.End(ctx, hooks.RunEnd{})
	rec := &sent{}
	bound, err := eino.WrapModel(&optionsModel{rec: rec}).WithTools(offeredTools)
	require.NoError(t, err)

	for _, call := range []func() error{
		func() error {
			_, err := bound.Generate(ctx, []*schema.Message{schema.UserMessage("hi")}, model.WithModel("main-model"))
			return err
		},
		func() error {
			sr, err := bound.Stream(ctx, []*schema.Message{schema.UserMessage("hi")}, model.WithModel("main-model"))
			if err == nil {
				_, err = schema.ConcatMessageStream(sr) // the reply streams: AfterModelResponse runs once it is read
			}
			return err
		},
	} {
		require.NoError(t, call())
		assert.Equal(t, "main-model", req.Model)
		require.Len(t, req.Tools, 2)
		assert.Equal(t, "read", req.Tools[0].Name)
		assert.Equal(t, "Read a file", req.Tools[0].Description)
		assert.JSONEq(t, `{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`, string(req.Tools[0].Schema))
		assert.Equal(t, hooks.Usage{InputTokens: 12, OutputTokens: 3, CachedInputTokens: 8}, resp.Usage)
		assert.Equal(t, hooks.StopMaxTokens, resp.StopReason)
	}
	assert.Equal(t, []string{"fallback-model", "fallback-model"}, rec.models, "the model the hook chose is called")
	assert.Equal(t, [][]string{{"read:Read a workspace file"}, {"read:Read a workspace file"}}, rec.tools,
		"the tools the hook left are offered")
}

func TestUnchangedOfferAddsNoOptions(t *testing.T) {
	same := hooks.Funcs{HookName: "same", BeforeModelRequest: func(_ *hooks.Context, r hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
		return &hooks.ModelRequestPatch{Model: &r.Model, Tools: r.Tools}, nil
	}}
	ctx, run := startRun(t, same)
	defer run.End(ctx, hooks.RunEnd{})
	rec := &sent{}
	bound, err := eino.WrapModel(&optionsModel{rec: rec}).WithTools(offeredTools)
	require.NoError(t, err)

	_, err = bound.Generate(ctx, []*schema.Message{schema.UserMessage("hi")})

	require.NoError(t, err)
	assert.Equal(t, []string{""}, rec.models)
	assert.Equal(t, [][]string{{"read:Read a file", "delete:Delete a file"}}, rec.tools)
}
