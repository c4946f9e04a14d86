// Package strictjson checks a JSON text against the shape of a Go type
// before it is decoded: encoding/json matches keys case-insensitively,
// keeps the last of a repeated key and (even with DisallowUnknownFields)
// takes "Refused" for "refused", so a misspelt expectation in a fixture
// would pass silently. Check names the first key that would not reach a
// field as written, with the valid ones and the line.
package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// Shape is what a JSON value may hold where a Go type has it: an object
// with known fields, an array of one shape, a scalar, or (a nil *Shape)
// any value. It is derived from the Go type (ShapeOf), so it follows it.
type Shape struct {
	fields map[string]*Shape // an object with exactly these keys
	order  []string          // the keys, in the type's order, for messages
	elem   *Shape            // an array of this shape
	array  bool
}

// rawMessage holds any JSON value.
var rawMessage = reflect.TypeFor[json.RawMessage]()

// ShapeOf derives the shape of t from its json tags. Maps, interfaces and
// json.RawMessage hold anything (arguments, env, a result's value, a
// schema): nil. A []byte is a scalar (a base64 string).
func ShapeOf(t reflect.Type) *Shape {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == rawMessage {
		return nil
	}
	if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
		return &Shape{}
	}
	switch t.Kind() {
	case reflect.Struct:
		s := &Shape{fields: map[string]*Shape{}}
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if !f.IsExported() || name == "-" {
				continue
			}
			if name == "" {
				name = f.Name
			}
			s.fields[name] = ShapeOf(f.Type)
			s.order = append(s.order, name)
		}
		return s
	case reflect.Slice, reflect.Array:
		return &Shape{array: true, elem: ShapeOf(t.Elem())}
	case reflect.Map, reflect.Interface:
		return nil
	}
	return &Shape{}
}

// Check reads data as one JSON value of shape s and returns the
// first key that would not reach a field as written: a key s does not
// have (the error lists the ones it has), a key in another case (which
// encoding/json would take), a key given twice (the first would be lost),
// a null where a field is known (it would keep the default), or text
// after the value. Each error names the path of the key and its line.
func Check(data []byte, s *Shape) error {
	c := strictReader{data: data, dec: json.NewDecoder(bytes.NewReader(data))}
	c.dec.UseNumber()
	if err := c.value(s, ""); err != nil {
		return err
	}
	if _, err := c.dec.Token(); err != io.EOF {
		return c.errorf("", "more than one JSON value")
	}
	return nil
}

type strictReader struct {
	data []byte
	dec  *json.Decoder
}

// errorf is an error at path with the line the decoder has reached.
func (c *strictReader) errorf(path, format string, args ...any) error {
	line := 1 + bytes.Count(c.data[:c.dec.InputOffset()], []byte("\n"))
	msg := fmt.Sprintf(format, args...)
	if path != "" {
		msg = path + ": " + msg
	}
	return fmt.Errorf("%s (line %d)", msg, line)
}

// syntax turns a decoder error into one with a line.
func (c *strictReader) syntax(err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line := 1 + bytes.Count(c.data[:min(int(se.Offset), len(c.data))], []byte("\n"))
		return fmt.Errorf("not JSON: %v (line %d)", err, line)
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New("not JSON: the text ends too early")
	}
	return err
}

// value reads one value at path.
func (c *strictReader) value(s *Shape, path string) error {
	tok, err := c.dec.Token()
	if err != nil {
		return c.syntax(err)
	}
	switch tok {
	case json.Delim('{'):
		return c.object(s, path)
	case json.Delim('['):
		return c.array(s, path)
	case nil:
		if s != nil && path != "" {
			return c.errorf(path, "null is not allowed: leave the key out")
		}
	}
	switch {
	case s == nil:
	case s.array:
		return c.errorf(path, "want an array")
	case s.fields != nil:
		return c.errorf(path, "want an object with %s", strings.Join(s.order, ", "))
	}
	return nil // a scalar: encoding/json checks its type
}

func (c *strictReader) object(s *Shape, path string) error {
	if s != nil && s.array {
		return c.errorf(path, "want an array, not an object")
	}
	seen := map[string]bool{}
	for c.dec.More() {
		tok, err := c.dec.Token()
		if err != nil {
			return c.syntax(err)
		}
		key, _ := tok.(string)
		at := key
		if path != "" {
			at = path + "." + key
		}
		var field *Shape
		if s != nil && s.fields != nil {
			f, ok := s.fields[key]
			if !ok {
				return c.errorf(at, "unknown field %q; the fields are %s", key, strings.Join(s.order, ", "))
			}
			field = f
		}
		if seen[key] {
			return c.errorf(at, "given twice: the first would be lost")
		}
		seen[key] = true
		if err := c.value(field, at); err != nil {
			return err
		}
	}
	_, err := c.dec.Token() // }
	return c.syntax(err)
}

func (c *strictReader) array(s *Shape, path string) error {
	if s != nil && s.fields != nil {
		return c.errorf(path, "want an object with %s, not an array", strings.Join(s.order, ", "))
	}
	var elem *Shape
	if s != nil {
		elem = s.elem
	}
	for i := 0; c.dec.More(); i++ {
		if err := c.value(elem, fmt.Sprintf("%s[%d]", path, i)); err != nil {
			return err
		}
	}
	_, err := c.dec.Token() // ]
	return c.syntax(err)
}
