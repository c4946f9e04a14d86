package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"unicode/utf8"

	"github.com/rienda/hooks/internal/exactjson"
	"github.com/rienda/hooks/internal/proc"
	"github.com/rienda/hooks/internal/suggest"
)

// maxReason bounds the reason a refusal gives the model: a guard that
// quotes a 300 KB command in its reason still refuses, and the model reads
// the start of the reason and a marker saying how much was cut, never an
// empty or a missing one.
const maxReason = 16 << 10

// The keys and the decisions a command guard's output may hold.
var (
	decisionKeys   = []string{"decision", "reason"}
	decisionValues = []string{"block", "allow"}
)

// refusalWords are the words other tools use for "block" ("deny" is
// Claude Code's permissionDecision, "reject" and "refuse" are common
// English): a guard that prints one of them means to refuse, so it does,
// with a diagnostic that says to write "block". Compared in lower case.
var refusalWords = map[string]bool{
	"block": true, "blocked": true, "deny": true, "denied": true, "reject": true, "rejected": true,
	"refuse": true, "refused": true, "disallow": true, "disallowed": true, "forbid": true, "forbidden": true,
}

// commandVerdict is what a guard's command (pre_tool_call, pre_trust_decision)
// decided, as read from its stdout and its end.
type commandVerdict struct {
	block  bool
	reason string // the guard's reason, cut to maxReason with a marker
	// problem is what was wrong: a non-zero exit, an unknown key beside a
	// decision, output that cannot be read as a decision. With block it is
	// a diagnostic; without, the hook's error, for its policy to decide
	// (seed 004: fail open unless failClosed).
	problem error
	// unreadable is why no decision can be read from output past
	// MaxCommandOutput: the call is refused, or trust denied, whatever the
	// policy. The model chooses the size of its call, and a guard that
	// quotes it prints more; that must never let the call through.
	unreadable error
}

// verdictOf reads what a guard's run gave: its output, then its end.
// A refusal the output holds counts whatever the exit status; output past
// the cap refuses; a failure with no decision printed is the hook's error.
func (h *commandHook) verdictOf(out proc.Output, runErr error) commandVerdict {
	if out.Overflow {
		return h.overflowVerdict(out, runErr)
	}
	v := h.readDecision(bytes.TrimSpace(out.Stdout))
	switch {
	case runErr != nil:
		v.problem = h.fail(joinFailures(runErr, v.problem))
	case v.problem != nil:
		v.problem = h.fail(v.problem)
	}
	return v
}

// overflowVerdict reads an output past MaxCommandOutput: it refuses,
// since a key past the cut could change the decision (a repeated key
// keeps its last value). When its start is a refusal, the model reads the
// guard's own reason, cut with a marker; else why no decision was read.
func (h *commandHook) overflowVerdict(out proc.Output, runErr error) commandVerdict {
	printed := printedText(out, runErr)
	over := fmt.Errorf("%w: printed %s on stdout, more than the %d KiB a decision may take, so its decision cannot be read",
		ErrCommandOutputTooLarge, printed, MaxCommandOutput>>10)
	if !errors.Is(runErr, ErrCommandOutputTooLarge) {
		over = joinFailures(over, runErr)
	}
	decision, reason, cut := startOfDecision(out.Stdout)
	if !refusalWords[strings.ToLower(decision)] {
		return commandVerdict{unreadable: h.fail(over)}
	}
	if cut || len(reason) > maxReason {
		reason = cutText(reason, maxReason) + "… [cut: " + printed + "]"
	}
	return commandVerdict{block: true, reason: reason, problem: h.fail(over)}
}

// readDecision reads a whole output as JSON.parse and a property read do:
// names exactly, case included, and a repeated key keeps its last value.
// Output that evidently refuses (see command_evident.go) refuses, however
// else it is wrong; what else cannot be read is a problem, for the
// hook's policy.
func (h *commandHook) readDecision(out []byte) commandVerdict {
	if len(out) == 0 {
		return commandVerdict{}
	}
	if word, ok := bareRefusal(out); ok {
		return commandVerdict{block: true, problem: fmt.Errorf(`printed %q alone: read as a refusal (a command guard refuses with {"decision":"block","reason":"…"})`, word)}
	}
	if !json.Valid(out) {
		return unreadableOutput(out, fmt.Errorf("printed malformed JSON, so its decision cannot be read: %s", clip(out)))
	}
	if out[0] != '{' {
		return unreadableOutput(out, fmt.Errorf(`printed %s, not an object like {"decision":"block","reason":"…"}, so its decision cannot be read`, clip(out)))
	}
	var d struct {
		Decision *string `json:"decision"`
		Reason   *string `json:"reason"`
	}
	unknown, err := exactjson.Unmarshal(out, &d)
	if err != nil {
		return unreadableOutput(out, fmt.Errorf("printed a decision that cannot be read: %v", err))
	}
	reason := cutReason(deref(d.Reason))
	keys := unknownKeys(unknown)
	if all := topLevelStrings(out, "decision"); len(all) > 1 {
		return repeatedDecision(out, all, reason, keys)
	}
	switch decision := deref(d.Decision); {
	case decision == "block":
		return commandVerdict{block: true, reason: reason, problem: keys}
	case isRefusal(decision):
		hint := ""
		if like, ok := suggest.Closest(firstWord(decision), refusalList); ok && !refusalWords[firstWord(decision)] {
			hint = fmt.Sprintf(" (did you mean %q?)", like)
		}
		return commandVerdict{block: true, reason: reason, problem: joinFailures(
			fmt.Errorf(`printed the decision %q%s: read as "block", the refusal of command hooks (write "block")`, decision, hint), keys)}
	}
	if what, ok := evidentInJSON(out); ok {
		return commandVerdict{block: true, reason: reason, problem: joinFailures(
			fmt.Errorf(`printed %s: read as a refusal (a command guard refuses with "decision": "block")`, what), keys)}
	}
	switch decision := deref(d.Decision); decision {
	case "allow", "approve", "":
		return commandVerdict{problem: keys}
	}
	hint := ""
	if like, ok := suggest.Closest(deref(d.Decision), decisionValues); ok {
		hint = fmt.Sprintf(" (did you mean %q?)", like)
	}
	return commandVerdict{problem: joinFailures(fmt.Errorf(`printed the decision %q%s, which is not one: the decisions are "block" and "allow", so its decision cannot be read`,
		deref(d.Decision), hint), keys)}
}

// unreadableOutput is the verdict of output that cannot be read as a
// decision (why): a refusal when it evidently says refuse, with the
// reason it holds as far as it can be read; else why, for the hook's
// policy.
func unreadableOutput(out []byte, why error) commandVerdict {
	what, ok := evidentInText(out)
	if !ok {
		return commandVerdict{problem: why}
	}
	return commandVerdict{block: true, reason: cutReason(reasonInText(out)),
		problem: fmt.Errorf("%w; it says %s, so it refuses", why, what)}
}

// cutReason is reason, cut past maxReason with a marker saying its size.
func cutReason(reason string) string {
	if len(reason) > maxReason {
		return cutText(reason, maxReason) + "… [cut: " + sizeText(int64(len(reason))) + "]"
	}
	return reason
}

// repeatedDecision reads an output with "decision" given more than once.
// JSON.parse would keep the last, but a guard that writes the call into
// its output ({"decision":"block","reason":"<the command>"}, put together
// as text) can be made by the model to print a second decision after its
// own: so a refusal among them refuses, and so does one anywhere else in
// the output; a value that is not a decision is a problem, for the
// hook's policy.
func repeatedDecision(out []byte, all []string, reason string, keys error) commandVerdict {
	said := fmt.Errorf("printed \"decision\" %d times (%q): a refusal among them refuses", len(all), all)
	for _, d := range all {
		if isRefusal(d) {
			return commandVerdict{block: true, reason: reason, problem: joinFailures(said, keys)}
		}
	}
	if what, ok := evidentInJSON(out); ok {
		return commandVerdict{block: true, reason: reason, problem: joinFailures(fmt.Errorf("%w; it says %s, so it refuses", said, what), keys)}
	}
	for _, d := range all {
		if d != "allow" && d != "approve" && d != "" {
			return commandVerdict{problem: joinFailures(fmt.Errorf("%w; %q is not a decision, so its decision cannot be read", said, d), keys)}
		}
	}
	return commandVerdict{problem: joinFailures(said, keys)}
}

// topLevelStrings are the string values of key in the JSON object data,
// every time it is given, in order.
func topLevelStrings(data []byte, key string) []string {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	var out []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return out
		}
		var value json.RawMessage
		if dec.Decode(&value) != nil {
			return out
		}
		var s string
		if tok == key && json.Unmarshal(value, &s) == nil {
			out = append(out, s)
		}
	}
	return out
}

// unknownKeys says which keys of a guard's output are not "decision" or
// "reason", each with the key it is probably a typo of; nil for none.
func unknownKeys(keys []string) error {
	if len(keys) == 0 {
		return nil
	}
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q", k)
		if like, ok := suggest.Closest(k, decisionKeys); ok {
			fmt.Fprintf(&b, " (did you mean %q? names match exactly, case included)", like)
		}
	}
	return fmt.Errorf(`printed unknown keys %s: ignored; a decision has "decision" and "reason"`, b.String())
}

// startOfDecision reads the start of an output cut at the cap: the last
// "decision" and "reason" of its top-level object among the keys printed
// whole, and a reason the cut fell in, as far as it was printed (cut).
func startOfDecision(prefix []byte) (decision, reason string, cut bool) {
	dec := json.NewDecoder(bytes.NewReader(prefix))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return "", "", false
	}
	for {
		tok, err := dec.Token()
		key, ok := tok.(string)
		if err != nil || !ok {
			return decision, reason, false
		}
		at := dec.InputOffset()
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			if key == "reason" {
				if partial, ok := partialString(prefix[at:]); ok {
					return decision, partial, true
				}
			}
			return decision, reason, false
		}
		var s string
		if json.Unmarshal(value, &s) == nil {
			switch key {
			case "decision":
				decision = s
			case "reason":
				reason = s
			}
		}
	}
}

// partialString decodes the JSON string that starts raw (after a colon)
// and is cut at its end: its text up to the last whole character.
func partialString(raw []byte) (string, bool) {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	raw, ok := bytes.CutPrefix(raw, []byte(":"))
	raw = bytes.TrimLeft(raw, " \t\r\n")
	if !ok || len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	// The cut may fall in an escape (\u00e9 is six bytes) or a character
	// (four at most): drop a few bytes until what is left closes.
	for drop := 0; drop < 12 && drop < len(raw); drop++ {
		text := raw[:len(raw)-drop]
		if !utf8.Valid(text) {
			continue
		}
		var s string
		if json.Unmarshal(append(text[:len(text):len(text)], '"'), &s) == nil {
			return s, true
		}
	}
	return "", false
}

// joinFailures is first, then what else went wrong (nil: first alone),
// on one line.
func joinFailures(first, more error) error {
	if more == nil {
		return first
	}
	return &failures{first, more}
}

// failures are two things that went wrong in one run of a command.
type failures struct{ first, more error }

func (f *failures) Error() string   { return f.first.Error() + "; also " + f.more.Error() }
func (f *failures) Unwrap() []error { return []error{f.first, f.more} }

// BlockMessage is both, each as the model may read it.
func (f *failures) BlockMessage() string { return shortText(f.first) + "; also " + shortText(f.more) }

// shortText is err as the model may read it: a non-zero exit without the
// stderr the diagnostic keeps, and one line.
func shortText(err error) string {
	var short BlockMessager
	if errors.As(err, &short) {
		return short.BlockMessage()
	}
	what := err.Error()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		what = exit.String()
	}
	what, _, _ = strings.Cut(what, "\n")
	return what
}

// printedText is how much a command printed on stdout: past
// drainCommandOutput it was killed, and only a lower bound is known.
func printedText(out proc.Output, runErr error) string {
	if errors.Is(runErr, ErrCommandOutputTooLarge) {
		return "more than " + sizeText(drainCommandOutput) + " (killed)"
	}
	return sizeText(out.Written)
}

// sizeText is n bytes for a person: "312 KB".
func sizeText(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d bytes", n)
	case n < 1000_000:
		return fmt.Sprintf("%d KB", (n+999)/1000)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
