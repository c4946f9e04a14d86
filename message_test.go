package hooks_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fwMessage stands for a framework's own message. It carries more than a
// hooks.Message (an image), so a message rebuilt from a hooks.Message would
// lose it: only the framework's own value is lossless.
type fwMessage struct {
	Role, Content string
	Image         string
	Calls         []hooks.ToolCall
	CallID        string
}

// fwConversation is a transcript with a tool exchange: an assistant's call
// and the tool's answer to it.
func fwConversation() []*fwMessage {
	return []*fwMessage{
		{Role: "system", Content: "You help."},
		{Role: "user", Content: "what is in a.txt?", Image: "photo.png"},
		{Role: "assistant", Calls: []hooks.ToolCall{{ID: "c1", Name: "read", Arguments: map[string]any{"path": "a.txt"}}}},
		{Role: "tool", Content: "the secret is 42", CallID: "c1"},
	}
}

// fwToHooks is what an adapter does before the BeforeModelRequest hooks:
// each message keeps the framework's value it was made from.
func fwToHooks(msgs []*fwMessage) []hooks.Message {
	out := make([]hooks.Message, len(msgs))
	for i, m := range msgs {
		out[i] = hooks.Message{Role: m.Role, Text: m.Content, ToolCalls: m.Calls, ToolCallID: m.CallID}.WithRaw(m)
	}
	return out
}

// fwBuilder is an adapter's build function for RebuildMessages; it records
// what it had to build.
type fwBuilder struct{ built []hooks.Message }

func (b *fwBuilder) build(m hooks.Message) (*fwMessage, error) {
	b.built = append(b.built, m)
	out := &fwMessage{Role: m.Role, Content: m.Text, Calls: m.ToolCalls, CallID: m.ToolCallID}
	if raw, _ := m.Raw(); raw != nil { // changed, yet made from a framework message: keep what hooks cannot see
		out.Image = raw.(*fwMessage).Image
	}
	return out, nil
}

// rewriteMessages runs msgs through a real chain whose one hook returns
// patch(req.Messages) as its Messages, and rebuilds the framework's
// messages from what the hooks left.
func rewriteMessages(t *testing.T, conv []*fwMessage, patch func([]hooks.Message) []hooks.Message) ([]*fwMessage, *fwBuilder) {
	t.Helper()
	var rec recorder
	run := start(t, &rec, hooks.Funcs{HookName: "rewrite",
		BeforeModelRequest: func(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
			return &hooks.ModelRequestPatch{Messages: patch(req.Messages)}, nil
		}})
	step, err := run.BeforeModelRequest(context.Background(), hooks.ModelRequest{Messages: fwToHooks(conv)})
	require.NoError(t, err)
	var b fwBuilder
	got, err := hooks.RebuildMessages(step.Request.Messages, b.build)
	require.NoError(t, err)
	return got, &b
}

func TestRebuildMessagesKeepsWhatNoHookChanged(t *testing.T) {
	note := hooks.Message{Role: "user", Text: "answer in French"}
	for name, tc := range map[string]struct {
		patch func([]hooks.Message) []hooks.Message
		kept  []int // per message sent: the index of the framework message used as is, or -1 for one built
		built []string
	}{
		"no change": {patch: slices.Clone[[]hooks.Message],
			kept: []int{0, 1, 2, 3}},
		"insert before the tool exchange": {patch: func(m []hooks.Message) []hooks.Message { return slices.Insert(slices.Clone(m), 2, note) },
			kept: []int{0, 1, -1, 2, 3}, built: []string{"answer in French"}},
		"remove one": {patch: func(m []hooks.Message) []hooks.Message { return slices.Delete(slices.Clone(m), 1, 2) },
			kept: []int{0, 2, 3}},
		"reorder": {patch: func(m []hooks.Message) []hooks.Message { return []hooks.Message{m[1], m[0], m[2], m[3]} },
			kept: []int{1, 0, 2, 3}},
		"redact the tool's answer": {patch: func(m []hooks.Message) []hooks.Message {
			m = slices.Clone(m)
			m[3].Text = "the secret is [redacted]"
			return m
		}, kept: []int{0, 1, 2, -1}, built: []string{"the secret is [redacted]"}},
		"a copied message twice": {patch: func(m []hooks.Message) []hooks.Message { return append(slices.Clone(m), m[0]) },
			kept: []int{0, 1, 2, 3, 0}},
	} {
		t.Run(name, func(t *testing.T) {
			conv := fwConversation()
			got, b := rewriteMessages(t, conv, tc.patch)
			require.Len(t, got, len(tc.kept))
			for i, k := range tc.kept {
				if k >= 0 {
					assert.Same(t, conv[k], got[i], "message %d is the framework's own value", i)
				} else {
					assert.NotContains(t, conv, got[i], "message %d is built", i)
				}
			}
			var texts []string
			for _, m := range b.built {
				texts = append(texts, m.Text)
			}
			assert.Equal(t, tc.built, texts, "only changed and new messages are built")
		})
	}
}

func TestRebuildMessagesBuildsAChangedToolCallAndKeepsWhatHooksCannotSee(t *testing.T) {
	conv := fwConversation()
	got, b := rewriteMessages(t, conv, func(m []hooks.Message) []hooks.Message {
		m = slices.Clone(m)
		m[1].Text = "what is in b.txt?"
		m[2].ToolCalls = slices.Clone(m[2].ToolCalls)
		m[2].ToolCalls[0].Arguments = map[string]any{"path": "b.txt"}
		return m
	})
	require.Len(t, got, 4)
	assert.Same(t, conv[0], got[0])
	assert.Same(t, conv[3], got[3])
	assert.Equal(t, &fwMessage{Role: "user", Content: "what is in b.txt?", Image: "photo.png"}, got[1],
		"build found the framework's value of a changed message with Raw, and kept its image")
	assert.Equal(t, map[string]any{"path": "b.txt"}, got[2].Calls[0].Arguments)
	assert.Equal(t, "c1", got[2].Calls[0].ID, "the call keeps its ID: the tool message still answers it")
	assert.Len(t, b.built, 2)
	assert.Equal(t, map[string]any{"path": "a.txt"}, conv[2].Calls[0].Arguments, "the framework's messages are not written through")
}

func TestMessageRawReportsAnyChange(t *testing.T) {
	fw := &fwMessage{}
	made := func() hooks.Message {
		return hooks.Message{Role: "assistant", Text: "reading", ID: "m1", ToolCallID: "",
			ToolCalls: []hooks.ToolCall{{ID: "c1", Name: "read", Arguments: map[string]any{"path": "a.txt", "n": 1.0}}}}.WithRaw(fw)
	}
	for name, tc := range map[string]struct {
		change    func(m *hooks.Message)
		unchanged bool
	}{
		"nothing": {change: func(*hooks.Message) {}, unchanged: true},
		"a copy": {change: func(m *hooks.Message) {
			copied := *m
			*m = copied
		}, unchanged: true},
		"equal arguments": {change: func(m *hooks.Message) { setArgs(m, map[string]any{"n": 1.0, "path": "a.txt"}) }, unchanged: true},
		"text":            {change: func(m *hooks.Message) { m.Text = "Reading" }},
		"role":            {change: func(m *hooks.Message) { m.Role = "user" }},
		"id":              {change: func(m *hooks.Message) { m.ID = "m2" }},
		"tool call id":    {change: func(m *hooks.Message) { m.ToolCallID = "c1" }},
		"arguments":       {change: func(m *hooks.Message) { setArgs(m, map[string]any{"path": "/etc/passwd", "n": 1.0}) }},
		"a number's type": {change: func(m *hooks.Message) { setArgs(m, map[string]any{"path": "a.txt", "n": 1}) }},
		"call name": {change: func(m *hooks.Message) {
			m.ToolCalls = []hooks.ToolCall{{ID: "c1", Name: "write", Arguments: m.ToolCalls[0].Arguments}}
		}},
		"a call added":  {change: func(m *hooks.Message) { m.ToolCalls = append(slices.Clone(m.ToolCalls), hooks.ToolCall{ID: "c2"}) }},
		"calls dropped": {change: func(m *hooks.Message) { m.ToolCalls = nil }},
		"written through the shared calls": {change: func(m *hooks.Message) {
			m.ToolCalls[0].Arguments = map[string]any{"path": "/etc/passwd", "n": 1.0} // no clone: the host's slice
		}},
	} {
		t.Run(name, func(t *testing.T) {
			m := made()
			tc.change(&m)
			raw, unchanged := m.Raw()
			assert.Same(t, fw, raw, "the framework's value comes back, changed or not")
			assert.Equal(t, tc.unchanged, unchanged)
		})
	}
}

// setArgs replaces the arguments of m's first call the way a hook must:
// on copies, never writing the host's slice or map.
func setArgs(m *hooks.Message, args map[string]any) {
	m.ToolCalls = slices.Clone(m.ToolCalls)
	m.ToolCalls[0].Arguments = args
}

func TestMessageCopiesKeepTheirRaw(t *testing.T) {
	fw := &fwMessage{Content: "hi"}
	m := hooks.Message{Role: "user", Text: "hi"}.WithRaw(fw)
	copied := slices.Clone([]hooks.Message{m})[0]
	raw, unchanged := copied.Raw()
	assert.Same(t, fw, raw)
	assert.True(t, unchanged)

	raw, unchanged = hooks.Message{Role: "user", Text: "hi"}.Raw()
	assert.Nil(t, raw, "a message a hook wrote has no framework value")
	assert.False(t, unchanged)

	again := m.WithRaw("another")
	raw, unchanged = again.Raw()
	assert.Equal(t, "another", raw, "WithRaw replaces the value")
	assert.True(t, unchanged)
}

func TestRebuildMessagesBuildsARawOfAnotherTypeAndNamesAFailure(t *testing.T) {
	msgs := []hooks.Message{
		hooks.Message{Role: "user", Text: "a"}.WithRaw("not a *fwMessage"),
		{Role: "user", Text: "b"},
		{Role: "tool", Text: "c"},
	}
	var b fwBuilder
	got, err := hooks.RebuildMessages(msgs[:2], func(m hooks.Message) (*fwMessage, error) {
		b.built = append(b.built, m)
		return &fwMessage{Role: m.Role, Content: m.Text}, nil
	})
	require.NoError(t, err)
	assert.Equal(t, []*fwMessage{{Role: "user", Content: "a"}, {Role: "user", Content: "b"}}, got)
	assert.Len(t, b.built, 2)

	errNoTool := errors.New("this framework has no tool role")
	got, err = hooks.RebuildMessages(msgs, func(m hooks.Message) (*fwMessage, error) {
		if m.Role == "tool" {
			return nil, errNoTool
		}
		return &fwMessage{}, nil
	})
	assert.Nil(t, got)
	require.ErrorIs(t, err, errNoTool)
	assert.Contains(t, err.Error(), "message 2 (tool)")

	got, err = hooks.RebuildMessages(nil, (&fwBuilder{}).build)
	require.NoError(t, err)
	assert.Empty(t, got)
}

func TestMessageJSON(t *testing.T) {
	for name, tc := range map[string]struct {
		msg  hooks.Message
		want string
	}{
		"as before": {hooks.Message{Role: "user", Text: "hi"}, `{"role":"user","text":"hi"}`},
		"raw is never serialized": {hooks.Message{Role: "user", Text: "hi"}.WithRaw(make(chan int)),
			`{"role":"user","text":"hi"}`},
		"assistant with calls": {hooks.Message{Role: "assistant", ID: "m1",
			ToolCalls: []hooks.ToolCall{{ID: "c1", Name: "read", Arguments: map[string]any{"path": "a"}}}},
			`{"role":"assistant","text":"","id":"m1","toolCalls":[{"id":"c1","name":"read","arguments":{"path":"a"}}]}`},
		"tool answer": {hooks.Message{Role: "tool", Text: "ok", ToolCallID: "c1"}, `{"role":"tool","text":"ok","toolCallId":"c1"}`},
	} {
		t.Run(name, func(t *testing.T) {
			data, err := json.Marshal(tc.msg)
			require.NoError(t, err)
			assert.JSONEq(t, tc.want, string(data))
			assert.Equal(t, tc.want, string(data), "field order too")
			var back hooks.Message
			require.NoError(t, json.Unmarshal(data, &back))
			raw, _ := back.Raw()
			assert.Nil(t, raw)
			assert.Equal(t, tc.msg.Text, back.Text)
			assert.Equal(t, tc.msg.ToolCalls, back.ToolCalls)
			assert.Equal(t, tc.msg.ToolCallID, back.ToolCallID)
		})
	}
}

func TestMessagesWithRawThroughACommandHookAndASnapshot(t *testing.T) {
	saved := filepath.Join(t.TempDir(), "envelope.json")
	keep := hooks.Funcs{HookName: "keep",
		BeforeModelRequest: func(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
			c.SetState(req.Messages) // framework values that are not JSON (a channel) ride along
			return nil, nil
		}}
	hs := append(commandHooks(t, entry("turn_start", script(t, "save.sh"), saved)), keep)
	chain, err := hooks.NewChain(hs)
	require.NoError(t, err)
	run, err := chain.Start(bg, hooks.Host{}, hooks.RunStart{RunID: "r1"})
	require.NoError(t, err)

	msgs := []hooks.Message{
		hooks.Message{Role: "assistant", ToolCalls: []hooks.ToolCall{{ID: "c1", Name: "read", Arguments: map[string]any{"path": "a"}}}}.WithRaw(make(chan int)),
		hooks.Message{Role: "tool", Text: "ok", ToolCallID: "c1"}.WithRaw(make(chan int)),
	}
	_, err = run.CallModel(bg, hooks.ModelRequest{Messages: msgs}, func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
		for i, m := range req.Messages {
			_, unchanged := m.Raw()
			assert.True(t, unchanged, "message %d reaches the model as the framework had it", i)
		}
		return hooks.ModelResponse{Text: "done"}, nil
	})
	require.NoError(t, err)
	env := savedEnvelope(t, saved)
	assert.Equal(t, "turn_start", env["event"])
	assert.Equal(t, "user", env["subject"])

	snap, err := run.Snapshot()
	require.NoError(t, err, "a state holding messages with raw values still snapshots")
	_, err = chain.Resume(bg, hooks.Host{}, snap)
	require.NoError(t, err)
	assert.Equal(t, []any{
		map[string]any{"role": "assistant", "text": "", "toolCalls": []any{map[string]any{"id": "c1", "name": "read", "arguments": map[string]any{"path": "a"}}}},
		map[string]any{"role": "tool", "text": "ok", "toolCallId": "c1"},
	}, snapshotState(t, snap, "keep"), "the messages are saved as JSON, without their raw values")
}

// snapshotState returns the state a snapshot saved for the hook name.
func snapshotState(t *testing.T, snap []byte, name string) any {
	t.Helper()
	var doc struct {
		States map[string]any `json:"states"`
	}
	require.NoError(t, json.Unmarshal(snap, &doc))
	return doc.States[name]
}

// Issue 15 asks that JS hooks see the message shape Go hooks see, read-only:
// a JS hook must tell a tool message from the call it answers.
func TestJSHooksSeeTheMessageShape(t *testing.T) {
	var rec recorder
	run := start(t, &rec, js(t, "shape", `
		exports.beforeModelRequest = (ctx, req) => {
			const [call, answer] = req.messages;
			return { system: [call.id, call.toolCalls && call.toolCalls[0].name, call.toolCalls && call.toolCalls[0].arguments.path,
				answer.toolCallId, Object.isFrozen(call.toolCalls)].join(" ") };
		};`))
	msgs := []hooks.Message{
		hooks.Message{Role: "assistant", ID: "m1", ToolCalls: []hooks.ToolCall{{ID: "c1", Name: "read", Arguments: map[string]any{"path": "a"}}}}.WithRaw(&fwMessage{}),
		{Role: "tool", Text: "ok", ToolCallID: "c1"},
	}
	step, err := run.BeforeModelRequest(bg, hooks.ModelRequest{Messages: msgs})
	require.NoError(t, err)
	assert.Equal(t, "m1 read a c1 true", step.Request.System, "id, the assistant's calls, the answer's call ID, read-only")
}
