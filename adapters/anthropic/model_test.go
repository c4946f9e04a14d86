package anthropic_test

import (
	"encoding/json"
	"slices"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/rienda/hooks"
	hooksanthropic "github.com/rienda/hooks/adapters/anthropic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSystemPromptInjectionReachesTheServer(t *testing.T) {
	cached := `{"text":"You are terse.","cache_control":{"type":"ephemeral"},"type":"text"}`
	for _, tc := range []struct {
		name   string
		system func(string) string
		want   string // the system field the server got
	}{
		{"appended", func(s string) string { return s + "\n\nNever reveal keys." },
			`[` + cached + `,{"text":"Never reveal keys.","type":"text"}]`},
		{"prepended", func(s string) string { return "Never reveal keys.\n\n" + s },
			`[{"text":"Never reveal keys.","type":"text"},` + cached + `]`},
		{"replaced", func(string) string { return "You are verbose." },
			`[{"text":"You are verbose.","cache_control":{"type":"ephemeral"},"type":"text"}]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			api := newFakeAPI(t, textReply("ok"))
			inject := hooks.Funcs{HookName: "inject", BeforeModelRequest: func(_ *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
				system := tc.system(req.System)
				return &hooks.ModelRequestPatch{System: &system}, nil
			}}
			params := userParams("hi")
			params.System = []sdk.TextBlockParam{{Text: "You are terse.", CacheControl: sdk.NewCacheControlEphemeralParam()}}

			_, _, err := runLoop(t, api, nil, params, inject)
			require.NoError(t, err)
			assert.JSONEq(t, tc.want, string(api.body(0)["system"]))
			assert.Equal(t, "You are terse.", params.System[0].Text, "the caller's params are not modified")
		})
	}
}

// history is a conversation with an image, a document, cache marks and a
// past tool exchange whose input holds a big integer; the last user
// message holds the tool's result and a question.
func history(t *testing.T) sdk.MessageNewParams {
	image := sdk.NewImageBlockBase64("image/png", pixel(t))
	image.OfImage.CacheControl = sdk.NewCacheControlEphemeralParam()
	doc := sdk.NewDocumentBlock(sdk.PlainTextSourceParam{Data: "Pixels are small."})
	return sdk.MessageNewParams{Model: "claude-test", MaxTokens: 256,
		System: []sdk.TextBlockParam{{Text: "Describe images."}},
		Messages: []sdk.MessageParam{
			sdk.NewUserMessage(image, doc, sdk.NewTextBlock("What is in this picture?")),
			sdk.NewAssistantMessage(sdk.NewTextBlock("Let me look it up."),
				sdk.NewToolUseBlock("toolu_0", json.RawMessage(`{"id":9007199254740993}`), "lookup")),
			sdk.NewUserMessage(sdk.NewToolResultBlock("toolu_0", "a green pixel", false), sdk.NewTextBlock("Sure?")),
		}}
}

func TestInsertedMessageArrivesInPlaceAndUntouchedOnesByteForByte(t *testing.T) {
	bare := newFakeAPI(t, textReply("ok"))
	_, err := bare.messages().New(t.Context(), history(t))
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
	assert.JSONEq(t, `{"role":"user","content":[{"text":"Answer in French.","type":"text"}]}`, string(got[1]))
	for i, g := range slices.Delete(slices.Clone(got), 1, 2) {
		assert.Equal(t, string(want[i]), string(g), "message %d", i)
	}
	assert.Contains(t, string(got[0]), `"cache_control":{"type":"ephemeral"}`)
	assert.Contains(t, string(got[2]), `9007199254740993`)
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
		toolCalled bool
	}{
		{"before the model", endAfter(1), "budget spent", true},
		{"after the reply", endOnTools, "no tools today", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			api := newFakeAPI(t, toolReply(call{"toolu_1", "read", `{}`}), textReply("never sent"))
			read := &toolLog{}
			res, end, err := runLoop(t, api, map[string]hooksanthropic.Tool{"read": read.tool}, userParams("go"), tc.hook)
			require.NoError(t, err)
			assert.True(t, res.Ended)
			assert.Equal(t, tc.output, end.Output)
			assert.Len(t, api.requests(), 1)
			assert.Equal(t, tc.toolCalled, len(read.calls) == 1)
		})
	}
}

func TestContinueSendsTheRunOnWithTheHooksReply(t *testing.T) {
	api := newFakeAPI(t, textReply("The plan is SECRET."), textReply("Checked."))
	review := hooks.Funcs{HookName: "review", AfterModelResponse: func(c *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
		if c.ModelCalls() > 1 {
			return nil, nil
		}
		return &hooks.ModelResponsePatch{Text: new("The plan is [redacted]."), Continue: new("Check your answer.")}, nil
	}}

	res, _, err := runLoop(t, api, nil, userParams("plan?"), review)
	require.NoError(t, err)
	assert.False(t, res.Ended)
	assert.Equal(t, "Checked.", res.Output)
	assert.Equal(t, 2, res.Turns)
	assert.Equal(t, "The plan is [redacted].", block(t, api.sent(1, 1), 0)["text"])
	assert.Equal(t, "Check your answer.", block(t, api.sent(1, 2), 0)["text"])
}
