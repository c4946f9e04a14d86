// Package claudecode runs the command hooks of a Claude Code settings
// file, unchanged, as hooks of a github.com/rienda/hooks chain: the
// scripts people wrote for Claude Code (and for the tools that read the
// same shapes) read the same JSON on stdin, and their exit codes and JSON
// output decide as Claude Code's do, under the chain's policies and
// guarantees.
//
//	user, err := claudecode.Hooks(userSettings, claudecode.NamePrefix("user:"))
//	project, err := claudecode.Hooks(projectSettings, claudecode.NamePrefix("project:"),
//		claudecode.ToolNames(map[string]string{"shell": "Bash"}))
//	chain, err := hooks.NewChain(append(user, project...))
//
// It is built on the root package's public API only (Context.State for
// per-run state, Context.Diagnose, hooks.FailClosed), as any dialect
// written outside this repository can be. docs/claudecode.md has every
// event and field, and where this differs from Claude Code.
package claudecode

import (
	"time"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/dialect"
)

// Claude Code hook limits.
const (
	// DefaultTimeout is a handler's timeout when it sets none, as Claude
	// Code's documentation gives it.
	DefaultTimeout = 600 * time.Second
	// DefaultStopContinuations is how many times in a row Stop handlers
	// may send a run on before their request is refused (see
	// StopContinuations).
	DefaultStopContinuations = 3
)

// Option configures Hooks. Values are made by this package's constructors
// (ToolNames, NamePrefix, Diagnostics, StopContinuations, TranscriptDir,
// Model), the dialect kit's (package dialect) under this package's names
// and this package's own; callers only pass them on.
type Option = dialect.Option

// spec names the dialect for the kit's options and messages.
var spec = &dialect.Spec{Name: "Claude Code", Short: "Claude", Package: "claudecode", Prefix: "claude:"}

// The keys of this package's own options (dialect.Setting).
type (
	modelKey      struct{}
	transcriptKey struct{}
)

// ToolNames maps the host's tool names to Claude Code's ("shell" ->
// "Bash"), so that scripts written for Claude Code see the names they test
// for: tool_name on stdin is the Claude name. A matcher matches a call when
// it matches either name, so settings may name the host's tools too. A
// tool missing from the map keeps its own name. A key in another case
// than the host's tool ("Shell" for "shell") maps it, with a diagnostic;
// a key that is no tool of the run is diagnosed at the first model
// request that lists the tools (see CheckToolNames). An empty name on
// either side is an error of Hooks.
func ToolNames(names map[string]string) Option { return dialect.ToolNames(names) }

// NamePrefix sets what the hooks' names start with (default "claude:",
// giving "claude:PreToolUse"), so that the hooks of user-level and
// project-level settings can share one chain: a chain refuses two hooks of
// one name.
func NamePrefix(prefix string) Option { return dialect.NamePrefix(prefix) }

// Diagnostics sends the load-time diagnostics (an event or a handler type
// this library does not run, skipped; an unknown key, with the key it
// resembles) to fn instead of slog. What goes wrong while a run runs goes
// to the chain's diagnostics (hooks.WithDiagnostics), like any hook's.
func Diagnostics(fn func(hooks.Diagnostic)) Option { return dialect.Diagnostics(fn) }

// StopContinuations bounds how many times in a row a run may have been
// sent on (by any hook: Context.Continuations) for the Stop handlers of
// this settings set to send it on again (default
// DefaultStopContinuations): a Stop script that ignores stop_hook_active,
// or two settings sets that take turns, would otherwise keep a run going
// forever. Past the bound the reply stands as final and a
// diagnostic says so. n <= 0 means no continuation at all.
func StopContinuations(n int) Option { return dialect.Continuations(n) }

// Hooks returns hooks that run the command hooks of a Claude Code settings
// file, unchanged, in a hooks chain: one Hook per event that has a
// handler, named "<prefix><event>" ("claude:PreToolUse"), in the order
// SessionStart, UserPromptSubmit, PreToolUse, PostToolUse,
// PostToolUseFailure, Stop, SessionEnd.
//
// settings is a whole settings.json (keys other than "hooks" are ignored;
// "disableAllHooks": true gives no hook) or its "hooks" object alone. A
// malformed entry is an error naming the event and the index
// (hooks.PreToolUse[0].hooks[1]). The handlers of PermissionRequest,
// Notification, PreCompact, PostCompact, SubagentStart, SubagentStop and
// StopFailure run when the host fires them (Fire); SubagentStart and
// SubagentStop also run for a child run (Run.Child: at its BeforeRun, and
// on its replies without tool calls, in place of SessionStart and Stop),
// and PermissionRequest for a PreToolUse "ask" or "defer", before a
// person is asked with Context.Review. An event this library does not
// run, a handler it does not run (agent, mcp_tool, and prompt without
// Model), and an unknown key ("matchers",
// "timeOut", a top-level "hook") are load-time diagnostics naming them, the
// last with the key it resembles (see Diagnostics), never an error: the
// settings load as Claude Code loads them.
//
// The events run at these points: SessionStart at BeforeRun (source
// "startup", or "resume"); UserPromptSubmit at a BeforeModelRequest whose
// last message is the user's (not one a Stop handler of the same settings
// sent); PreToolUse at BeforeToolExecute; PostToolUse, or
// PostToolUseFailure for an error result, at AfterToolExecute; Stop at the
// AfterModelResponse of a reply without tool calls; SessionEnd at
// AfterRun, its reason the outcome.
//
// A handler's "if" (a permission rule), "once" and "async" apply as
// Claude Code documents them; an "http" handler POSTs the input and reads
// the answer as stdout; an identical handler in two settings sets of one
// chain runs once. transcript_path is the run's conversation in Claude
// Code's JSONL (see TranscriptDir).
//
// A "command" runs with sh -c, as in Claude Code ("args", when given,
// runs the command without a shell), in Host.Workdir, with the run's
// environment plus CLAUDE_PROJECT_DIR (the workdir), for at most "timeout"
// seconds (default 600), in a process group that is killed with what it
// started at the timeout, on cancellation and when the command exits; its
// stdin is closed once the JSON input is written. Exit 2 blocks with
// stderr as the reason, whatever stdout held; exit 0 with stdout that
// starts with "{" and parses is a decision, its names read exactly as
// JSON.parse reads them; any other exit, a timeout or a command that
// cannot start is a diagnostic and the call goes on (fail open), unless
// the handler sets "onFailure": "block" (Claude Code v2.1.295) or
// "failClosed": true, which then refuses a tool call.
// Output too large to read never lets a tool call through: see
// docs/claudecode.md for what each event does with it.
//
// Per-run state (SessionStart's context, an end asked for, Stop's
// continuations and stop_hook_active) is each hook's hooks.Context state,
// so Run.Snapshot carries it and Chain.Resume and Chain.Rehydrate restore
// it.
func Hooks(settings []byte, opts ...Option) ([]hooks.Hook, error) {
	o, err := dialect.NewOptions(spec, opts)
	if err != nil {
		return nil, err
	}
	model, _ := o.Value(modelKey{})
	fn, _ := model.(hooks.ModelFunc)
	events, err := parseSettings(settings, o.Diagnostics, fn, o.Tools.Names())
	if err != nil {
		return nil, err
	}
	dir, _ := o.Value(transcriptKey{})
	tdir, _ := dir.(string)
	s := &set{opts: o, transcriptDir: tdir, hasStop: len(events["Stop"]) > 0,
		timed: len(events["PostToolUse"])+len(events["PostToolUseFailure"]) > 0}
	s.matchers = s.toolMatchers(events)
	var out []hooks.Hook
	for _, ev := range eventOrder {
		if hs := events[ev]; len(hs) > 0 {
			for _, hd := range hs {
				hd.set = s
			}
			out = append(out, &hook{Base: dialect.Base{HookName: o.Prefix + ev}, event: ev, point: eventPoints[ev], handlers: hs, set: s, first: len(out) == 0})
		}
	}
	for _, ev := range firedOrder {
		if hs := events[ev]; len(hs) > 0 {
			for _, hd := range hs {
				hd.set = s
			}
			if s.fired == nil {
				s.fired = map[string][]*handler{}
			}
			s.fired[ev] = hs
		}
	}
	if len(out) == 0 && s.fired != nil { // a hook that carries the set to Fire, and keeps its run's transcript
		out = append(out, &hook{Base: dialect.Base{HookName: o.Prefix + "Events"}, event: "Events", handlers: nil, set: s, first: true})
	}
	if len(out) > 0 {
		out[len(out)-1].(*hook).last = true
	}
	return out, nil
}

// eventPoints maps the Claude Code events this library runs to their point.
var eventPoints = map[string]hooks.Point{
	"SessionStart":       hooks.BeforeRun,
	"UserPromptSubmit":   hooks.BeforeModelRequest,
	"PreToolUse":         hooks.BeforeToolExecute,
	"PostToolUse":        hooks.AfterToolExecute,
	"PostToolUseFailure": hooks.AfterToolExecute,
	"Stop":               hooks.AfterModelResponse,
	"SessionEnd":         hooks.AfterRun,
}

// eventOrder is the order of the hooks Hooks returns.
var eventOrder = []string{"SessionStart", "UserPromptSubmit", "PreToolUse",
	"PostToolUse", "PostToolUseFailure", "Stop", "SessionEnd"}

// hook runs the handlers of one event of one settings file.
type hook struct {
	dialect.Base // its name, "<prefix><event>", and policy Report
	event        string
	point        hooks.Point
	handlers     []*handler
	set          *set
	// first and last: the set's first and last hook in list order. The
	// first keeps the run's transcript current at the before-points and
	// removes it after the others' AfterRun (reverse list order); the
	// last adds the model's reply and the tools' results, before the
	// other hooks of the set run at those after-points.
	first, last bool
}

// Handles reports the event's point; BeforeModelRequest for the events
// that act on the next request (SessionStart's context, an end a tool
// event asked for, Stop's and UserPromptSubmit's view of the user's
// turn); for UserPromptSubmit beside a Stop, AfterModelResponse, where it
// learns that the Stop sent the run on (see set.notes); and AfterRun for
// the Stop, which forgets its note there; and the points where the
// set's first or last hook keeps the run's transcript (see hook.first).
func (h *hook) Handles(p hooks.Point) bool {
	switch p {
	case h.point:
		return true
	case hooks.BeforeRun:
		return h.first // joins the run's record of handlers run (see runs)
	case hooks.AfterRun:
		return h.event == "Stop" || h.first
	case hooks.BeforeModelRequest:
		return h.event != "SessionEnd" || h.first
	case hooks.AfterModelResponse:
		return h.event == "UserPromptSubmit" && h.set.hasStop || h.last
	case hooks.AfterToolExecute:
		return h.last
	case hooks.BeforeToolExecute:
		return h.last && h.set.timed // notes when the tool starts, for duration_ms
	}
	return false
}
