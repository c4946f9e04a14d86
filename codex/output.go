package codex

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/rienda/hooks/dialect"
)

// output is a handler's JSON output as Codex's wire structures read it
// (codex-rs/hooks/src/schema.rs: every structure is deny_unknown_fields,
// names are camelCase and exact, a key given twice keeps its last value as
// serde_json's map does).
type output struct {
	cont          bool // "continue", default true
	stopReason    *string
	suppress      bool
	systemMessage *string
	decision      *string
	reason        *string
	spec          *specific
}

// specific is hookSpecificOutput.
type specific struct {
	eventName          string
	permissionDecision *string
	decisionReason     *string
	updatedInput       json.RawMessage // nil: absent or null
	additionalContext  *string
	updatedToolOutput  json.RawMessage
	updatedMCPOutput   json.RawMessage
}

// The keys each event's output may hold: any other key makes Codex's
// decoder refuse the whole output (a failed hook).
var (
	universalKeys = []string{"continue", "stopReason", "suppressOutput", "systemMessage"}
	eventKeys     = map[string][]string{
		"PreToolUse":       {"decision", "reason", "hookSpecificOutput"},
		"PostToolUse":      {"decision", "reason", "hookSpecificOutput"},
		"UserPromptSubmit": {"decision", "reason", "hookSpecificOutput"},
		"Stop":             {"decision", "reason"},
		"SessionStart":     {"hookSpecificOutput"},
	}
	specificKeys = map[string][]string{
		"PreToolUse":       {"hookEventName", "permissionDecision", "permissionDecisionReason", "updatedInput", "additionalContext"},
		"PostToolUse":      {"hookEventName", "additionalContext", "updatedMCPToolOutput", "updatedToolOutput"},
		"UserPromptSubmit": {"hookEventName", "additionalContext"},
		"SessionStart":     {"hookEventName", "additionalContext"},
	}
	// decisions are the values of "decision" each event takes.
	decisions = map[string][]string{
		"PreToolUse": {"approve", "block"}, "PostToolUse": {"block"},
		"UserPromptSubmit": {"block"}, "Stop": {"block"},
	}
	wireEventNames     = []string{"PreToolUse", "PermissionRequest", "PostToolUse", "SessionStart", "UserPromptSubmit", "Stop"}
	permissionDecision = []string{"allow", "deny", "ask"}
)

// looksLikeJSON is Codex's output_parser::looks_like_json: output that
// starts with '{' or '[' is meant as JSON, and JSON Codex cannot read is
// a failed hook; other text is plain text.
func looksLikeJSON(out []byte) bool {
	t := bytes.TrimSpace(out)
	return len(t) > 0 && (t[0] == '{' || t[0] == '[')
}

// parseOutput reads stdout of event as Codex does; the error says why
// Codex would refuse it (the hook then failed and decides nothing).
func parseOutput(event string, stdout []byte) (*output, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(bytes.TrimSpace(stdout), &top); err != nil || top == nil {
		return nil, fmt.Errorf("its output is not a JSON object")
	}
	allowed := append(slices.Clone(universalKeys), eventKeys[event]...)
	if err := onlyKeys(top, allowed, ""); err != nil {
		return nil, err
	}
	o := &output{cont: true}
	if err := scalar(top, "continue", &o.cont, false); err != nil {
		return nil, err
	}
	if err := scalar(top, "suppressOutput", &o.suppress, false); err != nil {
		return nil, err
	}
	for k, p := range map[string]**string{"stopReason": &o.stopReason, "systemMessage": &o.systemMessage, "decision": &o.decision, "reason": &o.reason} {
		if err := optString(top, k, p); err != nil {
			return nil, err
		}
	}
	if o.decision != nil && !slices.Contains(decisions[event], *o.decision) {
		return nil, fmt.Errorf("%q is not a decision of %s (%s)", *o.decision, event, strings.Join(decisions[event], ", "))
	}
	raw, ok := top["hookSpecificOutput"]
	if !ok || isNull(raw) {
		return o, nil
	}
	spec, err := parseSpecific(event, raw)
	if err != nil {
		return nil, err
	}
	o.spec = spec
	return o, nil
}

func parseSpecific(event string, raw json.RawMessage) (*specific, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return nil, fmt.Errorf("hookSpecificOutput is not an object")
	}
	if err := onlyKeys(m, specificKeys[event], "hookSpecificOutput."); err != nil {
		return nil, err
	}
	s := &specific{}
	if err := scalar(m, "hookEventName", &s.eventName, true); err != nil {
		return nil, err
	}
	if !slices.Contains(wireEventNames, s.eventName) {
		return nil, fmt.Errorf("hookSpecificOutput.hookEventName %q is not an event name", s.eventName)
	}
	for k, p := range map[string]**string{"permissionDecision": &s.permissionDecision,
		"permissionDecisionReason": &s.decisionReason, "additionalContext": &s.additionalContext} {
		if err := optString(m, k, p); err != nil {
			return nil, fmt.Errorf("hookSpecificOutput.%w", err)
		}
	}
	if s.permissionDecision != nil && !slices.Contains(permissionDecision, *s.permissionDecision) {
		return nil, fmt.Errorf("hookSpecificOutput.permissionDecision %q is not allow, deny or ask", *s.permissionDecision)
	}
	for k, p := range map[string]*json.RawMessage{"updatedInput": &s.updatedInput,
		"updatedToolOutput": &s.updatedToolOutput, "updatedMCPToolOutput": &s.updatedMCPOutput} {
		if v, ok := m[k]; ok && !isNull(v) {
			*p = v
		}
	}
	return s, nil
}

// onlyKeys refuses a key outside allowed, naming the one it resembles.
func onlyKeys(m map[string]json.RawMessage, allowed []string, prefix string) error {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if slices.Contains(allowed, k) {
			continue
		}
		if s, ok := dialect.Closest(k, allowed); ok {
			return fmt.Errorf("unknown key %s%q (did you mean %q?)", prefix, k, s)
		}
		return fmt.Errorf("unknown key %s%q", prefix, k)
	}
	return nil
}

func isNull(raw json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(raw), []byte("null")) }

// scalar decodes m[key] into p when present; null is an error, as serde
// reads a bool or a required string.
func scalar[T any](m map[string]json.RawMessage, key string, p *T, required bool) error {
	raw, ok := m[key]
	if !ok {
		if required {
			return fmt.Errorf("missing %q", key)
		}
		return nil
	}
	if isNull(raw) || json.Unmarshal(raw, p) != nil {
		return fmt.Errorf("%q has a value of the wrong type", key)
	}
	return nil
}

// optString decodes an optional string: absent and null are nil.
func optString(m map[string]json.RawMessage, key string, p **string) error {
	raw, ok := m[key]
	if !ok || isNull(raw) {
		return nil
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return fmt.Errorf("%q is not a string", key)
	}
	*p = &s
	return nil
}

func trimmed(p *string) string {
	if p == nil {
		return ""
	}
	return strings.TrimSpace(*p)
}

// preToolUse is what a PreToolUse output decides, as Codex's
// parse_pre_tool_use reads it: a block reason, a rewrite, context; or
// why Codex calls it invalid (a failed hook). ask is set for
// "permissionDecision": "ask", which Codex calls invalid and this package
// asks (docs/codex.md).
type preToolUse struct {
	block     string
	rewrite   json.RawMessage
	context   string
	ask       string
	ok        bool
	invalid   string
	universal *output
}

func readPreToolUse(o *output) preToolUse {
	r := preToolUse{universal: o, ok: true}
	switch {
	case !o.cont:
		return preToolUse{invalid: "PreToolUse hook returned unsupported continue:false", universal: o}
	case o.stopReason != nil:
		return preToolUse{invalid: "PreToolUse hook returned unsupported stopReason", universal: o}
	case o.suppress:
		return preToolUse{invalid: "PreToolUse hook returned unsupported suppressOutput", universal: o}
	}
	s := o.spec
	if s != nil && s.additionalContext != nil {
		r.context = *s.additionalContext
	}
	if s != nil && (s.permissionDecision != nil || s.decisionReason != nil || s.updatedInput != nil) {
		d := ""
		if s.permissionDecision != nil {
			d = *s.permissionDecision
		}
		switch {
		case s.updatedInput != nil && d != "allow":
			return preToolUse{invalid: "PreToolUse hook returned updatedInput without permissionDecision:allow", universal: o}
		case d == "allow":
			if !bytes.HasPrefix(bytes.TrimSpace(s.updatedInput), []byte("{")) {
				if s.updatedInput == nil {
					return preToolUse{invalid: "PreToolUse hook returned unsupported permissionDecision:allow (an allow decides nothing without updatedInput)", universal: o}
				}
				return preToolUse{invalid: "PreToolUse hook returned an updatedInput that is not an object", universal: o}
			}
			r.rewrite = s.updatedInput
		case d == "ask":
			r.ok, r.ask = false, trimmed(s.decisionReason)
			r.invalid = "PreToolUse hook returned unsupported permissionDecision:ask"
		case d == "deny":
			if trimmed(s.decisionReason) == "" {
				return preToolUse{invalid: "PreToolUse hook returned permissionDecision:deny without a non-empty permissionDecisionReason", universal: o}
			}
			r.block = trimmed(s.decisionReason)
		default:
			return preToolUse{invalid: "PreToolUse hook returned permissionDecisionReason without permissionDecision", universal: o}
		}
		return r
	}
	switch {
	case o.decision != nil && *o.decision == "approve":
		return preToolUse{invalid: "PreToolUse hook returned unsupported decision:approve", universal: o}
	case o.decision != nil && *o.decision == "block":
		if trimmed(o.reason) == "" {
			return preToolUse{invalid: "PreToolUse hook returned decision:block without a non-empty reason", universal: o}
		}
		r.block = trimmed(o.reason)
	case o.reason != nil:
		return preToolUse{invalid: "PreToolUse hook returned reason without decision", universal: o}
	}
	return r
}

// blockOutput is what a UserPromptSubmit, Stop or PostToolUse output
// decides: a stop (continue:false), a block with its reason, context.
type blockOutput struct {
	stop       bool
	stopReason string
	block      string
	context    string
	invalid    string
	updated    json.RawMessage // PostToolUse: updatedToolOutput or updatedMCPToolOutput
}

func readBlock(event string, o *output) blockOutput {
	var r blockOutput
	if !o.cont {
		r.stop, r.stopReason = true, trimmed(o.stopReason)
	}
	if event == "PostToolUse" && o.suppress {
		r.invalid = "PostToolUse hook returned unsupported suppressOutput"
		return r
	}
	blocks := o.decision != nil && *o.decision == "block"
	switch {
	case blocks && trimmed(o.reason) == "":
		r.invalid = event + " hook returned decision:block without a non-empty reason"
	case blocks:
		r.block = trimmed(o.reason)
	case event == "PostToolUse" && o.cont && o.reason != nil:
		r.invalid = "PostToolUse hook returned reason without decision"
	}
	if o.spec != nil && r.invalid == "" {
		if o.spec.additionalContext != nil {
			r.context = *o.spec.additionalContext
		}
		r.updated = o.spec.updatedToolOutput
		if o.spec.updatedMCPOutput != nil {
			r.updated = o.spec.updatedMCPOutput
		}
	}
	return r
}
