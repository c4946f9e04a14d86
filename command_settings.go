package hooks

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// CommandHookConfig is one entry of the "hooks" list of a settings file:
// an external command run at an event.
type CommandHookConfig struct {
	Name       string   `json:"name,omitempty"` // the hook's name; "": "<event>#<index>"
	Event      string   `json:"event"`
	Matcher    string   `json:"matcher,omitempty"`
	Command    []string `json:"command"`
	TimeoutMs  int      `json:"timeoutMs,omitempty"`
	Enabled    *bool    `json:"enabled,omitempty"`
	FailClosed bool     `json:"failClosed,omitempty"`
}

// settingsKeys are the top-level keys of a command settings file. Any other
// key is an error: a misspelt "hooks" would otherwise load no hook at all,
// guards included, without a word.
var settingsKeys = []string{"hooks"}

// commandFields are the fields of an entry, in the order the docs list them.
var commandFields = []string{"event", "matcher", "command", "timeoutMs", "enabled", "failClosed", "name"}

// maxTimeoutMs is the largest timeoutMs accepted: the largest whose
// conversion to a time.Duration cannot overflow (about 292 years) and that
// fits CommandHookConfig.TimeoutMs (an int) on every platform. Values above
// MaxCommandTimeout are still capped to it; a larger one is an error,
// because it is a mistake, not a wish for a long timeout.
const maxTimeoutMs = min(math.MaxInt, math.MaxInt64/int64(time.Millisecond))

// ParseCommandSettings decodes a command settings file, strictly. The file
// is a JSON object whose only key is "hooks", a list (JSON array) of
// entries; {} and {"hooks": []} configure no hook. These are errors, each
// naming the value at fault (like hooks[2].timeoutMs) and its line:
//   - text that is not UTF-8, and \u escapes of half a UTF-16 surrogate
//     pair (both would silently become U+FFFD, in a command path say);
//   - a key repeated in any object (the last one would silently win: a
//     second "hooks": [] drops every guard before it);
//   - null anywhere (leave a key out to get its default);
//   - an unknown top-level key, a top level that is not an object, and
//     "hooks" that is not an array;
//   - in an entry: an unknown field (names match exactly, case included),
//     a missing or unknown event, an empty command or executable, and a
//     timeoutMs that is not a whole number from 0 to 9223372036854 (any
//     value above 60000 is capped to 60000).
func ParseCommandSettings(data []byte) ([]CommandHookConfig, error) {
	lines, err := checkSettings(data)
	if err != nil {
		return nil, err
	}
	var settings struct {
		Hooks []json.RawMessage `json:"hooks"`
	}
	if err := json.Unmarshal(data, &settings); err != nil {
		// Unreachable after checkSettings, which saw the same syntax; kept
		// so that a gap between the two is an error, never a silent zero.
		return nil, &settingsError{msg: err.Error()}
	}
	out := make([]CommandHookConfig, len(settings.Hooks))
	for i, raw := range settings.Hooks {
		if err := parseCommandEntry(raw, &out[i]); err != nil {
			entry := fmt.Sprintf("hooks[%d]", i)
			path := entry
			if !err.whole {
				path = keyPath(entry, err.field)
			}
			line, ok := lines[path]
			if !ok {
				line = lines[entry] // a missing field: the entry's line
			}
			return nil, &settingsError{path: path, line: line, msg: err.msg}
		}
	}
	named := map[string]int{}
	for i, cfg := range out {
		if cfg.Name == "" {
			continue
		}
		if j, dup := named[cfg.Name]; dup {
			path := fmt.Sprintf("hooks[%d].name", i)
			return nil, &settingsError{path: path, line: lines[path], msg: fmt.Sprintf("duplicate name %q (hooks[%d] has it too)", cfg.Name, j)}
		}
		named[cfg.Name] = i
	}
	return out, nil
}

// settingsError is an error in a settings file: the path of the value at
// fault ("" for the file as a whole), its line (0 when unknown), and what
// is wrong. It reads "hooks: settings: hooks[2].timeoutMs: … (line 7)".
type settingsError struct {
	path string
	line int
	msg  string
}

// Error names the path, then the problem, then the line.
func (e *settingsError) Error() string {
	var b strings.Builder
	b.WriteString("hooks: settings: ")
	if e.path != "" {
		b.WriteString(e.path + ": ")
	}
	b.WriteString(e.msg)
	if e.line > 0 {
		fmt.Fprintf(&b, " (line %d)", e.line)
	}
	return b.String()
}

// fieldError is an error in one field of an entry, or in the whole entry.
type fieldError struct {
	field, msg string
	whole      bool
}

// entryError makes a fieldError.
func entryError(field, format string, args ...any) *fieldError {
	return &fieldError{field: field, msg: fmt.Sprintf(format, args...)}
}

// parseCommandEntry decodes one entry into cfg. The keys are checked
// before any is decoded, in sorted order, so the error does not depend on
// map order.
func parseCommandEntry(raw json.RawMessage, cfg *CommandHookConfig) *fieldError {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return &fieldError{whole: true, msg: "an entry must be an object with " + strings.Join(commandFields, ", ")}
	}
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !slices.Contains(commandFields, k) {
			return entryError(k, "unknown field %q; the fields are %s", k, strings.Join(commandFields, ", "))
		}
	}
	targets := map[string]any{"name": &cfg.Name, "event": &cfg.Event, "matcher": &cfg.Matcher, "command": &cfg.Command,
		"enabled": &cfg.Enabled, "failClosed": &cfg.FailClosed}
	for _, k := range keys {
		var err error
		if k == "timeoutMs" {
			cfg.TimeoutMs, err = parseTimeoutMs(fields[k])
		} else {
			err = json.Unmarshal(fields[k], targets[k])
		}
		if err != nil {
			return entryError(k, "%v", err)
		}
	}
	return checkEntry(cfg)
}

// checkEntry checks what decoding alone cannot: the event and the command.
func checkEntry(cfg *CommandHookConfig) *fieldError {
	switch {
	case cfg.Event == "":
		return entryError("event", "missing; the events are %s", eventNames())
	case commandEvents[cfg.Event] == "":
		return entryError("event", "unknown event %q; the events are %s", cfg.Event, eventNames())
	case len(cfg.Command) == 0:
		return entryError("command", "empty: it must name the executable and its arguments")
	case cfg.Command[0] == "":
		return entryError("command", "the executable (command[0]) is empty")
	case cfg.Name != "" && strings.TrimSpace(cfg.Name) != cfg.Name:
		return entryError("name", "%q has spaces around it", cfg.Name)
	}
	return nil
}

// parseTimeoutMs reads timeoutMs from its JSON text: a whole number from 0
// to maxTimeoutMs. It compares the text's value before any conversion or
// multiplication, so no value can wrap around into a negative timeout (one
// that expires before the guard starts, and lets the call through). Like
// the seed's decoder, it takes no fraction, exponent or quoted number.
func parseTimeoutMs(raw json.RawMessage) (int, error) {
	text := string(raw)
	if len(text) == 0 || (text[0] != '-' && (text[0] < '0' || text[0] > '9')) {
		return 0, fmt.Errorf("must be a whole number of milliseconds, not %s", clip(raw))
	}
	n, err := strconv.ParseInt(text, 10, 64)
	switch {
	case (err == nil && n < 0) || (errors.Is(err, strconv.ErrRange) && text[0] == '-'):
		return 0, fmt.Errorf("negative (%s)", text)
	case errors.Is(err, strconv.ErrRange) || (err == nil && n > maxTimeoutMs):
		return 0, fmt.Errorf("%s is out of range: the largest timeoutMs is %d, and any value over %d is capped to %d",
			text, maxTimeoutMs, MaxCommandTimeout.Milliseconds(), MaxCommandTimeout.Milliseconds())
	case err != nil:
		return 0, fmt.Errorf("must be a whole number of milliseconds (no fraction or exponent), not %s", text)
	}
	return int(n), nil
}

// eventNames lists the events, sorted, for error messages.
func eventNames() string {
	names := make([]string, 0, len(commandEvents))
	for e := range commandEvents {
		names = append(names, e)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// keyPath is the path of key in the object at parent: parent.key, or
// parent["key"] when the key is not a plain name, so that every path reads
// back unambiguously.
func keyPath(parent, key string) string {
	plain := key != ""
	for _, r := range key {
		if !(r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			plain = false
		}
	}
	switch {
	case !plain:
		return parent + "[" + strconv.Quote(key) + "]"
	case parent == "":
		return key
	}
	return parent + "." + key
}
