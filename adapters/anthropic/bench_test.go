package anthropic_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/rienda/hooks"
	hooksanthropic "github.com/rienda/hooks/adapters/anthropic"
	"github.com/stretchr/testify/require"
)

// benchClient is a client of a server that answers a tool call, then a
// final reply, in turn, without keeping what it gets.
func benchClient(b *testing.B) sdk.Client {
	replies := []string{toolReply(call{"toolu_1", "read", `{"path":"notes.txt","n":9007199254740993}`}), textReply("done")}
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, replies[(n.Add(1)-1)%2])
	}))
	b.Cleanup(srv.Close)
	return sdk.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("sk-ant-test"),
		option.WithMaxRetries(0), option.WithHTTPClient(srv.Client()))
}

func readTool(context.Context, json.RawMessage) (hooks.ToolResult, error) {
	return hooks.ToolResult{Text: "contents"}, nil
}

// noop handles every point and changes nothing.
var noop = hooks.Funcs{HookName: "noop",
	BeforeRun:          func(*hooks.Context, hooks.RunStart) (*hooks.RunPatch, error) { return nil, nil },
	AfterRun:           func(*hooks.Context, hooks.RunEnd) error { return nil },
	BeforeModelRequest: func(*hooks.Context, hooks.ModelRequest) (*hooks.ModelRequestPatch, error) { return nil, nil },
	AfterModelResponse: func(*hooks.Context, hooks.ModelResponse) (*hooks.ModelResponsePatch, error) { return nil, nil },
	BeforeToolExecute:  func(*hooks.Context, hooks.ToolCall) (*hooks.ToolCallPatch, error) { return nil, nil },
	AfterToolExecute: func(*hooks.Context, hooks.ToolCall, hooks.ToolResult) (*hooks.ToolResultPatch, error) {
		return nil, nil
	},
}

// BenchmarkToolTurn is one tool call: the model asks for it, the tool
// runs, the model answers; bare SDK calls against the adapter's Loop with
// one no-op hook (run start and end included).
func BenchmarkToolTurn(b *testing.B) {
	ctx := context.Background()
	params := userParams("read notes.txt")
	b.Run("sdk", func(b *testing.B) {
		client := benchClient(b)
		b.ReportAllocs()
		for b.Loop() {
			p := params
			msg, err := client.Messages.New(ctx, p)
			require.NoError(b, err)
			use := msg.Content[0].AsToolUse()
			res, err := readTool(ctx, use.Input)
			require.NoError(b, err)
			p.Messages = append(append([]sdk.MessageParam(nil), p.Messages...),
				msg.ToParam(), sdk.NewUserMessage(sdk.NewToolResultBlock(use.ID, res.Text, false)))
			_, err = client.Messages.New(ctx, p)
			require.NoError(b, err)
		}
	})
	b.Run("hooks", func(b *testing.B) {
		client := benchClient(b)
		chain, err := hooks.NewChain([]hooks.Hook{noop})
		require.NoError(b, err)
		loop := hooksanthropic.Loop{Messages: &client.Messages, Tools: map[string]hooksanthropic.Tool{"read": readTool}}
		b.ReportAllocs()
		for b.Loop() {
			run, err := chain.Start(ctx, hooks.Host{Env: map[string]string{}}, hooks.RunStart{})
			require.NoError(b, err)
			res, err := loop.Run(ctx, run, params)
			run.End(ctx, hooks.RunEnd{Output: res.Output, Err: err})
			require.NoError(b, err)
		}
	})
}
