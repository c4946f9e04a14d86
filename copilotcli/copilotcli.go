// Package copilotcli runs the command hooks of GitHub Copilot CLI's hook
// files (.github/hooks/*.json, "version": 1), unchanged, as hooks of a
// github.com/rienda/hooks chain: the scripts written for Copilot CLI read
// the JSON they read there (camelCase events: toolName, toolArgs; or, for
// an event written in PascalCase, the VS Code compatible snake_case
// payload), and what they print and how they exit decide as Copilot CLI
// decides, under the chain's policies and guarantees.
//
//	hooks, err := copilotcli.LoadDir(".github/hooks",
//		copilotcli.ToolNames(map[string]string{"shell": "bash"}))
//	chain, err := hooks.NewChain(hooks)
//
// It is built on the root package's public API only (Context.State,
// Context.Diagnose, hooks.FailClosed, hooks.EvidentRefusal).
// docs/copilotcli.md has every event and field, its sources, and where
// this package chooses differently for safety.
package copilotcli

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/rienda/hooks"
)

// Copilot CLI hook limits.
const (
	// DefaultTimeout is an entry's timeout when it sets no timeoutSec, as
	// Copilot CLI's reference gives it.
	DefaultTimeout = 30 * time.Second
	// DefaultStopContinuations bounds how many times in a row agentStop
	// handlers may send a run on ("decision": "block").
	DefaultStopContinuations = 3
	// MaxOutput is how much of a handler's stdout is read. A guard's
	// output past it refuses the call: its decision cannot be read, and
	// the model controls its size (a reason quoting the call).
	MaxOutput = 256 << 10
)

// Option configures Hooks and LoadDir. Values are made by this package's
// constructors; callers only pass them on.
type Option interface{ apply(*options) }

type options struct {
	toCopilot     map[string]string // host tool name -> Copilot tool name
	prefix        string
	diagnostics   func(hooks.Diagnostic)
	continuations int
	argsAsString  bool
	goos          string
	bad           error
}

type optionFunc func(*options)

func (f optionFunc) apply(o *options) { f(o) }

// ToolNames maps the host's tool names to Copilot CLI's ("shell" ->
// "bash", "write" -> "edit"), so that scripts see the names they test
// for: toolName on stdin is the Copilot name, and a matcher is tested
// against it. A tool missing from the map keeps its own name. An empty
// name on either side is an error of Hooks.
func ToolNames(names map[string]string) Option {
	return optionFunc(func(o *options) {
		o.toCopilot = make(map[string]string, len(names))
		for host, name := range names {
			if host == "" || name == "" {
				o.bad = fmt.Errorf("copilotcli: ToolNames: empty tool name in %q -> %q", host, name)
			}
			o.toCopilot[host] = name
		}
	})
}

// NamePrefix sets what the hooks' names start with (default "copilot:",
// giving "copilot:preToolUse"), so that two hook files can share a chain.
func NamePrefix(prefix string) Option {
	return optionFunc(func(o *options) { o.prefix = prefix })
}

// Diagnostics receives load-time diagnostics (an unknown event, an entry
// that cannot run here); nil, the default, logs them with slog. Run-time
// diagnostics go to the chain's WithDiagnostics.
func Diagnostics(fn func(hooks.Diagnostic)) Option {
	return optionFunc(func(o *options) { o.diagnostics = fn })
}

// StopContinuations bounds how many times in a row, counted over every
// hook of the run (Context.Continuations), agentStop handlers may send a
// run on with "decision": "block" (default DefaultStopContinuations).
// Past it the reply stands, with a diagnostic. n must be at least 1.
func StopContinuations(n int) Option {
	return optionFunc(func(o *options) {
		if n < 1 {
			o.bad = fmt.Errorf("copilotcli: StopContinuations: %d must be at least 1", n)
		}
		o.continuations = n
	})
}

// ToolArgsAsString sends camelCase events' toolArgs as a JSON string
// holding the arguments, as older Copilot CLI builds (and its
// hooks-configuration page) send them, instead of the object current
// builds send. Scripts that read it with jq -r '.toolArgs' | jq ... work
// with either.
func ToolArgsAsString() Option {
	return optionFunc(func(o *options) { o.argsAsString = true })
}

// defaultOptions are the options before any is applied.
func defaultOptions() options {
	return options{prefix: "copilot:", continuations: DefaultStopContinuations, goos: goos}
}

// Hooks returns one hook per event of a Copilot CLI hook file that has an
// entry this library runs, in the order of the events table (see
// docs/copilotcli.md). Strict reading: malformed JSON, a version other than
// 1, an entry without a command, a key Copilot CLI does not define (with
// the one it resembles), a bad timeoutSec or matcher are errors naming the
// entry (hooks.preToolUse[0].timeoutSec). An event this library has no
// point for, or an entry that cannot run here, is a load diagnostic.
func Hooks(settings []byte, opts ...Option) ([]hooks.Hook, error) {
	o := defaultOptions()
	for _, opt := range opts {
		if opt != nil {
			opt.apply(&o)
		}
	}
	if o.bad != nil {
		return nil, o.bad
	}
	diag := func(format string, args ...any) {
		d := hooks.Diagnostic{Hook: strings.TrimSuffix(o.prefix, ":"), Err: fmt.Errorf("copilotcli: "+format, args...)}
		if o.diagnostics != nil {
			o.diagnostics(d)
			return
		}
		slog.Warn("hook diagnostic", "hook", d.Hook, "err", d.Err)
	}
	events, err := parse(settings, diag, o.goos)
	if err != nil {
		return nil, err
	}
	s := &set{opts: o}
	var out []hooks.Hook
	for _, ev := range eventOrder {
		entries := events[ev.name]
		if len(entries) == 0 {
			continue
		}
		out = append(out, &hook{name: o.prefix + ev.name, ev: ev, entries: entries, set: s})
	}
	return out, nil
}

// LoadDir reads every *.json file of dir (a repository's .github/hooks),
// in name order, as Copilot CLI loads them, and returns their hooks, each
// file's named "<prefix><file>:<event>" ("copilot:security.json:preToolUse").
// An error names the file.
func LoadDir(dir string, opts ...Option) ([]hooks.Hook, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, fmt.Errorf("copilotcli: %s: %w", dir, err)
	}
	sort.Strings(names)
	o := defaultOptions()
	for _, opt := range opts {
		if opt != nil {
			opt.apply(&o)
		}
	}
	var out []hooks.Hook
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("copilotcli: %w", err)
		}
		file := filepath.Base(name)
		hs, err := Hooks(data, append(append([]Option(nil), opts...), NamePrefix(o.prefix+file+":"))...)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out = append(out, hs...)
	}
	return out, nil
}
