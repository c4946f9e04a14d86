package hooks_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStreamAHookFailureFollowsItsPolicy(t *testing.T) {
	boom := func(_ *hooks.Context, text string, _ bool) (*hooks.StreamPatch, error) {
		if strings.Contains(text, "bad") {
			return nil, errors.New("cannot decide")
		}
		return nil, nil
	}
	texts := []string{"good ", "bad ", "after"}
	t.Run("FailRun fails the call and delivers nothing more", func(t *testing.T) {
		got, src, _, err := stream(t, &recorder{}, texts, streamHook{name: "guard", fn: boom})
		var he *hooks.HookError
		require.ErrorAs(t, err, &he)
		assert.Equal(t, hooks.StreamModelText, he.Point)
		assert.Equal(t, "guard", he.Hook)
		assert.Equal(t, "good ", got.text.String())
		assert.True(t, src.done)
	})
	t.Run("Block ends the stream, dropping what it held", func(t *testing.T) {
		rec := &recorder{}
		got, _, reply, err := stream(t, rec, texts, hooks.WithPolicy(streamHook{name: "guard", hold: 3, fn: boom}, hooks.Block))
		require.NoError(t, err)
		assert.Equal(t, "go", got.text.String(), "nothing past what the guard had let through")
		require.NotNil(t, reply.End, "a failed guard ends the run")
		require.Len(t, rec.diagnostics(), 1)
		assert.Equal(t, "guard", rec.diagnostics()[0].Hook)
	})
	t.Run("Report lets the text through", func(t *testing.T) {
		rec := &recorder{}
		got, _, reply, err := stream(t, rec, texts, hooks.WithPolicy(streamHook{name: "guard", fn: boom}, hooks.Report))
		require.NoError(t, err)
		assert.Equal(t, "good bad after", got.text.String())
		assert.Nil(t, reply.End)
		require.Len(t, rec.diagnostics(), 1)
	})
	t.Run("a panic is an error", func(t *testing.T) {
		panics := streamHook{name: "guard", fn: func(*hooks.Context, string, bool) (*hooks.StreamPatch, error) { panic("boom") }}
		got, _, _, err := stream(t, &recorder{}, texts, panics)
		var pe *hooks.PanicError
		require.ErrorAs(t, err, &pe)
		assert.Empty(t, got.text.String())
	})
}

func TestStreamACallerThatStopsReadingStopsTheStream(t *testing.T) {
	run := start(t, &recorder{})
	gone := errors.New("client went away")
	n := 0
	src := &chunks{texts: []string{"a", "b", "c"}, got: &strings.Builder{}}
	_, err := run.StreamModel(context.Background(), hooks.ModelRequest{}, src.open, func(hooks.Chunk) error {
		n++
		if n == 2 {
			return gone
		}
		return nil
	})
	require.ErrorIs(t, err, gone)
	assert.Equal(t, 2, n, "no chunk after the caller's error")
	assert.True(t, src.done, "the provider's stream is closed")
}

// streamRetry is a wrap that calls next up to n times while it fails.
func streamRetry(n int, errs *[]error) hooks.Hook {
	return hooks.Funcs{HookName: "retry", WrapModel: func(c *hooks.Context, req hooks.ModelRequest, next hooks.ModelFunc) (hooks.ModelResponse, error) {
		var resp hooks.ModelResponse
		var err error
		for range n {
			if resp, err = next(c, req); err == nil {
				return resp, nil
			}
			*errs = append(*errs, err)
		}
		return resp, err
	}}
}

func TestStreamARetryCannotTakeBackDeliveredChunks(t *testing.T) {
	t.Run("after a chunk was delivered", func(t *testing.T) {
		var errs []error
		run := start(t, &recorder{}, streamRetry(3, &errs))
		var got caller
		src := &chunks{texts: []string{"partial ", "reply"}, failAt: 2, got: &got.text}
		_, err := run.StreamModel(context.Background(), hooks.ModelRequest{}, src.open, got.deliver)
		require.ErrorIs(t, err, hooks.ErrStreamDelivered)
		assert.Equal(t, []error{errModel, hooks.ErrStreamDelivered, hooks.ErrStreamDelivered}, errs)
		assert.Equal(t, 1, src.opened, "the stream is not opened again")
		assert.Equal(t, "partial ", got.text.String())
	})
	t.Run("before any chunk was delivered", func(t *testing.T) {
		var errs []error
		hold := streamHook{name: "hold", hold: hooks.HoldAll, fn: func(*hooks.Context, string, bool) (*hooks.StreamPatch, error) { return nil, nil }}
		run := start(t, &recorder{}, streamRetry(3, &errs), hold)
		var got caller
		src := &chunks{texts: []string{"partial ", "reply"}, failAt: 2, got: &got.text}
		reply, err := run.StreamModel(context.Background(), hooks.ModelRequest{},
			func(c *hooks.Context, req hooks.ModelRequest, yield func(hooks.Chunk) error) (hooks.ModelResponse, error) {
				if src.opened == 1 {
					src.failAt = 0 // the second attempt succeeds
				}
				return src.open(c, req, yield)
			}, got.deliver)
		require.NoError(t, err)
		assert.Equal(t, 2, src.opened)
		assert.Equal(t, "partial reply", got.text.String(), "the failed attempt's held text is dropped, not delivered twice")
		assert.Equal(t, "partial reply", reply.Response.Text)
	})
}

// Each stream hook is traced once per stream: what it decided over the
// whole reply, not one event a chunk.
func TestStreamHooksAreTracedOncePerStream(t *testing.T) {
	var events []hooks.TraceEvent
	redact := streamHook{name: "redact", hold: 8, fn: func(_ *hooks.Context, text string, final bool) (*hooks.StreamPatch, error) {
		out := strings.ReplaceAll(text, "secret", "[x]")
		return &hooks.StreamPatch{Text: &out}, nil
	}}
	quiet := streamHook{name: "quiet", fn: func(*hooks.Context, string, bool) (*hooks.StreamPatch, error) { return nil, nil }}
	chain, err := hooks.NewChain([]hooks.Hook{redact, quiet}, hooks.WithTrace(func(e hooks.TraceEvent) {
		if e.Point == hooks.StreamModelText {
			events = append(events, e)
		}
	}))
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{})
	require.NoError(t, err)
	var got caller
	src := &chunks{texts: []string{"a se", "cret", " b", " c"}, got: &got.text}
	_, err = run.StreamModel(context.Background(), hooks.ModelRequest{}, src.open, got.deliver)
	require.NoError(t, err)
	assert.Equal(t, "a [x] b c", got.text.String())
	require.Len(t, events, 2) // in execution order: the first listed runs last
	assert.Equal(t, "quiet", events[0].Hook)
	assert.Equal(t, hooks.DecisionNoOpinion, events[0].Decision)
	assert.Equal(t, "redact", events[1].Hook)
	assert.Equal(t, hooks.DecisionChanged, events[1].Decision)
	assert.Equal(t, []string{"text"}, events[1].Changed)
}
