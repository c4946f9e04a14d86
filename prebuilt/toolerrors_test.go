package prebuilt_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/prebuilt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func failing(err error) hooks.ToolFunc {
	return func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) { return hooks.ToolResult{}, err }
}

func TestToolErrorsTurnsAToolsErrorIntoAResultTheModelReads(t *testing.T) {
	_, run := start(t, prebuilt.ToolErrors(prebuilt.ToolErrorsConfig{}))
	res, err := run.CallTool(context.Background(), hooks.ToolCall{Name: "fetch"},
		failing(errors.New("GET https://bob:hunter2@example.com/x:\n  connection refused")))
	require.NoError(t, err, "the run goes on")
	assert.Equal(t, hooks.ToolResult{Text: `Tool "fetch" failed: GET https://bob:[REDACTED:url_password]@example.com/x: connection refused`, IsError: true}, res)
}

func TestToolErrorsCutsALongMessage(t *testing.T) {
	_, run := start(t, prebuilt.ToolErrors(prebuilt.ToolErrorsConfig{MaxLen: 10}))
	res, err := run.CallTool(context.Background(), hooks.ToolCall{Name: "t"}, failing(errors.New(strings.Repeat("é", 20))))
	require.NoError(t, err)
	assert.Equal(t, `Tool "t" failed: ééééé…`, res.Text)
}

func TestToolErrorsPassesHookFailuresAndTheRunsCancellation(t *testing.T) {
	_, run := start(t, prebuilt.ToolErrors(prebuilt.ToolErrorsConfig{}))
	hookErr := &hooks.HookError{Hook: "x", Point: hooks.WrapToolCall, Err: errors.New("policy")}
	_, err := run.CallTool(context.Background(), hooks.ToolCall{Name: "t"}, failing(hookErr))
	require.ErrorIs(t, err, hooks.ErrHookFailed)

	ctx, cancel := context.WithCancel(context.Background())
	_, err = run.CallTool(ctx, hooks.ToolCall{Name: "t"}, func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		cancel()
		return hooks.ToolResult{}, c.Err()
	})
	require.ErrorIs(t, err, context.Canceled, "a cancelled run stops; it does not tell the model")
}

func TestToolErrorsConvertAndMessageAreTheUsers(t *testing.T) {
	errFatal := errors.New("disk full")
	te := prebuilt.ToolErrors(prebuilt.ToolErrorsConfig{
		Convert: func(call hooks.ToolCall, err error) bool { return !errors.Is(err, errFatal) },
		Message: func(call hooks.ToolCall, err error) string { return fmt.Sprintf("%s: try again later", call.Name) },
	})
	_, run := start(t, te)
	_, err := run.CallTool(context.Background(), hooks.ToolCall{Name: "t"}, failing(fmt.Errorf("write: %w", errFatal)))
	require.ErrorIs(t, err, errFatal)
	res, err := run.CallTool(context.Background(), hooks.ToolCall{Name: "t"}, failing(errors.New("timeout")))
	require.NoError(t, err)
	assert.Equal(t, hooks.ToolResult{Text: "t: try again later", IsError: true}, res)
}

func TestToolErrorsOutsideToolRetrySeesOnlyTheLastError(t *testing.T) {
	_, run := start(t, prebuilt.ToolErrors(prebuilt.ToolErrorsConfig{}), prebuilt.ToolRetry(prebuilt.ToolRetryConfig{MaxAttempts: 2, Backoff: fast}))
	n := 0
	res, err := run.CallTool(context.Background(), hooks.ToolCall{Name: "t"}, func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		n++
		return hooks.ToolResult{}, fmt.Errorf("attempt %d failed", n)
	})
	require.NoError(t, err)
	assert.Equal(t, `Tool "t" failed: tool "t": 2 attempts failed, the last: attempt 2 failed`, res.Text)
}
