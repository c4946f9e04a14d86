package adk

import (
	"maps"
	"reflect"

	"google.golang.org/adk/v2/agent"
	"google.golang.org/adk/v2/tool"

	"github.com/rienda/hooks"
)

// beforeTool runs the BeforeToolExecute hooks on the call. Arguments a
// hook rewrote are left in args (ADK runs the tool with them); a refusal
// or a hook's answer is the result, and the tool does not run.
func (h *Hooks) beforeTool(ctx agent.Context, t tool.Tool, args map[string]any) (map[string]any, error) {
	if t.Name() == continueTool {
		return nil, nil // the plugin's own: not a call of the app's
	}
	inv := h.get(ctx.InvocationID())
	if inv == nil {
		return nil, errNoRun
	}
	call := hooks.ToolCall{ID: ctx.FunctionCallID(), Name: t.Name(), Arguments: maps.Clone(args)}
	step, err := inv.run.BeforeToolExecute(ctx, call)
	if err != nil {
		return nil, inv.fail(err)
	}
	inv.mu.Lock()
	inv.tools[call.ID] = &step
	inv.mu.Unlock()
	if step.Result != nil || step.Refused {
		res := step.Result
		if res == nil {
			res = &hooks.ToolResult{Text: step.Reason, IsError: true}
		}
		return resultMap(*res, nil), nil // AfterTool still runs: ADK always calls it
	}
	if step.Rewritten() {
		clear(args)
		maps.Copy(args, step.Call.Arguments)
	}
	return nil, nil
}

// afterTool runs the AfterToolExecute hooks on the tool's result (or its
// error) and returns what the model reads; nil when the hooks changed
// nothing.
func (h *Hooks) afterTool(ctx agent.Context, t tool.Tool, _, result map[string]any, toolErr error) (map[string]any, error) {
	if t.Name() == continueTool {
		return nil, nil
	}
	inv := h.get(ctx.InvocationID())
	if inv == nil {
		return nil, errNoRun
	}
	inv.mu.Lock()
	step := inv.tools[ctx.FunctionCallID()]
	delete(inv.tools, ctx.FunctionCallID())
	inv.mu.Unlock()
	if step == nil {
		return nil, nil // a tool call BeforeTool did not see (a hook failed it)
	}
	res := toolResult(result, toolErr)
	if step.Result != nil {
		res = *step.Result
	}
	out, err := inv.run.AfterToolExecute(ctx, *step, res)
	if err != nil {
		return nil, inv.fail(err)
	}
	if step.Result == nil && !step.Refused && toolErr == nil && reflect.DeepEqual(out, res) {
		return nil, nil
	}
	return resultMap(out, result), nil
}

// textKeys are the fields of a result ADK tools use for plain text.
var textKeys = []string{"result", "output"}

// toolResult is a tool's result as the hooks see it.
func toolResult(result map[string]any, err error) hooks.ToolResult {
	if err != nil {
		return hooks.ToolResult{Text: err.Error(), IsError: true}
	}
	if len(result) == 1 {
		for _, k := range textKeys {
			if s, ok := result[k].(string); ok {
				return hooks.ToolResult{Text: s}
			}
		}
	}
	if result == nil {
		return hooks.ToolResult{}
	}
	return hooks.ToolResult{Value: map[string]any(result)}
}

// resultMap is what the model reads for res: {"error": ...} for an error,
// the text under the key orig used (or "result"), or the value.
func resultMap(res hooks.ToolResult, orig map[string]any) map[string]any {
	if res.IsError {
		if res.Text == "" && res.Value != nil {
			return map[string]any{"error": res.Value}
		}
		return map[string]any{"error": res.Text}
	}
	if res.Text == "" {
		if m, ok := res.Value.(map[string]any); ok {
			return m
		}
		if res.Value != nil {
			return map[string]any{"result": res.Value}
		}
	}
	key := "result"
	for _, k := range textKeys {
		if _, ok := orig[k]; ok && len(orig) == 1 {
			key = k
		}
	}
	return map[string]any{key: res.Text}
}
