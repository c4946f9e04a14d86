// Package codex runs the command hooks of an OpenAI Codex CLI hooks file
// (.codex/hooks.json, or the [hooks] tables of config.toml), unchanged, as
// hooks of a github.com/rienda/hooks chain: the scripts people wrote for
// Codex read the same JSON on stdin (Claude Code's shapes plus turn_id and
// model), and their exit codes and JSON output decide as Codex's runner
// decides, except where this package chooses the safer reading (see
// docs/codex.md, "Where this differs from Codex, and why").
//
//	user, err := codex.Load("/home/me/.codex/config.toml", codex.NamePrefix("user:"))
//	project, err := codex.Hooks(projectHooksJSON, codex.NamePrefix("project:"),
//		codex.ToolNames(map[string]string{"shell": "Bash"}))
//	chain, err := hooks.NewChain(append(user, project...))
//
// It is built on the root package's public API (Context.State for per-run
// state, Context.Diagnose, hooks.FailClosed, hooks.EvidentRefusal), as a
// dialect written outside this repository can be.
package codex

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/dialect"
)

// Codex hook limits.
const (
	// DefaultTimeout is a handler's timeout when it sets none, as Codex's
	// runner gives it (timeout_sec.unwrap_or(600)).
	DefaultTimeout = 600 * time.Second
	// MaxTimeout is the largest timeout a handler may set: a larger one
	// (up to 2**64-1 seconds in Codex's u64) is an error naming the entry,
	// not a guard that never ends.
	MaxTimeout = 24 * time.Hour
	// DefaultStopContinuations is how many times in a row Stop handlers
	// may send a run on before their request is refused (Codex has no
	// bound; a Stop script that ignores stop_hook_active would loop).
	DefaultStopContinuations = dialect.DefaultContinuations
)

// spec is Codex's table, for the kit's options and name checks: the
// events this package runs and the moment each fires at. The hooks
// themselves are built here, not by dialect.Build: Codex starts every
// matching handler at once and decides on all their outputs together,
// which the kit's one-after-another table does not model.
var spec = &dialect.Spec{Name: "Codex", Package: "codex", Prefix: "codex:", Events: []dialect.Event{
	{Name: "SessionStart", When: dialect.RunStart},
	{Name: "UserPromptSubmit", When: dialect.UserPrompt},
	{Name: "PreToolUse", When: dialect.ToolCall},
	{Name: "PostToolUse", When: dialect.AnyToolResult},
	{Name: "Stop", When: dialect.FinalReply},
	{Name: "SessionEnd", When: dialect.RunEnd},
}}

// Option configures Hooks, HooksTOML and Load: the kit's options
// (dialect.Option) under this package's names, and its own.
type Option = dialect.Option

// ToolNames maps the host's tool names to Codex's ("shell" -> "Bash",
// "edit_file" -> "apply_patch"), so that scripts written for Codex see the
// names they test for: tool_name on stdin is the Codex name. A matcher
// matches a call when it matches either name (and, for apply_patch, the
// aliases Edit and Write that Codex matches too). An empty name on either
// side is an error of Hooks.
func ToolNames(names map[string]string) Option { return dialect.ToolNames(names) }

// NamePrefix sets what the hooks' names start with (default "codex:",
// giving "codex:PreToolUse"), so that the hooks of a user's and a
// project's files can share one chain.
func NamePrefix(prefix string) Option { return dialect.NamePrefix(prefix) }

// File names the settings file: errors and diagnostics name it, and it is
// the source part of Codex's hook keys ("<file>:pre_tool_use:0:0") that
// Trusted and config.toml's [hooks.state] use. Load sets it to the
// file's absolute path, as Codex does.
func File(name string) Option { return dialect.File(name) }

// Diagnostics receives load-time diagnostics (an event this package does
// not run, a handler type it skips, a matcher Codex ignores, an untrusted
// hook skipped); the default writes them with log/slog.
func Diagnostics(fn func(hooks.Diagnostic)) Option { return dialect.Diagnostics(fn) }

// StopContinuations bounds how many times in a row a run may have been
// sent on (by any hook: Context.Continuations) for Stop handlers to send
// it on again (default DefaultStopContinuations; Codex has no bound). n <=
// 0 means none.
func StopContinuations(n int) Option { return dialect.Continuations(n) }

type shellKey struct{}
type trustedKey struct{}

// Shell sets the program a command runs under, with its arguments before
// the command (default: $SHELL -lc, as Codex runs it, with /bin/sh when
// SHELL is unset or empty). An empty argv is an error of Hooks.
func Shell(argv ...string) Option {
	return func(o *dialect.Options) {
		if len(argv) == 0 || argv[0] == "" {
			o.Fail(fmt.Errorf("Shell: no program"))
			return
		}
		dialect.Setting(shellKey{}, append([]string(nil), argv...))(o)
	}
}

// Trusted turns on Codex's hook trust: a handler runs only when its
// current hash (Entry.Hash) equals the hash trusted for its key
// (Entry.Key), as Codex runs an unmanaged hook only once its exact
// definition was reviewed. A handler that is new or was changed since it
// was trusted is skipped with a load diagnostic. The map is Codex's
// [hooks.state."<key>"].trusted_hash (see State); without this option
// every handler of the file runs (the program chose the file).
func Trusted(hashes map[string]string) Option {
	m := make(map[string]string, len(hashes))
	for k, v := range hashes {
		m[k] = v
	}
	return dialect.Setting(trustedKey{}, m)
}

// options are what Hooks was given.
type options struct {
	*dialect.Options
	shell   []string          // nil: $SHELL -lc
	trusted map[string]string // nil: no trust check
}

func buildOptions(opts []Option) (options, error) {
	do, err := dialect.NewOptions(spec, opts)
	if err != nil {
		return options{}, err
	}
	o := options{Options: do}
	if v, ok := do.Value(shellKey{}); ok {
		o.shell = v.([]string)
	}
	if v, ok := do.Value(trustedKey{}); ok {
		o.trusted = v.(map[string]string)
	}
	return o, nil
}

// Hooks returns hooks that run the command hooks of a Codex hooks.json,
// unchanged, in a hooks chain: one Hook per event that has a handler,
// named "<prefix><event>" ("codex:PreToolUse"). The file is read
// strictly: an unknown key, event or handler type, a wrong type, an
// empty command or a matcher that does not compile is an error naming
// the file, the line and the entry, with a did-you-mean
// (codex: hooks.json:7: hooks.PreToolUse[0].matchers: unknown key
// "matchers"; did you mean "matcher"?). Events with no point here are
// load diagnostics, never run (docs/codex.md).
func Hooks(settings []byte, opts ...Option) ([]hooks.Hook, error) {
	o, err := buildOptions(opts)
	if err != nil {
		return nil, err
	}
	if o.File == "" {
		o.File = "hooks.json"
	}
	f, err := parseJSON(settings, o.File)
	if err != nil {
		return nil, err
	}
	return build(f, o)
}

// HooksTOML is Hooks for a Codex config.toml: the [hooks] tables
// ([[hooks.PreToolUse]], [[hooks.PreToolUse.hooks]]) in the same shape
// as hooks.json; the rest of config.toml is not read, except that a
// top-level key within a typo of "hooks" is an error (it would leave
// every hook out). [hooks.state] is Codex's per-hook enablement and
// trust: a hook it disables ("enabled = false") does not run.
func HooksTOML(config []byte, opts ...Option) ([]hooks.Hook, error) {
	o, err := buildOptions(opts)
	if err != nil {
		return nil, err
	}
	if o.File == "" {
		o.File = "config.toml"
	}
	f, err := parseTOML(config, o.File)
	if err != nil {
		return nil, err
	}
	return build(f, o)
}

// Load reads a hooks.json or a config.toml (by its extension) and returns
// its hooks, the file named by its absolute path (File), as Codex keys
// its hooks.
func Load(path string, opts ...Option) ([]hooks.Hook, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("codex: %w", err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	opts = append([]Option{File(abs)}, opts...)
	if strings.EqualFold(filepath.Ext(path), ".toml") {
		return HooksTOML(data, opts...)
	}
	return Hooks(data, opts...)
}

// CheckToolNames returns the problems of a settings file (hooks.json, or a
// config.toml when it does not start with '{') against the tools a run
// has (host names): each ToolNames key that is none of them, each
// PreToolUse and PostToolUse matcher that takes none of them, and each
// name of a '|' list that names none, with a did-you-mean; the same
// problems a run diagnoses at its first model request. For a linter
// (hookcheck lint -tools).
func CheckToolNames(settings []byte, tools []string, opts ...Option) ([]error, error) {
	o, err := buildOptions(opts)
	if err != nil {
		return nil, err
	}
	f, err := parseAny(settings, o.File)
	if err != nil {
		return nil, err
	}
	s := &set{opts: o}
	out := o.Tools.KeyProblems("codex: ToolNames", tools, true)
	for _, ev := range []string{"PreToolUse", "PostToolUse"} {
		out = append(out, toolProblems(s, f.events[ev], tools)...)
	}
	return out, nil
}

// parseAny reads a hooks.json, or a config.toml when the text does not
// start with '{'.
func parseAny(data []byte, name string) (*file, error) {
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '{' {
		if name == "" {
			name = "hooks.json"
		}
		return parseJSON(data, name)
	}
	if name == "" {
		name = "config.toml"
	}
	return parseTOML(data, name)
}
