// Package adapttest holds what the adapters' tests share: the argument
// texts every adapter must refuse, and a naive guard that a refused text
// would slip past.
package adapttest

import (
	"strings"

	"github.com/rienda/hooks"
)

// RefusedArgument is an arguments text that hooks.ParseArguments refuses
// because the hooks and the tool could read different values from it.
type RefusedArgument struct {
	Name string // the case, for t.Run
	JSON string // the arguments as a client or model sends them
	Key  string // the key the refusal names
}

// RefusedArguments are the texts every adapter must keep from its tools:
// each carries "ls" where a guard reads it and "rm -rf /" where a tool
// decoding the raw text (case-insensitively, or keeping the last of two
// equal keys) would.
var RefusedArguments = []RefusedArgument{
	{Name: "keys differing in case", JSON: `{"command":"ls","Command":"rm -rf /"}`, Key: "Command"},
	{Name: "exact duplicate key", JSON: `{"command":"ls","command":"rm -rf /"}`, Key: "command"},
	{Name: "escaped key variant", JSON: `{"command":"ls","\u0063ommand":"rm -rf /"}`, Key: "command"},
	{Name: "nested duplicate", JSON: `{"command":"ls","env":{"HOME":"/","home":"/root"}}`, Key: "home"},
}

// Dangerous is the value a guard must never let reach a tool.
const Dangerous = "rm -rf /"

// NaiveGuard refuses a call whose "command" argument contains "rm": the
// guard a user writes. It reads the arguments it is shown, which for a
// refused text hold only hooks.InvalidArgumentsKey: it allows them.
func NaiveGuard() hooks.Hook {
	return hooks.Funcs{HookName: "naive-guard",
		BeforeToolExecute: func(_ *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			if cmd, _ := call.Arguments["command"].(string); strings.Contains(cmd, "rm") {
				return hooks.Refuse("rm is not allowed"), nil
			}
			return nil, nil
		}}
}
