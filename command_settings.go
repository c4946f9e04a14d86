package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"
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

// maxSettingsDepth bounds the nesting the checker walks: a valid file nests
// four levels (settings, hooks, entry, command), and the bound keeps a
// hostile "[[[[…" from growing the stack without limit.
const maxSettingsDepth = 32

// settingsChecker walks a settings file's tokens once, before decoding, for
// what decoding would let through silently: a repeated key (the last would
// win), null (a zero value), an unknown top-level key, a wrong shape. It
// records the line of each value down to an entry's fields, by path, for
// the errors of the decoding that follows.
type settingsChecker struct {
	dec   *json.Decoder
	data  []byte
	lines map[string]int
	off   int // lines are counted up to off, incrementally: the walk is linear
	line  int
}

// checkSettings checks data and returns the line of each value by path.
func checkSettings(data []byte) (map[string]int, error) {
	if err := checkText(data); err != nil {
		return nil, err
	}
	c := &settingsChecker{dec: json.NewDecoder(bytes.NewReader(data)), data: data, lines: map[string]int{}, line: 1}
	c.dec.UseNumber() // a number is not parsed here: 1e400 is timeoutMs's error, with its path
	if err := c.value("", 0); err != nil {
		return nil, err
	}
	if _, err := c.dec.Token(); err != io.EOF {
		return nil, &settingsError{line: c.lineAt(c.dec.InputOffset()), msg: "data after the end of the settings object"}
	}
	return c.lines, nil
}

// value walks the value at path, depth levels deep (the top level is 0).
func (c *settingsChecker) value(path string, depth int) error {
	tok, err := c.token()
	if err != nil {
		return err
	}
	line := c.lineAt(c.dec.InputOffset())
	if depth <= 3 {
		c.lines[path] = line
	}
	switch kind := tokenKind(tok); {
	case depth == 0 && kind != "an object":
		return &settingsError{line: line, msg: fmt.Sprintf(`the settings must be a JSON object, {"hooks": [...]}, not %s`, kind)}
	case depth == 1 && path == "hooks" && kind != "an array":
		return &settingsError{path: path, line: line, msg: "must be a list (a JSON array) of entries, not " + kind + "; [] configures none"}
	case tok == nil && strings.HasSuffix(path, "]"):
		return &settingsError{path: path, line: line, msg: "null is not allowed in a list"}
	case tok == nil:
		return &settingsError{path: path, line: line, msg: "null is not allowed: leave the key out to get its default"}
	case depth >= maxSettingsDepth && (kind == "an object" || kind == "an array"):
		return &settingsError{path: path, line: line, msg: fmt.Sprintf("nested more than %d levels deep", maxSettingsDepth)}
	case kind == "an object":
		return c.object(path, depth)
	case kind == "an array":
		for i := 0; c.dec.More(); i++ {
			if err := c.value(fmt.Sprintf("%s[%d]", path, i), depth+1); err != nil {
				return err
			}
		}
		_, err = c.token() // ]
	}
	return err
}

// object walks the members of an object whose { was just read.
func (c *settingsChecker) object(path string, depth int) error {
	seen := map[string]int{} // key -> its first line
	for c.dec.More() {
		tok, err := c.token()
		if err != nil {
			return err
		}
		key, _ := tok.(string) // the decoder reads only strings as keys
		at, line := keyPath(path, key), c.lineAt(c.dec.InputOffset())
		if first, dup := seen[key]; dup {
			return &settingsError{path: at, msg: fmt.Sprintf(
				"duplicate key %q on line %d (the first is on line %d): one would silently replace the other", key, line, first)}
		}
		seen[key] = line
		if depth == 0 && !slices.Contains(settingsKeys, key) {
			return &settingsError{path: at, line: line, msg: fmt.Sprintf(
				"unknown key %q at the top level; the known keys are: %s", key, strings.Join(settingsKeys, ", "))}
		}
		if err := c.value(at, depth+1); err != nil {
			return err
		}
	}
	_, err := c.token() // }
	return err
}

// token reads the next token; a syntax error or a cut file names its line.
func (c *settingsChecker) token() (json.Token, error) {
	tok, err := c.dec.Token()
	var syntax *json.SyntaxError
	switch {
	case err == nil:
		return tok, nil
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return nil, &settingsError{line: c.lineAt(int64(len(c.data))), msg: "unexpected end of JSON input"}
	case errors.As(err, &syntax):
		return nil, &settingsError{line: c.lineAt(syntax.Offset), msg: err.Error()}
	}
	return nil, &settingsError{line: c.lineAt(c.dec.InputOffset()), msg: err.Error()}
}

// lineAt is the 1-based line of the byte before offset off.
func (c *settingsChecker) lineAt(off int64) int {
	end := int(min(max(off, 0), int64(len(c.data))))
	if end < c.off { // a syntax error may point back: count again from the start
		c.off, c.line = 0, 1
	}
	c.line += bytes.Count(c.data[c.off:end], []byte{'\n'})
	c.off = end
	return c.line
}

// tokenKind names a token's kind for error messages.
func tokenKind(tok json.Token) string {
	switch tok {
	case json.Delim('{'):
		return "an object"
	case json.Delim('['):
		return "an array"
	case nil:
		return "null"
	}
	switch tok.(type) {
	case string:
		return "a string"
	case bool:
		return "a boolean"
	}
	return "a number"
}

// checkText rejects the text that decoding would silently turn into
// U+FFFD: bytes that are not UTF-8, anywhere, and in a string a \u escape
// of half a UTF-16 surrogate pair. Either would put another character than
// the one written into, say, a command path.
func checkText(data []byte) error {
	for off := 0; off < len(data); {
		r, size := utf8.DecodeRune(data[off:])
		if r == utf8.RuneError && size == 1 {
			return &settingsError{line: lineOf(data, off), msg: fmt.Sprintf("invalid UTF-8 (byte 0x%02x at offset %d)", data[off], off)}
		}
		off += size
	}
	inString := false
	for i := 0; i < len(data); i++ {
		switch {
		case data[i] == '"':
			inString = !inString
		case data[i] == '\\' && inString:
			if r, ok := escapedRune(data, i); ok && utf16.IsSurrogate(r) {
				if next, ok := escapedRune(data, i+6); ok && r < 0xdc00 && next >= 0xdc00 && next <= 0xdfff {
					i += 11 // a whole pair, \uXXXX\uXXXX
					continue
				}
				return &settingsError{line: lineOf(data, i), msg: fmt.Sprintf(`%s is half a UTF-16 surrogate pair, not a character`, data[i:i+6])}
			}
			i++ // the escaped byte: \" does not end the string
		}
	}
	return nil
}

// lineOf is the 1-based line of data[off].
func lineOf(data []byte, off int) int { return 1 + bytes.Count(data[:off], []byte{'\n'}) }

// escapedRune reads the \uXXXX escape at data[i:], if there is one.
func escapedRune(data []byte, i int) (rune, bool) {
	if i+6 > len(data) || data[i] != '\\' || data[i+1] != 'u' {
		return 0, false
	}
	n, err := strconv.ParseUint(string(data[i+2:i+6]), 16, 32)
	return rune(n), err == nil
}
