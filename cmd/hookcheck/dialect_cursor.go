package main

import (
	"encoding/json"
	"path/filepath"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/cursor"
)

// kindCursor is Cursor's hooks.json: {"version": 1, "hooks":
// {"beforeShellExecution": [{"command": …}]}}.
const kindCursor kind = "cursor"

// cursorEvents are the events of Cursor's hooks documentation.
var cursorEvents = []string{"beforeShellExecution", "afterShellExecution", "beforeMCPExecution", "afterMCPExecution",
	"beforeReadFile", "afterFileEdit", "beforeSubmitPrompt", "stop", "afterAgentResponse", "afterAgentThought",
	"preToolUse", "postToolUse", "postToolUseFailure", "sessionStart", "sessionEnd", "subagentStart", "subagentStop",
	"preCompact", "beforeTabFileRead", "afterTabFileEdit"}

func init() {
	register(&settingsDialect{kind: kindCursor, name: "Cursor hooks.json", dirs: []string{".cursor"}, events: cursorEvents,
		detect: func(path string, top, events map[string]json.RawMessage) bool {
			if filepath.Base(filepath.Dir(path)) == ".cursor" {
				return true
			}
			_, versioned := top["version"]
			return versioned && len(events) > 0 && entriesHave(events, "command") && !entriesHave(events, "bash", "powershell")
		},
		hooks: func(data []byte, names map[string]string, diag func(hooks.Diagnostic)) ([]hooks.Hook, error) {
			return cursor.Hooks(data, cursorOptions(names, diag)...)
		},
		checkNames: func(data []byte, tools []string, names map[string]string) ([]error, error) {
			return cursor.CheckToolNames(data, tools, cursorOptions(names, nil)...)
		}})
}

// cursorOptions are the options of -toolnames and the diagnostics, and
// the tool kinds a fixture's call names: the shell, read and edit tools
// of Cursor, Claude Code, Gemini CLI and Copilot CLI by their names, so
// that beforeShellExecution, beforeReadFile and afterFileEdit fire for
// them (any other tool is an MCP tool).
func cursorOptions(names map[string]string, diag func(hooks.Diagnostic)) []cursor.Option {
	opts := []cursor.Option{
		cursor.ShellTools("Shell", "shell", "Bash", "bash", "run_shell_command"),
		cursor.ReadTools("Read", "read", "read_file", "view"),
		cursor.EditTools("Write", "Edit", "write", "edit", "write_file", "replace", "create"),
	}
	if diag != nil {
		opts = append(opts, cursor.Diagnostics(diag))
	}
	if len(names) > 0 {
		opts = append(opts, cursor.ToolNames(names))
	}
	return opts
}

// entriesHave reports whether an entry of an event's list (a flat list of
// entries, as Cursor and Copilot CLI write them) has one of keys.
func entriesHave(events map[string]json.RawMessage, keys ...string) bool {
	for _, raw := range events {
		var list []map[string]json.RawMessage
		if json.Unmarshal(raw, &list) != nil {
			continue
		}
		for _, e := range list {
			for _, k := range keys {
				if _, ok := e[k]; ok {
					return true
				}
			}
		}
	}
	return false
}
