package main

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/rienda/hooks"
)

// A dialect of settings files registers here, from a file of its own
// (dialect_<name>.go), so that adding one touches no other file:
//
//	func init() {
//		register(&settingsDialect{
//			kind: "codex", name: "Codex settings", dirs: []string{".codex"},
//			events: codexEvents,
//			hooks: func(data []byte, names map[string]string, diag func(hooks.Diagnostic)) ([]hooks.Hook, error) {
//				return codex.Hooks(data, codex.ToolNames(names), codex.Diagnostics(diag))
//			},
//			checkNames: func(data []byte, tools []string, names map[string]string) ([]error, error) {
//				return codex.CheckToolNames(data, tools, codex.ToolNames(names))
//			},
//		})
//	}
//
// -kind takes its kind; lint, run and test load its files with hooks and
// lint their names with checkNames; detection (detectSettingsAt) tries
// each dialect's detect, then its dirs, then its events.

// settingsDialect is one dialect of settings files.
type settingsDialect struct {
	kind kind   // what -kind names it ("codex")
	name string // what messages call its files ("Codex settings")
	// dirs are the project folders its settings live in (".codex"): a
	// file below one is this dialect's, and its commands run in the
	// folder's parent.
	dirs []string
	// events are its event names: a file with an event that no other
	// dialect lists is this dialect's.
	events []string
	// detect, when not nil, says whether a settings file is this
	// dialect's, from its path, its top-level object and its events
	// object (the "hooks" value, or the file itself).
	detect func(path string, top, events map[string]json.RawMessage) bool
	// hooks loads a settings file; names are -toolnames, diag receives
	// the load-time diagnostics.
	hooks func(data []byte, names map[string]string, diag func(hooks.Diagnostic)) ([]hooks.Hook, error)
	// checkNames is the dialect's CheckToolNames, for lint -tools.
	checkNames func(data []byte, tools []string, names map[string]string) ([]error, error)
}

// settingsDialects are the registered dialects, by kind.
var settingsDialects = map[kind]*settingsDialect{}

// register adds a dialect; a kind registered twice is a programming error.
func register(d *settingsDialect) {
	if _, dup := settingsDialects[d.kind]; dup || d.kind == kindJS || d.kind == kindAgent || d.kind == kindCommand {
		panic("hookcheck: settings kind registered twice: " + string(d.kind))
	}
	settingsDialects[d.kind] = d
}

// sortedDialects are the registered dialects by kind, so that detection
// does not depend on the order files are compiled in.
func sortedDialects() []*settingsDialect {
	out := make([]*settingsDialect, 0, len(settingsDialects))
	for _, d := range settingsDialects {
		out = append(out, d)
	}
	slices.SortFunc(out, func(a, b *settingsDialect) int { return strings.Compare(string(a.kind), string(b.kind)) })
	return out
}
