package dialect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/internal/exactjson"
	"github.com/rienda/hooks/internal/suggest"
)

// Settings reads one settings file: it decodes its entries with exact
// names and reports, naming the file, the line and the entry, what it
// skips (an unknown key, with the key it resembles) as a diagnostic and
// what it cannot load as an error.
type Settings struct {
	// Label starts every message ("codex: Codex settings").
	Label string
	// File names the file in messages; "" leaves it out.
	File string
	// Diag receives the load-time diagnostics.
	Diag func(hooks.Diagnostic)

	data  []byte
	lines map[string]int // entry path -> line
}

// NewSettings prepares data, a settings file, for reading; the line of
// each entry is found once, so that messages can name it.
func NewSettings(label, file string, data []byte, diag func(hooks.Diagnostic)) *Settings {
	s := &Settings{Label: label, File: file, Diag: diag, data: data}
	s.lines = entryLines(data)
	return s
}

// Line is the line of the entry at path ("hooks.PreToolUse[0].hooks[1]"),
// or, for a key that is missing, of the nearest entry that holds it; 0
// when none is known.
func (s *Settings) Line(path string) int {
	for path != "" {
		if n, ok := s.lines[path]; ok {
			return n
		}
		i := strings.LastIndexAny(path, ".[")
		if i < 0 {
			return 0
		}
		path = path[:i]
	}
	return 0
}

// where is "file: line N: path" as far as each is known.
func (s *Settings) where(path string) string {
	var parts []string
	if s.File != "" {
		parts = append(parts, s.File)
	}
	if n := s.Line(path); n > 0 {
		parts = append(parts, "line "+strconv.Itoa(n))
	}
	if path != "" {
		parts = append(parts, path)
	}
	return strings.Join(parts, ": ")
}

// SettingsError is a settings file that cannot be loaded: Where names the
// file, line and entry.
type SettingsError struct {
	Label, Where, Msg string
}

// Error reads "label: where: msg".
func (e *SettingsError) Error() string {
	if e.Where == "" {
		return e.Label + ": " + e.Msg
	}
	return e.Label + ": " + e.Where + ": " + e.Msg
}

// Errorf is the error of the entry at path.
func (s *Settings) Errorf(path, format string, args ...any) error {
	return &SettingsError{Label: s.Label, Where: s.where(path), Msg: fmt.Sprintf(format, args...)}
}

// Warnf reports something of the entry at path that does not run, as a
// load-time diagnostic.
func (s *Settings) Warnf(path, format string, args ...any) {
	w := s.where(path)
	if w != "" {
		w += ": "
	}
	s.Diag(hooks.Diagnostic{Err: fmt.Errorf("%s: %s%s", s.Label, w, fmt.Sprintf(format, args...))})
}

// Object decodes the entry at path, a JSON object, into v (a pointer to a
// struct with json tags) with exact names; each key no field took is a
// diagnostic with the key it resembles. A value that is not an object, or
// does not fit v, is an error naming the entry; want says what it should
// be ("{\"matcher\": \"…\", \"hooks\": [...]}").
func (s *Settings) Object(path string, raw json.RawMessage, v any, want string) error {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || t[0] != '{' {
		return s.Errorf(path, "must be an object %s", want)
	}
	unknown, err := exactjson.Unmarshal(t, v)
	if err != nil {
		return s.Errorf(path, "%v", err)
	}
	s.UnknownKeys(path, unknown, fieldNames(v))
	return nil
}

// UnknownKeys reports each of keys (of the object at path) with the one of
// known it resembles, or the keys there are.
func (s *Settings) UnknownKeys(path string, keys, known []string) {
	for _, k := range keys {
		if like, ok := suggest.Closest(k, known); ok {
			s.Warnf(path, "unknown key %q, not read; did you mean %q?", k, like)
		} else {
			s.Warnf(path, "unknown key %q, not read (the keys are %s)", k, strings.Join(known, ", "))
		}
	}
}

// Event reports whether name is an event the dialect runs; if not, it
// reports it: an event the dialect has but does not run (with why, from
// notRun), or an unknown one, with the event it resembles.
func (s *Settings) Event(path, name string, run []string, notRun map[string]string) bool {
	for _, r := range run {
		if r == name {
			return true
		}
	}
	if why, ok := notRun[name]; ok {
		s.Warnf(path, "event %q not run by this library, skipped: %s", name, why)
		return false
	}
	known := append(append([]string(nil), run...), sortedKeys(notRun)...)
	if like, ok := suggest.Closest(name, known); ok {
		s.Warnf(path, "unknown event %q, skipped; did you mean %q?", name, like)
		return false
	}
	s.Warnf(path, "unknown event %q, skipped; the events are %s", name, strings.Join(known, ", "))
	return false
}

// fieldNames are the json names of the fields of *v's struct type, in
// order.
func fieldNames(v any) []string {
	t := reflect.TypeOf(v)
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-" || !f.IsExported():
			continue
		case name == "":
			name = f.Name
		}
		out = append(out, name)
	}
	return out
}

// entryLines finds the line of each object and array entry of data, by
// path ("hooks.PreToolUse[0]"); an invalid text gives what was found
// before the error.
func entryLines(data []byte) map[string]int {
	w := &lineWalker{data: data, lines: map[string]int{}}
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		off := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return w.lines
		}
		w.token(tok, off+int64(len(leadingSpace(data[off:]))))
	}
}

// lineWalker keeps the path of the entry a JSON token stream is at.
type lineWalker struct {
	data  []byte
	lines map[string]int
	stack []*frame
}

// frame is one open object or array.
type frame struct {
	path   string
	array  bool
	index  int
	key    string
	expect bool // object: the next token is a key
}

// token notes tok, which starts at byte at.
func (w *lineWalker) token(tok json.Token, at int64) {
	line := 1 + bytes.Count(w.data[:min(int(at), len(w.data))], []byte{'\n'})
	top := w.top()
	if top != nil && !top.array && top.expect {
		if k, ok := tok.(string); ok {
			top.key, top.expect = k, false
			w.lines[w.child()] = line
			return
		}
	}
	switch tok {
	case json.Delim('{'), json.Delim('['):
		p := w.child()
		if _, seen := w.lines[p]; !seen || top != nil && top.array {
			w.lines[p] = line
		}
		w.stack = append(w.stack, &frame{path: p, array: tok == json.Delim('['), expect: tok == json.Delim('{')})
	case json.Delim('}'), json.Delim(']'):
		w.stack = w.stack[:len(w.stack)-1]
		w.advance()
	default:
		if top != nil && top.array {
			w.lines[w.child()] = line
		}
		w.advance()
	}
}

// top is the innermost open frame, or nil.
func (w *lineWalker) top() *frame {
	if len(w.stack) == 0 {
		return nil
	}
	return w.stack[len(w.stack)-1]
}

// child is the path of the entry the next value is.
func (w *lineWalker) child() string {
	f := w.top()
	switch {
	case f == nil:
		return ""
	case f.array:
		return fmt.Sprintf("%s[%d]", f.path, f.index)
	case f.path == "":
		return f.key
	}
	return f.path + "." + f.key
}

// advance moves past a value of the innermost frame.
func (w *lineWalker) advance() {
	if f := w.top(); f != nil {
		if f.array {
			f.index++
		} else {
			f.expect = true
		}
	}
}

// leadingSpace is the white space (and a separator) data starts with.
func leadingSpace(data []byte) []byte {
	i := 0
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r' || data[i] == ',' || data[i] == ':') {
		i++
	}
	return data[:i]
}
