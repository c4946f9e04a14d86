package main

import (
	"bytes"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/codex"
)

// kindCodex is Codex CLI's hooks: .codex/hooks.json, or the [hooks]
// tables of .codex/config.toml (give -kind codex for a .toml file).
const kindCodex kind = "codex"

// codexEvents are the events of Codex's hooks reference and source.
var codexEvents = []string{"PreToolUse", "PermissionRequest", "PostToolUse", "PreCompact", "PostCompact",
	"SessionStart", "UserPromptSubmit", "SubagentStart", "SubagentStop", "Stop", "SessionEnd", "StopFailure", "Interrupt"}

func init() {
	register(&settingsDialect{kind: kindCodex, name: "Codex settings", dirs: []string{".codex"}, events: codexEvents,
		hooks: func(data []byte, names map[string]string, diag func(hooks.Diagnostic)) ([]hooks.Hook, error) {
			opts := []codex.Option{codex.ToolNames(names), codex.Diagnostics(diag)}
			if t := bytes.TrimSpace(data); len(t) > 0 && t[0] != '{' {
				return codex.HooksTOML(data, opts...)
			}
			return codex.Hooks(data, opts...)
		},
		checkNames: func(data []byte, tools []string, names map[string]string) ([]error, error) {
			return codex.CheckToolNames(data, tools, codex.ToolNames(names))
		}})
}
