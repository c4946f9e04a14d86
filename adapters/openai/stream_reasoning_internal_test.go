package openai

import (
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	oai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/openai/openai-go/v3/responses"
	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sseStream is the SDK's stream over the events of a testdata file.
func sseStream[T any](t *testing.T, path string) *ssestream.Stream[T] {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	res := &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"text/event-stream"}},
		Body: io.NopCloser(strings.NewReader(string(b)))}
	return ssestream.NewStream[T](ssestream.NewDecoder(res), nil)
}

// yielded collects the chunks a stream reader yields, before any hook.
type yielded []hooks.Chunk

func (y *yielded) yield(ch hooks.Chunk) error { *y = append(*y, ch); return nil }

func (y yielded) reasoning() []string {
	var out []string
	for _, ch := range y {
		if ch.Reasoning != "" {
			out = append(out, ch.Reasoning)
		}
	}
	return out
}

func TestChatStreamYieldsReasoningDeltasAsChunks(t *testing.T) {
	var got yielded
	_, resp, err := streamChat(sseStream[oai.ChatCompletionChunk](t, "testdata/reasoning_chat.sse"), got.yield)
	require.NoError(t, err)
	assert.Equal(t, []string{"think ", "hard"}, got.reasoning(), "one chunk per delta, as it comes")
	assert.Equal(t, "think hard", resp.Reasoning)
}

func TestResponsesStreamYieldsReasoningSummaryDeltasAsChunks(t *testing.T) {
	var got yielded
	done, err := streamResponse(sseStream[responses.ResponseStreamEventUnion](t, "testdata/reasoning_responses.sse"), got.yield)
	require.NoError(t, err)
	assert.Equal(t, []string{"weigh ", "it"}, got.reasoning())
	assert.Equal(t, "weigh it", ResponsesResponse(done).Reasoning)
}
