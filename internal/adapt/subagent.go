package adapt

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/rienda/hooks"
)

// AsTool is the tool body of a Loop that runs as a subagent (the
// adapters' Loop.AsTool): it builds the sub-loop's params from the call
// (params), runs the sub-loop (run) on a child run of the call's run
// (hooks.Context.Subagent), and answers the call with the sub-loop's
// output. The child is started with the call's arguments as its input and
// within the call (it never outlives it), so its model and tool calls pass
// the parent's hooks and count where they count (the prebuilt limits and
// Budget: with the root run), its trace names the parent, and its End,
// which always comes before the tool returns, never ends the parent.
//
// The sub-loop's error (its model's, a hook's, its MaxTurns) is the tool's
// error: the parent's model reads it after the AfterToolExecute hooks,
// and the parent goes on, as for any tool's error.
func AsTool[P any, C ~callShape](adapter string, params func(*hooks.Context, C) (P, error),
	run func(ctx context.Context, child *hooks.Run, params P) (string, error)) func(*hooks.Context, C) (hooks.ToolResult, error) {
	return func(c *hooks.Context, call C) (hooks.ToolResult, error) {
		name := callShape(call).Name
		if params == nil {
			return hooks.ToolResult{}, fmt.Errorf("%s: subagent tool %q: Loop.AsTool was given no params function", adapter, name)
		}
		if c == nil {
			return hooks.ToolResult{}, fmt.Errorf("%s: subagent tool %q: called without its hooks.Context", adapter, name)
		}
		p, err := params(c, call)
		if err != nil {
			return hooks.ToolResult{}, fmt.Errorf("%s: subagent tool %q: its params: %w", adapter, name, err)
		}
		start := hooks.RunStart{Input: string(callShape(call).Arguments)}
		out, err := c.Subagent(start, func(ctx context.Context, child *hooks.Run) (string, error) {
			return run(ctx, child, p)
		})
		if err != nil {
			return hooks.ToolResult{}, fmt.Errorf("%s: subagent tool %q: %w", adapter, name, err)
		}
		return hooks.ToolResult{Text: out}, nil
	}
}

// callShape is the shape of the adapters' Call: a Handler's tool call.
type callShape = struct {
	ID        string
	Name      string
	Arguments json.RawMessage
}
