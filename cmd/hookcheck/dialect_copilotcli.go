package main

import (
	"encoding/json"
	"path/filepath"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/copilotcli"
)

// kindCopilot is a GitHub Copilot CLI hook file (.github/hooks/*.json):
// {"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": …}]}}.
const kindCopilot kind = "copilot"

// copilotEvents are the events of Copilot CLI's hooks reference, in both
// spellings.
var copilotEvents = []string{"sessionStart", "sessionEnd", "userPromptSubmitted", "preToolUse", "postToolUse",
	"postToolUseFailure", "agentStop", "subagentStart", "subagentStop", "errorOccurred", "preCompact",
	"permissionRequest", "notification", "UserPromptSubmit", "ErrorOccurred"}

func init() {
	register(&settingsDialect{kind: kindCopilot, name: "Copilot CLI hook file", events: copilotEvents,
		detect: func(path string, top, events map[string]json.RawMessage) bool {
			dir := filepath.Dir(path)
			if filepath.Base(dir) == "hooks" && filepath.Base(filepath.Dir(dir)) == ".github" {
				return true
			}
			return entriesHave(events, "bash", "powershell")
		},
		hooks: func(data []byte, names map[string]string, diag func(hooks.Diagnostic)) ([]hooks.Hook, error) {
			return copilotcli.Hooks(data, copilotOptions(names, diag)...)
		},
		checkNames: func(data []byte, tools []string, names map[string]string) ([]error, error) {
			return copilotcli.CheckToolNames(data, tools, copilotOptions(names, nil)...)
		}})
}

// copilotOptions are the options of -toolnames and the diagnostics.
func copilotOptions(names map[string]string, diag func(hooks.Diagnostic)) []copilotcli.Option {
	var opts []copilotcli.Option
	if diag != nil {
		opts = append(opts, copilotcli.Diagnostics(diag))
	}
	if len(names) > 0 {
		opts = append(opts, copilotcli.ToolNames(names))
	}
	return opts
}
