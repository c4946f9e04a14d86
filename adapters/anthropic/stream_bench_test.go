package anthropic_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/rienda/hooks"
	hooksanthropic "github.com/rienda/hooks/adapters/anthropic"
	"github.com/stretchr/testify/require"
)

// benchReply is a reply of 40 chunks of 6 bytes.
var benchReply = split(strings.Repeat("token ", 40), 6)

// benchServer answers every request with body, as contentType.
func benchServer(b *testing.B, contentType, body string) sdk.Client {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", contentType)
		_, _ = io.WriteString(w, body)
	}))
	b.Cleanup(srv.Close)
	return sdk.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("sk-ant-test"),
		option.WithMaxRetries(0), option.WithHTTPClient(srv.Client()))
}

// BenchmarkModelCall is one model call of a 40-chunk reply, without and
// with streaming, each bare (the SDK alone) and through a run with one
// no-op hook (and, streamed, with a redaction stream hook): the
// difference between bare and hooked is the adapter's per-call overhead.
func BenchmarkModelCall(b *testing.B) {
	ctx := context.Background()
	params := userParams("hi")
	whole := strings.Join(benchReply, "")
	b.Run("new/sdk", func(b *testing.B) {
		client := benchServer(b, "application/json", textReply(whole))
		b.ReportAllocs()
		for b.Loop() {
			_, err := client.Messages.New(ctx, params)
			require.NoError(b, err)
		}
	})
	b.Run("new/hooks", func(b *testing.B) {
		client := benchServer(b, "application/json", textReply(whole))
		run := benchRun(b, noop)
		b.ReportAllocs()
		for b.Loop() {
			_, err := run.CallModel(ctx, hooksanthropic.Request(params), func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
				sent, err := hooksanthropic.Params(params, req)
				if err != nil {
					return hooks.ModelResponse{}, err
				}
				msg, err := client.Messages.New(c.Context, sent)
				if err != nil {
					return hooks.ModelResponse{}, err
				}
				return hooksanthropic.Response(msg)
			})
			require.NoError(b, err)
		}
	})
	events := strings.Join(messageEvents(benchReply), "")
	b.Run("stream/sdk", func(b *testing.B) {
		client := benchServer(b, "text/event-stream", events)
		b.ReportAllocs()
		for b.Loop() {
			stream := client.Messages.NewStreaming(ctx, params)
			var acc sdk.Message
			for stream.Next() {
				require.NoError(b, acc.Accumulate(stream.Current()))
			}
			require.NoError(b, stream.Err())
			_ = stream.Close()
		}
	})
	discard := func(hooks.Chunk) error { return nil }
	for _, tc := range []struct {
		name string
		hs   []hooks.Hook
	}{{"stream/hooks", []hooks.Hook{noop}}, {"stream/hooks+redact", []hooks.Hook{noop, redactor{}}}} {
		b.Run(tc.name, func(b *testing.B) {
			client := benchServer(b, "text/event-stream", events)
			run := benchRun(b, tc.hs...)
			b.ReportAllocs()
			for b.Loop() {
				_, _, err := hooksanthropic.StreamModel(ctx, run, &client.Messages, params, discard)
				require.NoError(b, err)
			}
		})
	}
}

func benchRun(b *testing.B, hs ...hooks.Hook) *hooks.Run {
	chain, err := hooks.NewChain(hs)
	require.NoError(b, err)
	run, err := chain.Start(context.Background(), hooks.Host{Env: map[string]string{}}, hooks.RunStart{})
	require.NoError(b, err)
	b.Cleanup(func() { run.End(context.Background(), hooks.RunEnd{}) })
	return run
}
