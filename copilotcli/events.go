package copilotcli

import "github.com/rienda/hooks"

// kind is what an event does here, whichever spelling names it.
type kind int

const (
	kSessionStart kind = iota
	kUserPrompt
	kPreToolUse
	kPermissionRequest
	kPostToolUse
	kPostToolUseFailure
	kAgentStop
	kErrorOccurred
	kSessionEnd
)

// event is one event name a hook file may use. A PascalCase name selects
// the VS Code compatible payload (snake_case fields, an ISO timestamp).
type event struct {
	name   string
	kind   kind
	pascal bool
	point  hooks.Point
}

// guard reports whether the event decides whether a tool call runs.
func (e event) guard() bool { return e.kind == kPreToolUse || e.kind == kPermissionRequest }

// eventOrder is every event run here, in the order Hooks returns their
// hooks: preToolUse before permissionRequest (Copilot CLI asks the
// permission service after the pre-tool hooks), after-points in the order
// that makes them unwind as Copilot CLI fires them.
var eventOrder = []event{
	{"sessionStart", kSessionStart, false, hooks.BeforeRun},
	{"SessionStart", kSessionStart, true, hooks.BeforeRun},
	{"userPromptSubmitted", kUserPrompt, false, hooks.BeforeModelRequest},
	{"UserPromptSubmit", kUserPrompt, true, hooks.BeforeModelRequest},
	{"agentStop", kAgentStop, false, hooks.AfterModelResponse},
	{"Stop", kAgentStop, true, hooks.AfterModelResponse},
	{"preToolUse", kPreToolUse, false, hooks.BeforeToolExecute},
	{"PreToolUse", kPreToolUse, true, hooks.BeforeToolExecute},
	{"permissionRequest", kPermissionRequest, false, hooks.BeforeToolExecute},
	{"postToolUse", kPostToolUse, false, hooks.AfterToolExecute},
	{"PostToolUse", kPostToolUse, true, hooks.AfterToolExecute},
	{"postToolUseFailure", kPostToolUseFailure, false, hooks.AfterToolExecute},
	{"PostToolUseFailure", kPostToolUseFailure, true, hooks.AfterToolExecute},
	{"errorOccurred", kErrorOccurred, false, hooks.AfterRun},
	{"ErrorOccurred", kErrorOccurred, true, hooks.AfterRun},
	{"sessionEnd", kSessionEnd, false, hooks.AfterRun},
	{"SessionEnd", kSessionEnd, true, hooks.AfterRun},
}

// unsupported are the events Copilot CLI fires that no point of this
// library fires, with why; a file naming one loads, with a diagnostic.
var unsupported = map[string]string{
	"subagentStart": "a run here has no subagent spawn point (Run.Child starts a run the host makes)",
	"subagentStop":  "a run here has no subagent stop point; a child run's own hooks see its end",
	"SubagentStop":  "a run here has no subagent stop point; a child run's own hooks see its end",
	"SubagentStart": "a run here has no subagent spawn point",
	"preCompact":    "a run here never compacts its history itself",
	"PreCompact":    "a run here never compacts its history itself",
	"notification":  "Copilot CLI's system notifications (shell completion, idle agents, dialogs) have no counterpart in a run here",
	"Notification":  "Copilot CLI's system notifications have no counterpart in a run here",
}

// eventNames are every name a file may use, for did-you-mean.
func eventNames() []string {
	var names []string
	for _, e := range eventOrder {
		names = append(names, e.name)
	}
	for n := range unsupported {
		names = append(names, n)
	}
	return names
}

// eventNamed is the event a file names, if it is run here.
func eventNamed(name string) (event, bool) {
	for _, e := range eventOrder {
		if e.name == name {
			return e, true
		}
	}
	return event{}, false
}
