package prebuilt_test

import (
	"context"
	"errors"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/hooktest"
	"github.com/rienda/hooks/prebuilt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func downModel(n *int) hooks.ModelFunc {
	return func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
		*n++
		return hooks.ModelResponse{}, errors.New("503 from api.example with key sk-ant-api03-" + "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ\nsecond line")
	}
}

func TestModelRetryFailWithMessageAnswersInsteadOfTheError(t *testing.T) {
	h := hooktest.New(t, prebuilt.ModelRetry(prebuilt.ModelRetryConfig{MaxAttempts: 2, Backoff: fast, OnFailure: prebuilt.FailWithMessage}))
	n := 0
	reply, err := h.Run().CallModel(context.Background(), hooks.ModelRequest{Model: "m"}, downModel(&n))
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	assert.Equal(t, "Model call failed after 2 attempts: 503 from api.example with key [REDACTED:anthropic_key] second line", reply.Response.Text)
	assert.Empty(t, reply.Response.ToolCalls)
	require.Len(t, h.Diagnostics(), 1, "the error is said, not dropped")
	assert.Contains(t, h.Diagnostics()[0].Err.Error(), `model "m": 2 attempts failed, the last: 503`)

	// A message of one's own (LangChain's callable on_failure).
	h = hooktest.New(t, prebuilt.ModelRetry(prebuilt.ModelRetryConfig{MaxAttempts: 2, Backoff: fast, OnFailure: prebuilt.FailWithMessage,
		FailureMessage: func(req hooks.ModelRequest, err error, attempts int) string { return "sorry, the model is down" }}))
	reply, err = h.Run().CallModel(context.Background(), hooks.ModelRequest{}, downModel(&n))
	require.NoError(t, err)
	assert.Equal(t, "sorry, the model is down", reply.Response.Text)

	// The default is the error, with the count.
	h = hooktest.New(t, prebuilt.ModelRetry(prebuilt.ModelRetryConfig{MaxAttempts: 2, Backoff: fast}))
	_, err = h.Run().CallModel(context.Background(), hooks.ModelRequest{}, downModel(&n))
	assert.ErrorContains(t, err, "2 attempts failed")
}

func TestModelRetryFailWithMessageStillReturnsACancelledContextsError(t *testing.T) {
	h := hooktest.New(t, prebuilt.ModelRetry(prebuilt.ModelRetryConfig{MaxAttempts: 5, Backoff: fast, OnFailure: prebuilt.FailWithMessage}))
	ctx, cancel := context.WithCancel(context.Background())
	_, err := h.Run().CallModel(ctx, hooks.ModelRequest{}, func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
		cancel()
		return hooks.ModelResponse{}, errors.New("down")
	})
	assert.ErrorIs(t, err, context.Canceled)
}

func TestToolRetryFailWithMessageIsAnErrorResultTheModelReads(t *testing.T) {
	h := hooktest.New(t, prebuilt.ToolRetry(prebuilt.ToolRetryConfig{MaxAttempts: 2, Backoff: fast, OnFailure: prebuilt.FailWithMessage}))
	res, err := h.Run().CallTool(context.Background(), hooks.ToolCall{ID: "1", Name: "fetch"}, func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		return hooks.ToolResult{}, errors.New("timeout")
	})
	require.NoError(t, err)
	assert.Equal(t, hooks.ToolResult{Text: `Tool "fetch" failed after 2 attempts: timeout`, IsError: true}, res)
	assert.Len(t, h.Diagnostics(), 1)
}

func TestRetryFailureMessageWithoutFailWithMessageIsRefused(t *testing.T) {
	assert.PanicsWithValue(t, "prebuilt.ModelRetry: field FailureMessage is set but OnFailure is FailWithError: the message would never be used (set OnFailure: FailWithMessage)", func() {
		prebuilt.ModelRetry(prebuilt.ModelRetryConfig{FailureMessage: func(hooks.ModelRequest, error, int) string { return "" }})
	})
	assert.Panics(t, func() { prebuilt.ToolRetry(prebuilt.ToolRetryConfig{OnFailure: 7}) })

	for name, src := range map[string]string{"modelRetry": `{onFailure: message, maxAttempts: 1}`, "toolRetry": `{onFailure: error}`} {
		_, err := prebuilt.FromSpec(name, settingsOf(t, src))
		assert.NoError(t, err, name)
	}
	_, err := prebuilt.FromSpec("modelRetry", settingsOf(t, `{onFailure: continue}`))
	assert.EqualError(t, err, `prebuilt modelRetry: setting "onFailure": unknown value "continue" (LangChain's "continue" is "message") (want one of: error, message)`)
}
