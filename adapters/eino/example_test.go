package eino_test

import (
	"context"
	"fmt"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
	"github.com/rienda/hooks"
	eino "github.com/rienda/hooks/adapters/eino"
)

// An agent whose model asks to delete a file: the guard refuses, and the
// model reads the reason as the tool's result.
func Example() {
	ctx := context.Background()
	guard := hooks.Funcs{HookName: "guard", BeforeToolExecute: func(_ *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		if call.Name == "delete" {
			return hooks.Refuse("deleting files is not allowed"), nil
		}
		return nil, nil
	}}
	chain, err := hooks.NewChain([]hooks.Hook{guard})
	if err != nil {
		panic(err)
	}
	run, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{Input: "clean up"})
	if err != nil {
		panic(err)
	}

	chatModel := &scriptedModel{replies: []*schema.Message{ // stands for a real model
		schema.AssistantMessage("", []schema.ToolCall{call("c1", "delete", `{"path":"/"}`)}),
		schema.AssistantMessage("I may not delete files.", nil),
	}}
	deleteTool := &textTool{name: "delete", run: func(context.Context, string) (string, error) { return "deleted", nil }}
	agent, err := adk.NewChatModelAgent(ctx, &adk.ChatModelAgentConfig{
		Name: "helper", Description: "helps", Instruction: "You are helpful.",
		Model:       chatModel,
		ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{Tools: []tool.BaseTool{deleteTool}}},
		Handlers:    []adk.ChatModelAgentMiddleware{eino.Middleware()}, // the model and every tool under the hooks
	})
	if err != nil {
		panic(err)
	}

	iter := adk.NewRunner(ctx, adk.RunnerConfig{Agent: agent}).Query(hooks.ContextWithRun(ctx, run), "clean up")
	var runErr error
	for ev, ok := iter.Next(); ok; ev, ok = iter.Next() {
		if ev.Err != nil {
			runErr = ev.Err
			continue
		}
		if mv := ev.Output.MessageOutput; mv != nil && mv.Message != nil {
			for _, c := range mv.Message.ToolCalls {
				fmt.Printf("%s calls %s\n", mv.Role, c.Function.Name)
			}
			if mv.Message.Content != "" {
				fmt.Printf("%s: %s\n", mv.Role, mv.Message.Content)
			}
		}
	}
	run.End(ctx, hooks.RunEnd{Err: runErr})
	// Output:
	// assistant calls delete
	// tool: deleting files is not allowed
	// assistant: I may not delete files.
}
