package adk_test

import (
	"context"
	"iter"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/adk/v2/agent"
	"google.golang.org/adk/v2/model"
	"google.golang.org/genai"

	"github.com/rienda/hooks"
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
