package hooks

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"
)

// InvalidArgumentsKey is the one key of the arguments ParseArguments
// returns for text it will not take as arguments: its value is the text as
// the model wrote it.
const InvalidArgumentsKey = "_invalid_json"

// ParseArguments decodes a tool call's arguments as a model sent them (the
// raw JSON of OpenAI's function.arguments, Anthropic's input, MCP's
// arguments).
//
// A JSON object decodes as encoding/json does (numbers as float64, so an
// integer past 2^53 loses precision: pass the raw text on to the tool
// unless ToolStep.Rewritten says a hook changed the arguments). Empty
// text, blanks and null are no arguments: an empty map and no error.
//
// Anything else is an error, and the arguments are still not empty: they
// hold the text under InvalidArgumentsKey, so that a guard checking a key
// sees no value it could take for safe, and a hook (or the host, on the
// error) can refuse the call with the model's own text in the reason. That
// covers broken JSON, a JSON value that is not an object, and an object
// with two keys that differ only in case (or repeat exactly) at any depth:
// the hooks would read one value and a tool decoding the raw text into a
// struct (encoding/json matches names without regard to case) or keeping
// the first of two equal keys another. Never pass an empty map on an
// error: a guard would let it through.
func ParseArguments(raw []byte) (map[string]any, error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return map[string]any{}, nil
	}
	invalid := func(err error) (map[string]any, error) {
		return map[string]any{InvalidArgumentsKey: string(raw)},
			fmt.Errorf("hooks: tool arguments are not a JSON object: %w", err)
	}
	if trimmed[0] != '{' {
		if !json.Valid(trimmed) {
			return invalid(errors.New("not valid JSON"))
		}
		return invalid(fmt.Errorf("a JSON %s", jsonKind(trimmed[0])))
	}
	var args map[string]any
	if err := json.Unmarshal(trimmed, &args); err != nil {
		return invalid(err)
	}
	if members(trimmed) != entries(args) || foldCollides(args) {
		return invalid(duplicateKey(trimmed)) // rare: the slow walk names the key
	}
	return args, nil
}

// jsonKind names the kind of the valid JSON value that starts with b.
func jsonKind(b byte) string {
	switch b {
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	}
	return "number"
}

// keyFrame is one object or array that distinctKeys is inside.
type keyFrame struct {
	keys  map[string]bool // an object's keys, folded; nil for an array
	atKey bool            // in an object: the next token is a key
}

// members counts the members of every object in the valid JSON text: the
// colons outside strings. With entries, it finds an exact duplicate key
// (which the decoded map keeps once) without decoding the text again.
func members(text []byte) int {
	n, inString, escaped := 0, false, false
	for _, b := range text {
		switch {
		case escaped:
			escaped = false
		case inString && b == '\\':
			escaped = true
		case b == '"':
			inString = !inString
		case !inString && b == ':':
			n++
		}
	}
	return n
}

// entries counts the keys of every map in v.
func entries(v any) int {
	n := 0
	switch v := v.(type) {
	case map[string]any:
		n += len(v)
		for _, x := range v {
			n += entries(x)
		}
	case []any:
		for _, x := range v {
			n += entries(x)
		}
	}
	return n
}

// foldCollides says whether a map in v has two keys that fold to the same
// name. Keys of lowercase ASCII letters, digits and punctuation fold to
// themselves: only a map with another key pays for folding.
func foldCollides(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		if len(v) > 1 && !allFolded(v) {
			seen := make(map[string]bool, len(v))
			for k := range v {
				f := foldKey(k)
				if seen[f] {
					return true
				}
				seen[f] = true
			}
		}
		for _, x := range v {
			if foldCollides(x) {
				return true
			}
		}
	case []any:
		for _, x := range v {
			if foldCollides(x) {
				return true
			}
		}
	}
	return false
}

// allFolded says whether every key of m is already folded: ASCII without
// capitals.
func allFolded(m map[string]any) bool {
	for k := range m {
		for i := 0; i < len(k); i++ {
			if c := k[i]; c >= 0x80 || ('A' <= c && c <= 'Z') {
				return false
			}
		}
	}
	return true
}

// duplicateKey walks the valid JSON text token by token and names the
// first key of an object that folds to the same name as an earlier one.
func duplicateKey(text []byte) error {
	dec := json.NewDecoder(bytes.NewReader(text))
	var stack []keyFrame
	for {
		tok, err := dec.Token()
		if err != nil {
			return errors.New("a key appears twice") // not reached: the caller found one
		}
		if n := len(stack); n > 0 && stack[n-1].atKey {
			if tok == json.Delim('}') {
				stack = valueDone(stack[:n-1])
				continue
			}
			key, folded := tok.(string), foldKey(tok.(string))
			if stack[n-1].keys[folded] {
				return fmt.Errorf("the key %q appears twice (keys that differ only in case count as one)", key)
			}
			stack[n-1].keys[folded], stack[n-1].atKey = true, false
			continue
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, keyFrame{keys: map[string]bool{}, atKey: true})
		case json.Delim('['):
			stack = append(stack, keyFrame{})
		case json.Delim(']'):
			stack = valueDone(stack[:len(stack)-1])
		default:
			stack = valueDone(stack)
		}
	}
}

// valueDone records that a value ended: in an object, a key comes next.
func valueDone(stack []keyFrame) []keyFrame {
	if n := len(stack); n > 0 && stack[n-1].keys != nil {
		stack[n-1].atKey = true
	}
	return stack
}

// foldKey is the name encoding/json would match a key to, whatever its
// case: folded down and up, so that the Kelvin sign matches k and the long
// s matches s.
func foldKey(k string) string {
	return strings.ToLower(strings.ToUpper(k))
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

// EncodeArguments returns the JSON text of a call's arguments, exactly as
// a hook outside the process (a command, a dialect's script, an HTTP hook)
// must see them, or an error when no JSON text can say them: a value JSON
// cannot carry (NaN, ±Inf, a channel, a func, a cycle), or a string that
// is not UTF-8 (encoding/json would send U+FFFD in its place, and the
// guard would judge another string than the tool reads). Nil arguments are
// {}. HTML characters are not escaped: a guard that looks for "a && b"
// finds it. A hook kind that cannot send the call exactly should refuse it
// (FailClosed), never send an approximation.
func EncodeArguments(args map[string]any) (string, error) {
	if args == nil {
		return "{}", nil
	}
	data, err := encodeJSON(args)
	if err != nil {
		return "", err
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
			return "", false // copied as written: EncodeArguments checks the whole text
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

// ArgumentKeys returns the keys of args that a tool's decoder may read as
// the argument name, sorted: name itself and every key equal to it once
// case is set aside (encoding/json matches a struct field's name without
// regard to case, so "File_Path" fills file_path) or once dashes and
// underscores are too (encoding/json/v2's case:ignore, so "filePath"
// fills file_path). A policy that judges an argument judges each of them;
// one that exempts a call needs each of them to qualify.
func ArgumentKeys(args map[string]any, name string) []string {
	want := ArgumentName(name)
	var out []string
	for k := range args {
		if k == name || ArgumentName(k) == want {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// ArgumentName is name as ArgumentKeys compares it: case folded, dashes
// and underscores dropped.
func ArgumentName(name string) string {
	plain := true
	for i := 0; i < len(name); i++ {
		if c := name[i]; c >= 0x80 || 'A' <= c && c <= 'Z' || c == '_' || c == '-' {
			plain = false
			break
		}
	}
	if plain {
		return name // the common case: no allocation
	}
	return strings.NewReplacer("_", "", "-", "").Replace(foldKey(name))
}
