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
	"github.com/rienda/hooks/claudecode"
	"github.com/rienda/hooks/geminicli"
)

// kind is what a user wrote: the five things hookcheck checks.
type kind string

const (
	kindJS      kind = "js"      // a JS hook folder (NAME in -dir, or a folder holding index.js)
	kindAgent   kind = "agent"   // an agent file: the hooks it declares, in order
	kindCommand kind = "command" // command-hook settings: {"hooks": [ … ]}
	kindClaude  kind = "claude"  // Claude Code settings: {"hooks": {"PreToolUse": …}}
	kindGemini  kind = "gemini"  // Gemini CLI settings: {"hooks": {"BeforeTool": …}}
)

var kinds = []kind{kindJS, kindAgent, kindCommand, kindClaude, kindGemini}

// parseKind reads -kind; "" is "detect it from the file".
func parseKind(s string) (kind, error) {
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
		k, err := detectSettings(data)
		if err != nil {
			return "", fmt.Errorf("%s: %w", target, err)
		}
		return k, nil
	case strings.ContainsAny(target, `/\`) || strings.HasSuffix(target, ".json") || strings.HasSuffix(target, ".md"):
		return "", err // a path that is not there
	}
	return kindJS, nil
}

// The events of the two dialects whose settings share a shape. Claude
// Code's are those its docs list; Gemini CLI's, those of its hooks
// reference. SessionStart, SessionEnd and Notification are in both.
var (
	claudeEvents = []string{"PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "Stop",
		"SubagentStart", "SubagentStop", "SessionStart", "SessionEnd", "Notification", "PreCompact",
		"PostCompact", "PermissionRequest"}
	geminiEvents = []string{"BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent", "BeforeModel",
		"AfterModel", "BeforeToolSelection", "SessionStart", "SessionEnd", "Notification", "PreCompress"}
)

// detectSettings tells the settings dialects apart: command settings hold
// a "hooks" list; Claude Code's and Gemini CLI's a "hooks" object keyed by
// event (Claude Code's may also be that object alone), told apart by an
// event only one of them has. Nothing to tell them by (no hooks, or only
// shared events) reads as Claude Code's.
func detectSettings(data []byte) (kind, error) {
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
	only := func(in, other []string) bool {
		for name := range events {
			if slices.Contains(in, name) && !slices.Contains(other, name) {
				return true
			}
		}
		return false
	}
	if only(geminiEvents, claudeEvents) {
		return kindGemini, nil
	}
	return kindClaude, nil
}

// dialect reads one kind of settings file into hooks. diag receives the
// load-time diagnostics (what the file asks for that will not run).
type dialect struct {
	name  string
	hooks func(data []byte, toolNames map[string]string, diag func(hooks.Diagnostic)) ([]hooks.Hook, error)
}

// dialects are the settings kinds: a new dialect is one entry here
// (detection, lint, run and test route its settings through it).
var dialects = map[kind]dialect{
	kindCommand: {name: "command-hook settings", hooks: func(data []byte, _ map[string]string, _ func(hooks.Diagnostic)) ([]hooks.Hook, error) {
		return hooks.CommandHooks(data)
	}},
	kindClaude: {name: "Claude Code settings", hooks: claudeHooks},
	kindGemini: {name: "Gemini CLI settings", hooks: func(data []byte, names map[string]string, diag func(hooks.Diagnostic)) ([]hooks.Hook, error) {
		return geminicli.Hooks(data, geminicli.ToolNames(names), geminicli.Diagnostics(diag))
	}},
}

// claudeHooks reads Claude Code settings with package claudecode.
func claudeHooks(data []byte, names map[string]string, diag func(hooks.Diagnostic)) ([]hooks.Hook, error) {
	opts := []claudecode.Option{claudecode.Diagnostics(diag)}
	if len(names) > 0 {
		opts = append(opts, claudecode.ToolNames(names))
	}
	return claudecode.Hooks(data, opts...)
}

// settingsHooks reads the settings file at path as kind k.
func settingsHooks(path string, k kind, names map[string]string, diag func(hooks.Diagnostic)) ([]hooks.Hook, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	hs, err := dialects[k].hooks(data, names, diag)
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
	if base := filepath.Base(dir); base == ".claude" || base == ".gemini" {
		return filepath.Dir(dir)
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
