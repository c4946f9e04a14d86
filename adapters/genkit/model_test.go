package genkit_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/firebase/genkit/go/ai"
	"github.com/rienda/hooks"
	hooksgenkit "github.com/rienda/hooks/adapters/genkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRedactionHookRewritesTheReply(t *testing.T) {
	f := newFakeAPI(t, textReply("the key is sk-SECRET"))
	resp, err := generate(t, f, []hooks.Hook{redact("sk-SECRET")})
	require.NoError(t, err)
	assert.Equal(t, "the key is [redacted]", resp.Text())
	assert.NotContains(t, resp.History()[len(resp.History())-1].Text(), "sk-SECRET")
}

// TestStreamedReplyCarriesNoSecretInAnyChunk streams a reply whose secret
// spans the server's chunks: the caller's chunks hold the redacted reply.
func TestStreamedReplyCarriesNoSecretInAnyChunk(t *testing.T) {
	f := newFakeAPI(t, textReply("the key is sk-SECRET, keep it"))
	var chunks []string
	resp, err := generate(t, f, []hooks.Hook{redact("sk-SECRET"), streamRedactor{secret: "sk-SECRET"}},
		ai.WithStreaming(func(_ context.Context, c *ai.ModelResponseChunk) error {
			chunks = append(chunks, c.Text())
			return nil
		}))
	require.NoError(t, err)
	assert.Equal(t, true, f.body(0)["stream"], "the model is still called streaming")
	require.NotEmpty(t, chunks)
	for _, c := range chunks {
		assert.NotContains(t, c, "sk-SECRET")
	}
	assert.Equal(t, "the key is [redacted], keep it", strings.Join(chunks, ""))
	assert.Equal(t, "the key is [redacted], keep it", resp.Text())
}

func TestStreamedToolCallsStillRunThroughTheHooks(t *testing.T) {
	f := newFakeAPI(t, toolReply(call{"call_1", "shell", `{"command":"rm -rf /"}`}), textReply("no"))
	shell := &shellLog{}
	tool := hooksgenkit.DefineTool(f.g, "shell", "runs a command", shell.run)
	resp, err := generate(t, f, []hooks.Hook{guard()}, ai.WithTools(tool),
		ai.WithStreaming(func(context.Context, *ai.ModelResponseChunk) error { return nil }))
	require.NoError(t, err)
	assert.Equal(t, "no", resp.Text())
	assert.Empty(t, shell.commands())
	assert.Equal(t, `"deleting files is not allowed"`, toolMessage(t, f, 1))
}

// TestPayloadFields: the hooks see the model's name, the tools offered
// with their schemas, and each reply's usage and stop reason.
func TestPayloadFields(t *testing.T) {
	f := newFakeAPI(t, toolReply(call{"call_1", "shell", `{"command":"ls"}`}), textReply("done"))
	shell := &shellLog{}
	tool := hooksgenkit.DefineTool(f.g, "shell", "runs a command", shell.run)
	var reqs []hooks.ModelRequest
	var resps []hooks.ModelResponse
	record := hooks.Funcs{HookName: "record",
		BeforeModelRequest: func(_ *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
			reqs = append(reqs, req)
			return nil, nil
		},
		AfterModelResponse: func(_ *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
			resps = append(resps, resp)
			return nil, nil
		}}

	_, err := generate(t, f, []hooks.Hook{record}, ai.WithTools(tool), ai.WithSystem("be brief"))
	require.NoError(t, err)
	require.Len(t, reqs, 2)
	assert.Equal(t, "fake/gpt-test", reqs[0].Model)
	assert.Equal(t, "be brief", reqs[0].System)
	require.Len(t, reqs[0].Tools, 1)
	assert.Equal(t, "shell", reqs[0].Tools[0].Name)
	assert.Equal(t, "runs a command", reqs[0].Tools[0].Description)
	var schema map[string]any
	require.NoError(t, json.Unmarshal(reqs[0].Tools[0].Schema, &schema))
	assert.Contains(t, schema["properties"], "command")

	require.Len(t, resps, 2)
	want := hooks.Usage{InputTokens: 11, OutputTokens: 7, CachedInputTokens: 5}
	assert.Equal(t, want, resps[0].Usage)
	assert.Equal(t, hooks.StopToolUse, resps[0].StopReason)
	require.Len(t, resps[0].ToolCalls, 1)
	assert.Equal(t, hooks.ToolCall{ID: "call_1", Name: "shell", Arguments: map[string]any{"command": "ls"}}, resps[0].ToolCalls[0])
	assert.Equal(t, hooks.StopEndTurn, resps[1].StopReason)

	// The second request carries the exchange as the hooks see it.
	msgs := reqs[1].Messages
	require.Len(t, msgs, 3)
	assert.Equal(t, "user", msgs[0].Role)
	assert.Equal(t, "assistant", msgs[1].Role)
	assert.Equal(t, "tool", msgs[2].Role)
	assert.Equal(t, "call_1", msgs[2].ToolCallID)
	assert.Equal(t, "ran ls", msgs[2].Text)
}

// TestHookNarrowsToolsAndChangesModel: what the hooks leave is what is sent.
func TestHookNarrowsToolsAndChangesModel(t *testing.T) {
	f := newFakeAPI(t, textReply("done"))
	other := f.define("gpt-small")
	shell := &shellLog{}
	a := hooksgenkit.DefineTool(f.g, "shell", "runs a command", shell.run)
	b := hooksgenkit.DefineTool(f.g, "list", "lists files", shell.run)
	narrow := hooks.Funcs{HookName: "narrow",
		BeforeModelRequest: func(_ *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
			var keep []hooks.ToolSpec
			for _, s := range req.Tools {
				if s.Name == "list" {
					s.Description = "lists the files of the workdir"
					keep = append(keep, s)
				}
			}
			return &hooks.ModelRequestPatch{Tools: keep, Model: new(other.Name())}, nil
		}}

	_, err := generate(t, f, []hooks.Hook{narrow}, ai.WithTools(a, b))
	require.NoError(t, err)
	assert.Equal(t, []string{"list"}, f.toolNames(0))
	assert.Equal(t, "gpt-small", f.body(0)["model"])
	fn := f.body(0)["tools"].([]any)[0].(map[string]any)["function"].(map[string]any)
	assert.Equal(t, "lists the files of the workdir", fn["description"])
}

func TestUnchangedRequestIsSentAsGenkitBuiltIt(t *testing.T) {
	f := newFakeAPI(t, textReply("done"))
	shell := &shellLog{}
	a := hooksgenkit.DefineTool(f.g, "shell", "runs a command", shell.run)
	noop := hooks.Funcs{HookName: "noop",
		BeforeModelRequest: func(*hooks.Context, hooks.ModelRequest) (*hooks.ModelRequestPatch, error) { return nil, nil }}
	_, err := generate(t, f, []hooks.Hook{noop}, ai.WithTools(a), ai.WithSystem("sys"))
	require.NoError(t, err)
	assert.Equal(t, "gpt-test", f.body(0)["model"])
	assert.Equal(t, []string{"shell"}, f.toolNames(0))
	msgs := f.messages(0)
	require.Len(t, msgs, 2)
	assert.Equal(t, "system", msgs[0]["role"])
	assert.Equal(t, "sys", msgs[0]["content"])
}

func TestHookRewritesSystemAndMessages(t *testing.T) {
	f := newFakeAPI(t, textReply("done"))
	rewrite := hooks.Funcs{HookName: "rewrite",
		BeforeModelRequest: func(_ *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
			sys := "you are careful"
			msgs := append([]hooks.Message{{Role: "user", Text: "context first"}}, req.Messages...)
			return &hooks.ModelRequestPatch{System: &sys, Messages: msgs}, nil
		}}
	_, err := generate(t, f, []hooks.Hook{rewrite})
	require.NoError(t, err)
	msgs := f.messages(0)
	require.Len(t, msgs, 3)
	assert.Equal(t, "you are careful", msgs[0]["content"])
	assert.Equal(t, "user", msgs[1]["role"])
	assert.Equal(t, "context first", msgs[1]["content"].([]any)[0].(map[string]any)["text"])
	assert.Equal(t, "user", msgs[2]["role"])
}

func TestRespondWithToolCallsWithoutIDs(t *testing.T) {
	f := newFakeAPI(t, textReply("done"))
	shell := &shellLog{}
	tool := hooksgenkit.DefineTool(f.g, "shell", "runs a command", shell.run)
	answered := false
	respond := hooks.Funcs{HookName: "respond",
		BeforeModelRequest: func(*hooks.Context, hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
			if answered {
				return nil, nil
			}
			answered = true
			return &hooks.ModelRequestPatch{Respond: &hooks.ModelResponse{ToolCalls: []hooks.ToolCall{
				{Name: "shell", Arguments: map[string]any{"command": "ls"}},
				{Name: "shell", Arguments: map[string]any{"command": "pwd"}},
			}}}, nil
		}}

	resp, err := generate(t, f, []hooks.Hook{respond}, ai.WithTools(tool))
	require.NoError(t, err)
	assert.Equal(t, "done", resp.Text())
	assert.ElementsMatch(t, []string{"ls", "pwd"}, shell.commands())
	require.Len(t, f.requests(), 1, "the answered call never reached the model")
	var ids []string
	for _, m := range f.messages(0) {
		if m["role"] == "tool" {
			ids = append(ids, m["tool_call_id"].(string))
		}
	}
	require.Len(t, ids, 2)
	assert.NotEmpty(t, ids[0])
	assert.NotEqual(t, ids[0], ids[1], "each call of a canned answer gets its own ID")
}

func TestEndStopsTheGenerate(t *testing.T) {
	f := newFakeAPI(t)
	end := hooks.Funcs{HookName: "end",
		BeforeModelRequest: func(*hooks.Context, hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
			return &hooks.ModelRequestPatch{End: &hooks.End{Output: "budget spent"}}, nil
		}}
	resp, err := generate(t, f, []hooks.Hook{end})
	require.NoError(t, err)
	assert.Equal(t, "budget spent", resp.Text())
	assert.Empty(t, f.requests())
}

func TestContinueSendsTheRunOnWithTheExchange(t *testing.T) {
	f := newFakeAPI(t, textReply("draft"), textReply("final"))
	more := hooks.Funcs{HookName: "more",
		AfterModelResponse: func(_ *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
			if resp.Text == "draft" {
				return &hooks.ModelResponsePatch{Continue: new("check your answer")}, nil
			}
			return nil, nil
		}}
	resp, err := generate(t, f, []hooks.Hook{more})
	require.NoError(t, err)
	assert.Equal(t, "final", resp.Text())
	msgs := f.messages(1)
	require.Len(t, msgs, 3)
	assert.Equal(t, "draft", msgs[1]["content"])
	assert.Equal(t, "check your answer", msgs[2]["content"].([]any)[0].(map[string]any)["text"])
	var texts []string
	for _, m := range resp.History() {
		texts = append(texts, m.Text())
	}
	assert.Equal(t, []string{"hello", "draft", "check your answer", "final"}, texts)
}

func TestHookErrorFailsTheGenerate(t *testing.T) {
	f := newFakeAPI(t)
	boom := hooks.Funcs{HookName: "boom",
		BeforeModelRequest: func(*hooks.Context, hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
			return nil, assert.AnError
		}}
	_, err := generate(t, f, []hooks.Hook{boom})
	require.ErrorIs(t, err, hooks.ErrHookFailed)
	assert.Empty(t, f.requests())
}
