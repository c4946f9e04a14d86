package eino_test

import (
	"context"
	"testing"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
	"github.com/rienda/hooks"
	eino "github.com/rienda/hooks/adapters/eino"
)

// BenchmarkToolCall compares one tool call through eino's tool node, bare
// and through the middleware with one hook that changes nothing.
func BenchmarkToolCall(b *testing.B) {
	noop := hooks.Funcs{HookName: "noop",
		BeforeToolExecute: func(*hooks.Context, hooks.ToolCall) (*hooks.ToolCallPatch, error) { return nil, nil },
		AfterToolExecute: func(*hooks.Context, hooks.ToolCall, hooks.ToolResult) (*hooks.ToolResultPatch, error) {
			return nil, nil
		}}
	in := schema.AssistantMessage("", []schema.ToolCall{call("c1", "add", `{"a":1,"b":2}`)})
	add := &textTool{name: "add", run: func(context.Context, string) (string, error) { return "3", nil }}

	b.Run("bare", func(b *testing.B) {
		node, err := compose.NewToolNode(context.Background(), &compose.ToolsNodeConfig{Tools: []tool.BaseTool{add}})
		if err != nil {
			b.Fatal(err)
		}
		benchNode(b, context.Background(), node, in)
	})
	b.Run("hooked", func(b *testing.B) {
		ctx, run := startRun(b, noop)
		defer run.End(ctx, hooks.RunEnd{})
		benchNode(b, ctx, toolsNode(b, add), in)
	})
}

func benchNode(b *testing.B, ctx context.Context, node *compose.ToolsNode, in *schema.Message) {
	b.ReportAllocs()
	for b.Loop() {
		out, err := node.Invoke(ctx, in)
		if err != nil || len(out) != 1 || out[0].Content != "3" {
			b.Fatalf("got %v, %v", out, err)
		}
	}
}

// BenchmarkParseArguments is the core's share of the hooked tool call: the
// arguments decoded for the hooks.
func BenchmarkParseArguments(b *testing.B) {
	raw := []byte(`{"a":1,"b":2}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := hooks.ParseArguments(raw); err != nil {
			b.Fatal(err)
		}
	}
}

// loopModel asks for one add call after a user message and answers "3"
// after the tool's result, for ever.
type loopModel struct{}

func (loopModel) Generate(_ context.Context, in []*schema.Message, _ ...model.Option) (*schema.Message, error) {
	if in[len(in)-1].Role == schema.Tool {
		return schema.AssistantMessage("3", nil), nil
	}
	return schema.AssistantMessage("", []schema.ToolCall{call("c1", "add", `{"a":1,"b":2}`)}), nil
}

func (m loopModel) Stream(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	msg, err := m.Generate(ctx, in, opts...)
	return schema.StreamReaderFromArray([]*schema.Message{msg}), err
}

func (m loopModel) WithTools([]*schema.ToolInfo) (model.ToolCallingChatModel, error) { return m, nil }

// BenchmarkAgent compares one whole ChatModelAgent run (two model calls,
// one tool call), bare and under eino.Middleware with a hook that changes
// nothing at each point, plain and streamed.
func BenchmarkAgent(b *testing.B) {
	noop := hooks.Funcs{HookName: "noop",
		BeforeModelRequest: func(*hooks.Context, hooks.ModelRequest) (*hooks.ModelRequestPatch, error) { return nil, nil },
		AfterModelResponse: func(*hooks.Context, hooks.ModelResponse) (*hooks.ModelResponsePatch, error) { return nil, nil },
		BeforeToolExecute:  func(*hooks.Context, hooks.ToolCall) (*hooks.ToolCallPatch, error) { return nil, nil },
		AfterToolExecute: func(*hooks.Context, hooks.ToolCall, hooks.ToolResult) (*hooks.ToolResultPatch, error) {
			return nil, nil
		}}
	add := &textTool{name: "add", run: func(context.Context, string) (string, error) { return "3", nil }}
	for _, stream := range []bool{false, true} {
		for _, hooked := range []bool{false, true} {
			name := map[bool]string{false: "", true: "streamed/"}[stream] + map[bool]string{false: "bare", true: "hooked"}[hooked]
			b.Run(name, func(b *testing.B) {
				ctx := context.Background()
				cfg := &adk.ChatModelAgentConfig{Name: "bench", Description: "bench", Instruction: "Add.", Model: loopModel{},
					ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{Tools: []tool.BaseTool{add}}}}
				if hooked {
					cfg.Handlers = []adk.ChatModelAgentMiddleware{eino.Middleware()}
					hctx, run := startRun(b, noop)
					defer run.End(hctx, hooks.RunEnd{})
					ctx = hctx
				}
				agent, err := adk.NewChatModelAgent(ctx, cfg)
				if err != nil {
					b.Fatal(err)
				}
				runner := adk.NewRunner(ctx, adk.RunnerConfig{Agent: agent, EnableStreaming: stream})
				b.ReportAllocs()
				for b.Loop() {
					iter := runner.Query(ctx, "1+2")
					n := 0
					for ev, ok := iter.Next(); ok; ev, ok = iter.Next() {
						if ev.Err != nil {
							b.Fatal(ev.Err)
						}
						n++
					}
					if n == 0 {
						b.Fatal("no events")
					}
				}
			})
		}
	}
}
