package eino_test

import (
	"context"
	"testing"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
	"github.com/rienda/hooks"
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
