package adk_test

import (
	"context"
	"iter"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
	"google.golang.org/adk/v2/agent"
	"google.golang.org/adk/v2/agent/llmagent"
	"google.golang.org/adk/v2/model"
	"google.golang.org/adk/v2/plugin"
	"google.golang.org/adk/v2/runner"
	"google.golang.org/adk/v2/session"
	"google.golang.org/adk/v2/tool"
	"google.golang.org/genai"

	"github.com/rienda/hooks"
	hooksadk "github.com/rienda/hooks/adapters/adk"
	"github.com/rienda/hooks/internal/adapttest"
)

// streamModel streams its text in pieces (partial responses), then the
// whole reply, as ADK's Gemini model does in SSE mode.
type streamModel struct{ pieces []string }

func (streamModel) Name() string { return "stream-model" }

func (m streamModel) GenerateContent(_ context.Context, _ *model.LLMRequest, stream bool) iter.Seq2[*model.LLMResponse, error] {
	return func(yield func(*model.LLMResponse, error) bool) {
		if stream {
			for _, p := range m.pieces {
				if !yield(&model.LLMResponse{Content: genai.NewContentFromText(p, genai.RoleModel), Partial: true}, nil) {
					return
				}
			}
		}
		yield(&model.LLMResponse{Content: genai.NewContentFromText(strings.Join(m.pieces, ""), genai.RoleModel),
			TurnComplete: true, FinishReason: genai.FinishReasonStop}, nil)
	}
}

const secret = "sk-live-0123456789abcdefghijABCDEF"

var keyPattern = regexp.MustCompile(`sk-live-[A-Za-z0-9]{26}`)

func TestStreamedRepliesKeepASecretOutOfEveryEvent(t *testing.T) {
	text := "Here is the key: " + secret + "."
	redact := hooks.Funcs{HookName: "redact", AfterModelResponse: func(_ *hooks.Context, r hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
		out := keyPattern.ReplaceAllString(r.Text, "[REDACTED]")
		return &hooks.ModelResponsePatch{Text: &out}, nil
	}}
	for _, size := range []int{1, 5, len(text)} {
		var pieces []string
		for i := 0; i < len(text); i += size {
			pieces = append(pieces, text[i:min(i+size, len(text))])
		}
		a := newApp(t, streamModel{pieces: pieces}, nil, redact)
		var final string
		for ev, err := range a.runner.Run(t.Context(), "user", "s1", genai.NewContentFromText("key?", genai.RoleUser),
			agent.RunConfig{StreamingMode: agent.StreamingModeSSE}) {
			require.NoError(t, err)
			if ev.Content == nil {
				continue
			}
			for _, p := range ev.Content.Parts {
				assert.NotContains(t, p.Text, "sk-live", "size %d", size)
				if !ev.Partial {
					final += p.Text
				}
			}
		}
		assert.Equal(t, "Here is the key: [REDACTED].", final, "size %d", size)
		require.Len(t, a.ends, 1)
		assert.Equal(t, "Here is the key: [REDACTED].", a.ends[0].Output)
	}
}

// gatedModel streams pieces and makes the next one only once the app got
// the last as a partial event (appSaw), or gives up after a deadline and
// says so in late: the app gets each partial as it comes, not held back.
type gatedModel struct {
	pieces []string
	appSaw chan struct{}
	late   *atomic.Bool
}

func (gatedModel) Name() string { return "gated-model" }

func (m gatedModel) GenerateContent(_ context.Context, _ *model.LLMRequest, stream bool) iter.Seq2[*model.LLMResponse, error] {
	return func(yield func(*model.LLMResponse, error) bool) {
		for i, p := range m.pieces {
			if !yield(&model.LLMResponse{Content: genai.NewContentFromText(p, genai.RoleModel), Partial: true}, nil) {
				return
			}
			if i < len(m.pieces)-1 {
				select {
				case <-m.appSaw:
				case <-time.After(10 * time.Second): // a deadline, not a synchronisation
					m.late.Store(true)
				}
			}
		}
		yield(&model.LLMResponse{Content: genai.NewContentFromText(strings.Join(m.pieces, ""), genai.RoleModel),
			TurnComplete: true, FinishReason: genai.FinishReasonStop}, nil)
	}
}

func TestStreamHooksDeliverEachPartialAsItComes(t *testing.T) {
	pieces := []string{strings.Repeat("a", 40), strings.Repeat("b", 40), strings.Repeat("c", 40)}
	m := gatedModel{pieces: pieces, appSaw: make(chan struct{}, len(pieces)), late: new(atomic.Bool)}
	a := newApp(t, m, nil, adapttest.Redactor{})
	var partial, final string
	for ev, err := range a.runner.Run(t.Context(), "user", "s1", genai.NewContentFromText("go", genai.RoleUser),
		agent.RunConfig{StreamingMode: agent.StreamingModeSSE}) {
		require.NoError(t, err)
		if ev.Content == nil {
			continue
		}
		for _, p := range ev.Content.Parts {
			if ev.Partial {
				partial += p.Text
			} else {
				final += p.Text
			}
		}
		if ev.Partial {
			m.appSaw <- struct{}{}
		}
	}
	assert.False(t, m.late.Load(), "a partial event came only after the model made the next piece")
	whole := strings.Join(pieces, "")
	assert.Equal(t, whole[:len(whole)-(len(adapttest.Secret)-1)], partial, "partials carry what the stream hook let through; its held-back tail is in the final reply")
	assert.Equal(t, whole, final)
	require.Len(t, a.ends, 1)
	assert.Equal(t, whole, a.ends[0].Output)
}

func TestStreamHooksKeepASecretOutOfEveryEvent(t *testing.T) {
	text := "Here is the key: " + secret + ", and " + secret + "."
	for _, size := range []int{1, 5, 16, len(text)} {
		a := newApp(t, streamModel{pieces: adapttest.Split(text, size)}, nil, adapttest.Redactor{})
		var partial, final string
		for ev, err := range a.runner.Run(t.Context(), "user", "s1", genai.NewContentFromText("key?", genai.RoleUser),
			agent.RunConfig{StreamingMode: agent.StreamingModeSSE}) {
			require.NoError(t, err)
			if ev.Content == nil {
				continue
			}
			for _, p := range ev.Content.Parts {
				assert.NotContains(t, p.Text, "sk-live", "size %d", size)
				if ev.Partial {
					partial += p.Text
				} else {
					final += p.Text
				}
			}
		}
		assert.Equal(t, "Here is the key: [REDACTED], and [REDACTED].", final, "size %d", size)
		assert.True(t, strings.HasPrefix(final, partial), "size %d: partials are the reply's start: %q", size, partial)
		require.Len(t, a.ends, 1)
	}
}

// ender is a stream hook that ends the stream when it sees stop.
type ender struct{}

func (ender) Name() string  { return "ender" }
func (ender) HoldBack() int { return 3 }
func (ender) StreamText(_ *hooks.Context, text string, _ bool) (*hooks.StreamPatch, error) {
	if i := strings.Index(text, "STOP"); i >= 0 {
		kept := text[:i]
		return &hooks.StreamPatch{Text: &kept, End: &hooks.End{Output: "stopped"}}, nil
	}
	return nil, nil
}

func TestAStreamHooksEndStopsTheInvocation(t *testing.T) {
	m := streamModel{pieces: []string{"one ", "two ", "STOP ", "never"}}
	a := newApp(t, m, nil, ender{})
	var texts []string
	for ev, err := range a.runner.Run(t.Context(), "user", "s1", genai.NewContentFromText("go", genai.RoleUser),
		agent.RunConfig{StreamingMode: agent.StreamingModeSSE}) {
		require.NoError(t, err)
		if ev.Content != nil {
			for _, p := range ev.Content.Parts {
				texts = append(texts, p.Text)
			}
		}
	}
	assert.NotContains(t, strings.Join(texts, ""), "never")
	assert.Equal(t, "stopped", texts[len(texts)-1], "End's output is the last reply")
	require.Len(t, a.ends, 1)
	assert.Equal(t, "stopped", a.ends[0].Output)
}

func TestAStreamedCallADKNeverMakesLeavesNoGoroutine(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	chain, err := hooks.NewChain([]hooks.Hook{adapttest.Redactor{}})
	require.NoError(t, err)
	p, err := hooksadk.Plugin(chain, hooksadk.Options{})
	require.NoError(t, err)
	// The agent's own callback answers after the plugin's: ADK calls no
	// model and no after-model callback for the call the plugin opened.
	answer := func(agent.Context, *model.LLMRequest) (*model.LLMResponse, error) {
		return &model.LLMResponse{Content: genai.NewContentFromText("cached", genai.RoleModel), TurnComplete: true}, nil
	}
	root, err := llmagent.New(llmagent.Config{Name: "root", Model: streamModel{pieces: []string{"never"}},
		BeforeModelCallbacks: []llmagent.BeforeModelCallback{answer}})
	require.NoError(t, err)
	r, err := runner.New(runner.Config{AppName: "test", Agent: root, SessionService: session.InMemoryService(),
		AutoCreateSession: true, PluginConfig: runner.PluginConfig{Plugins: []*plugin.Plugin{p}}})
	require.NoError(t, err)
	var text string
	for ev, err := range r.Run(t.Context(), "user", "s1", genai.NewContentFromText("go", genai.RoleUser),
		agent.RunConfig{StreamingMode: agent.StreamingModeSSE}) {
		require.NoError(t, err)
		if ev.Content != nil && !ev.Partial {
			text += ev.Content.Parts[0].Text
		}
	}
	assert.Equal(t, "cached", text)
}

// scriptModel answers call i with replies[i]: its partial pieces, then the
// whole content.
type scriptModel struct {
	mu      *sync.Mutex
	n       *int
	replies []*genai.Content
}

func (scriptModel) Name() string { return "script-model" }

func (m scriptModel) GenerateContent(_ context.Context, _ *model.LLMRequest, stream bool) iter.Seq2[*model.LLMResponse, error] {
	return func(yield func(*model.LLMResponse, error) bool) {
		m.mu.Lock()
		c := m.replies[min(*m.n, len(m.replies)-1)]
		*m.n++
		m.mu.Unlock()
		for _, p := range c.Parts {
			if stream && p.Text != "" {
				if !yield(&model.LLMResponse{Content: genai.NewContentFromText(p.Text, genai.RoleModel), Partial: true}, nil) {
					return
				}
			}
		}
		yield(&model.LLMResponse{Content: c, TurnComplete: true, FinishReason: genai.FinishReasonStop}, nil)
	}
}

func TestStreamedToolTurnGoesThroughTheHooks(t *testing.T) {
	var n int
	m := scriptModel{mu: &sync.Mutex{}, n: &n, replies: []*genai.Content{
		{Role: genai.RoleModel, Parts: []*genai.Part{{Text: "Reading. "}, {FunctionCall: &genai.FunctionCall{Name: "read", Args: map[string]any{"path": "a"}}}}},
		textReply("The key is " + secret + "."),
	}}
	read := &toolLog{out: map[string]any{"result": "contents"}}
	var seen adapttest.Seen
	a := newApp(t, m, []tool.Tool{read.tool(t, "read")}, adapttest.Redactor{}, seen.Hook())
	var final []string
	for ev, err := range a.runner.Run(t.Context(), "user", "s1", genai.NewContentFromText("go", genai.RoleUser),
		agent.RunConfig{StreamingMode: agent.StreamingModeSSE}) {
		require.NoError(t, err)
		if ev.Content == nil {
			continue
		}
		for _, p := range ev.Content.Parts {
			assert.NotContains(t, p.Text, "sk-live")
			if !ev.Partial && p.Text != "" {
				final = append(final, p.Text)
			}
		}
	}
	assert.Len(t, read.calls, 1, "the streamed reply's call ran")
	require.Len(t, seen.Replies, 2)
	require.Len(t, seen.Replies[0].ToolCalls, 1)
	assert.NotEmpty(t, seen.Replies[0].ToolCalls[0].ID, "the hooks see ADK's call ID")
	assert.Equal(t, []string{"Reading. ", "The key is [REDACTED]."}, final)
	require.Len(t, a.ends, 1)
	assert.Equal(t, "The key is [REDACTED].", a.ends[0].Output)
}
