// Package exactjson decodes what a hook prints or returns the way the
// hook's own host reads it: JSON.parse, then a property read. Object keys
// match field names exactly, case included (encoding/json matches them
// case-insensitively, so {"decision":"deny","Decision":"allow"} would read
// as an allow), a key given twice takes its last value, and keys with no
// field are returned so that a typo can be diagnosed instead of dropped.
package exactjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"
)

// Unmarshal decodes data into v, a non-nil pointer. Struct fields are
// matched by their json tag names (or Go names without a tag) exactly;
// nested structs, pointers to structs and slices of them are matched the
// same way; maps, interfaces and scalars decode as encoding/json does. It
// returns the paths of the keys no field took ("hookSpecificOutput.PermissionDecision"),
// sorted.
func Unmarshal(data []byte, v any) (unknown []string, err error) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return nil, fmt.Errorf("exactjson: Unmarshal needs a non-nil pointer, not %T", v)
	}
	if !json.Valid(data) {
		// encoding/json's error says where.
		var x any
		return nil, json.Unmarshal(data, &x)
	}
	d := decoder{}
	if err := d.decode(bytes.TrimSpace(data), rv.Elem(), ""); err != nil {
		return nil, err
	}
	sort.Strings(d.unknown)
	return d.unknown, nil
}

type decoder struct{ unknown []string }

func (d *decoder) decode(raw []byte, v reflect.Value, path string) error {
	if bytes.Equal(raw, []byte("null")) {
		return nil // as encoding/json: null leaves the value as it is
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		return d.decode(raw, v.Elem(), path)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[json.RawMessage]() {
			break
		}
		return d.object(raw, v, path)
	case reflect.Slice:
		if elem := v.Type().Elem(); isStructish(elem) {
			var items []json.RawMessage
			if err := json.Unmarshal(raw, &items); err != nil {
				return at(path, err)
			}
			s := reflect.MakeSlice(v.Type(), len(items), len(items))
			for i, item := range items {
				if err := d.decode(item, s.Index(i), fmt.Sprintf("%s[%d]", path, i)); err != nil {
					return err
				}
			}
			v.Set(s)
			return nil
		}
	}
	if err := json.Unmarshal(raw, v.Addr().Interface()); err != nil {
		return at(path, err)
	}
	return nil
}

// object decodes a JSON object into the struct v, key by key.
func (d *decoder) object(raw []byte, v reflect.Value, path string) error {
	var keys map[string]json.RawMessage // a repeated key keeps its last value, as JSON.parse does
	if err := json.Unmarshal(raw, &keys); err != nil {
		return at(path, err)
	}
	fields := fieldsOf(v.Type())
	for key, val := range keys {
		index, ok := fields[key]
		if !ok {
			d.unknown = append(d.unknown, join(path, key))
			continue
		}
		if err := d.decode(val, v.FieldByIndex(index), join(path, key)); err != nil {
			return err
		}
	}
	return nil
}

// fieldsOf maps each JSON name of t's fields to the field's index,
// flattening embedded structs as encoding/json does.
func fieldsOf(t reflect.Type) map[string][]int {
	if f, ok := fieldCache.Load(t); ok {
		return f.(map[string][]int)
	}
	f, _ := fieldCache.LoadOrStore(t, makeFields(t))
	return f.(map[string][]int)
}

// fieldCache holds fieldsOf's answer per type (read-only once stored):
// the types decoded are few and fixed, and the walk of their fields cost
// more than the decoding itself.
var fieldCache sync.Map // reflect.Type -> map[string][]int

// makeFields is fieldsOf, uncached.
func makeFields(t reflect.Type) map[string][]int {
	out := map[string][]int{}
	for _, f := range reflect.VisibleFields(t) {
		if !f.IsExported() || f.Anonymous && f.Tag.Get("json") == "" && f.Type.Kind() == reflect.Struct {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if _, taken := out[name]; !taken {
			out[name] = f.Index
		}
	}
	return out
}

func isStructish(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Kind() == reflect.Struct && t != reflect.TypeFor[json.RawMessage]()
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func at(path string, err error) error {
	if path == "" {
		return err
	}
	return fmt.Errorf("%s: %w", path, err)
}
