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
	"os"
	"path/filepath"
	"time"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/dialect"
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

// Option configures Hooks and LoadFile.
type Option = dialect.Option

// spec names the dialect for the kit's options and messages.
var spec = &dialect.Spec{Name: "Cursor", Package: "cursor", Prefix: "cursor:"}

// toolKind is which of Cursor's tool families a host tool belongs to.
type toolKind int

const (
	kindMCP toolKind = iota
	kindShell
	kindRead
	kindEdit
)

// kindsKey and dirKey are the keys of this dialect's own settings.
type (
	kindsKey struct{ k toolKind }
	dirKey   struct{}
)

func kindOption(k toolKind, what string, names []string) Option {
	return func(o *dialect.Options) {
		for _, n := range names {
			if n == "" {
				o.Fail(fmt.Errorf("%s: empty tool name", what))
			}
		}
		prev, _ := o.Value(kindsKey{k})
		list, _ := prev.([]string)
		dialect.Setting(kindsKey{k}, append(append([]string(nil), list...), names...))(o)
	}
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
// tool_name (preToolUse, postToolUse, the MCP events), which matchers are
// tested against (with the host's name). A tool missing from the map
// keeps its own name.
func ToolNames(names map[string]string) Option { return dialect.ToolNames(names) }

// NamePrefix sets what the hooks' names start with (default "cursor:",
// giving "cursor:beforeShellExecution"), so that a user's and a
// project's hooks.json can share a chain.
func NamePrefix(prefix string) Option { return dialect.NamePrefix(prefix) }

// Diagnostics receives load-time diagnostics; nil, the default, logs them
// with slog. Run-time diagnostics go to the chain's WithDiagnostics.
func Diagnostics(fn func(hooks.Diagnostic)) Option { return dialect.Diagnostics(fn) }

// File names the hooks.json in messages (LoadFile sets it).
func File(name string) Option { return dialect.File(name) }

// Dir is the folder commands run in, which a relative command path
// ("./hooks/audit.sh") is relative to: the folder of a user's
// ~/.cursor/hooks.json. "", the default, is the run's Host.Workdir, the
// project root, where a project's .cursor/hooks.json commands run.
func Dir(dir string) Option { return dialect.Setting(dirKey{}, dir) }

// options are what Hooks was given.
type options struct {
	*dialect.Options
	kinds map[string]toolKind // host tool name -> its family; absent: MCP
	dir   string
}

// newOptions reads opts; a tool given two kinds is an error.
func newOptions(opts []Option) (options, error) {
	do, err := dialect.NewOptions(spec, opts)
	if err != nil {
		return options{}, err
	}
	o := options{Options: do, kinds: map[string]toolKind{}}
	for _, k := range []toolKind{kindShell, kindRead, kindEdit} {
		v, _ := do.Value(kindsKey{k})
		names, _ := v.([]string)
		for _, n := range names {
			if prev, ok := o.kinds[n]; ok && prev != k {
				return options{}, fmt.Errorf("cursor: tool %q is given two kinds (ShellTools, ReadTools, EditTools)", n)
			}
			o.kinds[n] = k
		}
	}
	if v, ok := do.Value(dirKey{}); ok {
		o.dir, _ = v.(string)
	}
	return o, nil
}

// Hooks returns one hook per event of a Cursor hooks.json that has an
// entry this library runs, in the order of the events table (see
// docs/cursor.md). Strict reading: malformed JSON, a version other than 1,
// an entry without a command, a key Cursor does not define (with the one
// it resembles), a bad timeout, loop_limit or matcher are errors naming the
// entry (hooks.stop[0].loop_limit). An event no point of this library
// fires is a load diagnostic.
func Hooks(settings []byte, opts ...Option) ([]hooks.Hook, error) {
	o, err := newOptions(opts)
	if err != nil {
		return nil, err
	}
	events, err := parse(dialect.NewSettings("cursor: Cursor hooks.json", o.File, settings, o.Diagnostics), settings)
	if err != nil {
		return nil, err
	}
	s := &set{opts: o}
	var out []hooks.Hook
	for _, ev := range eventOrder {
		if entries := events[ev.name]; len(entries) > 0 {
			out = append(out, &hook{name: o.Prefix + ev.name, ev: ev, entries: entries, set: s})
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
	return Hooks(data, append([]Option{Dir(filepath.Dir(path)), File(path)}, opts...)...)
}
