package main

import (
	"github.com/rienda/hooks"
	"github.com/rienda/hooks/geminicli"
)

// kindGemini is Gemini CLI settings: {"hooks": {"BeforeTool": …}}.
const kindGemini kind = "gemini"

// geminiEvents are the events of Gemini CLI's hooks reference.
var geminiEvents = []string{"BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent", "BeforeModel",
	"AfterModel", "BeforeToolSelection", "SessionStart", "SessionEnd", "Notification", "PreCompress"}

func init() {
	register(&settingsDialect{kind: kindGemini, name: "Gemini CLI settings", dirs: []string{".gemini"}, events: geminiEvents,
		hooks: func(data []byte, names map[string]string, diag func(hooks.Diagnostic)) ([]hooks.Hook, error) {
			return geminicli.Hooks(data, geminicli.ToolNames(names), geminicli.Diagnostics(diag))
		},
		checkNames: func(data []byte, tools []string, names map[string]string) ([]error, error) {
			return geminicli.CheckToolNames(data, tools, geminicli.ToolNames(names))
		}})
}
