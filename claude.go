package hooks

import (
	"fmt"
	"log/slog"
	"time"
)

// Claude Code hook limits.
const (
	// DefaultClaudeTimeout is a handler's timeout when it sets none, as
	// Claude Code's documentation gives it.
	DefaultClaudeTimeout = 600 * time.Second
	// DefaultClaudeStopContinuations is how many times in a row Stop
	// handlers may send a run on before their request is refused (see
	// ClaudeStopContinuations).
	DefaultClaudeStopContinuations = 3
)

// ClaudeOption configures ClaudeCodeHooks. Values are made by the Claude*
// constructors; callers only pass them on.
type ClaudeOption interface{ applyClaude(*claudeOptions) }

type claudeOptions struct {
	toClaude      map[string]string // host tool name -> Claude tool name
	prefix        string
	diagnostics   func(Diagnostic)
	continuations int
	bad           error // an option given a value it cannot take
}

type claudeOptionFunc func(*claudeOptions)

func (f claudeOptionFunc) applyClaude(o *claudeOptions) { f(o) }

// ClaudeToolNames maps the host's tool names to Claude Code's ("shell" ->
// "Bash"), so that scripts written for Claude Code see the names they test
// for: tool_name on stdin is the Claude name. A matcher matches a call when
// it matches either name, so settings may name the host's tools too. A
// tool missing from the map keeps its own name. An empty name on either
// side is an error of ClaudeCodeHooks.
func ClaudeToolNames(names map[string]string) ClaudeOption {
	return claudeOptionFunc(func(o *claudeOptions) {
		o.toClaude = make(map[string]string, len(names))
		for host, claude := range names {
			if host == "" || claude == "" {
				o.bad = fmt.Errorf("hooks: ClaudeToolNames: empty tool name in %q -> %q", host, claude)
			}
			o.toClaude[host] = claude
		}
	})
}

// ClaudeNamePrefix sets what the hooks' names start with (default
// "claude:", giving "claude:PreToolUse"), so that the hooks of user-level
// and project-level settings can share one chain: a chain refuses two
// hooks of one name.
func ClaudeNamePrefix(prefix string) ClaudeOption {
	return claudeOptionFunc(func(o *claudeOptions) { o.prefix = prefix })
}

// ClaudeDiagnostics sends the load-time diagnostics (an event or a handler
// type this library does not run, skipped) to fn instead of slog. What
// goes wrong while a run runs goes to the chain's diagnostics
// (WithDiagnostics), like any hook's.
func ClaudeDiagnostics(fn func(Diagnostic)) ClaudeOption {
	return claudeOptionFunc(func(o *claudeOptions) { o.diagnostics = fn })
}

// ClaudeStopContinuations bounds how many times in a row Stop handlers may
// send a run on (default DefaultClaudeStopContinuations): a Stop script
// that ignores stop_hook_active would otherwise keep a run going forever.
// Past the bound the reply stands as final and a diagnostic says so. n <= 0
// means no continuation at all.
func ClaudeStopContinuations(n int) ClaudeOption {
	return claudeOptionFunc(func(o *claudeOptions) { o.continuations = max(n, 0) })
}

// ClaudeCodeHooks returns hooks that run the command hooks of a Claude Code
// settings file, unchanged, in this library's chain: one Hook per event
// that has a handler, named "<prefix><event>" ("claude:PreToolUse"), in
// the order SessionStart, UserPromptSubmit, PreToolUse, PostToolUse,
// PostToolUseFailure, Stop, SessionEnd.
//
// settings is a whole settings.json (keys other than "hooks" are ignored;
// "disableAllHooks": true gives no hook) or its "hooks" object alone. A
// malformed entry is an error naming the event and the index
// (hooks.PreToolUse[0].hooks[1]). An event this library does not run
// (Notification, PreCompact, …) and a handler whose type is not "command"
// (prompt, agent, http, mcp_tool) are skipped, each with a load-time
// diagnostic naming it (see ClaudeDiagnostics), never an error.
//
// The events run at these points: SessionStart at BeforeRun (source
// "startup", or "resume"); UserPromptSubmit at a BeforeModelRequest whose
// last message is the user's (not one a Stop handler sent); PreToolUse at
// BeforeToolExecute; PostToolUse, or PostToolUseFailure for an error
// result, at AfterToolExecute; Stop at the AfterModelResponse of a reply
// without tool calls; SessionEnd at AfterRun, its reason the outcome.
//
// Unlike CommandHooks, a "command" runs with sh -c, as in Claude Code
// ("args", when given, runs the command without a shell). It runs in
// Host.Workdir, with the run's environment plus CLAUDE_PROJECT_DIR (the
// workdir), for at most "timeout" seconds (default 600), in a process
// group that is killed with what it started at the timeout, on
// cancellation and when the command exits; its stdin is closed once the
// JSON input is written. Exit 0 with stdout that starts with "{" and
// parses is a decision; exit 2 blocks with stderr as the reason; any other
// exit, a timeout or a command that cannot start is a diagnostic and the
// call goes on (fail open), unless the handler sets "failClosed": true,
// which then refuses a tool call.
//
// Handlers run in the file's order, each seeing the arguments as rewritten
// by those before it (Claude Code runs them in parallel); a deny refuses
// the call at once, so a person is asked ("ask", through Host.Confirm)
// only when no handler denies. SessionEnd handlers run concurrently.
// transcript_path is always "": no transcript file is written.
func ClaudeCodeHooks(settings []byte, opts ...ClaudeOption) ([]Hook, error) {
	o := claudeOptions{prefix: "claude:", continuations: DefaultClaudeStopContinuations}
	for _, opt := range opts {
		if opt != nil {
			opt.applyClaude(&o)
		}
	}
	if o.bad != nil {
		return nil, o.bad
	}
	if o.diagnostics == nil {
		o.diagnostics = func(d Diagnostic) { slog.Warn("hook diagnostic", "hook", d.Hook, "err", d.Err) }
	}
	events, err := parseClaudeSettings(settings, o.diagnostics)
	if err != nil {
		return nil, err
	}
	set := &claudeSet{opts: o, runs: map[string]*claudeRun{}}
	var out []Hook
	for _, ev := range claudeEventOrder {
		if hs := events[ev]; len(hs) > 0 {
			out = append(out, &claudeHook{name: o.prefix + ev, event: ev, point: claudeEvents[ev], handlers: hs, set: set})
		}
	}
	return out, nil
}

// claudeEvents maps the Claude Code events this library runs to their point.
var claudeEvents = map[string]Point{
	"SessionStart":       BeforeRun,
	"UserPromptSubmit":   BeforeModelRequest,
	"PreToolUse":         BeforeToolExecute,
	"PostToolUse":        AfterToolExecute,
	"PostToolUseFailure": AfterToolExecute,
	"Stop":               AfterModelResponse,
	"SessionEnd":         AfterRun,
}

// claudeEventOrder is the order of the hooks ClaudeCodeHooks returns.
var claudeEventOrder = []string{"SessionStart", "UserPromptSubmit", "PreToolUse",
	"PostToolUse", "PostToolUseFailure", "Stop", "SessionEnd"}

// claudeHook runs the handlers of one event of one settings file.
type claudeHook struct {
	name     string
	event    string
	point    Point
	handlers []*claudeHandler
	set      *claudeSet
}

// Name is "<prefix><event>".
func (h *claudeHook) Name() string { return h.name }

// DefaultPolicy is Report: a handler's failure is a diagnostic the hook
// makes itself, so that the next handler still runs; the hook's own error
// is only a cancellation.
func (h *claudeHook) DefaultPolicy() Policy { return Report }

// Handles reports the event's point, BeforeModelRequest for the events
// that act on the next request (SessionStart's context, an end a tool
// event asked for, Stop's and UserPromptSubmit's view of the user's
// turn), and AfterRun, where the run's state is dropped.
func (h *claudeHook) Handles(p Point) bool {
	switch p {
	case h.point, AfterRun:
		return true
	case BeforeModelRequest:
		return h.event != "SessionEnd"
	}
	return false
}
