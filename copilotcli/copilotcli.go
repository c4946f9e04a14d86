// Package copilotcli runs the command hooks of GitHub Copilot CLI's hook
// files (.github/hooks/*.json, "version": 1), unchanged, as hooks of a
// github.com/rienda/hooks chain: the scripts written for Copilot CLI read
// the JSON they read there (camelCase events: toolName, toolArgs; or, for
// an event written in PascalCase, the VS Code compatible snake_case
// payload), and what they print and how they exit decide as Copilot CLI
// decides, under the chain's policies and guarantees.
//
//	hs, err := copilotcli.LoadDir(".github/hooks",
//		copilotcli.ToolNames(map[string]string{"shell": "bash"}))
//	chain, err := hooks.NewChain(hs)
//
// It is a table of events on the public dialect kit (package dialect) and
// the root package's public API. docs/copilotcli.md has every event and
// field, its sources, and where this package chooses differently for
// safety.
package copilotcli

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/dialect"
)

// Copilot CLI hook limits.
const (
	// DefaultTimeout is an entry's timeout when it sets no timeoutSec, as
	// Copilot CLI's reference gives it.
	DefaultTimeout = 30 * time.Second
	// DefaultStopContinuations bounds how many times in a row agentStop
	// handlers may send a run on ("decision": "block").
	DefaultStopContinuations = dialect.DefaultContinuations
	// MaxOutput is how much of a handler's stdout is read. A guard's
	// output past it refuses the call: its decision cannot be read, and
	// the model controls its size (a reason quoting the call).
	MaxOutput = dialect.DefaultMaxOutput
)

// Option configures Hooks and LoadDir.
type Option = dialect.Option

// ToolNames maps the host's tool names to Copilot CLI's ("shell" ->
// "bash", "write" -> "edit"), so that scripts see the names they test
// for: toolName on stdin is the Copilot name, and a matcher is tested
// against it (and the host's name). A tool missing from the map keeps
// its own name. An empty name on either side is an error of Hooks.
func ToolNames(names map[string]string) Option { return dialect.ToolNames(names) }

// NamePrefix sets what the hooks' names start with (default "copilot:",
// giving "copilot:preToolUse"), so that two hook files can share a chain.
func NamePrefix(prefix string) Option { return dialect.NamePrefix(prefix) }

// Diagnostics receives load-time diagnostics (an unknown event, an entry
// that cannot run here); nil, the default, logs them with slog. Run-time
// diagnostics go to the chain's WithDiagnostics.
func Diagnostics(fn func(hooks.Diagnostic)) Option { return dialect.Diagnostics(fn) }

// File names the hook file in messages (LoadDir sets it).
func File(name string) Option { return dialect.File(name) }

// StopContinuations bounds how many times in a row, counted over every
// hook of the run (Context.Continuations), agentStop handlers may send a
// run on with "decision": "block" (default DefaultStopContinuations).
// Past it the reply stands, with a diagnostic. n must be at least 1.
func StopContinuations(n int) Option {
	return func(o *dialect.Options) {
		if n < 1 {
			o.Fail(fmt.Errorf("StopContinuations: %d must be at least 1", n))
		}
		dialect.Continuations(n)(o)
	}
}

// argsAsString is the key of ToolArgsAsString's setting.
type argsAsString struct{}

// ToolArgsAsString sends camelCase events' toolArgs as a JSON string
// holding the arguments, as older Copilot CLI builds (and its
// hooks-configuration page) send them, instead of the object current
// builds send. Scripts that read it with jq -r '.toolArgs' | jq ... work
// with either.
func ToolArgsAsString() Option { return dialect.Setting(argsAsString{}, true) }

// Hooks returns the hooks of a Copilot CLI hook file: one per event that
// has an entry this library runs, in the order of the events table (see
// docs/copilotcli.md). Strict reading: malformed JSON, a version other than
// 1, an entry without a command, a key Copilot CLI does not define (with
// the one it resembles), a bad timeoutSec or matcher are errors naming the
// file, the line and the entry (hooks.preToolUse[0].timeoutSec). An event
// this library has no point for, or an entry that cannot run here, is a
// load diagnostic.
func Hooks(settings []byte, opts ...Option) ([]hooks.Hook, error) {
	o, err := dialect.NewOptions(baseSpec, opts)
	if err != nil {
		return nil, err
	}
	l, err := load(settings, o, goos)
	if err != nil {
		return nil, err
	}
	spec := newSpec(o)
	out := dialect.Build(spec, o, l.handlers)
	for _, ev := range []string{"errorOccurred", "ErrorOccurred"} {
		if hs := l.handlers[ev]; len(hs) > 0 {
			out = append(out, &errorHook{name: o.Prefix + ev, pascal: ev[0] == 'E', handlers: hs})
		}
	}
	for _, ev := range []string{"preToolUse", "PreToolUse", "permissionRequest", "PermissionRequest"} {
		if us := l.unrunnable[ev]; len(us) > 0 {
			out = append(out, &unrunnableHook{name: o.Prefix + ev + "(powershell)", entries: us, tools: o.Tools})
		}
	}
	return out, nil
}

// CheckToolNames is, for a linter, each matcher name of a hook file that
// names no tool of tools (by host or Copilot name), with a did-you-mean.
func CheckToolNames(settings []byte, tools []string, opts ...Option) ([]error, error) {
	o, err := dialect.NewOptions(baseSpec, append(opts, Diagnostics(func(hooks.Diagnostic) {})))
	if err != nil {
		return nil, err
	}
	l, err := load(settings, o, goos)
	if err != nil {
		return nil, err
	}
	subjects := o.Tools.Subjects(tools)
	return append(l.problems(subjects), l.patternProblems(subjects)...), nil
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
	o, err := dialect.NewOptions(baseSpec, opts)
	if err != nil {
		return nil, err
	}
	var out []hooks.Hook
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("copilotcli: %w", err)
		}
		more := append(append([]Option(nil), opts...), File(name), NamePrefix(o.Prefix+filepath.Base(name)+":"))
		hs, err := Hooks(data, more...)
		if err != nil {
			return nil, err
		}
		out = append(out, hs...)
	}
	return out, nil
}
