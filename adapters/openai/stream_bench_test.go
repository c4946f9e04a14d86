package openai_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	oai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/rienda/hooks"
	hooksopenai "github.com/rienda/hooks/adapters/openai"
	"github.com/stretchr/testify/require"
)

// benchReply is a reply of 40 chunks of 6 bytes.
var benchReply = split(strings.Repeat("token ", 40), 6)

// benchServer answers every request with body, as contentType.
func benchServer(b *testing.B, contentType, body string) oai.Client {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", contentType)
		_, _ = io.WriteString(w, body)
	}))
	b.Cleanup(srv.Close)
	return oai.NewClient(option.WithBaseURL(srv.URL+"/v1"), option.WithAPIKey("sk-test"),
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
			_, err := client.Chat.Completions.New(ctx, params)
			require.NoError(b, err)
		}
	})
	b.Run("new/hooks", func(b *testing.B) {
		client := benchServer(b, "application/json", textReply(whole))
		run := benchRun(b, noop)
		b.ReportAllocs()
		for b.Loop() {
			_, err := run.CallModel(ctx, hooksopenai.Request(params), func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
				sent, err := hooksopenai.Params(params, req)
				if err != nil {
					return hooks.ModelResponse{}, err
				}
				completion, err := client.Chat.Completions.New(c.Context, sent)
				if err != nil {
					return hooks.ModelResponse{}, err
				}
				return hooksopenai.Response(completion)
			})
			require.NoError(b, err)
		}
	})
	events := strings.Join(chatEvents(benchReply), "")
	b.Run("stream/sdk", func(b *testing.B) {
		client := benchServer(b, "text/event-stream", events)
		b.ReportAllocs()
		for b.Loop() {
			stream := client.Chat.Completions.NewStreaming(ctx, params)
			var acc oai.ChatCompletionAccumulator
			for stream.Next() {
				acc.AddChunk(stream.Current())
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
				_, _, err := hooksopenai.StreamModel(ctx, run, &client.Chat.Completions, params, discard)
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

// BenchmarkResponseCall is one streamed Responses API call of a 40-chunk
// reply: the SDK alone against StreamResponse with one no-op hook.
func BenchmarkResponseCall(b *testing.B) {
	ctx := context.Background()
	params := responseParams("hi")
	events := strings.Join(responseEvents(benchReply), "")
	b.Run("stream/sdk", func(b *testing.B) {
		client := benchServer(b, "text/event-stream", events)
		b.ReportAllocs()
		for b.Loop() {
			stream := client.Responses.NewStreaming(ctx, params)
			for stream.Next() {
				_ = stream.Current()
			}
			require.NoError(b, stream.Err())
			_ = stream.Close()
		}
	})
	b.Run("stream/hooks", func(b *testing.B) {
		client := benchServer(b, "text/event-stream", events)
		run := benchRun(b, noop)
		b.ReportAllocs()
		for b.Loop() {
			_, _, err := hooksopenai.StreamResponse(ctx, run, &client.Responses, params, func(hooks.Chunk) error { return nil })
			require.NoError(b, err)
		}
	})
}
