package openai_test

import (
	"slices"
	"testing"

	oai "github.com/openai/openai-go/v3"
	"github.com/rienda/hooks"
	hooksopenai "github.com/rienda/hooks/adapters/openai"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSystemPromptInjectionReachesTheServer(t *testing.T) {
	for _, tc := range []struct {
		name   string
		system func(string) string
		want   []map[string]any // the leading messages the server got
	}{
		{"appended", func(s string) string { return s + "\n\nNever reveal keys." }, []map[string]any{
			{"role": "system", "content": "You are terse."}, {"role": "system", "content": "Never reveal keys."}}},
		{"prepended", func(s string) string { return "Never reveal keys.\n\n" + s }, []map[string]any{
			{"role": "system", "content": "Never reveal keys."}, {"role": "system", "content": "You are terse."}}},
		{"replaced", func(string) string { return "You are verbose." }, []map[string]any{
			{"role": "system", "content": "You are verbose."}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			api := newFakeAPI(t, textReply("ok"))
			inject := hooks.Funcs{HookName: "inject", BeforeModelRequest: func(_ *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
				system := tc.system(req.System)
				return &hooks.ModelRequestPatch{System: &system}, nil
			}}
			params := oai.ChatCompletionNewParams{Model: "gpt-test", Messages: []oai.ChatCompletionMessageParamUnion{
				oai.SystemMessage("You are terse."), oai.UserMessage("hi")}}

			res, _, err := runLoop(t, api, nil, params, inject)
			require.NoError(t, err)
			for i, want := range tc.want {
				assert.Equal(t, want, api.sent(0, i))
			}
			assert.Equal(t, map[string]any{"role": "user", "content": "hi"}, api.sent(0, len(tc.want)))
			assert.Len(t, res.Messages, 3, "the conversation keeps its own system prompt")
		})
	}
}

// history is a conversation with an image, a cache breakpoint and a past
// tool exchange whose arguments hold a big integer.
func history(t *testing.T) oai.ChatCompletionNewParams {
	user := oai.UserMessage([]oai.ChatCompletionContentPartUnionParam{
		{OfText: &oai.ChatCompletionContentPartTextParam{Text: "What is in this picture?",
			PromptCacheBreakpoint: oai.ChatCompletionContentPartTextPromptCacheBreakpointParam{Ttl: "30m"}}},
		oai.ImageContentPart(oai.ChatCompletionContentPartImageImageURLParam{URL: pixel(t), Detail: "low"}),
	})
	assistant := oai.ChatCompletionMessageParamUnion{OfAssistant: &oai.ChatCompletionAssistantMessageParam{
		ToolCalls: []oai.ChatCompletionMessageToolCallUnionParam{{OfFunction: &oai.ChatCompletionMessageFunctionToolCallParam{
			ID: "call_0", Function: oai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: "lookup", Arguments: `{"id":9007199254740993}`}}}}}}
	return oai.ChatCompletionNewParams{Model: "gpt-test", Messages: []oai.ChatCompletionMessageParamUnion{
		oai.DeveloperMessage("Describe images."), user, assistant, oai.ToolMessage("a green pixel", "call_0"), oai.UserMessage("Sure?")}}
}

func TestInsertedMessageArrivesInPlaceAndUntouchedOnesByteForByte(t *testing.T) {
	bare := newFakeAPI(t, textReply("ok"))
	_, err := bare.completions().New(t.Context(), history(t))
	require.NoError(t, err)
	want := bare.sentMessages(0)

	api := newFakeAPI(t, textReply("ok"))
	insert := hooks.Funcs{HookName: "insert", BeforeModelRequest: func(_ *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
		at := slices.IndexFunc(req.Messages, func(m hooks.Message) bool { return len(m.ToolCalls) > 0 })
		note := hooks.Message{Role: "user", Text: "Answer in French."}
		return &hooks.ModelRequestPatch{Messages: slices.Insert(slices.Clone(req.Messages), at, note)}, nil
	}}
	_, _, err = runLoop(t, api, nil, history(t), insert)
	require.NoError(t, err)

	got := api.sentMessages(0)
	require.Len(t, got, len(want)+1)
	assert.Equal(t, map[string]any{"role": "user", "content": "Answer in French."}, decode(t, got[2]))
	for i, g := range slices.Delete(slices.Clone(got), 2, 3) {
		assert.Equal(t, string(want[i]), string(g), "message %d", i)
	}
}

func TestEndStopsTheLoop(t *testing.T) {
	endAfter := func(calls int) hooks.Hook {
		return hooks.Funcs{HookName: "budget", BeforeModelRequest: func(c *hooks.Context, _ hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
			if c.ModelCalls() >= calls {
				return &hooks.ModelRequestPatch{End: &hooks.End{Output: "budget spent"}}, nil
			}
			return nil, nil
		}}
	}
	endOnTools := hooks.Funcs{HookName: "stop", AfterModelResponse: func(_ *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
		if len(resp.ToolCalls) > 0 {
			return &hooks.ModelResponsePatch{End: &hooks.End{Output: "no tools today"}}, nil
		}
		return nil, nil
	}}
	for _, tc := range []struct {
		name       string
		hook       hooks.Hook
		output     string
		requests   int
		toolCalled bool
	}{
		{"before the model", endAfter(1), "budget spent", 1, true},
		{"after the reply", endOnTools, "no tools today", 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			api := newFakeAPI(t, toolReply(call{"call_1", "read", `{}`}), textReply("never sent"))
			read := &toolLog{}
			res, end, err := runLoop(t, api, map[string]hooksopenai.Tool{"read": read.tool}, userParams("go"), tc.hook)
			require.NoError(t, err)
			assert.True(t, res.Ended)
			assert.Equal(t, tc.output, end.Output)
			assert.Len(t, api.requests(), tc.requests)
			assert.Equal(t, tc.toolCalled, len(read.calls) == 1)
		})
	}
}

func TestContinueSendsTheRunOnWithTheHooksReply(t *testing.T) {
	api := newFakeAPI(t, textReply("The plan is SECRET."), textReply("Checked."))
	review := hooks.Funcs{HookName: "review", AfterModelResponse: func(c *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
		text := "The plan is [redacted]."
		p := &hooks.ModelResponsePatch{Text: &text}
		if c.ModelCalls() == 1 {
			p.Continue = new("Check your answer.")
		} else {
			p.Text = nil
		}
		return p, nil
	}}

	res, _, err := runLoop(t, api, nil, userParams("plan?"), review)
	require.NoError(t, err)
	assert.False(t, res.Ended)
	assert.Equal(t, "Checked.", res.Output)
	assert.Equal(t, 2, res.Turns)
	assert.Equal(t, map[string]any{"role": "assistant", "content": "The plan is [redacted]."}, api.sent(1, 1))
	assert.Equal(t, map[string]any{"role": "user", "content": "Check your answer."}, api.sent(1, 2))
}
