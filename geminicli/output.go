package geminicli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/dialect"
	"github.com/rienda/hooks/internal/exactjson"
	"github.com/rienda/hooks/internal/suggest"
)

// output is a handler's JSON output, each field as written (nil: absent),
// read by exact name as JSON.parse and a property read do: a key in
// another case is another key, a repeated key keeps its last value. The
// fields keep their JSON so that they are judged as the runner judges
// them (decision === "deny", continue === false, a truthy reason).
type output struct {
	dialect.CommonOutput

	spec specific // HookSpecificOutput, when it is an object
}

// specific is hookSpecificOutput, each field as written.
type specific struct {
	HookEventName       json.RawMessage `json:"hookEventName"`
	AdditionalContext   json.RawMessage `json:"additionalContext"`
	ToolInput           json.RawMessage `json:"tool_input"`
	LLMRequest          json.RawMessage `json:"llm_request"`
	LLMResponse         json.RawMessage `json:"llm_response"`
	ToolConfig          json.RawMessage `json:"toolConfig"`
	ClearContext        json.RawMessage `json:"clearContext"`
	TailToolCallRequest json.RawMessage `json:"tailToolCallRequest"`
}

var (
	outputKeys   = dialect.CommonOutputKeys
	specificKeys = []string{"hookEventName", "additionalContext", "tool_input", "llm_request", "llm_response", "toolConfig", "clearContext", "tailToolCallRequest"}
	decisions    = []string{"allow", "deny", "block", "ask", "approve"}
)

// parseOutput reads text as the runner does: JSON.parse, once more when
// that gives a string. It returns the output when the value is an object,
// whether the text was JSON at all, and the keys no field took.
func parseOutput(text string) (*output, bool, []string) {
	data := []byte(text)
	if !json.Valid(data) {
		return nil, false, nil
	}
	var s string
	if json.Unmarshal(data, &s) == nil {
		if !json.Valid([]byte(s)) {
			return nil, false, nil // the runner's second parse throws: the text is text
		}
		data = []byte(s)
	}
	if !isObject(data) {
		return nil, true, nil
	}
	o := &output{}
	unknown, err := exactjson.Unmarshal(data, o)
	if err != nil {
		return nil, true, nil
	}
	if isObject(o.HookSpecificOutput) {
		more, err := exactjson.Unmarshal(o.HookSpecificOutput, &o.spec)
		if err == nil {
			for _, k := range more {
				unknown = append(unknown, "hookSpecificOutput."+k)
			}
		}
	}
	return o, true, unknown
}

// str is a field as JavaScript's template literal shows it: a string as
// itself, null or absent as "", anything else as its JSON.
func str(raw json.RawMessage) string {
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// isString reports whether raw is a JSON string, and gives it.
func isString(raw json.RawMessage) (string, bool) {
	var s string
	if len(raw) == 0 || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// truthy is JavaScript's truthiness of a field.
func truthy(raw json.RawMessage) bool {
	switch t := strings.TrimSpace(string(raw)); t {
	case "", "null", "false", "0", `""`, "-0":
		return false
	default:
		var f float64
		if json.Unmarshal(raw, &f) == nil {
			return f != 0
		}
		return true
	}
}

// is reports whether raw is the JSON literal lit (continue === false).
func is(raw json.RawMessage, lit string) bool {
	return strings.TrimSpace(string(raw)) == lit
}

// decision is the output's decision when it is a string, else "".
func (o *output) decision() string {
	s, _ := isString(o.Decision)
	return s
}

// blocking reports a "deny" or "block" decision.
func (o *output) blocking() bool {
	d := o.decision()
	return d == "deny" || d == "block"
}

// stops reports "continue": false.
func (o *output) stops() bool { return is(o.Continue, "false") }

// effectiveReason is the runner's reason for a block or a stop:
// stopReason, else reason, else "No reason provided".
func (o *output) effectiveReason() string {
	if truthy(o.StopReason) {
		return str(o.StopReason)
	}
	if truthy(o.Reason) {
		return str(o.Reason)
	}
	return "No reason provided"
}

// additionalContext is hookSpecificOutput.additionalContext when it is a
// string, with < and > escaped as the runner escapes them (so that a hook
// cannot close the <hook_context> tag it is wrapped in).
func (o *output) additionalContext() string {
	s, ok := isString(o.spec.AdditionalContext)
	if !ok {
		return ""
	}
	return strings.NewReplacer("<", "&lt;", ">", "&gt;").Replace(s)
}

// diagnose reports, for each handler of results, a failure, a
// systemMessage (to Host.Notify, unless suppressOutput), a key that looks
// like a typo of a key Gemini CLI reads, and a decision it does not know.
func (h *hook) diagnose(c *hooks.Context, results []result) {
	var failed []string
	for _, r := range results {
		if r.err != nil || r.code != 0 {
			failed = append(failed, r.h.displayName())
		}
		if r.err != nil {
			c.Diagnose(r.err)
			continue
		}
		if r.code != 0 {
			c.Diagnose(r.exitFailure(h.event))
		}
		if r.evident != "" {
			c.Diagnose(r.evidentNote())
		}
		if r.out == nil {
			continue
		}
		if msg := str(r.out.SystemMessage); truthy(r.out.SystemMessage) && !truthy(r.out.SuppressOutput) {
			c.Notify(hooks.Notice{Title: "Gemini CLI hook " + r.h.where, Body: msg})
		}
		for _, k := range r.unknown {
			known, key := outputKeys, k
			if rest, ok := strings.CutPrefix(k, "hookSpecificOutput."); ok {
				known, key = specificKeys, rest
			}
			if close, ok := suggest.Closest(key, known); ok {
				c.Diagnose(fmt.Errorf("the Gemini CLI hook %s printed the key %q, which Gemini CLI does not read: did you mean %q?", r.h.where, k, close))
			}
		}
		if d, ok := isString(r.out.Decision); ok && d != "" && !containsString(decisions, d) {
			note := ""
			if close, ok := suggest.Closest(d, decisions); ok {
				note = fmt.Sprintf(" (did you mean %q?)", close)
			}
			c.Diagnose(fmt.Errorf("the Gemini CLI hook %s printed the decision %q%s, which Gemini CLI reads as no decision", r.h.where, d, note))
		}
	}
	if len(failed) > 0 {
		// What Gemini CLI shows the user when hooks fail (a warning in its
		// feedback area), whatever they decided.
		c.Notify(hooks.Notice{Title: "Gemini CLI hooks",
			Body: fmt.Sprintf("Hook(s) [%s] failed for event %s.", strings.Join(failed, ", "), h.event)})
	}
}

// exitFailure is the diagnostic of a handler that exited non-zero: Gemini
// CLI reports it as failed, whatever its output decided (exit 2 denies,
// exit 1 warns).
func (r *result) exitFailure(event string) error {
	what := fmt.Sprintf("exit status %d", r.code)
	if r.stderr != "" {
		what += ": " + r.stderr
	}
	then := "its output was read as Gemini CLI reads it"
	if r.code == 2 {
		then = "exit 2 denies (Gemini CLI's blocking error)"
	}
	return fmt.Errorf("the Gemini CLI hook %s (%q) failed for event %s: %s; %s", r.h.where, r.h.command, event, what, then)
}

// displayName is the handler's name as Gemini CLI shows it: its "name",
// or its command.
func (h *handler) displayName() string {
	if name, _, _ := strings.Cut(h.key, ":"); name != "" {
		return name
	}
	return h.command
}

// containsString reports whether list holds s.
func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
