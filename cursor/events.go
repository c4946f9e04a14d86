package cursor

import "github.com/rienda/hooks"

// kind is what an event does here.
type kind int

const (
	kSessionStart kind = iota
	kSubmitPrompt
	kAfterThought
	kAfterResponse
	kStop
	kPreToolUse
	kBeforeShell
	kBeforeMCP
	kBeforeRead
	kPostToolUse
	kPostToolUseFailure
	kAfterShell
	kAfterMCP
	kAfterEdit
	kSessionEnd
)

// event is one event a hooks.json may name.
type event struct {
	name  string
	kind  kind
	point hooks.Point
	// matchOn is what a matcher is tested against: "tool" (the tool's
	// Cursor name), "command" (the shell command), or "" (no matcher).
	matchOn string
}

// guard reports whether the event decides whether a tool call runs.
func (e event) guard() bool {
	switch e.kind {
	case kPreToolUse, kBeforeShell, kBeforeMCP, kBeforeRead:
		return true
	}
	return false
}

// eventOrder is every event run here, in the order Hooks returns their
// hooks: the generic preToolUse before the kind-specific guards, and
// after-points so that they unwind as Cursor fires them.
var eventOrder = []event{
	{"sessionStart", kSessionStart, hooks.BeforeRun, ""},
	{"beforeSubmitPrompt", kSubmitPrompt, hooks.BeforeModelRequest, ""},
	{"stop", kStop, hooks.AfterModelResponse, ""},
	{"afterAgentResponse", kAfterResponse, hooks.AfterModelResponse, ""},
	{"afterAgentThought", kAfterThought, hooks.AfterModelResponse, ""},
	{"preToolUse", kPreToolUse, hooks.BeforeToolExecute, "tool"},
	{"beforeShellExecution", kBeforeShell, hooks.BeforeToolExecute, "command"},
	{"beforeMCPExecution", kBeforeMCP, hooks.BeforeToolExecute, "tool"},
	{"beforeReadFile", kBeforeRead, hooks.BeforeToolExecute, ""},
	{"postToolUse", kPostToolUse, hooks.AfterToolExecute, "tool"},
	{"postToolUseFailure", kPostToolUseFailure, hooks.AfterToolExecute, "tool"},
	{"afterShellExecution", kAfterShell, hooks.AfterToolExecute, "command"},
	{"afterMCPExecution", kAfterMCP, hooks.AfterToolExecute, "tool"},
	{"afterFileEdit", kAfterEdit, hooks.AfterToolExecute, ""},
	{"sessionEnd", kSessionEnd, hooks.AfterRun, ""},
}

// unsupported are the events Cursor fires that no point of this library
// fires, with why; a file naming one loads, with a diagnostic.
var unsupported = map[string]string{
	"subagentStart":     "a run here has no subagent spawn point (Run.Child starts a run the host makes)",
	"subagentStop":      "a run here has no subagent stop point; a child run's own hooks see its end",
	"preCompact":        "a run here never compacts its history itself",
	"beforeTabFileRead": "Tab (inline completion) events: a run here has no inline completions",
	"afterTabFileEdit":  "Tab (inline completion) events: a run here has no inline completions",
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
