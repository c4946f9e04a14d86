package geminicli

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/rienda/hooks"
)

// A guard's output is often built from what it judges (a deny whose
// reason quotes the content of a write, pasted into the JSON as text), so
// the model shapes it: a quote in the call breaks the JSON, which Gemini
// CLI then reads as text (a systemMessage: the call runs), and a call that
// makes the script hang after it printed its deny ends it in a timeout,
// whose output Gemini CLI does not read. Neither may turn the guard's
// refusal into an allow (the library's rule: a refusal never becomes an
// allow by accident). So, for the events that guard a tool call or its
// result (BeforeTool, AfterTool), what a handler printed is also read
// for an evident refusal (hooks.EvidentRefusal: a decision key, or a key
// within a typo of it, in any case, holding a refusal word, in malformed
// JSON too), and for a readable deny before a timeout: either denies,
// with a diagnostic. A refusal word in the text of a valid JSON string (a
// reason quoting "echo deny") never denies.

// guardEvent reports whether event guards a tool call or its result.
func guardEvent(event string) bool { return event == evBeforeTool || event == evAfterTool }

// readEvident makes r a deny when text, what the handler printed,
// evidently refuses and r, as Gemini CLI reads it, does not; evident
// says how, for the diagnostic.
func readEvident(r *result, text string) {
	if r.out != nil && (r.out.blocking() || r.out.stops()) {
		return
	}
	what, ok := hooks.EvidentRefusal([]byte(text))
	if !ok {
		return
	}
	r.evident = what
	reason := ""
	if r.out != nil && truthy(r.out.Reason) {
		reason = str(r.out.Reason)
	}
	if reason == "" {
		reason = "Gemini CLI hook " + r.h.where + " printed a refusal that cannot be read"
	}
	if r.out == nil {
		r.out = &output{}
	}
	r.out.Decision, r.out.Reason, r.out.SystemMessage = json.RawMessage(`"deny"`), jsonString(reason), nil
}

// timedOutRead is the result of a guard that failed (a timeout, a
// process that escaped) after printing stdout: its output as the runner
// would read it after exit 0, when that denies or evidently refuses;
// else nothing (the failure alone, which goes on).
func (h *handler) timedOutRead(stdout []byte) (result, bool) {
	if strings.TrimSpace(string(stdout)) == "" {
		return result{}, false
	}
	r := h.read(stdout, "", 0)
	readEvident(&r, strings.TrimSpace(string(stdout)))
	if r.out == nil || !r.out.blocking() && !r.out.stops() {
		return result{}, false
	}
	return r, true
}

// evidentNote is the diagnostic of a deny read from an evident refusal.
func (r *result) evidentNote() error {
	return fmt.Errorf("the Gemini CLI hook %s printed output that evidently refuses (%s), which Gemini CLI would not read as a deny: it denies; print the decision as valid JSON (jq -n --arg, JSON.stringify), its names as Gemini CLI reads them",
		r.h.where, r.evident)
}
