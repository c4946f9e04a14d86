package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

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
