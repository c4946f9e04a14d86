package anthropic_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/rienda/hooks"
	hooksanthropic "github.com/rienda/hooks/adapters/anthropic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLoopRunStreamStreamsEveryTurnThroughTheHooks(t *testing.T) {
	api := newSSEAPI(t, "/v1/messages")
	turns := [][]string{
		messageEvents([]string{"Reading."}, call{"toolu_1", "read", `{"path":"notes.txt"}`}),
		messageEvents(split("The key is "+secret+".", 4)),
	}
	n := 0
	api.Next = func() []string { n++; return turns[n-1] }
	got := newReceived()
	var read []string
	run := startRun(t, redactor{})
	loop := hooksanthropic.Loop{Messages: &api.client.Messages, Tools: map[string]hooksanthropic.Tool{
		"read": func(_ context.Context, args json.RawMessage) (hooks.ToolResult, error) {
			read = append(read, string(args))
			return hooks.ToolResult{Text: "sk notes"}, nil
		}}}
	res, err := loop.RunStream(context.Background(), run, userParams("read my notes"), got.Deliver)
	require.NoError(t, err)
	assert.Equal(t, []string{`{"path":"notes.txt"}`}, read)
	assert.Equal(t, 2, res.Turns)
	assert.Equal(t, "Reading.The key is [REDACTED].", got.Text())
	assert.Equal(t, "The key is [REDACTED].", res.Output)
	raw, err := json.Marshal(res.Messages)
	require.NoError(t, err)
	assert.NotContains(t, string(raw), secret)
}
