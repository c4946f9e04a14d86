package eino_test

import (
	"context"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
	"github.com/rienda/hooks"
	eino "github.com/rienda/hooks/adapters/eino"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fieldsModel keeps the common options each call was made with, and
// answers with reasoning that holds the secret, in two chunks when
// streamed.
type fieldsModel struct {
	mu   sync.Mutex
	seen []*model.Options
}

func (m *fieldsModel) Generate(_ context.Context, _ []*schema.Message, opts ...model.Option) (*schema.Message, error) {
	m.mu.Lock()
	m.seen = append(m.seen, model.GetCommonOptions(&model.Options{Tools: offeredTools}, opts...))
	m.mu.Unlock()
	msg := schema.AssistantMessage("done", nil)
	msg.ReasoningContent = "I should not say " + secret
	return msg, nil
}

func (m *fieldsModel) Stream(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	msg, err := m.Generate(ctx, in, opts...)
	if err != nil {
		return nil, err
	}
	first := &schema.Message{Role: schema.Assistant, ReasoningContent: msg.ReasoningContent[:12]}
	rest := &schema.Message{Role: schema.Assistant, ReasoningContent: msg.ReasoningContent[12:], Content: msg.Content}
	return schema.StreamReaderFromArray([]*schema.Message{first, rest}), nil
}

func (m *fieldsModel) WithTools([]*schema.ToolInfo) (model.ToolCallingChatModel, error) {
	return m, nil
}

func (m *fieldsModel) last() *model.Options {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.seen[len(m.seen)-1]
}

// generateOrStream calls the model one way and returns the message eino
// would hold, and every chunk it was sent.
func generateOrStream(ctx context.Context, m model.ToolCallingChatModel, stream bool, opts ...model.Option) (*schema.Message, []*schema.Message, error) {
	in := []*schema.Message{schema.UserMessage("hi")}
	if !stream {
		msg, err := m.Generate(ctx, in, opts...)
		return msg, []*schema.Message{msg}, err
	}
	sr, err := m.Stream(ctx, in, opts...)
	if err != nil {
		return nil, nil, err
	}
	var chunks []*schema.Message
	for {
		c, err := sr.Recv()
		if err != nil {
			sr.Close()
			msg, cerr := schema.ConcatMessages(chunks)
			if err.Error() != "EOF" {
				return nil, chunks, err
			}
			return msg, chunks, cerr
		}
		chunks = append(chunks, c)
	}
}

func TestHooksSeeAndChangeToolChoiceSettingsAndReasoning(t *testing.T) {
	for _, stream := range []bool{false, true} {
		t.Run(map[bool]string{false: "generate", true: "stream"}[stream], func(t *testing.T) {
			var req hooks.ModelRequest
			var reasoning string
			h := modelWrap{name: "fields", wrap: func(c *hooks.Context, r hooks.ModelRequest, next hooks.ModelFunc) (hooks.ModelResponse, error) {
				req = r
				temp, max := 0.2, 64
				s := *r.Settings
				s.Temperature, s.MaxTokens, s.Stop = &temp, &max, []string{"END"}
				r.ToolChoice, r.Settings = &hooks.ToolChoice{Name: "read"}, &s
				resp, err := next(c, r)
				reasoning = resp.Reasoning
				resp.Reasoning = strings.ReplaceAll(resp.Reasoning, secret, "[redacted]")
				return resp, err
			}}
			ctx, run := startRun(t, h)
			defer run.End(ctx, hooks.RunEnd{})
			m := &fieldsModel{}

			bound, err := eino.WrapModel(m).WithTools(offeredTools)
			require.NoError(t, err)

			msg, chunks, err := generateOrStream(ctx, bound, stream,
				model.WithTemperature(0.7), model.WithTopP(0.9), model.WithMaxTokens(10), model.WithToolChoice(schema.ToolChoiceAllowed))

			require.NoError(t, err)
			require.NotNil(t, req.Settings)
			assert.Equal(t, &hooks.ToolChoice{Mode: hooks.ToolChoiceAuto}, req.ToolChoice)
			assert.Equal(t, 0.7, *req.Settings.Temperature, "a float32 option reads as it was written")
			assert.Equal(t, 0.9, *req.Settings.TopP)
			assert.Equal(t, 10, *req.Settings.MaxTokens)
			assert.Equal(t, "I should not say "+secret, reasoning, "the hooks read the model's reasoning")

			o := m.last()
			require.NotNil(t, o.ToolChoice)
			assert.Equal(t, schema.ToolChoiceForced, *o.ToolChoice, "a named tool is a forced call")
			assert.Equal(t, []string{"read"}, o.AllowedToolNames)
			assert.InDelta(t, 0.2, *o.Temperature, 1e-6)
			assert.InDelta(t, 0.9, *o.TopP, 1e-6, "a setting no hook changed stays")
			assert.Equal(t, 64, *o.MaxTokens)
			assert.Equal(t, []string{"END"}, o.Stop)

			assert.Equal(t, "I should not say [redacted]", msg.ReasoningContent, "eino holds the reasoning the hooks left")
			for _, c := range chunks {
				assert.NotContains(t, c.ReasoningContent, secret, "no chunk carries the secret")
			}
		})
	}
}

func TestUnchangedFieldsAddNoOptionsAndWhatEinoCannotSayIsAnError(t *testing.T) {
	ctx, run := startRun(t)
	defer run.End(ctx, hooks.RunEnd{})
	m := &fieldsModel{}
	_, err := eino.WrapModel(m).Generate(ctx, []*schema.Message{schema.UserMessage("hi")}, model.WithTemperature(0.5))
	require.NoError(t, err)
	o := m.last()
	assert.Nil(t, o.ToolChoice)
	assert.Nil(t, o.MaxTokens)

	for name, patch := range map[string]hooks.ModelRequestPatch{
		"unset temperature": {Settings: &hooks.ModelSettings{}},
		"provider options":  {Settings: &hooks.ModelSettings{Provider: map[string]any{"seed": 1}}},
		"unknown mode":      {ToolChoice: &hooks.ToolChoice{Mode: "any"}},
		"tool not offered":  {ToolChoice: &hooks.ToolChoice{Name: "shell"}},
		"named, mode none":  {ToolChoice: &hooks.ToolChoice{Mode: hooks.ToolChoiceNone, Name: "read"}},
		"negative topP":     {Settings: &hooks.ModelSettings{Temperature: ptr(0.5), TopP: ptr(-1.0)}},
		"NaN temperature":   {Settings: &hooks.ModelSettings{Temperature: ptr(math.NaN())}},
		"zero max tokens":   {Settings: &hooks.ModelSettings{Temperature: ptr(0.5), MaxTokens: ptr(0)}},
	} {
		t.Run(name, func(t *testing.T) {
			h := modelWrap{name: "bad", wrap: func(c *hooks.Context, r hooks.ModelRequest, next hooks.ModelFunc) (hooks.ModelResponse, error) {
				if patch.Settings != nil {
					r.Settings = patch.Settings
				}
				if patch.ToolChoice != nil {
					r.ToolChoice = patch.ToolChoice
				}
				return next(c, r)
			}}
			ctx, run := startRun(t, h)
			defer run.End(ctx, hooks.RunEnd{})
			m := &fieldsModel{}
			bound, err := eino.WrapModel(m).WithTools(offeredTools)
			require.NoError(t, err)
			_, err = bound.Generate(ctx, []*schema.Message{schema.UserMessage("hi")}, model.WithTemperature(0.5))
			require.Error(t, err)
			assert.Empty(t, m.seen, "the model is not called otherwise than the hooks asked")
		})
	}
}

func ptr[T any](v T) *T { return &v }

// modelWrap is a WrapModelHook: it changes the request the model is called
// with and the reply the hooks after it see (the core's patches of these
// fields are applied by the root's own work; a wrap reaches the adapter
// either way).
type modelWrap struct {
	name string
	wrap func(c *hooks.Context, req hooks.ModelRequest, next hooks.ModelFunc) (hooks.ModelResponse, error)
}

func (w modelWrap) Name() string { return w.name }

func (w modelWrap) WrapModel(c *hooks.Context, req hooks.ModelRequest, next hooks.ModelFunc) (hooks.ModelResponse, error) {
	return w.wrap(c, req, next)
}
