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
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rienda/hooks"
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
	DefaultStopContinuations = 3
)

// Option configures Hooks, HooksTOML and Load. Values are made by this
// package's constructors; callers only pass them on.
type Option interface{ apply(*options) }

type options struct {
	toCodex       map[string]string // host tool name -> Codex tool name
	prefix        string
	file          string // the settings file's name, in errors and in Codex's hook keys
	diagnostics   func(hooks.Diagnostic)
	continuations int
	shell         []string          // nil: $SHELL -lc, as Codex
	trusted       map[string]string // Codex hook key -> trusted hash; nil: no trust check
	bad           error
}

type optionFunc func(*options)

func (f optionFunc) apply(o *options) { f(o) }

// ToolNames maps the host's tool names to Codex's ("shell" -> "Bash",
// "edit_file" -> "apply_patch"), so that scripts written for Codex see the
// names they test for: tool_name on stdin is the Codex name. A matcher
// matches a call when it matches either name (and, for apply_patch, the
// aliases Edit and Write that Codex matches too). An empty name on either
// side is an error of Hooks.
func ToolNames(names map[string]string) Option {
	return optionFunc(func(o *options) {
		o.toCodex = make(map[string]string, len(names))
		for host, cx := range names {
			if host == "" || cx == "" {
				o.bad = fmt.Errorf("codex: ToolNames: empty tool name in %q -> %q", host, cx)
			}
			o.toCodex[host] = cx
		}
	})
}

// NamePrefix sets what the hooks' names start with (default "codex:",
// giving "codex:PreToolUse"), so that the hooks of a user's and a
// project's files can share one chain.
func NamePrefix(prefix string) Option {
	return optionFunc(func(o *options) { o.prefix = prefix })
}

// File names the settings file: errors and diagnostics name it, and it is
// the source part of Codex's hook keys ("<file>:pre_tool_use:0:0") that
// Trusted and config.toml's [hooks.state] use. Load sets it to the
// file's absolute path, as Codex does.
func File(name string) Option {
	return optionFunc(func(o *options) { o.file = name })
}

// Diagnostics receives load-time diagnostics (an event this package does
// not run, a handler type it skips, a matcher Codex ignores, an untrusted
// hook skipped); the default writes them with log/slog.
func Diagnostics(fn func(hooks.Diagnostic)) Option {
	return optionFunc(func(o *options) { o.diagnostics = fn })
}

// StopContinuations bounds how many times in a row a run may have been
// sent on (by any hook: Context.Continuations) for Stop handlers to send
// it on again (default DefaultStopContinuations). n <= 0 means none.
func StopContinuations(n int) Option {
	return optionFunc(func(o *options) { o.continuations = max(n, 0) })
}

// Shell sets the program a command runs under, with its arguments before
// the command (default: $SHELL -lc, as Codex runs it, with /bin/sh when
// SHELL is unset or empty). An empty argv is an error of Hooks.
func Shell(argv ...string) Option {
	return optionFunc(func(o *options) {
		if len(argv) == 0 || argv[0] == "" {
			o.bad = fmt.Errorf("codex: Shell: no program")
		}
		o.shell = append([]string(nil), argv...)
	})
}

// Trusted turns on Codex's hook trust: a handler runs only when its
// current hash (Entry.Hash) equals the hash trusted for its key
// (Entry.Key), as Codex runs an unmanaged hook only once its exact
// definition was reviewed. A handler that is new or was changed since it
// was trusted is skipped with a load diagnostic. The map is Codex's
// [hooks.state."<key>"].trusted_hash (see State); without this option
// every handler of the file runs (the program chose the file).
func Trusted(hashes map[string]string) Option {
	return optionFunc(func(o *options) {
		o.trusted = make(map[string]string, len(hashes))
		for k, v := range hashes {
			o.trusted[k] = v
		}
	})
}

func buildOptions(opts []Option) (options, error) {
	o := options{prefix: "codex:", continuations: DefaultStopContinuations}
	for _, opt := range opts {
		if opt != nil {
			opt.apply(&o)
		}
	}
	if o.bad != nil {
		return o, o.bad
	}
	if o.diagnostics == nil {
		o.diagnostics = func(d hooks.Diagnostic) { slog.Warn("hook diagnostic", "hook", d.Hook, "err", d.Err) }
	}
	return o, nil
}

// Hooks returns hooks that run the command hooks of a Codex hooks.json,
// unchanged, in a hooks chain: one Hook per event that has a handler,
// named "<prefix><event>" ("codex:PreToolUse"). The file is read
// strictly: an unknown key, event or handler type, a wrong type, an
// empty command or a matcher that does not compile is an error naming
// the file, the line and the entry, with a did-you-mean
// ("hooks.json:7: hooks.PreToolUse[0]: unknown key "matchers"; did you
// mean "matcher"?"). Events with no point here are load diagnostics,
// never run (docs/codex.md).
func Hooks(settings []byte, opts ...Option) ([]hooks.Hook, error) {
	o, err := buildOptions(opts)
	if err != nil {
		return nil, err
	}
	if o.file == "" {
		o.file = "hooks.json"
	}
	f, err := parseJSON(settings, o.file)
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
	if o.file == "" {
		o.file = "config.toml"
	}
	f, err := parseTOML(config, o.file)
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
