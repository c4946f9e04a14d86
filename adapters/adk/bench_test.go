package adk_test

import (
	"context"
	"iter"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
	"google.golang.org/adk/v2/agent"
	"google.golang.org/adk/v2/agent/llmagent"
	"google.golang.org/adk/v2/model"
	"google.golang.org/adk/v2/plugin"
	"google.golang.org/adk/v2/runner"
	"google.golang.org/adk/v2/session"
	"google.golang.org/adk/v2/tool"
	"google.golang.org/adk/v2/tool/functiontool"
	"google.golang.org/genai"

	"github.com/rienda/hooks"
	hooksadk "github.com/rienda/hooks/adapters/adk"
)

// turnModel asks for one call, then answers, in turn, keeping nothing.
type turnModel struct{}

func (turnModel) Name() string { return "turn-model" }

func (turnModel) GenerateContent(_ context.Context, req *model.LLMRequest, _ bool) iter.Seq2[*model.LLMResponse, error] {
	return func(yield func(*model.LLMResponse, error) bool) {
		last := req.Contents[len(req.Contents)-1]
		reply := callReply("read", map[string]any{"path": "notes.txt"})
		if last.Parts[0].FunctionResponse != nil {
			reply = textReply("done")
		}
		yield(&model.LLMResponse{Content: reply, TurnComplete: true, FinishReason: genai.FinishReasonStop}, nil)
	}
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

// BenchmarkToolTurn is one invocation of an llmagent (a tool call and a
// final reply) under a runner: bare ADK against ADK with the plugin and
// one no-op hook at every point.
func BenchmarkToolTurn(b *testing.B) {
	read, err := functiontool.New(functiontool.Config{Name: "read", Description: "reads a file"},
		func(agent.Context, map[string]any) (map[string]any, error) {
			return map[string]any{"result": "contents"}, nil
		})
	require.NoError(b, err)
	newRunner := func(b *testing.B, plugins ...*plugin.Plugin) *runner.Runner {
		root, err := llmagent.New(llmagent.Config{Name: "root", Model: turnModel{}, Tools: []tool.Tool{read}})
		require.NoError(b, err)
		r, err := runner.New(runner.Config{AppName: "bench", Agent: root, SessionService: session.InMemoryService(),
			AutoCreateSession: true, PluginConfig: runner.PluginConfig{Plugins: plugins}})
		require.NoError(b, err)
		return r
	}
	loop := func(b *testing.B, r *runner.Runner) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			i++
			for _, err := range r.Run(context.Background(), "user", strconv.Itoa(i), genai.NewContentFromText("read", genai.RoleUser), agent.RunConfig{}) {
				require.NoError(b, err)
			}
		}
	}
	b.Run("adk", func(b *testing.B) { loop(b, newRunner(b)) })
	b.Run("hooks", func(b *testing.B) {
		chain, err := hooks.NewChain([]hooks.Hook{noop})
		require.NoError(b, err)
		p, err := hooksadk.Plugin(chain, hooksadk.Options{Host: hooks.Host{Env: map[string]string{}}})
		require.NoError(b, err)
		loop(b, newRunner(b, p))
	})
}
