package prebuilt_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/prebuilt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fast is a backoff that keeps tests quick without sleeping to synchronise.
var fast = prebuilt.Backoff{Initial: time.Microsecond, Max: time.Microsecond, Jitter: -1}

// counter counts the hooks' calls at a point.
func afterCounter(n *int) hooks.Hook {
	return hooks.Funcs{HookName: "after", AfterToolExecute: func(c *hooks.Context, call hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
		*n++
		return nil, nil
	}}
}

func TestToolRetryRunsTheToolAgainUntilItWorks(t *testing.T) {
	afters := 0
	_, run := start(t, afterCounter(&afters), prebuilt.ToolRetry(prebuilt.ToolRetryConfig{Backoff: fast}))
	attempts := 0
	res, err := run.CallTool(context.Background(), hooks.ToolCall{Name: "flaky"}, func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		if attempts++; attempts < 3 {
			return hooks.ToolResult{}, errors.New("503")
		}
		return hooks.ToolResult{Text: "done"}, nil
	})
	require.NoError(t, err)
	assert.Equal(t, "done", res.Text)
	assert.Equal(t, 3, attempts)
	assert.Equal(t, 1, afters, "the after-hooks see one call")
}

func TestToolRetryGivesUpAfterMaxAttemptsWithTheLastError(t *testing.T) {
	_, run := start(t, prebuilt.ToolRetry(prebuilt.ToolRetryConfig{MaxAttempts: 4, Backoff: fast}))
	attempts := 0
	last := errors.New("still down")
	_, err := run.CallTool(context.Background(), hooks.ToolCall{Name: "flaky"}, func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		attempts++
		return hooks.ToolResult{}, last
	})
	assert.Equal(t, 4, attempts)
	require.ErrorIs(t, err, last)
	assert.EqualError(t, err, `tool "flaky": 4 attempts failed, the last: still down`)
}

func TestToolRetryStopsWaitingWhenTheContextIsCancelledMidBackoff(t *testing.T) {
	_, run := start(t, prebuilt.ToolRetry(prebuilt.ToolRetryConfig{Backoff: prebuilt.Backoff{Initial: time.Hour, Max: time.Hour}}))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	attempts := 0
	done := make(chan error, 1)
	go func() {
		_, err := run.CallTool(ctx, hooks.ToolCall{Name: "flaky"}, func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
			attempts++
			cancel() // the wrap now waits an hour before the next attempt: the cancellation must end it
			return hooks.ToolResult{}, errors.New("down")
		})
		done <- err
	}()
	select {
	case err := <-done:
		require.ErrorIs(t, err, context.Canceled)
		assert.ErrorContains(t, err, "the last: down")
	case <-time.After(time.Minute):
		t.Fatal("the retry kept waiting after its context was cancelled")
	}
	assert.Equal(t, 1, attempts)
}

func TestToolRetryCancelledDuringTheWaitReturnsTheContextsError(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// RetryIf runs after the attempt and before the wait: cancelling there
	// means the cancellation lands while the wrap waits its hour.
	retry := prebuilt.ToolRetry(prebuilt.ToolRetryConfig{Backoff: prebuilt.Backoff{Initial: time.Hour, Max: time.Hour},
		RetryIf: func(hooks.ToolCall, hooks.ToolResult, error) bool { cancel(); return true }})
	_, run := start(t, retry)
	attempts := 0
	_, err := run.CallTool(ctx, hooks.ToolCall{Name: "flaky"}, func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		attempts++
		return hooks.ToolResult{}, errors.New("down")
	})
	require.ErrorIs(t, err, context.Canceled)
	assert.EqualError(t, err, `tool "flaky": retry abandoned after 1 attempts: context canceled (the last: down)`)
	assert.Equal(t, 1, attempts)
}

func TestToolRetryRetryIfAndToolsChooseWhatIsRetried(t *testing.T) {
	retry := prebuilt.ToolRetry(prebuilt.ToolRetryConfig{Backoff: fast, Tools: []string{"fetch"},
		RetryIf: func(call hooks.ToolCall, res hooks.ToolResult, err error) bool { return err != nil || res.IsError }})
	_, run := start(t, retry)
	attempts := map[string]int{}
	tool := func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		attempts[call.Name]++
		return hooks.ToolResult{Text: "rate limited", IsError: true}, nil
	}
	for _, name := range []string{"fetch", "write"} {
		res, err := run.CallTool(context.Background(), hooks.ToolCall{Name: name}, tool)
		require.NoError(t, err)
		assert.True(t, res.IsError)
	}
	assert.Equal(t, map[string]int{"fetch": 3, "write": 1}, attempts)
}

func TestToolRetryDoesNotRetryAToolThatSucceeds(t *testing.T) {
	_, run := start(t, prebuilt.ToolRetry(prebuilt.ToolRetryConfig{Backoff: fast}))
	attempts := 0
	res, err := run.CallTool(context.Background(), hooks.ToolCall{Name: "t"}, func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		attempts++
		return hooks.ToolResult{Text: "no such file", IsError: true}, nil
	})
	require.NoError(t, err)
	assert.Equal(t, "no such file", res.Text)
	assert.Equal(t, 1, attempts, "an error result is the tool's answer, not a failure to retry by default")
}

func TestModelRetryRetriesAndCountsOneModelCall(t *testing.T) {
	_, run := start(t, prebuilt.ModelRetry(prebuilt.ModelRetryConfig{MaxAttempts: 2, Backoff: fast}))
	attempts := 0
	reply, err := run.CallModel(context.Background(), hooks.ModelRequest{Model: "m"}, func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
		if attempts++; attempts == 1 {
			return hooks.ModelResponse{}, errors.New("overloaded")
		}
		return hooks.ModelResponse{Text: "hi"}, nil
	})
	require.NoError(t, err)
	assert.Equal(t, "hi", reply.Response.Text)
	_, err = run.CallModel(context.Background(), hooks.ModelRequest{Model: "m"}, func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
		return hooks.ModelResponse{}, errors.New("overloaded")
	})
	assert.EqualError(t, err, `model "m": 2 attempts failed, the last: overloaded`)
}

func TestModelRetryStopsWhenTheContextIsCancelledMidBackoff(t *testing.T) {
	_, run := start(t, prebuilt.ModelRetry(prebuilt.ModelRetryConfig{Backoff: prebuilt.Backoff{Initial: time.Hour, Max: time.Hour}}))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := run.CallModel(ctx, hooks.ModelRequest{}, func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
		cancel()
		return hooks.ModelResponse{}, errors.New("overloaded")
	})
	require.ErrorIs(t, err, context.Canceled)
}

func TestModelFallbackCallsTheNextModelWithItsName(t *testing.T) {
	_, run := start(t, prebuilt.ModelFallback(prebuilt.ModelFallbackConfig{Models: []string{"b", "c"}}))
	var seen []string
	reply, err := run.CallModel(context.Background(), hooks.ModelRequest{Model: "a"}, func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
		seen = append(seen, req.Model)
		if req.Model != "c" {
			return hooks.ModelResponse{}, errors.New(req.Model + " is down")
		}
		return hooks.ModelResponse{Text: "from c"}, nil
	})
	require.NoError(t, err)
	assert.Equal(t, "from c", reply.Response.Text)
	assert.Equal(t, []string{"a", "b", "c"}, seen)
}

func TestModelFallbackExhaustedNamesEveryModel(t *testing.T) {
	_, run := start(t, prebuilt.ModelFallback(prebuilt.ModelFallbackConfig{Models: []string{"b"}}))
	last := errors.New("b is down")
	_, err := run.CallModel(context.Background(), hooks.ModelRequest{Model: "a"}, func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
		if req.Model == "b" {
			return hooks.ModelResponse{}, last
		}
		return hooks.ModelResponse{}, errors.New("a is down")
	})
	require.ErrorIs(t, err, last)
	assert.EqualError(t, err, `every model failed ("a", "b"), the last: b is down`)
}

func TestModelFallbackOutsideRetryRetriesEachModel(t *testing.T) {
	_, run := start(t,
		prebuilt.ModelFallback(prebuilt.ModelFallbackConfig{Models: []string{"b"}}),
		prebuilt.ModelRetry(prebuilt.ModelRetryConfig{MaxAttempts: 2, Backoff: fast}))
	var seen []string
	_, err := run.CallModel(context.Background(), hooks.ModelRequest{Model: "a"}, func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
		seen = append(seen, req.Model)
		return hooks.ModelResponse{}, errors.New("down")
	})
	require.Error(t, err)
	assert.Equal(t, []string{"a", "a", "b", "b"}, seen)
}

func TestModelFallbackDoesNotFallBackOnACancelledRun(t *testing.T) {
	_, run := start(t, prebuilt.ModelFallback(prebuilt.ModelFallbackConfig{Models: []string{"b"}}))
	ctx, cancel := context.WithCancel(context.Background())
	var seen []string
	_, err := run.CallModel(ctx, hooks.ModelRequest{Model: "a"}, func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
		seen = append(seen, req.Model)
		cancel()
		return hooks.ModelResponse{}, c.Err()
	})
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, []string{"a"}, seen)
}

func TestRetryConstructorsRefuseConfigsThatCannotWork(t *testing.T) {
	assert.PanicsWithValue(t, "prebuilt.ToolRetry: field MaxAttempts is -1: it cannot be negative (0 means 3)", func() {
		prebuilt.ToolRetry(prebuilt.ToolRetryConfig{MaxAttempts: -1})
	})
	assert.PanicsWithValue(t, "prebuilt.ModelRetry: field Backoff.Multiplier is 0.5: it must be at least 1", func() {
		prebuilt.ModelRetry(prebuilt.ModelRetryConfig{Backoff: prebuilt.Backoff{Multiplier: 0.5}})
	})
	assert.PanicsWithValue(t, "prebuilt.ModelFallback: field Models is empty: name at least one model to fall back to", func() {
		prebuilt.ModelFallback(prebuilt.ModelFallbackConfig{})
	})
}
