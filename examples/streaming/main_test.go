package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStreamingExample runs the example and checks what its chunks show.
func TestStreamingExample(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, run(context.Background(), &buf))
	got := buf.String()
	for _, piece := range []string{"sk-l", "live", "0123", "ABCDEF", "hunter2", "sticky"} {
		assert.NotContains(t, got, piece, "no piece of the key or the password is shown:\n%s", got)
	}
	assert.Contains(t, got, `"EY=[R"`, "the redaction is delivered in the key's place")
	assert.Contains(t, got, `recorded reply:  "Sure. Set OPENAI_API_KEY=[REDACTED] in your shell, then run it. The key belongs to Alice. "`)
	assert.Contains(t, got, "run ended:       stopped: the reply gave a password away")
	assert.True(t, strings.HasPrefix(got, `chunk  1 (model at byte  45): "S"`),
		"the first chunk waits only for the two hooks' hold-backs (33 + 11 runes):\n%s", got)
}
