package hooks_test

import (
	"context"
	"fmt"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/prebuilt"
)

// A tool that runs a subagent: the subagent's tool calls pass the
// parent's guard and count against the parent's limit, and its start and
// end are hook points of its own.
func ExampleRun_Child() {
	guard := hooks.Funcs{
		HookName: "guard",
		BeforeRun: func(c *hooks.Context, s hooks.RunStart) (*hooks.RunPatch, error) {
			if s.ParentRunID != "" {
				fmt.Printf("subagent %s starts under %s\n", s.RunID, s.ParentRunID)
			}
			return nil, nil
		},
		BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			if call.Name == "shell" {
				return hooks.Refuse("no shell, in any run"), nil
			}
			return nil, nil
		},
		AfterRun: func(c *hooks.Context, e hooks.RunEnd) error {
			if c.ParentRunID() != "" {
				fmt.Printf("subagent %s stops: %s\n", e.RunID, e.Output)
			}
			return nil
		},
	}
	chain, _ := hooks.NewChain([]hooks.Hook{guard, prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{Run: 2})})
	ctx := context.Background()
	run, _ := chain.Start(ctx, hooks.Host{}, hooks.RunStart{RunID: "lead"})
	defer run.End(ctx, hooks.RunEnd{})

	read := func(*hooks.Context, hooks.ToolCall) (hooks.ToolResult, error) {
		return hooks.ToolResult{Text: "notes"}, nil
	}
	task := func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		out, err := c.Subagent(hooks.RunStart{RunID: "researcher"}, func(ctx context.Context, sub *hooks.Run) (string, error) {
			for _, name := range []string{"shell", "read", "read"} {
				res, err := sub.CallTool(ctx, hooks.ToolCall{Name: name}, read)
				if err != nil {
					return "", err
				}
				fmt.Printf("  %s: %s\n", name, res.Text)
			}
			return "found notes", nil
		})
		return hooks.ToolResult{Text: out}, err
	}
	res, _ := run.CallTool(ctx, hooks.ToolCall{Name: "task"}, task)
	fmt.Println("task:", res.Text)
	// Output:
	// subagent researcher starts under lead
	//   shell: no shell, in any run
	//   read: notes
	//   read: Tool call limit reached: this run may make 2 tool calls, and it has. Do not call any more tools; answer with what you have.
	// subagent researcher stops: found notes
	// task: found notes
}
