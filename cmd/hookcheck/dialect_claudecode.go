package main

import (
	"github.com/rienda/hooks"
	"github.com/rienda/hooks/claudecode"
)

// kindClaude is Claude Code settings: {"hooks": {"PreToolUse": …}}, or
// the hooks object alone; the kind of a file nothing else claims.
const kindClaude kind = "claude"

// claudeEvents are the events Claude Code's documentation lists.
var claudeEvents = []string{"PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "Stop",
	"SubagentStart", "SubagentStop", "SessionStart", "SessionEnd", "Notification", "PreCompact",
	"PostCompact", "PermissionRequest"}

func init() {
	register(&settingsDialect{kind: kindClaude, name: "Claude Code settings", dirs: []string{".claude"}, events: claudeEvents,
		hooks: claudeHooks,
		checkNames: func(data []byte, tools []string, names map[string]string) ([]error, error) {
			return claudecode.CheckToolNames(data, tools, claudeOptions(names, nil)...)
		}})
}

// claudeOptions are the options of -toolnames and the diagnostics.
func claudeOptions(names map[string]string, diag func(hooks.Diagnostic)) []claudecode.Option {
	var opts []claudecode.Option
	if diag != nil {
		opts = append(opts, claudecode.Diagnostics(diag))
	}
	if len(names) > 0 {
		opts = append(opts, claudecode.ToolNames(names))
	}
	return opts
}

// claudeHooks reads Claude Code settings with package claudecode.
func claudeHooks(data []byte, names map[string]string, diag func(hooks.Diagnostic)) ([]hooks.Hook, error) {
	return claudecode.Hooks(data, claudeOptions(names, diag)...)
}
