package eino

import (
	"context"
	"errors"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pacedModel streams its chunks from a goroutine, one at a time; before
// chunk i it waits for gate(i), so a test can tell that eino's reader had
// a chunk while the model was still answering. stopped is closed when the
// goroutine ends, reporting whether the reader hung up.
type pacedModel struct {
	chunks  []*schema.Message
	gate    func(i int)
	stopped chan bool
	inputs  [][]*schema.Message
}

func (m *pacedModel) Generate(context.Context, []*schema.Message, ...model.Option) (*schema.Message, error) {
	return nil, errors.New("pacedModel only streams")
}

func (m *pacedModel) Stream(_ context.Context, input []*schema.Message, _ ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	m.inputs = append(m.inputs, input)
	sr, sw := schema.Pipe[*schema.Message](0)
	go func() {
		defer sw.Close()
		for i, c := range m.chunks {
			if m.gate != nil {
				m.gate(i)
			}
			if closed := sw.Send(c, nil); closed {
				m.stopped <- true
				return
			}
		}
		m.stopped <- false
	}()
	return sr, nil
}

func (m *pacedModel) WithTools([]*schema.ToolInfo) (model.ToolCallingChatModel, error) { return m, nil }

func texts(ts ...string) []*schema.Message {
	out := make([]*schema.Message, len(ts))
	for i, t := range ts {
		out[i] = schema.AssistantMessage(t, nil)
	}
	return out
}

// streamRun streams one call of m through a run of hs; it returns eino's
// reader.
func streamRun(t *testing.T, m *pacedModel, hs ...hooks.Hook) *schema.StreamReader[*schema.Message] {
	t.Helper()
	chain, err := hooks.NewChain(hs, hooks.WithDiagnostics(func(d hooks.Diagnostic) { t.Errorf("diagnostic: %s at %s: %v", d.Hook, d.Point, d.Err) }))
	require.NoError(t, err)
	ctx := context.Background()
	run, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{Input: "test"})
	require.NoError(t, err)
	sr, err := WrapModel(m).stream(hooks.ContextWithRun(ctx, run), []*schema.Message{schema.UserMessage("hi")})
	require.NoError(t, err)
	return sr
}

// readAll reads sr to its end.
func readAll(t *testing.T, sr *schema.StreamReader[*schema.Message]) []*schema.Message {
	t.Helper()
	defer sr.Close()
	var out []*schema.Message
	for {
		m, err := sr.Recv()
		if errors.Is(err, io.EOF) {
			return out
		}
		require.NoError(t, err)
		out = append(out, m)
	}
}

func TestStreamDeliversEinoChunksWhileTheModelAnswers(t *testing.T) {
	first := make(chan struct{})
	m := &pacedModel{chunks: texts("Hel", "lo"), stopped: make(chan bool, 1), gate: func(i int) {
		if i == 1 {
			select {
			case <-first:
			case <-time.After(10 * time.Second):
				t.Error("eino's reader did not get the first chunk while the model was answering")
			}
		}
	}}
	var after hooks.ModelResponse
	sr := streamRun(t, m, hooks.Funcs{HookName: "h", AfterModelResponse: func(_ *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
		after = resp
		return nil, nil
	}})
	c, err := sr.Recv()
	require.NoError(t, err)
	assert.Equal(t, "Hel", c.Content)
	close(first)
	rest := readAll(t, sr)
	msg, err := schema.ConcatMessages(append([]*schema.Message{c}, rest...))
	require.NoError(t, err)
	assert.Equal(t, "Hello", msg.Content)
	assert.Equal(t, "Hello", after.Text, "AfterModelResponse sees the assembled reply")
	assert.False(t, <-m.stopped)
}

const secret = "sk-live-0123456789abcdefghijABCDEF"

var keyPattern = regexp.MustCompile(`sk-live-[A-Za-z0-9]{26}`)

type redactor struct{}

func (redactor) Name() string  { return "redact" }
func (redactor) HoldBack() int { return len(secret) - 1 }
func (redactor) StreamText(_ *hooks.Context, text string, _ bool) (*hooks.StreamPatch, error) {
	out := keyPattern.ReplaceAllString(text, "[REDACTED]")
	return &hooks.StreamPatch{Text: &out}, nil
}
func (redactor) AfterModelResponse(_ *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
	out := keyPattern.ReplaceAllString(resp.Text, "[REDACTED]")
	return &hooks.ModelResponsePatch{Text: &out}, nil
}

func TestStreamKeepsASecretOutOfEveryEinoChunk(t *testing.T) {
	text := "The key is " + secret + ", twice: " + secret
	for _, size := range []int{1, 5, 13, len(text)} {
		var parts []string
		for i := 0; i < len(text); i += size {
			parts = append(parts, text[i:min(i+size, len(text))])
		}
		m := &pacedModel{chunks: texts(parts...), stopped: make(chan bool, 1)}
		got := readAll(t, streamRun(t, m, redactor{}))
		var all strings.Builder
		for _, c := range got {
			assert.NotContains(t, c.Content, "sk-live", "chunk size %d", size)
			all.WriteString(c.Content)
		}
		assert.Equal(t, "The key is [REDACTED], twice: [REDACTED]", all.String(), "chunk size %d", size)
	}
}

func TestStreamSendsEinoToolCallsOnlyAfterTheHooks(t *testing.T) {
	idx := 0
	call := func(id, name, args string) *schema.Message {
		return &schema.Message{Role: schema.Assistant, ToolCalls: []schema.ToolCall{{Index: &idx, ID: id, Function: schema.FunctionCall{Name: name, Arguments: args}}}}
	}
	chunks := append(texts("Looking."), call("c1", "search", `{"q":`), call("", "", `"go"}`))
	t.Run("the calls come last, whole", func(t *testing.T) {
		m := &pacedModel{chunks: chunks, stopped: make(chan bool, 1)}
		got := readAll(t, streamRun(t, m))
		require.NotEmpty(t, got)
		for _, c := range got[:len(got)-1] {
			assert.Empty(t, c.ToolCalls, "no tool call before the hooks have seen the reply")
		}
		msg, err := schema.ConcatMessages(got)
		require.NoError(t, err)
		require.Len(t, msg.ToolCalls, 1)
		assert.Equal(t, "c1", msg.ToolCalls[0].ID)
		assert.Equal(t, `{"q":"go"}`, msg.ToolCalls[0].Function.Arguments)
		assert.Equal(t, "Looking.", msg.Content)
	})
	t.Run("an End sends none", func(t *testing.T) {
		m := &pacedModel{chunks: chunks, stopped: make(chan bool, 1)}
		end := hooks.Funcs{HookName: "end", AfterModelResponse: func(*hooks.Context, hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
			return &hooks.ModelResponsePatch{End: &hooks.End{Output: "done"}}, nil
		}}
		got := readAll(t, streamRun(t, m, end))
		msg, err := schema.ConcatMessages(got)
		require.NoError(t, err)
		assert.Empty(t, msg.ToolCalls, "a run a hook ended runs no tool")
	})
}

func TestStreamStopsTheModelWhenEinoClosesTheReader(t *testing.T) {
	closed := make(chan struct{})
	m := &pacedModel{chunks: texts("a", "b", "c", "d", "e", "f"), stopped: make(chan bool, 1), gate: func(i int) {
		if i == 2 { // the rest comes after eino has closed the reader
			<-closed
		}
	}}
	sr := streamRun(t, m)
	_, err := sr.Recv()
	require.NoError(t, err)
	sr.Close()
	close(closed)
	select {
	case hungUp := <-m.stopped:
		assert.True(t, hungUp, "the model's stream is closed, not read to its end")
	case <-time.After(10 * time.Second):
		t.Fatal("the model's stream was still read after eino closed the reader")
	}
}

func TestStreamWithoutARunFails(t *testing.T) {
	_, err := WrapModel(&pacedModel{}).stream(context.Background(), nil)
	require.ErrorIs(t, err, ErrNoRun)
}
