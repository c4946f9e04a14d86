package claudecode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/rienda/hooks/dialect"
	"github.com/rienda/hooks/internal/exactjson"
)

// output is the part of a handler's JSON output this library reads.
type output struct {
	Continue           *bool
	StopReason         string
	SystemMessage      string
	Decision           string
	Reason             string
	HookSpecificOutput specific
}

// specific is hookSpecificOutput.
type specific struct {
	PermissionDecision       string
	PermissionDecisionReason string
	UpdatedInput             map[string]any
	AdditionalContext        string
	UpdatedToolOutput        json.RawMessage
	UpdatedMCPToolOutput     json.RawMessage
	SuppressOriginalPrompt   bool
	Decision                 permissionDecision // PermissionRequest's
}

// permissionDecision is PermissionRequest's hookSpecificOutput.decision.
type permissionDecision struct {
	Behavior     string         `json:"behavior"`
	UpdatedInput map[string]any `json:"updatedInput"`
	Message      string         `json:"message"`
	Interrupt    bool           `json:"interrupt"`
}

// rawOutput and rawSpecific take each key as written, so that a value of
// an unexpected type costs that key alone (with a diagnostic), never the
// rest of the decision. exactjson matches the names exactly, as Claude
// Code's JSON.parse and property reads do: "PermissionDecision" is not
// "permissionDecision", and a key given twice keeps its last value.
type rawOutput = dialect.CommonOutput

type rawSpecific struct {
	HookEventName            json.RawMessage `json:"hookEventName"`
	PermissionDecision       json.RawMessage `json:"permissionDecision"`
	PermissionDecisionReason json.RawMessage `json:"permissionDecisionReason"`
	UpdatedInput             json.RawMessage `json:"updatedInput"`
	AdditionalContext        json.RawMessage `json:"additionalContext"`
	UpdatedToolOutput        json.RawMessage `json:"updatedToolOutput"`
	UpdatedMCPToolOutput     json.RawMessage `json:"updatedMCPToolOutput"`
	SuppressOriginalPrompt   json.RawMessage `json:"suppressOriginalPrompt"`
	Decision                 json.RawMessage `json:"decision"`
}

// The keys of each object, for a misspelt key's did-you-mean.
var (
	outputKeys   = dialect.CommonOutputKeys
	specificKeys = []string{"hookEventName", "permissionDecision", "permissionDecisionReason", "updatedInput",
		"additionalContext", "updatedToolOutput", "updatedMCPToolOutput", "suppressOriginalPrompt", "decision"}
)

// parseStdout reads exit 0's stdout: a decision when it starts with "{"
// and parses as a JSON object, else plain text.
func parseStdout(out []byte) result {
	trimmed := bytes.TrimSpace(out)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return result{text: string(out)}
	}
	var raw rawOutput
	unknown, err := exactjson.Unmarshal(trimmed, &raw)
	if err != nil {
		return result{text: string(out)}
	}
	d := outputDecoder{}
	o := &output{}
	d.unknown(unknown, outputKeys, "")
	field(&d, raw.Continue, "continue", &o.Continue)
	field(&d, raw.StopReason, "stopReason", &o.StopReason)
	field(&d, raw.SystemMessage, "systemMessage", &o.SystemMessage)
	field(&d, raw.Decision, "decision", &o.Decision)
	field(&d, raw.Reason, "reason", &o.Reason)
	if len(raw.HookSpecificOutput) > 0 && string(raw.HookSpecificOutput) != "null" {
		var spec rawSpecific
		unknown, err := exactjson.Unmarshal(raw.HookSpecificOutput, &spec)
		if err != nil {
			d.notes = append(d.notes, fmt.Errorf("hookSpecificOutput is not an object, ignored: %v", err))
		} else {
			s := &o.HookSpecificOutput
			d.unknown(unknown, specificKeys, "hookSpecificOutput.")
			field(&d, spec.PermissionDecision, "hookSpecificOutput.permissionDecision", &s.PermissionDecision)
			if s.PermissionDecision == "" && len(spec.PermissionDecision) > 0 && string(spec.PermissionDecision) != "null" {
				s.PermissionDecision = clip(spec.PermissionDecision) // not a string: a decision unread, which asks (see permission)
			}
			field(&d, spec.PermissionDecisionReason, "hookSpecificOutput.permissionDecisionReason", &s.PermissionDecisionReason)
			field(&d, spec.UpdatedInput, "hookSpecificOutput.updatedInput", &s.UpdatedInput)
			field(&d, spec.AdditionalContext, "hookSpecificOutput.additionalContext", &s.AdditionalContext)
			field(&d, spec.SuppressOriginalPrompt, "hookSpecificOutput.suppressOriginalPrompt", &s.SuppressOriginalPrompt)
			field(&d, spec.Decision, "hookSpecificOutput.decision", &s.Decision)
			s.UpdatedToolOutput, s.UpdatedMCPToolOutput = spec.UpdatedToolOutput, spec.UpdatedMCPToolOutput
		}
	}
	return result{out: o, notes: d.notes}
}

// outputDecoder decodes the keys of an output one by one, keeping what it
// ignored as notes.
type outputDecoder struct{ notes []error }

// field decodes raw into *dst; a value of another type leaves *dst as it
// was, with a note (encoding/json may have half-filled its target, as a
// *bool false for "yes": a value is kept only when it decoded whole).
func field[T any](d *outputDecoder, raw json.RawMessage, name string, dst *T) {
	if len(raw) == 0 || string(raw) == "null" {
		return
	}
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		d.notes = append(d.notes, fmt.Errorf("its output's %q is %s, of a type this library does not read: ignored", name, clip(raw)))
		return
	}
	*dst = v
}

// unknown notes the keys that resemble a known one: a misspelling that
// Claude Code would ignore too, but that was surely meant. Other unknown
// keys (a script that echoes its input) are no opinion, and say nothing.
func (d *outputDecoder) unknown(keys, known []string, prefix string) {
	for _, k := range keys {
		if like := resembles(k, known); like != "" {
			d.notes = append(d.notes, fmt.Errorf("its output's key %q is ignored: names match exactly, as Claude Code reads them; did you mean %q?", prefix+k, prefix+like))
		}
	}
}

// clip is raw for a message, at most 80 bytes of it.
func clip(raw json.RawMessage) string {
	s := strings.TrimSpace(string(raw))
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}
