package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rienda/hooks"
)

// kind is what a user wrote: a JS hook, an agent file, command-hook
// settings, or the settings of a dialect (dialects.go).
type kind string

const (
	kindJS      kind = "js"      // a JS hook folder (NAME in -dir, or a folder holding index.js)
	kindAgent   kind = "agent"   // an agent file: the hooks it declares, in order
	kindCommand kind = "command" // command-hook settings: {"hooks": [ … ]}
)

// allKinds are the kinds -kind takes: the three built in, then each
// registered dialect's, sorted.
func allKinds() []kind {
	out := []kind{kindJS, kindAgent, kindCommand}
	for _, d := range sortedDialects() {
		out = append(out, d.kind)
	}
	return out
}

// parseKind reads -kind; "" is "detect it from the file".
func parseKind(s string) (kind, error) {
	kinds := allKinds()
	for _, k := range kinds {
		if string(k) == s {
			return k, nil
		}
	}
	if s == "" {
		return "", nil
	}
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = string(k)
	}
	return "", fmt.Errorf("-kind %q: want one of %s", s, strings.Join(names, ", "))
}

// detect says what target is: a .md file is an agent file; a .json file
// is settings, of the dialect its "hooks" say (detectSettings); a folder
// holding index.js is a JS hook; anything else is the name of a JS hook in
// the hooks directory.
func detect(target string) (kind, error) {
	info, err := os.Stat(target)
	switch {
	case err == nil && info.IsDir():
		return kindJS, nil
	case err == nil && strings.HasSuffix(target, ".md"):
		return kindAgent, nil
	case err == nil:
		data, err := os.ReadFile(target)
		if err != nil {
			return "", err
		}
		k, err := detectSettingsAt(target, data)
		if err != nil {
			return "", fmt.Errorf("%s: %w", target, err)
		}
		return k, nil
	case strings.ContainsAny(target, `/\`) || strings.HasSuffix(target, ".json") || strings.HasSuffix(target, ".md"):
		return "", err // a path that is not there
	}
	return kindJS, nil
}

// detectSettings tells the settings kinds apart by their content alone
// (see detectSettingsAt).
func detectSettings(data []byte) (kind, error) { return detectSettingsAt("", data) }

// detectSettingsAt tells the settings kinds apart: command settings hold
// a "hooks" list; a dialect's settings are told by the dialect's own
// detect, then by an event only that dialect has, then by the folder
// they are in (.codex/hooks.json). Nothing to tell them by (no hooks, or only
// shared events) reads as Claude Code's.
func detectSettingsAt(path string, data []byte) (kind, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return "", fmt.Errorf("not a settings file (a JSON object): %v", err)
	}
	events := top
	if raw, ok := top["hooks"]; ok {
		raw = bytes.TrimSpace(raw)
		if len(raw) > 0 && raw[0] == '[' {
			return kindCommand, nil
		}
		events = nil
		_ = json.Unmarshal(raw, &events) // not an object: the dialect's own reader says so
	}
	ds := sortedDialects()
	for _, d := range ds {
		if d.detect != nil && d.detect(path, top, events) {
			return d.kind, nil
		}
	}
	for _, d := range ds {
		for name := range events {
			if slices.Contains(d.events, name) && !slices.ContainsFunc(ds, func(o *settingsDialect) bool {
				return o != d && slices.Contains(o.events, name)
			}) {
				return d.kind, nil
			}
		}
	}
	if path != "" {
		if abs, err := filepath.Abs(path); err == nil {
			for dir := filepath.Dir(abs); dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
				for _, d := range ds {
					if slices.Contains(d.dirs, filepath.Base(dir)) {
						return d.kind, nil
					}
				}
			}
		}
	}
	return kindClaude, nil
}

// settingsHooks reads the settings file at path as kind k.
func settingsHooks(path string, k kind, names map[string]string, diag func(hooks.Diagnostic)) ([]hooks.Hook, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	load := hooks.CommandHooks
	if k != kindCommand {
		d, ok := settingsDialects[k]
		if !ok {
			return nil, fmt.Errorf("%s: %q is not a settings kind", path, k)
		}
		load = func(data []byte) ([]hooks.Hook, error) { return d.hooks(data, names, diag) }
	}
	hs, err := load(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return hs, nil
}

// defaultWorkdir is where a settings file's commands run unless a fixture
// or -workdir says otherwise: the project folder, the parent of a .claude
// (or .gemini) folder holding the file, else the file's own folder, which
// is where command settings' relative paths point.
func defaultWorkdir(path string) string {
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		dir = filepath.Dir(path)
	}
	for _, d := range settingsDialects {
		if slices.Contains(d.dirs, filepath.Base(dir)) {
			return filepath.Dir(dir)
		}
	}
	return dir
}

// parseTools reads -tools "shell,read_file".
func parseTools(s string) ([]string, error) {
	if s == "" {
		return nil, nil
	}
	var out []string
	for _, name := range strings.Split(s, ",") {
		if name = strings.TrimSpace(name); name == "" {
			return nil, fmt.Errorf("-tools %q: want tool names separated by commas, like shell,read_file", s)
		}
		out = append(out, name)
	}
	return out, nil
}

// parseToolNames reads -toolnames "shell=Bash,write_file=Write".
func parseToolNames(s string) (map[string]string, error) {
	if s == "" {
		return nil, nil
	}
	names := map[string]string{}
	for _, pair := range strings.Split(s, ",") {
		host, dialect, ok := strings.Cut(pair, "=")
		if !ok || host == "" || dialect == "" {
			return nil, fmt.Errorf("-toolnames %q: want host=dialect pairs, like shell=Bash,write_file=Write", s)
		}
		names[host] = dialect
	}
	return names, nil
}
