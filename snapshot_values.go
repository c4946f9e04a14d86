package hooks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"strconv"
	"strings"
)

// How a state or memo value crosses a snapshot, and why this way.
//
// Values travel as JSON, and plain encoding/json decodes every number as a
// float64: an int64 UnixNano (1767225600123456789) would come back as
// 1.7672256001234568e+18, a silent change. So numbers are kept exactly:
//
//   - A Go number at the top of a value (a state that is an int, an int64,
//     a float32, a memo result that is a uint8) is recorded with its basic
//     type and comes back as that type.
//   - Numbers inside maps, slices and structs come back as JSON types: a
//     float64 when a float64 holds the number exactly (as before), else an
//     int64, else a uint64. So 3 is float64(3), 1767225600123456789 is
//     int64(1767225600123456789).
//   - A number no Go number type holds exactly (a json.Number or big.Int
//     with more digits) is refused by Snapshot, with an error naming the
//     hook, the key and where in the value it is. Never a silent change.

// numberKinds are the basic types a top-level number is recorded as.
var numberKinds = map[reflect.Kind]string{
	reflect.Int: "int", reflect.Int8: "int8", reflect.Int16: "int16", reflect.Int32: "int32", reflect.Int64: "int64",
	reflect.Uint: "uint", reflect.Uint8: "uint8", reflect.Uint16: "uint16", reflect.Uint32: "uint32", reflect.Uint64: "uint64",
	reflect.Float32: "float32",
}

// encodeValue marshals a state or memo value and checks that it reads back
// exactly. It returns the JSON and, for a top-level Go number other than
// float64, its basic type's name. what names the value in errors.
func encodeValue(v any, what string) (json.RawMessage, string, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", what, err)
	}
	if needsExactDecode(raw) {
		if _, err := decodeExact(raw); err != nil {
			return nil, "", fmt.Errorf("%s: %w (it would not come back as it is)", what, err)
		}
	}
	if replacedInvalidUTF8(raw) {
		return nil, "", fmt.Errorf("%s: a string in it is not valid UTF-8 (JSON would change it to U+FFFD)", what)
	}
	typ := ""
	if v != nil {
		typ = numberKinds[reflect.TypeOf(v).Kind()]
	}
	return raw, typ, nil
}

// decodeValue reads a value encodeValue wrote; typ is its recorded type.
func decodeValue(raw json.RawMessage, typ string) (any, error) {
	var v any
	if needsExactDecode(raw) {
		var err error
		if v, err = decodeExact(raw); err != nil {
			return nil, err
		}
	} else if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	if typ == "" {
		return v, nil
	}
	return asNumberType(v, typ)
}

// needsExactDecode reports whether raw has a number float64 may not hold
// exactly: one with more than 15 significant digits or an exponent. Most
// values have none, and decode the fast way.
func needsExactDecode(raw []byte) bool {
	inString, escaped, digits := false, false, 0
	for _, b := range raw {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
		case b == '"':
			inString, digits = true, 0
		case b >= '0' && b <= '9':
			if digits++; digits > 15 {
				return true
			}
		case b == 'e' || b == 'E':
			return true
		case b == '.':
		default:
			digits = 0
		}
	}
	return false
}

// decodeExact decodes JSON, each number as the first of float64, int64 and
// uint64 that holds it exactly; a number none holds is an error saying
// where it is.
func decodeExact(raw []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return exactNumbers(v, "")
}

func exactNumbers(v any, path string) (any, error) {
	switch v := v.(type) {
	case json.Number:
		n, err := exactNumber(string(v))
		if err != nil {
			return nil, fmt.Errorf("at %s: %w", orTop(path), err)
		}
		return n, nil
	case map[string]any:
		for k, e := range v {
			n, err := exactNumbers(e, path+"."+k)
			if err != nil {
				return nil, err
			}
			v[k] = n
		}
	case []any:
		for i, e := range v {
			n, err := exactNumbers(e, path+"["+strconv.Itoa(i)+"]")
			if err != nil {
				return nil, err
			}
			v[i] = n
		}
	}
	return v, nil
}

func orTop(path string) string {
	if path == "" {
		return "the top"
	}
	return path
}

// exactNumber is s as a float64 if that is the number s writes (the
// float64's shortest form names the same decimal, as for 0.1, or its exact
// value is s, as for 2^63), else as an int64 or uint64.
func exactNumber(s string) (any, error) {
	f, ferr := strconv.ParseFloat(s, 64)
	if ferr == nil && sameFloat(s, f) {
		return f, nil
	}
	if !strings.ContainsAny(s, ".eE") {
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return i, nil
		}
		if u, err := strconv.ParseUint(s, 10, 64); err == nil {
			return u, nil
		}
	}
	return nil, fmt.Errorf("number %s is not held exactly by any Go number type (float64, int64, uint64)", s)
}

// sameFloat reports whether the decimal s is f: f's shortest form or f's
// exact value.
func sameFloat(s string, f float64) bool {
	short := strconv.FormatFloat(f, 'g', -1, 64)
	if s == short {
		return true
	}
	x, ok := new(big.Rat).SetString(s)
	if !ok {
		return false
	}
	if y, ok := new(big.Rat).SetString(short); ok && x.Cmp(y) == 0 {
		return true
	}
	return x.Cmp(new(big.Rat).SetFloat64(f)) == 0
}

// asNumberType converts a decoded top-level number back to its recorded
// basic type, refusing one that type does not hold.
func asNumberType(v any, typ string) (any, error) {
	var kind reflect.Kind = reflect.Invalid
	for k, name := range numberKinds {
		if name == typ {
			kind = k
		}
	}
	if kind == reflect.Invalid {
		return nil, fmt.Errorf("unknown number type %q", typ)
	}
	rt := basicType(kind)
	out := reflect.New(rt).Elem()
	switch n := v.(type) {
	case float64:
		if kind == reflect.Float32 { // a float32 marshals in its shortest float32 form: rounding gives it back
			if out.OverflowFloat(n) {
				return nil, fmt.Errorf("%v is not a %s", n, typ)
			}
			out.SetFloat(n)
			return out.Interface(), nil
		}
		if n != math.Trunc(n) {
			return nil, fmt.Errorf("%v is not a %s", n, typ)
		}
		if kind >= reflect.Uint && kind <= reflect.Uint64 {
			if n < 0 || n >= 1<<64 || out.OverflowUint(uint64(n)) {
				return nil, fmt.Errorf("%v is not a %s", n, typ)
			}
			out.SetUint(uint64(n))
		} else {
			if n < -(1<<63) || n >= 1<<63 || out.OverflowInt(int64(n)) {
				return nil, fmt.Errorf("%v is not a %s", n, typ)
			}
			out.SetInt(int64(n))
		}
	case int64:
		if kind >= reflect.Uint && kind <= reflect.Uint64 {
			if n < 0 || out.OverflowUint(uint64(n)) {
				return nil, fmt.Errorf("%v is not a %s", n, typ)
			}
			out.SetUint(uint64(n))
		} else if kind == reflect.Float32 || out.OverflowInt(n) {
			return nil, fmt.Errorf("%v is not a %s", n, typ)
		} else {
			out.SetInt(n)
		}
	case uint64:
		if kind < reflect.Uint || kind > reflect.Uint64 || out.OverflowUint(n) {
			return nil, fmt.Errorf("%v is not a %s", n, typ)
		}
		out.SetUint(n)
	default:
		return nil, fmt.Errorf("a %s is recorded, but the value is %T", typ, v)
	}
	return out.Interface(), nil
}

func basicType(k reflect.Kind) reflect.Type {
	switch k {
	case reflect.Int:
		return reflect.TypeFor[int]()
	case reflect.Int8:
		return reflect.TypeFor[int8]()
	case reflect.Int16:
		return reflect.TypeFor[int16]()
	case reflect.Int32:
		return reflect.TypeFor[int32]()
	case reflect.Int64:
		return reflect.TypeFor[int64]()
	case reflect.Uint:
		return reflect.TypeFor[uint]()
	case reflect.Uint8:
		return reflect.TypeFor[uint8]()
	case reflect.Uint16:
		return reflect.TypeFor[uint16]()
	case reflect.Uint32:
		return reflect.TypeFor[uint32]()
	case reflect.Uint64:
		return reflect.TypeFor[uint64]()
	default:
		return reflect.TypeFor[float32]()
	}
}

// replacedInvalidUTF8 reports whether json.Marshal wrote a \ufffd escape:
// it writes one only for bytes that are not UTF-8 (a real U+FFFD is
// written as itself, and a backslash before "ufffd" as \\).
func replacedInvalidUTF8(raw []byte) bool {
	const esc = `\ufffd`
	for i := 0; ; {
		j := bytes.Index(raw[i:], []byte(esc))
		if j < 0 {
			return false
		}
		at := i + j
		slashes := 0
		for k := at; k >= 0 && raw[k] == '\\'; k-- {
			slashes++
		}
		if slashes%2 == 1 {
			return true
		}
		i = at + len(esc)
	}
}
