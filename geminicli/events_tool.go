package geminicli

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/rienda/hooks"
)

// rewriteNote is what Gemini CLI adds to the result of a call whose
// arguments a BeforeTool hook replaced, for the model to read.
const rewriteNote = "\n\n[System] Tool input parameters were modified by a hook before execution."

// argumentsJSON is a call's arguments as tool_input ({} for none).
func argumentsJSON(args map[string]any) (json.RawMessage, error) {
	if args == nil {
		return json.RawMessage("{}"), nil
	}
	text, err := hooks.EncodeArguments(args)
	if err != nil {
		return nil, fmt.Errorf("the arguments cannot be sent as JSON, so the hooks cannot see the call: %w", err)
	}
	return json.RawMessage(text), nil
}

// foldToolInput gives the next handler of a sequential BeforeTool the
// arguments as the last one changed them: its tool_input's keys over the
// current ones, as the runner spreads them.
func foldToolInput(in *input, o *output) {
	if !isObject(o.spec.ToolInput) {
		return
	}
	var cur, partial map[string]json.RawMessage
	if json.Unmarshal(in.ToolInput, &cur) != nil || json.Unmarshal(o.spec.ToolInput, &partial) != nil {
		return
	}
	if cur == nil {
		cur = map[string]json.RawMessage{}
	}
	for k, v := range partial {
		cur[k] = v
	}
	if data, err := json.Marshal(cur); err == nil {
		in.ToolInput = data
	}
}

// unreadable is the first result whose output was too large to read.
func unreadable(results []result) error {
	for _, r := range results {
		if r.tooBig {
			return r.err
		}
	}
	return nil
}

// beforeTool runs BeforeTool handlers and applies their merged output as
// Gemini CLI's scheduler does: "continue": false refuses the call and
// ends the run at the next model request; a deny or block refuses it with
// "Tool execution blocked: <reason>"; "ask" asks a person (Host.Confirm);
// hookSpecificOutput.tool_input replaces the arguments (the scheduler
// builds the call from it alone; the docs say it merges). Output too
// large to read, or arguments that cannot be sent, refuse the call.
func (h *hook) beforeTool(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
	name := h.set.geminiName(call.Name)
	args, err := argumentsJSON(call.Arguments)
	if err != nil {
		if hs, _ := h.plan(c, name, call.Name); len(hs) > 0 {
			return nil, hooks.FailClosed(err)
		}
		return nil, nil
	}
	results, err := h.fire(c, input{ToolName: name, ToolInput: args}, foldToolInput, name, call.Name)
	if err != nil {
		return nil, err
	}
	if err := unreadable(results); err != nil {
		return nil, hooks.FailClosed(err)
	}
	m := mergeOr(outputs(results))
	switch {
	case m == nil:
		return nil, nil
	case m.stops():
		reason := m.effectiveReason()
		askEnd(c, reason)
		return hooks.Refuse("Agent execution stopped by hook: " + reason), nil
	case m.blocking():
		return hooks.Refuse("Tool execution blocked: " + m.effectiveReason()), nil
	case m.decision() == "ask":
		body := str(m.SystemMessage)
		if body == "" {
			body = fmt.Sprintf("A Gemini CLI hook asks before %s runs with %s", name, args)
		}
		if !c.Confirm(hooks.Prompt{Title: "Allow " + name + "?", Body: body}) {
			return hooks.Refuse("The user did not allow this " + name + " call"), nil
		}
	}
	if !isObject(m.spec.ToolInput) {
		return nil, nil
	}
	var replaced map[string]any
	if err := json.Unmarshal(m.spec.ToolInput, &replaced); err != nil {
		return nil, hooks.FailClosed(fmt.Errorf("its tool_input cannot be read: %w", err))
	}
	h.set.rewritten.Store(rewriteKey{c.RunID(), call.ID}, struct{}{})
	return &hooks.ToolCallPatch{Arguments: replaced}, nil
}

// rewriteNote adds Gemini CLI's note to the result of a call this hook's
// handlers rewrote.
func (h *hook) rewriteNote(c *hooks.Context, call hooks.ToolCall, res hooks.ToolResult) *hooks.ToolResultPatch {
	if _, ok := h.set.rewritten.LoadAndDelete(rewriteKey{c.RunID(), call.ID}); !ok {
		return nil
	}
	text := res.Text + rewriteNote
	return &hooks.ToolResultPatch{Text: &text}
}

// toolResponse is a result as tool_response: llmContent and returnDisplay
// are its text; error is there only for an error result.
func toolResponse(res hooks.ToolResult) json.RawMessage {
	resp := map[string]any{"llmContent": res.Text, "returnDisplay": res.Text}
	if res.IsError {
		resp["error"] = map[string]any{"message": res.Text}
	}
	data, _ := encodeJSON(resp)
	return data
}

// afterTool runs AfterTool handlers and applies their merged output as
// Gemini CLI does: "continue": false replaces the result with "Agent
// execution stopped by hook: <reason>" and ends the run at the next model
// request; a deny replaces it with "Tool result blocked: <reason>";
// additionalContext is appended in <hook_context> tags. Output too large
// to read hides the result as a deny would.
func (h *hook) afterTool(c *hooks.Context, call hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
	name := h.set.geminiName(call.Name)
	args, err := argumentsJSON(call.Arguments)
	if err != nil {
		args = json.RawMessage("{}")
		c.Diagnose(err)
	}
	results, err := h.fire(c, input{ToolName: name, ToolInput: args, ToolResponse: toolResponse(res)}, nil, name, call.Name)
	if err != nil {
		return nil, err
	}
	if err := unreadable(results); err != nil {
		return replaced("Tool result blocked: the output of a Gemini CLI AfterTool hook cannot be read: " + err.Error()), nil
	}
	m := mergeOr(outputs(results))
	switch {
	case m == nil:
		return nil, nil
	case m.stops():
		reason := m.effectiveReason()
		askEnd(c, reason)
		return replaced("Agent execution stopped by hook: " + reason), nil
	case m.blocking():
		return replaced("Tool result blocked: " + m.effectiveReason()), nil
	}
	if m.spec.TailToolCallRequest != nil {
		c.Diagnose(errors.New("a Gemini CLI AfterTool hook asked for a tail tool call (tailToolCallRequest), which this library cannot make: a hook cannot run the host's tools"))
	}
	if ctx := m.additionalContext(); ctx != "" {
		text := res.Text + "\n\n<hook_context>" + ctx + "</hook_context>"
		return &hooks.ToolResultPatch{Text: &text}, nil
	}
	return nil, nil
}

// replaced is a patch that replaces a result with an error text, its
// value included, so that nothing of the hidden result reaches the model.
func replaced(text string) *hooks.ToolResultPatch {
	isErr := true
	return &hooks.ToolResultPatch{Text: &text, IsError: &isErr, Value: text}
}
