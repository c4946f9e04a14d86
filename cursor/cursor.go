// Package cursor runs the command hooks of a Cursor hooks.json
// (.cursor/hooks.json, ~/.cursor/hooks.json, "version": 1), unchanged, as
// hooks of a github.com/rienda/hooks chain: the scripts written for
// Cursor read the JSON they read there (command, tool_name, tool_input,
// file_path, prompt, status, loop_count, ...), and their exit codes and
// output (permission, user_message, agent_message, continue,
// followup_message) decide as Cursor decides, under the chain's policies
// and guarantees.
//
//	hs, err := cursor.Hooks(settings,
//		cursor.ShellTools("shell"), cursor.ReadTools("read_file"), cursor.EditTools("write_file"))
//	chain, err := hooks.NewChain(hs)
//
// A host's tools are Cursor's shell commands (ShellTools), file reads
// (ReadTools), file edits (EditTools), or, any other, MCP tools. It is
// built on the root package's public API only. docs/cursor.md has every
// event and field, its sources, and where this package chooses
// differently for safety.
package cursor

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rienda/hooks"
)

// Cursor hook limits.
const (
	// DefaultTimeout is an entry's timeout when it sets none (Cursor's
	// documentation gives none; this package's choice).
	DefaultTimeout = 30 * time.Second
	// DefaultLoopLimit is how many follow-ups in a row a stop entry may
	// send when it sets no loop_limit, as Cursor enforces.
	DefaultLoopLimit = 5
	// MaxOutput is how much of a handler's stdout is read. A guard's
	// output past it refuses: its decision cannot be read, and the model
	// controls its size.
	MaxOutput = 256 << 10
	// MaxReadContent is the largest file beforeReadFile hooks are shown
	// whole; a read of a larger one is refused when such a hook would
	// judge it (it could not see all of what the model would read).
	MaxReadContent = 4 << 20
)

// Option configures Hooks. Values are made by this package's constructors.
type Option interface{ apply(*options) }

type options struct {
	kinds       map[string]toolKind // host tool name -> what Cursor calls it
	toCursor    map[string]string   // host tool name -> Cursor tool name
	prefix      string
	diagnostics func(hooks.Diagnostic)
	dir         string
	bad         error
}

// toolKind is which of Cursor's tool families a host tool belongs to.
type toolKind int

const (
	kindMCP toolKind = iota
	kindShell
	kindRead
	kindEdit
)

type optionFunc func(*options)

func (f optionFunc) apply(o *options) { f(o) }

func kindOption(k toolKind, what string, names []string) Option {
	return optionFunc(func(o *options) {
		for _, n := range names {
			if n == "" {
				o.bad = fmt.Errorf("cursor: %s: empty tool name", what)
			}
			if prev, ok := o.kinds[n]; ok && prev != k {
				o.bad = fmt.Errorf("cursor: %s: tool %q is already of another kind", what, n)
			}
			o.kinds[n] = k
		}
	})
}

// ShellTools names the host tools that run a shell command (its
// "command" argument, a string): beforeShellExecution and
// afterShellExecution fire for them.
func ShellTools(names ...string) Option { return kindOption(kindShell, "ShellTools", names) }

// ReadTools names the host tools that read a file (its "file_path" or
// "path" argument): beforeReadFile fires for them.
func ReadTools(names ...string) Option { return kindOption(kindRead, "ReadTools", names) }

// EditTools names the host tools that write a file (its "file_path" or
// "path" argument; "old_string"/"new_string", "content" or "edits"):
// afterFileEdit fires for them.
func EditTools(names ...string) Option { return kindOption(kindEdit, "EditTools", names) }

// ToolNames maps host tool names to the names Cursor's scripts see in
// tool_name (preToolUse, postToolUse, the MCP events), and matchers are
// tested against. A tool missing from the map keeps its own name.
func ToolNames(names map[string]string) Option {
	return optionFunc(func(o *options) {
		o.toCursor = make(map[string]string, len(names))
		for host, name := range names {
			if host == "" || name == "" {
				o.bad = fmt.Errorf("cursor: ToolNames: empty tool name in %q -> %q", host, name)
			}
			o.toCursor[host] = name
		}
	})
}

// NamePrefix sets what the hooks' names start with (default "cursor:",
// giving "cursor:beforeShellExecution"), so that a user's and a
// project's hooks.json can share a chain.
func NamePrefix(prefix string) Option {
	return optionFunc(func(o *options) { o.prefix = prefix })
}

// Diagnostics receives load-time diagnostics; nil, the default, logs them
// with slog. Run-time diagnostics go to the chain's WithDiagnostics.
func Diagnostics(fn func(hooks.Diagnostic)) Option {
	return optionFunc(func(o *options) { o.diagnostics = fn })
}

// Dir is the folder commands run in, which a relative command path
// ("./hooks/audit.sh") is relative to: the folder of a user's
// ~/.cursor/hooks.json. "", the default, is the run's Host.Workdir, the
// project root, where a project's .cursor/hooks.json commands run.
func Dir(dir string) Option {
	return optionFunc(func(o *options) { o.dir = dir })
}

// Hooks returns one hook per event of a Cursor hooks.json that has an
// entry this library runs, in the order of the events table (see
// docs/cursor.md). Strict reading: malformed JSON, a version other than 1,
// an entry without a command, a key Cursor does not define (with the one
// it resembles), a bad timeout, loop_limit or matcher are errors naming the
// entry (hooks.stop[0].loop_limit). An event no point of this library
// fires is a load diagnostic.
func Hooks(settings []byte, opts ...Option) ([]hooks.Hook, error) {
	o := options{prefix: "cursor:", kinds: map[string]toolKind{}}
	for _, opt := range opts {
		if opt != nil {
			opt.apply(&o)
		}
	}
	if o.bad != nil {
		return nil, o.bad
	}
	diag := func(format string, args ...any) {
		d := hooks.Diagnostic{Hook: strings.TrimSuffix(o.prefix, ":"), Err: fmt.Errorf("cursor: "+format, args...)}
		if o.diagnostics != nil {
			o.diagnostics(d)
			return
		}
		slog.Warn("hook diagnostic", "hook", d.Hook, "err", d.Err)
	}
	events, err := parse(settings, diag)
	if err != nil {
		return nil, err
	}
	s := &set{opts: o}
	var out []hooks.Hook
	for _, ev := range eventOrder {
		if entries := events[ev.name]; len(entries) > 0 {
			out = append(out, &hook{name: o.prefix + ev.name, ev: ev, entries: entries, set: s})
		}
	}
	return out, nil
}

// LoadFile reads a hooks.json and returns its hooks, with Dir set to the
// file's folder unless an option sets it (a user's ~/.cursor/hooks.json;
// for a project's .cursor/hooks.json pass Dir with the project root, or
// use Hooks). An error names the file.
func LoadFile(path string, opts ...Option) ([]hooks.Hook, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cursor: %w", err)
	}
	hs, err := Hooks(data, append([]Option{Dir(filepath.Dir(path))}, opts...)...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return hs, nil
}
