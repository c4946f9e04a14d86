// Package geminicli runs the command hooks of a Gemini CLI settings file,
// unchanged, as hooks of a github.com/rienda/hooks chain: the scripts
// people wrote for Gemini CLI read the same JSON on stdin, and their exit
// codes and JSON output decide as Gemini CLI's hook runner decides, under
// the chain's policies and guarantees.
//
//	gemini, err := geminicli.Hooks(settings,
//		geminicli.ToolNames(map[string]string{"shell": "run_shell_command"}))
//	chain, err := hooks.NewChain(gemini)
//
// Gemini CLI's model-level events fit this library's model points:
// BeforeModel may rewrite the request (its messages, model and sampling
// settings) or answer it, BeforeToolSelection narrows the tools offered
// and sets the tool choice (ModelRequest.Tools, ToolChoice), AfterModel
// rewrites the reply. Where Gemini CLI's documentation and its
// hook runner disagree, this package does what the runner does, and
// docs/geminicli.md says where, and every event and field, supported or
// not, and why.
//
// It is built on the root package's public API only (Context.State for
// per-run state, Context.Diagnose, hooks.FailClosed), as any dialect
// written outside this repository can be.
package geminicli

import (
	"fmt"
	"time"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/dialect"
)

// Gemini CLI hook limits.
const (
	// DefaultTimeout is a handler's timeout when it sets none, as Gemini
	// CLI's runner has it (60000 ms).
	DefaultTimeout = 60 * time.Second
	// DefaultAfterAgentRetries is how many times in a row AfterAgent
	// handlers may send a run on (a "deny" asks for a retry turn) before
	// the reply stands as final (see AfterAgentRetries).
	DefaultAfterAgentRetries = 3
	// MaxOutput is how many bytes of stdout a handler may print. More is
	// not read: a BeforeTool handler that prints more refuses the call, an
	// AfterTool one hides the result, as a denial would.
	MaxOutput = 256 << 10
)

// Option configures Hooks. Values are made by this package's constructors
// (ToolNames, NamePrefix, Diagnostics, AfterAgentRetries), which are the
// dialect kit's (package dialect) under this package's names.
type Option = dialect.Option

// spec names the dialect for the kit's options and messages.
var spec = &dialect.Spec{Name: "Gemini CLI", Short: "Gemini", Package: "geminicli", Prefix: "gemini:", UniqueToolNames: true}

// ToolNames maps the host's tool names to Gemini CLI's ("shell" ->
// "run_shell_command"), so that scripts written for Gemini CLI see the
// names they test for: tool_name on stdin is the Gemini name, and the
// names a BeforeToolSelection handler allows are read as Gemini names. A
// matcher matches a call when it matches either name. A tool missing from
// the map keeps its own name. An empty name on either side, or two host
// tools given one Gemini name, is an error of Hooks.
func ToolNames(names map[string]string) Option { return dialect.ToolNames(names) }

// NamePrefix sets what the hooks' names start with (default "gemini:",
// giving "gemini:BeforeTool"), so that the hooks of user-level and
// project-level settings can share one chain: a chain refuses two hooks of
// one name.
func NamePrefix(prefix string) Option { return dialect.NamePrefix(prefix) }

// Diagnostics sends the load-time diagnostics (an event or a handler type
// this library does not run, skipped; an unknown key, with the key it
// resembles) to fn instead of slog. What goes wrong while a run runs goes
// to the chain's diagnostics (hooks.WithDiagnostics), like any hook's.
func Diagnostics(fn func(hooks.Diagnostic)) Option { return dialect.Diagnostics(fn) }

// AfterAgentRetries bounds how many times in a row the AfterAgent
// handlers of one settings set may send a run on (default
// DefaultAfterAgentRetries): Gemini CLI bounds them only by its turn limit,
// so a script that ignores stop_hook_active would keep a run going. Past
// the bound the reply stands as final and a diagnostic says so. n <= 0
// means no retry at all.
func AfterAgentRetries(n int) Option { return dialect.Continuations(n) }

// Hooks returns hooks that run the command hooks of a Gemini CLI settings
// file, unchanged, in a hooks chain: one Hook per event that has a
// handler, named "<prefix><event>" ("gemini:BeforeTool"), in the order
// SessionStart, BeforeAgent, AfterAgent, BeforeModel, BeforeToolSelection,
// AfterModel, BeforeTool, AfterTool, SessionEnd (so that, with after-points
// in reverse list order, AfterModel rewrites a reply before AfterAgent
// judges it, as in Gemini CLI).
//
// settings is a whole settings.json (its "hooks" object; "hooksConfig":
// {"enabled": false} gives no hook, "hooksConfig.disabled" names hooks not
// to run) or its "hooks" object alone. A malformed entry is an error
// naming it (hooks.BeforeTool[0].hooks[1].timeout). An event this library
// does not run (Notification, PreCompress), a handler whose type is not
// "command", and an unknown key ("matchr", "timeOut") are load-time
// diagnostics naming them, the last with the key it resembles (see
// Diagnostics), never an error: Gemini CLI loads such settings too.
//
// The events run at these points: SessionStart at BeforeRun (source
// "startup", or "resume"); BeforeAgent at a BeforeModelRequest whose last
// message is the user's; BeforeModel, then BeforeToolSelection, at every
// BeforeModelRequest; AfterModel at every AfterModelResponse (once per
// reply: the chain sees whole replies, not stream chunks); AfterAgent at
// the AfterModelResponse of a reply without tool calls; BeforeTool at
// BeforeToolExecute; AfterTool at AfterToolExecute; SessionEnd at
// AfterRun (reason "exit").
//
// A "command" runs with bash -c, as Gemini CLI runs it on Linux and macOS,
// after $GEMINI_PROJECT_DIR, $GEMINI_CWD, $GEMINI_SESSION_ID,
// $GEMINI_PLANS_DIR and $CLAUDE_PROJECT_DIR in its text are replaced by
// their quoted values; in Host.Workdir, with the run's environment plus
// those variables and the handler's "env"; for at most "timeout"
// milliseconds (default 60000), in a process group that is killed with
// what it started at the timeout, on cancellation and when the command
// exits. The handlers an event's matchers select (each command once) run
// in parallel, or one after another when any of their groups says
// "sequential": true; their outputs merge in settings order, as Gemini
// CLI's aggregator merges them, so the outcome never depends on which
// finished first.
//
// Per-run state (SessionStart's context, BeforeAgent's, an end asked for,
// AfterAgent's turn) is each hook's hooks.Context state, so Run.Snapshot
// carries it and Chain.Resume and Chain.Rehydrate restore it.
func Hooks(settings []byte, opts ...Option) ([]hooks.Hook, error) {
	s, events, err := loadSet(settings, opts...)
	if err != nil {
		return nil, err
	}
	var out []hooks.Hook
	for _, ev := range eventOrder {
		if hs := events[ev]; len(hs) > 0 {
			out = append(out, &hook{Base: dialect.Base{HookName: s.opts.Prefix + ev}, event: ev, point: eventPoints[ev], handlers: hs, set: s})
		}
	}
	return out, nil
}

// loadSet reads the options and the settings: the set the hooks share,
// and the handlers of each event.
func loadSet(settings []byte, opts ...Option) (*set, map[string][]*handler, error) {
	o, err := dialect.NewOptions(spec, opts)
	if err != nil {
		return nil, nil, err
	}
	events, err := parseSettings(settings, o.Diagnostics)
	if err != nil {
		return nil, nil, err
	}
	s := &set{opts: o, matchers: toolMatchers(events)}
	loadNames(s.matchers, o.Tools.Names(), func(format string, args ...any) {
		o.Diagnostics(hooks.Diagnostic{Err: fmt.Errorf("geminicli: Gemini CLI settings: "+format, args...)})
	})
	return s, events, nil
}

// The Gemini CLI events this library runs.
const (
	evSessionStart        = "SessionStart"
	evSessionEnd          = "SessionEnd"
	evBeforeAgent         = "BeforeAgent"
	evAfterAgent          = "AfterAgent"
	evBeforeModel         = "BeforeModel"
	evBeforeToolSelection = "BeforeToolSelection"
	evAfterModel          = "AfterModel"
	evBeforeTool          = "BeforeTool"
	evAfterTool           = "AfterTool"
)

// eventPoints maps the Gemini CLI events this library runs to their point.
var eventPoints = map[string]hooks.Point{
	evSessionStart:        hooks.BeforeRun,
	evBeforeAgent:         hooks.BeforeModelRequest,
	evAfterAgent:          hooks.AfterModelResponse,
	evBeforeModel:         hooks.BeforeModelRequest,
	evBeforeToolSelection: hooks.BeforeModelRequest,
	evAfterModel:          hooks.AfterModelResponse,
	evBeforeTool:          hooks.BeforeToolExecute,
	evAfterTool:           hooks.AfterToolExecute,
	evSessionEnd:          hooks.AfterRun,
}

// eventOrder is the order of the hooks Hooks returns.
var eventOrder = []string{evSessionStart, evBeforeAgent, evAfterAgent, evBeforeModel,
	evBeforeToolSelection, evAfterModel, evBeforeTool, evAfterTool, evSessionEnd}

// notRun are the events Gemini CLI defines that this library does not run,
// with the reason.
var notRun = map[string]string{
	"Notification": "it fires when Gemini CLI asks a person to approve a tool call, a step this library's run has no point for",
	"PreCompress":  "it fires before Gemini CLI compresses its history, which a run here never does itself",
}
