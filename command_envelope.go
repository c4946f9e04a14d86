package hooks

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"unicode/utf8"
)

// envelope is what a command reads on stdin.
type envelope struct {
	Event     string      `json:"event"`
	Cwd       string      `json:"cwd"`
	SessionID string      `json:"sessionId"`
	Timestamp int64       `json:"timestamp"`
	Subject   string      `json:"subject"`
	ToolName  string      `json:"toolName,omitempty"`
	Arguments *string     `json:"arguments,omitempty"`
	Result    *ToolResult `json:"result,omitempty"`
	Path      string      `json:"path,omitempty"`
	Decision  string      `json:"decision,omitempty"`
	IsNew     *bool       `json:"isNew,omitempty"`
	Truncated bool        `json:"truncated,omitempty"`
}

// toolEnvelope adds a tool call to e: its name, and its arguments whole.
func toolEnvelope(e *envelope, call ToolCall) error {
	args, err := encodeArguments(call.Arguments)
	if err != nil {
		return err
	}
	e.ToolName, e.Arguments = call.Name, &args
	return nil
}

// cutText cuts s to at most n bytes at a character boundary: a half
// character would reach the command as U+FFFD, a character not in the text.
func cutText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for i := 0; i < utf8.UTFMax-1 && n > 0 && !utf8.RuneStart(s[n]); i++ {
		n--
	}
	return s[:n]
}

// encodeJSON is v as JSON, without HTML escapes: a guard that looks for
// "a && b" in the text finds it, not "a \u0026\u0026 b".
func encodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}), nil
}

// encodeArguments is the JSON text of a call's arguments, exactly, or an
// error: a value JSON cannot carry (NaN, ±Inf, a channel, a func, a cycle),
// a string that is not UTF-8 (encoding/json would send U+FFFD in its
// place), or more than maxToolArguments bytes. Nil arguments are {}.
func encodeArguments(args map[string]any) (string, error) {
	if args == nil {
		return "{}", nil
	}
	data, err := encodeJSON(args)
	if err != nil {
		return "", fmt.Errorf("the arguments cannot be sent as JSON, so the hook cannot see the call: %w", err)
	}
	if len(data) > maxToolArguments {
		return "", fmt.Errorf("the arguments take %d bytes of JSON, more than the %d (8 MiB) a command hook is sent; they are never cut, so the hook cannot see the call",
			len(data), maxToolArguments)
	}
	// encoding/json writes \ufffd for each byte of a string that is not
	// UTF-8 (a U+FFFD in the text goes as itself): only with \ufffd in the
	// text is the walk worth its cost. A json.Marshaler's output is copied
	// as written, and utf8.Valid catches it.
	if !utf8.Valid(data) {
		return "", errors.New("the arguments hold text that is not UTF-8, so the hook cannot see the call exactly")
	}
	if bytes.Contains(data, []byte(`\ufffd`)) {
		if path, bad := notUTF8(reflect.ValueOf(args), "arguments"); bad {
			return "", fmt.Errorf("%s is not UTF-8: JSON would send U+FFFD in its place, so the hook cannot see the call exactly", path)
		}
	}
	return string(data), nil
}

// notUTF8 finds a string in v, or a map key, that is not valid UTF-8, and
// returns its path. It follows what encoding/json encodes, and runs after
// a successful encoding, so v has no cycle.
func notUTF8(v reflect.Value, path string) (string, bool) {
	if !v.IsValid() || (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) && v.IsNil() {
		return "", false
	}
	if v.CanInterface() {
		switch m := v.Interface().(type) {
		case json.Marshaler:
			return "", false // copied as written: encodeArguments checks the whole text
		case encoding.TextMarshaler:
			text, err := m.MarshalText()
			return path, err == nil && !utf8.Valid(text)
		}
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		return notUTF8(v.Elem(), path)
	case reflect.String:
		return path, !utf8.ValidString(v.String())
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			at := fmt.Sprintf("%s[%q]", path, fmt.Sprint(it.Key()))
			if k := it.Key(); k.Kind() == reflect.String && !utf8.ValidString(k.String()) {
				return at + " (the key)", true
			}
			if p, bad := notUTF8(it.Value(), at); bad {
				return p, true
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len() && v.Type().Elem().Kind() != reflect.Uint8; i++ { // bytes go as base64
			if p, bad := notUTF8(v.Index(i), fmt.Sprintf("%s[%d]", path, i)); bad {
				return p, true
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Type().Field(i); (f.IsExported() || f.Anonymous) && f.Tag.Get("json") != "-" {
				if p, bad := notUTF8(v.Field(i), path+"."+f.Name); bad {
					return p, true
				}
			}
		}
	}
	return "", false
}

// exactStrings checks the strings a guard decides on: JSON would send
// U+FFFD for bytes that are not UTF-8, and the guard judge another name.
func exactStrings(e *envelope) error {
	for _, f := range [...]struct{ name, value string }{{"subject", e.Subject}, {"toolName", e.ToolName},
		{"path", e.Path}, {"cwd", e.Cwd}, {"sessionId", e.SessionID}, {"decision", e.Decision}} {
		if !utf8.ValidString(f.value) {
			return fmt.Errorf("the %s %q is not UTF-8, so the hook cannot see it exactly", f.name, f.value)
		}
	}
	return nil
}
