package eino_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/schema"
	"github.com/rienda/hooks"
	eino "github.com/rienda/hooks/adapters/eino"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAgentScenariosThroughMiddleware runs the agent scenarios (Respond,
// End, Continue, a failing hook) again with eino.Middleware in place of
// WrapModel and ToolMiddleware.
func TestAgentScenariosThroughMiddleware(t *testing.T) {
	viaMiddleware = true
	defer func() { viaMiddleware = false }()
	for name, test := range map[string]func(*testing.T){
		"respond and end": TestRespondAndEndAnswerWithoutCallingTheModel,
		"continue":        TestContinueSendsTheRunOnAndLaterCallsSeeTheExchange,
		"failing hook":    TestAFailingHookFailsTheAgentAndTheRun,
	} {
		t.Run(name, test)
	}
}

// TestMiddlewareWithoutARunFailsTheAgent: the agent fails before any
// model call when its context carries no run.
func TestMiddlewareWithoutARunFailsTheAgent(t *testing.T) {
	viaMiddleware = true
	defer func() { viaMiddleware = false }()
	m := &scriptedModel{replies: []*schema.Message{schema.AssistantMessage("hi", nil)}}
	ctx := context.Background()
	iter := adk.NewRunner(ctx, adk.RunnerConfig{Agent: newAgent(t, m)}).Query(ctx, "hi")
	var err error
	for ev, ok := iter.Next(); ok; ev, ok = iter.Next() {
		if ev.Err != nil {
			err = ev.Err
		}
	}
	assert.ErrorIs(t, err, eino.ErrNoRun)
	assert.Empty(t, m.sent(), "the model is not called")
}

// TestMiddlewareStreamsTheAgentsReplyWithoutTheSecret: the agent's
// streamed events carry the model's reply chunk by chunk, and no chunk the
// secret a stream hook redacts, though it spans the model's chunks.
func TestMiddlewareStreamsTheAgentsReplyWithoutTheSecret(t *testing.T) {
	viaMiddleware = true
	defer func() { viaMiddleware = false }()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second) // a failure guard, not a wait
	defer cancel()
	m := &scriptedModel{replies: []*schema.Message{schema.AssistantMessage("the key "+secret+" ok", nil)}}
	hctx, run := startRun(t, secretRedactor{})
	defer run.End(hctx, hooks.RunEnd{})
	iter := adk.NewRunner(ctx, adk.RunnerConfig{Agent: newAgent(t, m), EnableStreaming: true}).Query(hooks.ContextWithRun(ctx, run), "hi")
	var chunks []string
	for ev, ok := iter.Next(); ok; ev, ok = iter.Next() {
		require.NoError(t, ev.Err)
		mv := ev.Output.MessageOutput
		if mv == nil || !mv.IsStreaming {
			continue
		}
		for {
			c, err := mv.MessageStream.Recv()
			if errors.Is(err, io.EOF) {
				break
			}
			require.NoError(t, err)
			chunks = append(chunks, c.Content)
		}
	}
	for _, c := range chunks {
		assert.NotContains(t, c, secret)
		assert.NotContains(t, c, secret[:5], "no chunk carries the start of the secret")
	}
	require.Less(t, len("the key "), len("the key "+secret+" ok")/2, "the model's two chunks split the secret")
	assert.Equal(t, "the key [redacted] ok", strings.Join(chunks, ""))
	assert.GreaterOrEqual(t, len(chunks), 2, "the reply arrives in more than one chunk")
}

// secretRedactor redacts the agent test's secret from the streamed text.
type secretRedactor struct{}

func (secretRedactor) Name() string  { return "redact" }
func (secretRedactor) HoldBack() int { return len(secret) - 1 }
func (secretRedactor) StreamText(_ *hooks.Context, text string, _ bool) (*hooks.StreamPatch, error) {
	out := strings.ReplaceAll(text, secret, "[redacted]")
	return &hooks.StreamPatch{Text: &out}, nil
}
