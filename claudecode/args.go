package claudecode

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"unicode/utf8"
)

// maxArguments is the most JSON a call's arguments may take to be sent to
// a handler (as for the root package's command hooks): they are never
// cut, so a larger call is one the handler cannot see.
const maxArguments = 8 << 20

// encodeArguments is the JSON text of a call's arguments, exactly, or an
// error: a value JSON cannot carry (NaN, ±Inf, a channel, a func, a cycle),
// a string that is not UTF-8 (encoding/json would send U+FFFD in its
// place), or more than maxArguments bytes. Nil arguments are {}.
func encodeArguments(args map[string]any) (string, error) {
	if args == nil {
		return "{}", nil
	}
	data, err := encodeJSON(args)
	if err != nil {
		return "", fmt.Errorf("the arguments cannot be sent as JSON, so the hook cannot see the call: %w", err)
	}
	if len(data) > maxArguments {
		return "", fmt.Errorf("the arguments take %d bytes of JSON, more than the %d (8 MiB) a hook is sent; they are never cut, so the hook cannot see the call",
			len(data), maxArguments)
	}
	if !utf8.Valid(data) {
		return "", errors.New("the arguments hold text that is not UTF-8, so the hook cannot see the call exactly")
	}
	// encoding/json writes \ufffd for each byte of a string that is not
	// UTF-8: only with \ufffd in the text is the walk worth its cost.
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
