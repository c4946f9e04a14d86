package copilotcli

import (
	"time"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/dialect"
)

// baseSpec names the dialect; newSpec adds the table, whose inputs depend
// on the options.
var baseSpec = &dialect.Spec{Name: "Copilot CLI", Package: "copilotcli", Prefix: "copilot:"}

// unsupported are the events Copilot CLI fires that no point of this
// library fires, with why; a file naming one loads, with a diagnostic.
var unsupported = map[string]string{
	"subagentStart": "a run here has no subagent spawn point (Run.Child starts a run the host makes)",
	"subagentStop":  "a run here has no subagent stop point; a child run's own hooks see its end",
	"SubagentStop":  "a run here has no subagent stop point; a child run's own hooks see its end",
	"preCompact":    "a run here never compacts its history itself",
	"PreCompact":    "a run here never compacts its history itself",
	"notification":  "Copilot CLI's system notifications (shell completion, idle agents, dialogs) have no counterpart in a run here",
	"Notification":  "Copilot CLI's system notifications have no counterpart in a run here",
	"SubagentStart": "a run here has no subagent spawn point",
}

// runEvents are the events run here: the table's, and errorOccurred's
// two names (a hook of this package's own: it fires only for a run that
// failed).
var runEvents = []string{"sessionStart", "SessionStart", "userPromptSubmitted", "UserPromptSubmit",
	"agentStop", "Stop", "preToolUse", "PreToolUse", "permissionRequest", "PermissionRequest", "postToolUse", "PostToolUse",
	"postToolUseFailure", "PostToolUseFailure", "sessionEnd", "SessionEnd", "errorOccurred", "ErrorOccurred"}

// guardEvents are the events that decide whether a tool call runs.
var guardEvents = map[string]bool{"preToolUse": true, "PreToolUse": true, "permissionRequest": true, "PermissionRequest": true}

// toolEvents are the events whose entries take a matcher.
var toolEvents = map[string]bool{"preToolUse": true, "PreToolUse": true, "permissionRequest": true, "PermissionRequest": true,
	"postToolUse": true, "PostToolUse": true, "postToolUseFailure": true, "PostToolUseFailure": true}

// newSpec is the table of events, in the order of the hooks Hooks
// returns: preToolUse before permissionRequest (Copilot CLI asks the
// permission service after the pre-tool hooks).
func newSpec(o *dialect.Options) *dialect.Spec {
	v, _ := o.Value(argsAsString{})
	asString, _ := v.(bool)
	in := inputs{argsAsString: asString}
	s := *baseSpec
	s.Events = []dialect.Event{
		{Name: "sessionStart", When: dialect.RunStart, Input: in.sessionStart},
		{Name: "SessionStart", When: dialect.RunStart, Input: in.sessionStart},
		{Name: "userPromptSubmitted", When: dialect.UserPrompt, Input: in.prompt},
		{Name: "UserPromptSubmit", When: dialect.UserPrompt, Input: in.prompt},
		{Name: "agentStop", When: dialect.FinalReply, Input: in.stop, Decide: decideStop},
		{Name: "Stop", When: dialect.FinalReply, Input: in.stop, Decide: decideStop},
		{Name: "preToolUse", When: dialect.ToolCall, Input: in.tool, Decide: decidePre},
		{Name: "PreToolUse", When: dialect.ToolCall, Input: in.tool, Decide: decidePre},
		{Name: "permissionRequest", When: dialect.ToolCall, Input: in.tool, Decide: decidePermission},
		{Name: "PermissionRequest", When: dialect.ToolCall, Input: in.tool, Decide: decidePermission},
		{Name: "postToolUse", When: dialect.ToolResult, Input: in.tool},
		{Name: "PostToolUse", When: dialect.ToolResult, Input: in.tool},
		{Name: "postToolUseFailure", When: dialect.ToolError, Input: in.tool, Decide: decideFailure},
		{Name: "PostToolUseFailure", When: dialect.ToolError, Input: in.tool, Decide: decideFailure},
		{Name: "sessionEnd", When: dialect.RunEnd, Input: in.sessionEnd},
		{Name: "SessionEnd", When: dialect.RunEnd, Input: in.sessionEnd},
	}
	return &s
}

// inputs build each event's stdin: camelCase fields, or the VS Code
// compatible snake_case ones for an event written in PascalCase.
type inputs struct{ argsAsString bool }

// pascal reports whether the event is written in PascalCase.
func pascal(at *dialect.At) bool { return at.Event.Name[0] >= 'A' && at.Event.Name[0] <= 'Z' }

// common is every event's part: the session, the time, the folder.
func common(c *hooks.Context, at *dialect.At) payload {
	now := time.Now()
	if pascal(at) {
		return payload{pascal: true, m: map[string]any{"hook_event_name": at.Event.Name, "session_id": c.Session.ID,
			"timestamp": now.UTC().Format("2006-01-02T15:04:05.000Z"), "cwd": at.Workdir}}
	}
	return payload{m: map[string]any{"sessionId": c.Session.ID, "timestamp": now.UnixMilli(), "cwd": at.Workdir}}
}

// payload is an input being built.
type payload struct {
	pascal bool
	m      map[string]any
}

// set sets a field by its camelCase or snake_case name.
func (p payload) set(camel, snake string, v any) {
	if p.pascal {
		p.m[snake] = v
		return
	}
	p.m[camel] = v
}

func (in inputs) sessionStart(c *hooks.Context, at *dialect.At) (any, error) {
	p := common(c, at)
	p.m["source"] = "new"
	if at.Start.Resumed {
		p.m["source"] = "resume"
	}
	if at.Start.Input != "" {
		p.set("initialPrompt", "initial_prompt", at.Start.Input)
	}
	return p.m, nil
}

func (in inputs) prompt(c *hooks.Context, at *dialect.At) (any, error) {
	p := common(c, at)
	p.m["prompt"] = at.Prompt
	return p.m, nil
}

func (in inputs) stop(c *hooks.Context, at *dialect.At) (any, error) {
	p := common(c, at)
	p.set("transcriptPath", "transcript_path", "")
	p.set("stopReason", "stop_reason", "end_turn")
	return p.m, nil
}

// tool is the input of the tool events: the tool's Copilot name and its
// arguments (toolArgs: an object, or with ToolArgsAsString a JSON string
// of the very arguments the tool gets; tool_input: an object), and the
// result or error of the after-events.
func (in inputs) tool(c *hooks.Context, at *dialect.At) (any, error) {
	p := common(c, at)
	p.set("toolName", "tool_name", at.Tool)
	args := at.Call.Arguments
	if args == nil {
		args = map[string]any{}
	}
	var a any = args
	if !p.pascal && in.argsAsString {
		data, err := dialect.EncodeJSON(args)
		if err != nil {
			return nil, err
		}
		a = string(data)
	}
	p.set("toolArgs", "tool_input", a)
	switch {
	case at.Result != nil && at.Result.IsError:
		p.m["error"] = at.Result.Text
	case at.Result != nil:
		p.set("toolResult", "tool_result", map[string]any{
			p.key("resultType", "result_type"): "success", p.key("textResultForLlm", "text_result_for_llm"): at.Result.Text})
	}
	return p.m, nil
}

// key is a field's name in the payload's format.
func (p payload) key(camel, snake string) string {
	if p.pascal {
		return snake
	}
	return camel
}

func (in inputs) sessionEnd(c *hooks.Context, at *dialect.At) (any, error) {
	p := common(c, at)
	p.m["reason"] = endReason(at.End.Outcome)
	return p.m, nil
}

// endReason is Copilot CLI's sessionEnd reason for an outcome.
func endReason(o hooks.Outcome) string {
	switch o {
	case hooks.Completed:
		return "complete"
	case hooks.Failed:
		return "error"
	}
	return "abort" // interrupted, suspended
}
