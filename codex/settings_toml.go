package codex

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/BurntSushi/toml"

	"github.com/rienda/hooks/dialect"
)

// parseTOML reads the [hooks] tables of a config.toml.
func parseTOML(data []byte, name string) (*file, error) {
	if !utf8.Valid(data) {
		return nil, &settingsError{file: name, msg: "not UTF-8 (Codex does not read the file; a decoder would change the commands it holds)"}
	}
	var root map[string]any
	if _, err := toml.Decode(string(data), &root); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, &settingsError{file: name, line: pe.Position.Line, msg: pe.Message}
		}
		return nil, &settingsError{file: name, msg: err.Error()}
	}
	p := &parser{name: name, lines: tomlLines(data)}
	for k := range root {
		if s, ok := dialect.Closest(k, []string{"hooks"}); ok && k != "hooks" && s == "hooks" {
			return nil, p.errf(k, "unknown key %q; did you mean %q?", k, "hooks")
		}
	}
	if off, key := hooksOff(root); off {
		return &file{name: name, events: map[string][]*handler{},
			notes: []string{fmt.Sprintf("[features] %s = false: Codex runs no hook, and none is loaded", key)}}, nil
	}
	h, ok := root["hooks"]
	if !ok {
		return &file{name: name, events: map[string][]*handler{}}, nil
	}
	tbl, ok := h.(map[string]any)
	if !ok {
		return nil, p.errf("hooks", "must be a table")
	}
	var state map[string]hookState
	if st, ok := tbl["state"]; ok {
		var err error
		if state, err = p.state(st); err != nil {
			return nil, err
		}
		tbl = withoutKey(tbl, "state")
	}
	return p.events(normalizeTOML(tbl), state)
}

func withoutKey(m map[string]any, key string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if k != key {
			out[k] = v
		}
	}
	return out
}

// normalizeTOML turns TOML's decoded values into the JSON shapes the
// validation reads: arrays of tables into []any, integers into
// json.Number.
func normalizeTOML(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = normalizeTOML(x)
		}
		return out
	case []map[string]any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = normalizeTOML(x)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = normalizeTOML(x)
		}
		return out
	case int64:
		return json.Number(fmt.Sprint(t))
	case float64:
		return json.Number(fmt.Sprint(t))
	}
	return v
}

// state reads [hooks.state]: "<key>" = {enabled, trusted_hash}.
func (p *parser) state(v any) (map[string]hookState, error) {
	tbl, ok := v.(map[string]any)
	if !ok {
		return nil, p.errf("hooks.state", "must be a table")
	}
	out := make(map[string]hookState, len(tbl))
	for key, e := range tbl {
		path := fmt.Sprintf("hooks.state.%q", key)
		m, ok := e.(map[string]any)
		if !ok {
			return nil, p.errf(path, "must be a table")
		}
		var st hookState
		for k, x := range m {
			switch k {
			case "enabled":
				b, ok := x.(bool)
				if !ok {
					return nil, p.errf(path+"."+k, "must be a boolean")
				}
				st.Enabled = &b
			case "trusted_hash":
				s, ok := x.(string)
				if !ok {
					return nil, p.errf(path+"."+k, "must be a string")
				}
				st.TrustedHash = s
			default:
				return nil, p.unknownKey(path, k, []string{"enabled", "trusted_hash"})
			}
		}
		out[key] = st
	}
	return out, nil
}

// tomlLines finds the line of an entry's key in a TOML file when the key
// is written on exactly one line (a best effort: TOML's decoder does not
// say where a key was).
func tomlLines(data []byte) func(path string) int {
	lines := strings.Split(string(data), "\n")
	return func(path string) int {
		key := path
		if i := strings.LastIndexAny(path, ".]"); i >= 0 {
			key = path[i+1:]
		}
		if key == "" {
			return 0
		}
		re := regexp.MustCompile(`^\s*("?)` + regexp.QuoteMeta(key) + `("?)\s*=`)
		found := 0
		for i, l := range lines {
			if re.MatchString(l) {
				if found != 0 {
					return 0
				}
				found = i + 1
			}
		}
		return found
	}
}

// hooksOff reports whether config.toml turns hooks off: [features] hooks
// = false, or its deprecated alias codex_hooks = false when hooks is not
// set (hooks are on by default since Codex 0.124).
func hooksOff(root map[string]any) (bool, string) {
	features, _ := root["features"].(map[string]any)
	for _, key := range []string{"hooks", "codex_hooks"} {
		if v, ok := features[key].(bool); ok {
			return !v, key
		}
	}
	return false, ""
}
