package anthropic

import (
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/ssestream"
	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStreamYieldsThinkingDeltasAsReasoningChunks(t *testing.T) {
	b, err := os.ReadFile("testdata/thinking.sse")
	require.NoError(t, err)
	res := &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"text/event-stream"}},
		Body: io.NopCloser(strings.NewReader(string(b)))}
	var reasoning, text []string
	msg, err := streamMessage(ssestream.NewStream[sdk.MessageStreamEventUnion](ssestream.NewDecoder(res), nil), func(ch hooks.Chunk) error {
		if ch.Reasoning != "" {
			reasoning = append(reasoning, ch.Reasoning)
		}
		if ch.Text != "" {
			text = append(text, ch.Text)
		}
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"weigh ", "it"}, reasoning, "one chunk per delta, as it comes")
	assert.Equal(t, []string{"ok"}, text)
	assert.Equal(t, "weigh it", thinking(msg))
}
