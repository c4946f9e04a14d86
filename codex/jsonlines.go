package codex

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// lineError is a JSON settings file that cannot be read: where, and why.
type lineError struct {
	line int
	path string
	msg  string
}

// jsonLines walks a JSON document and returns the line of every entry,
// by path ("hooks.PreToolUse[0].hooks[1].timeout"), so that an error
// names the line. A key given twice in one object is an error: Codex's
// decoder refuses a duplicate field, and which of two matchers a guard
// runs under must not depend on which reader read the file.
func jsonLines(data []byte) (map[string]int, *lineError) {
	w := &jsonWalker{data: data, dec: json.NewDecoder(bytes.NewReader(data)), lines: map[string]int{}}
	w.dec.UseNumber()
	if err := w.value(""); err != nil {
		return nil, err
	}
	if _, err := w.dec.Token(); err != io.EOF {
		return nil, &lineError{line: w.line(), msg: "more than one JSON value"}
	}
	return w.lines, nil
}

type jsonWalker struct {
	data  []byte
	dec   *json.Decoder
	lines map[string]int
}

// line is the line of the decoder's position.
func (w *jsonWalker) line() int {
	off := min(int(w.dec.InputOffset()), len(w.data))
	return bytes.Count(w.data[:off], []byte{'\n'}) + 1
}

func (w *jsonWalker) syntax(err error) *lineError {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off := min(int(se.Offset), len(w.data))
		return &lineError{line: bytes.Count(w.data[:off], []byte{'\n'}) + 1, msg: "invalid JSON: " + se.Error()}
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &lineError{line: w.line(), msg: "invalid JSON: unexpected end"}
	}
	return &lineError{line: w.line(), msg: "invalid JSON: " + err.Error()}
}

// value reads one value at path.
func (w *jsonWalker) value(path string) *lineError {
	tok, err := w.dec.Token()
	if err != nil {
		return w.syntax(err)
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return nil
	}
	switch d {
	case '{':
		seen := map[string]bool{}
		for w.dec.More() {
			kt, err := w.dec.Token()
			if err != nil {
				return w.syntax(err)
			}
			key, _ := kt.(string)
			p := keyPath(path, key)
			if seen[key] {
				return &lineError{line: w.line(), path: p, msg: fmt.Sprintf("key %q given twice", key)}
			}
			seen[key] = true
			w.lines[p] = w.line()
			if err := w.value(p); err != nil {
				return err
			}
		}
	case '[':
		for i := 0; w.dec.More(); i++ {
			p := fmt.Sprintf("%s[%d]", path, i)
			w.lines[p] = w.line()
			if err := w.value(p); err != nil {
				return err
			}
		}
	}
	if _, err := w.dec.Token(); err != nil { // the closing delimiter
		return w.syntax(err)
	}
	return nil
}
