package dialect

import (
	"strings"
	"time"

	"github.com/rienda/hooks"
)

// Spec is a dialect: its names, its table of events, and how each event's
// input is built and its output decides. Build turns a Spec and the
// handlers a settings file gives each event into hooks.
type Spec struct {
	// Name is the agent CLI's name, in messages ("Codex").
	Name string
	// Short is the name of the agent CLI's tool names, in messages ("the
	// Gemini name"); "" is Name.
	Short string
	// Package is the Go package's name, starting errors ("codex"); ""
	// takes Name in lower case without spaces.
	Package string
	// Prefix is the default start of the hooks' names ("codex:").
	Prefix string
	// Events are the events the dialect runs, in the order of the hooks
	// Build returns.
	Events []Event
	// UniqueToolNames makes two host tools given one dialect name an error
	// of ToolNames (a dialect that maps names back needs it).
	UniqueToolNames bool
}

// pkg is the start of the dialect's errors.
func (s *Spec) pkg() string {
	if s.Package != "" {
		return s.Package
	}
	return strings.ToLower(strings.ReplaceAll(s.Name, " ", ""))
}

// short is Short, or Name.
func (s *Spec) short() string {
	if s.Short != "" {
		return s.Short
	}
	return s.Name
}

// Event returns the event of the table with that name.
func (s *Spec) Event(name string) (*Event, bool) {
	for i := range s.Events {
		if s.Events[i].Name == name {
			return &s.Events[i], true
		}
	}
	return nil, false
}

// EventNames are the names of the table's events, in order.
func (s *Spec) EventNames() []string {
	out := make([]string, len(s.Events))
	for i, e := range s.Events {
		out[i] = e.Name
	}
	return out
}

// When is the moment of a run an event fires at: one of the chain's
// points, narrowed.
type When int

// The moments an event fires at.
const (
	// RunStart is BeforeRun (a session starts or resumes).
	RunStart When = iota + 1
	// UserPrompt is a BeforeModelRequest whose last message is the
	// user's and not a continuation (a turn's prompt).
	UserPrompt
	// ModelRequest is every BeforeModelRequest.
	ModelRequest
	// ToolCall is BeforeToolExecute: the event guards the call.
	ToolCall
	// ToolResult is AfterToolExecute of a result that is not an error.
	ToolResult
	// ToolError is AfterToolExecute of an error result.
	ToolError
	// AnyToolResult is every AfterToolExecute.
	AnyToolResult
	// ModelReply is every AfterModelResponse.
	ModelReply
	// FinalReply is an AfterModelResponse without tool calls (the agent
	// would stop): a Block sends the run on (bounded by Continuations).
	FinalReply
	// RunEnd is AfterRun.
	RunEnd
)

// point is the chain's point of w.
func (w When) point() hooks.Point {
	switch w {
	case RunStart:
		return hooks.BeforeRun
	case UserPrompt, ModelRequest:
		return hooks.BeforeModelRequest
	case ToolCall:
		return hooks.BeforeToolExecute
	case ToolResult, ToolError, AnyToolResult:
		return hooks.AfterToolExecute
	case ModelReply, FinalReply:
		return hooks.AfterModelResponse
	case RunEnd:
		return hooks.AfterRun
	}
	return ""
}

// tool reports whether w is about one tool call (matchers take its name).
func (w When) tool() bool {
	switch w {
	case ToolCall, ToolResult, ToolError, AnyToolResult:
		return true
	}
	return false
}

// Event is one row of a dialect's table.
type Event struct {
	// Name is the event as settings name it ("PreToolUse").
	Name string
	// When is the moment it fires at.
	When When
	// Input builds what a handler reads on stdin (encoded with
	// EncodeJSON); nil sends At's Common fields.
	Input func(c *hooks.Context, at *At) (any, error)
	// Decide reads one handler's output as the agent CLI reads it. An
	// error says the output cannot be read: a diagnostic, and at a
	// ToolCall event a refusal when the handler fails closed or the
	// output evidently refuses. nil: the output decides nothing.
	Decide func(c *hooks.Context, at *At, out *Result) (Decision, error)
	// FailClosed makes a handler that fails (times out, cannot start,
	// crashes without a decision, prints what Decide cannot read)
	// refuse a ToolCall event's call, as Handler.FailClosed does for one
	// handler. Output too large to read refuses at ToolCall always.
	FailClosed bool
}

// Handler is one command a settings file runs for an event.
type Handler struct {
	// Where names it in messages ("PreToolUse[0].hooks[1]").
	Where string
	// Matcher selects the calls it runs for at a tool event; nil: all.
	Matcher Matcher
	// Argv is the command (["sh", "-c", "…"]).
	Argv []string
	// Env is added to the run's environment (Environ).
	Env map[string]string
	// Dir is where it runs; "": the run's Workdir; a relative folder is
	// in the run's Workdir.
	Dir string
	// Timeout bounds it (> 0).
	Timeout time.Duration
	// MaxOutput caps its stdout; 0: DefaultMaxOutput.
	MaxOutput int
	// DrainOutput lets it run on past MaxOutput to its end (Command);
	// its Decide then sees Result.Overflow and the exit status.
	DrainOutput int64
	// FailClosed: its failure refuses a ToolCall event's call.
	FailClosed bool
}

// Matcher selects the tool calls a handler runs for, by tool name (the
// dialect's name, and the host's when they differ).
type Matcher interface {
	Match(tool string) bool
}

// At is the point an event fires at, for its Input and Decide.
type At struct {
	Event *Event
	Spec  *Spec
	// Tool is the call's tool in the dialect's name (ToolMap), at tool
	// events.
	Tool     string
	Call     *hooks.ToolCall     // tool events
	Result   *hooks.ToolResult   // ToolResult, ToolError, AnyToolResult
	Request  *hooks.ModelRequest // UserPrompt, ModelRequest
	Response *hooks.ModelResponse
	Start    *hooks.RunStart
	End      *hooks.RunEnd
	// Prompt is the user's message at UserPrompt.
	Prompt string
	// Active: the run goes on because a hook sent it on
	// (hooks.Context.Continuations > 0), Claude Code's stop_hook_active.
	Active bool
	// Workdir is the run's working folder.
	Workdir string
	// Handler is the handler about to run, or whose output is read.
	Handler *Handler
}

// Result is one handler's run, for Decide.
type Result struct {
	Output
	// Handler is the handler that ran.
	Handler *Handler
}

// Decision is what one handler's output asks for. Its effect depends on
// the event's moment:
//
//	Block     ToolCall: refuse the call with Reason; UserPrompt and ModelRequest: end the run with Reason;
//	          FinalReply: send the run on with Reason (bounded); ModelReply: end the run;
//	          tool results: the model reads Reason as an error result
//	Arguments ToolCall: replace the call's arguments (the next handler sees them)
//	Context   RunStart: added to every model request's system prompt; others: to the next one's
//	Stop      end the run with this output (at the next model request where the point cannot)
//	Text      tool results: the model reads this text; ModelReply and FinalReply: the reply's text
//	Ask       ToolCall: ask a person (hooks.Context.Confirm) with this text; a no refuses the call
type Decision struct {
	Block     bool
	Reason    string
	Ask       string
	Arguments map[string]any
	Context   string
	Stop      *string
	Text      *string
}
