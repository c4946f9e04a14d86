package genai

import (
	"context"
	"iter"
	"testing"

	sdk "google.golang.org/genai"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chunks is a StreamingModels that streams its responses.
type chunks []*sdk.GenerateContentResponse

func (cs chunks) GenerateContentStream(context.Context, string, []*sdk.Content, *sdk.GenerateContentConfig) iter.Seq2[*sdk.GenerateContentResponse, error] {
	return func(yield func(*sdk.GenerateContentResponse, error) bool) {
		for _, c := range cs {
			if !yield(c, nil) {
				return
			}
		}
	}
}

func modelParts(parts ...*sdk.Part) *sdk.GenerateContentResponse {
	return &sdk.GenerateContentResponse{Candidates: []*sdk.Candidate{{Content: &sdk.Content{Role: sdk.RoleModel, Parts: parts}}}}
}

func TestStreamYieldsThoughtsAsReasoningChunks(t *testing.T) {
	stream := chunks{modelParts(&sdk.Part{Text: "weigh ", Thought: true}), modelParts(&sdk.Part{Text: "it", Thought: true}),
		modelParts(&sdk.Part{Text: "ok"})}
	var reasoning, text []string
	_, resp, err := streamCall(context.Background(), stream, Params{Model: "m"}, hooks.ModelRequest{}, func(ch hooks.Chunk) error {
		if ch.Reasoning != "" {
			reasoning = append(reasoning, ch.Reasoning)
		}
		if ch.Text != "" {
			text = append(text, ch.Text)
		}
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"weigh ", "it"}, reasoning, "one chunk per thought piece, as it comes")
	assert.Equal(t, []string{"ok"}, text)
	assert.Equal(t, "weigh it", resp.Reasoning)
}
