package cursor

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/rienda/hooks/dialect"
)

// guardOutput is what a tool guard may print: permission and its
// messages (user_message, agent_message; userMessage and agentMessage in
// Cursor's first releases and its own block-git.sh example), continue
// (false stops), and updated_input (preToolUse, beforeShellExecution).
type guardOutput struct {
	Permission json.RawMessage `json:"permission"` // any JSON: a value of another type is no allow

	UserMessage     *string         `json:"user_message"`
	AgentMessage    *string         `json:"agent_message"`
	UserMessageOld  *string         `json:"userMessage"`
	AgentMessageOld *string         `json:"agentMessage"`
	Continue        *bool           `json:"continue"`
	UpdatedInput    json.RawMessage `json:"updated_input"`
}

var guardKeys = []string{"permission", "user_message", "agent_message", "userMessage", "agentMessage", "continue", "updated_input"}

// permission is the permission as written: "" when absent or null; a
// value that is not a string is its JSON text, which no case takes.
func (o guardOutput) permission() string {
	raw := bytes.TrimSpace(o.Permission)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return string(raw)
	}
	return s
}

// agentReason is what the model reads of a refusal: the message for the
// agent, else the one for the user.
func (o guardOutput) agentReason() string {
	for _, p := range []*string{o.AgentMessage, o.AgentMessageOld, o.UserMessage, o.UserMessageOld} {
		if p != nil && strings.TrimSpace(*p) != "" {
			return *p
		}
	}
	return ""
}

// promptOutput is what beforeSubmitPrompt may print.
type promptOutput struct {
	Continue    *bool   `json:"continue"`
	UserMessage *string `json:"user_message"`
}

var promptKeys = []string{"continue", "user_message"}

// stopOutput is what stop may print.
type stopOutput struct {
	FollowupMessage *string `json:"followup_message"`
}

var stopKeys = []string{"followup_message"}

// decode reads text as JSON.parse and a property read would: names match
// exactly, a repeated key keeps its last value. Blank text is no output.
// The unknown keys come back as diagnostics' text, with their
// did-you-mean.
func decode(text []byte, v any, known []string) (present bool, unknown []string, err error) {
	text = bytes.TrimSpace(text)
	if len(text) == 0 {
		return false, nil, nil
	}
	if text[0] != '{' {
		return true, nil, fmt.Errorf("the output is not a JSON object: %.80q", text)
	}
	keys, err := dialect.Decode(text, v)
	if err != nil {
		return true, nil, err
	}
	for _, k := range keys {
		top, _, _ := strings.Cut(k, ".")
		unknown = append(unknown, k+": unknown key, not read"+didYouMean(top, known))
	}
	return true, unknown, nil
}

// object reads updated_input: nil when absent; ok is false for anything
// but an object (the call the hook meant cannot be known).
func object(raw json.RawMessage) (map[string]any, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, true
	}
	var m map[string]any
	if raw[0] != '{' || json.Unmarshal(raw, &m) != nil {
		return nil, false
	}
	return m, true
}
