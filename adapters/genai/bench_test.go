package genai_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/rienda/hooks"
	hooksgenai "github.com/rienda/hooks/adapters/genai"
	"github.com/stretchr/testify/require"
	sdk "google.golang.org/genai"
)

// benchClient is a client of a server that answers a function call, then
// a final reply, in turn, without keeping what it gets.
func benchClient(b *testing.B) *sdk.Client {
	replies := []string{toolReply(call{"fc_1", "read", `{"path":"notes.txt","n":7}`})[0], textReply("done")[0]}
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, replies[(n.Add(1)-1)%2])
	}))
	b.Cleanup(srv.Close)
	client, err := sdk.NewClient(b.Context(), &sdk.ClientConfig{APIKey: "test-key", Backend: sdk.BackendGeminiAPI,
		HTTPOptions: sdk.HTTPOptions{BaseURL: srv.URL}, HTTPClient: srv.Client()})
	require.NoError(b, err)
	return client
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

// BenchmarkToolTurn is one function call: the model asks for it, the tool
// runs, the model answers; bare SDK calls against the adapter's Loop with
// one no-op hook (run start and end included).
func BenchmarkToolTurn(b *testing.B) {
	ctx := context.Background()
	params := userParams("read notes.txt", "read")
	b.Run("sdk", func(b *testing.B) {
		client := benchClient(b)
		b.ReportAllocs()
		for b.Loop() {
			r, err := client.Models.GenerateContent(ctx, params.Model, params.Contents, params.Config)
			require.NoError(b, err)
			fc := r.FunctionCalls()[0]
			args, err := json.Marshal(fc.Args)
			require.NoError(b, err)
			res, err := readTool(ctx, args)
			require.NoError(b, err)
			contents := append(append([]*sdk.Content(nil), params.Contents...), r.Candidates[0].Content,
				&sdk.Content{Role: sdk.RoleUser, Parts: []*sdk.Part{{FunctionResponse: &sdk.FunctionResponse{
					ID: fc.ID, Name: fc.Name, Response: map[string]any{"output": res.Text}}}}})
			_, err = client.Models.GenerateContent(ctx, params.Model, contents, params.Config)
			require.NoError(b, err)
		}
	})
	b.Run("hooks", func(b *testing.B) {
		client := benchClient(b)
		chain, err := hooks.NewChain([]hooks.Hook{noop})
		require.NoError(b, err)
		loop := hooksgenai.Loop{Models: client.Models, Tools: map[string]hooksgenai.Tool{"read": readTool}}
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
