package copilotcli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/rienda/hooks/internal/exactjson"
)

// preOutput is what a preToolUse entry may print: Copilot CLI's top-level
// fields, and the hookSpecificOutput of the VS Code format (read for its
// deny; its updatedInput Copilot CLI ignores, and so does this package).
type preOutput struct {
	PermissionDecision       *string         `json:"permissionDecision"`
	PermissionDecisionReason *string         `json:"permissionDecisionReason"`
	ModifiedArgs             json.RawMessage `json:"modifiedArgs"`
	AdditionalContext        *string         `json:"additionalContext"`
	SuppressOutput           *bool           `json:"suppressOutput"`
	HookSpecificOutput       *struct {
		HookEventName            *string         `json:"hookEventName"`
		PermissionDecision       *string         `json:"permissionDecision"`
		PermissionDecisionReason *string         `json:"permissionDecisionReason"`
		UpdatedInput             json.RawMessage `json:"updatedInput"`
		AdditionalContext        *string         `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

var preKeys = []string{"permissionDecision", "permissionDecisionReason", "modifiedArgs", "additionalContext", "suppressOutput", "hookSpecificOutput"}

// permOutput is what a permissionRequest entry may print.
type permOutput struct {
	Behavior  *string `json:"behavior"`
	Message   *string `json:"message"`
	Interrupt *bool   `json:"interrupt"`
}

var permKeys = []string{"behavior", "message", "interrupt"}

// stopOutput is what an agentStop entry may print.
type stopOutput struct {
	Decision *string `json:"decision"`
	Reason   *string `json:"reason"`
}

var stopKeys = []string{"decision", "reason"}

// failureOutput is what a postToolUseFailure entry may print.
type failureOutput struct {
	AdditionalContext *string `json:"additionalContext"`
}

// decode reads text as JSON.parse and a property read would: names match
// exactly, a repeated key keeps its last value. Blank text is no output.
// The unknown keys come back with their did-you-mean, for a diagnostic.
func decode(text []byte, v any, known []string) (present bool, unknown []string, err error) {
	text = bytes.TrimSpace(text)
	if len(text) == 0 {
		return false, nil, nil
	}
	if text[0] != '{' {
		return true, nil, fmt.Errorf("the output is not a JSON object: %.80q", text)
	}
	keys, err := exactjson.Unmarshal(text, v)
	if err != nil {
		return true, nil, err
	}
	for _, k := range keys {
		top, _, _ := strings.Cut(k, ".")
		if top == "hookSpecificOutput" {
			unknown = append(unknown, k+": unknown key, not read")
			continue
		}
		unknown = append(unknown, k+": unknown key, not read"+didYouMean(top, known))
	}
	return true, unknown, nil
}

// args reads modifiedArgs: an object, or (as older builds wrote it) a
// string holding one. ok is false for anything else: the call the hook
// meant cannot be known, so it must not run as the model asked.
func args(raw json.RawMessage) (map[string]any, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, true
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil, false
		}
		raw = []byte(strings.TrimSpace(s))
	}
	if len(raw) == 0 || raw[0] != '{' {
		return nil, false
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return nil, false
	}
	return m, true
}
