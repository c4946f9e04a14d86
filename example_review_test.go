package hooks_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/rienda/hooks"
)

// A host whose person edits a call: the approval hook asks (Context.Review)
// and does what the person decides (Verdict.Patch). The guard listed
// before the approval checks the person's arguments again, as it checked
// the model's: an edit is a new call.
func ExampleVerdict_Patch() {
	guard := hooks.Funcs{HookName: "no-rm",
		BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			cmd, _ := call.Arguments["command"].(string)
			fmt.Printf("no-rm checks %q\n", cmd)
			if strings.Contains(cmd, "rm ") {
				return hooks.Refuse("deleting files is not allowed"), nil
			}
			return nil, nil
		}}
	approval := hooks.Funcs{HookName: "approval",
		BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			v, _ := c.Review(hooks.Review{Prompt: hooks.Prompt{Title: "Run " + call.Name + "?"}, Call: &call})
			return v.Patch(), nil // a failure to ask is a rejection
		}}
	// The person reads the call and narrows it before saying yes.
	host := hooks.Host{Review: func(_ context.Context, r hooks.Review) (hooks.Verdict, error) {
		cmd := r.Call.Arguments["command"].(string)
		return hooks.Verdict{Approved: true, Arguments: map[string]any{"command": cmd + " --dry-run"}}, nil
	}}
	chain, err := hooks.NewChain([]hooks.Hook{guard, approval}, hooks.WithTrace(func(e hooks.TraceEvent) {
		if e.Review != "" {
			fmt.Printf("trace: %s asked a person, who %s the call\n", e.Hook, e.Review)
		}
	}))
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	run, err := chain.Start(ctx, host, hooks.RunStart{})
	if err != nil {
		panic(err)
	}
	defer run.End(ctx, hooks.RunEnd{})

	res, err := run.CallTool(ctx, hooks.ToolCall{ID: "1", Name: "shell", Arguments: map[string]any{"command": "make deploy"}},
		func(_ *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
			return hooks.ToolResult{Text: "ran " + call.Arguments["command"].(string)}, nil
		})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Text)
	// Output:
	// no-rm checks "make deploy"
	// trace: approval asked a person, who edited the call
	// no-rm checks "make deploy --dry-run"
	// ran make deploy --dry-run
}
