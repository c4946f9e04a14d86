package dialect

import "encoding/json"

// CommonOutput is the JSON output Claude Code's hooks print, which Gemini
// CLI and Codex CLI took over: each field as written (nil: absent), so
// that a dialect judges it as its agent CLI does (decision === "deny",
// continue === false) and a value of an unexpected type costs that key
// alone. Read it with Decode (exact names); embed it in a dialect's own
// output type to add keys.
type CommonOutput struct {
	Continue           json.RawMessage `json:"continue"`
	StopReason         json.RawMessage `json:"stopReason"`
	SuppressOutput     json.RawMessage `json:"suppressOutput"`
	SystemMessage      json.RawMessage `json:"systemMessage"`
	Decision           json.RawMessage `json:"decision"`
	Reason             json.RawMessage `json:"reason"`
	HookSpecificOutput json.RawMessage `json:"hookSpecificOutput"`
}

// CommonOutputKeys are CommonOutput's keys, for a misspelt key's
// did-you-mean.
var CommonOutputKeys = []string{"continue", "stopReason", "suppressOutput", "systemMessage", "decision", "reason", "hookSpecificOutput"}
