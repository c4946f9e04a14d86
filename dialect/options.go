package dialect

import (
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"github.com/rienda/hooks"
)

// Option configures a dialect's Hooks. A dialect re-exports the kit's
// constructors (ToolNames, NamePrefix, Diagnostics, Continuations) under
// its own names and adds its own with Setting:
//
//	type Option = dialect.Option
//	func ToolNames(names map[string]string) Option { return dialect.ToolNames(names) }
//	func Retries(n int) Option { return dialect.Setting(retriesKey{}, n) }
type Option func(*Options)

// Options are what a dialect's Hooks was given, read by NewOptions.
type Options struct {
	// Prefix starts the name of every hook (default Spec.Prefix).
	Prefix string
	// Tools maps the host's tool names to the dialect's.
	Tools ToolMap
	// Diagnostics receives the load-time diagnostics; never nil after
	// NewOptions (the default writes them with log/slog).
	Diagnostics func(hooks.Diagnostic)
	// Continuations bounds how many times in a row the run may have been
	// sent on for a FinalReply event to send it on again (default
	// DefaultContinuations).
	Continuations int
	// File names the settings file in messages ("" : none).
	File string

	toolNames map[string]string
	values    map[any]any
	bad       []error
}

// DefaultContinuations is Options.Continuations when no option sets it.
const DefaultContinuations = 3

// NewOptions applies opts over the defaults of spec. An option given a
// value it cannot take is an error naming the dialect and the option.
func NewOptions(spec *Spec, opts []Option) (*Options, error) {
	o := &Options{Prefix: spec.Prefix, Continuations: DefaultContinuations}
	for _, opt := range opts {
		if opt != nil {
			opt(o)
		}
	}
	if o.toolNames != nil {
		tm, err := NewToolMap(o.toolNames, spec.short(), spec.UniqueToolNames)
		if err != nil {
			o.bad = append(o.bad, err)
		}
		o.Tools = tm
	}
	if len(o.bad) > 0 {
		return nil, fmt.Errorf("%s: %w", spec.pkg(), o.bad[0])
	}
	if o.Diagnostics == nil {
		o.Diagnostics = func(d hooks.Diagnostic) { slog.Warn("hook diagnostic", "hook", d.Hook, "err", d.Err) }
	}
	return o, nil
}

// Value returns what Setting(key, v) set, and whether one did.
func (o *Options) Value(key any) (any, bool) {
	v, ok := o.values[key]
	return v, ok
}

// Fail makes NewOptions (or the dialect's Hooks) fail with err: for a
// dialect's own option given a value it cannot take.
func (o *Options) Fail(err error) { o.bad = append(o.bad, err) }

// ToolNames maps the host's tool names to the dialect's ("shell" ->
// "Bash"), so that scripts written for the dialect see the names they test
// for. A tool missing from the map keeps its own name. An empty name on
// either side is an error of Hooks (and, when the dialect's Spec says
// UniqueToolNames, two host tools given one name).
func ToolNames(names map[string]string) Option {
	return func(o *Options) { o.toolNames = names }
}

// NamePrefix sets what the hooks' names start with, so that the hooks of
// two settings files (user and project) can share one chain: a chain
// refuses two hooks of one name.
func NamePrefix(prefix string) Option {
	return func(o *Options) { o.Prefix = prefix }
}

// Diagnostics sends the load-time diagnostics (an event or a handler this
// library does not run, an unknown key with the key it resembles) to fn
// instead of slog. What goes wrong while a run runs goes to the chain's
// diagnostics (hooks.WithDiagnostics), like any hook's.
func Diagnostics(fn func(hooks.Diagnostic)) Option {
	return func(o *Options) { o.Diagnostics = fn }
}

// Continuations bounds how many times in a row a run may have been sent
// on (by any hook: hooks.Context.Continuations) for this settings set's
// FinalReply events to send it on again: a script that never lets the
// model stop would otherwise keep a run going forever. Past the bound the
// reply stands as final and a diagnostic says so. n <= 0: never.
func Continuations(n int) Option {
	return func(o *Options) { o.Continuations = max(n, 0) }
}

// File names the settings file, for messages ("project/.codex/hooks.json:
// line 4: hooks.PreToolUse[0]: ...").
func File(name string) Option {
	return func(o *Options) { o.File = name }
}

// Setting keeps a dialect's own option value under key (a value of an
// unexported type of the dialect), read back with Options.Value.
func Setting(key, value any) Option {
	return func(o *Options) {
		if o.values == nil {
			o.values = map[any]any{}
		}
		o.values[key] = value
	}
}

// ToolMap maps the host's tool names to a dialect's and back. The zero
// value maps every name to itself.
type ToolMap struct {
	toDialect map[string]string
	toHost    map[string]string
}

// NewToolMap checks names (host -> dialect): an empty name on either side
// is an error, and so, when unique, is one dialect name given to two host
// tools. dialectName ("Gemini CLI") is for the message.
func NewToolMap(names map[string]string, dialectName string, unique bool) (ToolMap, error) {
	m := ToolMap{toDialect: make(map[string]string, len(names)), toHost: make(map[string]string, len(names))}
	for _, host := range sortedKeys(names) {
		name := names[host]
		if host == "" || name == "" {
			return m, fmt.Errorf("ToolNames: empty tool name in %q -> %q", host, name)
		}
		if other, dup := m.toHost[name]; dup && unique {
			return m, fmt.Errorf("ToolNames: %q and %q are both given the %s name %q", other, host, dialectName, name)
		}
		m.toDialect[host] = name
		m.toHost[name] = host
	}
	return m, nil
}

// Dialect is the dialect's name of a host tool: as mapped, or, when only
// keys equal to it once case is set aside map it and they agree, what
// they map it to; else its own name.
func (m ToolMap) Dialect(host string) string {
	if name, ok := m.toDialect[host]; ok {
		return name
	}
	if name, _, ok := m.Folded(host); ok {
		return name
	}
	return host
}

// Exact is the dialect's name of a host tool as mapped, case included,
// else its own name.
func (m ToolMap) Exact(host string) string {
	if name, ok := m.toDialect[host]; ok {
		return name
	}
	return host
}

// Host is the host's name of a dialect's tool name (as mapped), else the
// name itself.
func (m ToolMap) Host(name string) string {
	if host, ok := m.toHost[name]; ok {
		return host
	}
	return name
}

// Mapped reports whether host is a key of the map as written.
func (m ToolMap) Mapped(host string) bool {
	_, ok := m.toDialect[host]
	return ok
}

// Folded is the dialect name the keys equal to host once case is set
// aside give it, and one such key; ok only when there is one and they
// agree, and host is not mapped as written.
func (m ToolMap) Folded(host string) (name, key string, ok bool) {
	if _, exact := m.toDialect[host]; exact {
		return "", "", false
	}
	for _, k := range sortedKeys(m.toDialect) {
		v := m.toDialect[k]
		if !strings.EqualFold(k, host) {
			continue
		}
		if ok && v != name {
			return "", "", false
		}
		name, key, ok = v, k, true
	}
	return name, key, ok
}

// Keys are the host names mapped, sorted.
func (m ToolMap) Keys() []string { return sortedKeys(m.toDialect) }

// Names are both sides of every mapping (for a did-you-mean), sorted.
func (m ToolMap) Names() []string {
	var out []string
	for h, d := range m.toDialect {
		out = append(out, h, d)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Subjects are the names a matcher may take for the host's tools: each
// host name, and its dialect name when it differs.
func (m ToolMap) Subjects(host []string) []string {
	var out []string
	for _, h := range host {
		out = append(out, h)
		if d := m.Dialect(h); d != h {
			out = append(out, d)
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
