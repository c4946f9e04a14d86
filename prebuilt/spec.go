package prebuilt

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/rienda/hooks"
)

// Names lists the hooks FromSpec knows, in the order of the docs' table.
func Names() []string {
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = s.name
	}
	return names
}

type specEntry struct {
	name  string
	build func(s *settings) (hooks.Hook, error)
}

var specs = []specEntry{
	{"toolCallLimit", specToolCallLimit},
	{"modelCallLimit", specModelCallLimit},
	{"toolRetry", specToolRetry},
	{"modelRetry", specModelRetry},
	{"modelFallback", specModelFallback},
	{"toolErrors", specToolErrors},
	{"redact", specRedact},
	{"approval", specApproval},
	{"loopGuard", specLoopGuard},
	{"budget", specBudget},
	{"audit", specAudit},
	{"sandbox", specSandbox},
}

// FromSpec returns the prebuilt hook name (as Names spells it) with
// settings, as an agent file declares them:
//
//	hooks:
//	  - prebuilt: toolCallLimit
//	    with: {run: 20, perTool: {search: 5}, onLimit: end}
//
// The settings are the config struct's fields, spelt in lowerCamelCase
// (docs/prebuilt.md lists them), with durations as Go duration strings
// ("500ms") and enums as words ("refuse", "end", "mask", …); "name" sets
// the hook's name. It is strict: an unknown hook or setting (with the
// closest known name, when one is close), a wrong type, a value a
// constructor would refuse are errors naming the hook and the setting.
// Numbers may come as any Go numeric type a decoder gives (YAML's int,
// JSON's float64), but a count must be whole.
func FromSpec(name string, with map[string]any) (hooks.Hook, error) {
	i := slices.IndexFunc(specs, func(s specEntry) bool { return s.name == name })
	if i < 0 {
		return nil, fmt.Errorf("prebuilt: unknown hook %q%s (known: %s)", name, didYouMean(name, Names()), strings.Join(Names(), ", "))
	}
	s := &settings{hook: name, m: with, used: map[string]bool{}}
	h, err := specs[i].build(s)
	if err == nil {
		err = s.err
	}
	// An unknown setting first: a misspelt one is the cause of the
	// constructor's complaint that nothing is set.
	if unknown := s.unknown(); unknown != nil {
		err = unknown
	}
	if err != nil {
		return nil, fmt.Errorf("prebuilt %s: %w", name, err)
	}
	return h, nil
}

// settings reads one hook's settings, keeping the first error and which
// keys were read (the rest are unknown).
type settings struct {
	hook string
	m    map[string]any
	used map[string]bool
	err  error
}

func (s *settings) fail(key, format string, args ...any) {
	if s.err == nil {
		s.err = fmt.Errorf("setting %q: %s", key, fmt.Sprintf(format, args...))
	}
}

func (s *settings) get(key string) (any, bool) {
	s.used[key] = true
	v, ok := s.m[key]
	return v, ok && v != nil
}

func (s *settings) unknown() error {
	var known, unknown []string
	for k := range s.used {
		known = append(known, k)
	}
	for _, k := range sortedKeys(s.m) {
		if !s.used[k] {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	slices.Sort(known)
	return fmt.Errorf("unknown setting %q%s (settings: %s)", unknown[0], didYouMean(unknown[0], known), strings.Join(known, ", "))
}

// null refuses a setting given with no value ("run:" or "run: ~"): a
// limit left empty would silently be none.
func (s *settings) null(key, want string) {
	if v, ok := s.m[key]; ok && v == nil {
		s.fail(key, "want %s, got no value (null): give one, or leave the setting out", want)
	}
}

func (s *settings) str(key string) string {
	v, ok := s.get(key)
	if !ok {
		return ""
	}
	str, isStr := v.(string)
	if !isStr {
		s.fail(key, "want a string, got %s", describe(v))
	}
	return str
}

func (s *settings) number(key string) (float64, bool) {
	v, ok := s.get(key)
	if !ok {
		s.null(key, "a number")
		return 0, false
	}
	switch n := v.(type) {
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case uint64:
		return float64(n), true
	case float64:
		return n, true
	case int32:
		return float64(n), true
	case float32:
		return float64(n), true
	}
	s.fail(key, "want a number, got %s", describe(v))
	return 0, false
}

func (s *settings) float(key string) float64 {
	f, _ := s.number(key)
	return f
}

func (s *settings) int(key string) int {
	f, ok := s.number(key)
	switch {
	case ok && f != math.Trunc(f): // NaN too
		s.fail(key, "want a whole number, got %v", f)
		return 0
	case ok && math.Abs(f) > math.MaxInt32:
		s.fail(key, "want a whole number of at most %d, got %v", math.MaxInt32, f)
		return 0
	}
	return int(f)
}

// int64 reads a count that may be as large as int64 allows, exactly: an
// integer the decoder gave as one is taken as it is, never through a
// float64 (which would round 2**63-1 up past the maximum).
func (s *settings) int64(key string) int64 {
	v, ok := s.get(key)
	if !ok {
		s.null(key, "a number")
		return 0
	}
	switch n := v.(type) {
	case int:
		return int64(n)
	case int64:
		return n
	case int32:
		return int64(n)
	case uint64:
		if n <= math.MaxInt64 {
			return int64(n)
		}
	case float64, float32:
		f, _ := s.number(key)
		if f == math.Trunc(f) && f >= -(1<<63) && f < 1<<63 {
			return int64(f)
		}
	default:
		s.fail(key, "want a number, got %s", describe(v))
		return 0
	}
	s.fail(key, "want a whole number from 0 to %d, got %v", int64(math.MaxInt64), v)
	return 0
}

func (s *settings) boolean(key string) bool {
	v, ok := s.get(key)
	if !ok {
		// "perChild: ~" (or "acrossChildren:") reads as a switch someone
		// meant to set: say so rather than take it as false.
		s.null(key, "true or false")
		return false
	}
	b, isBool := v.(bool)
	if !isBool {
		s.fail(key, "want true or false, got %s", describe(v))
	}
	return b
}

func (s *settings) duration(key string) time.Duration {
	str := s.str(key)
	if str == "" {
		return 0
	}
	d, err := time.ParseDuration(str)
	if err != nil {
		s.fail(key, "want a duration such as \"500ms\" or \"2s\", got %q", str)
	}
	return d
}

func (s *settings) strings(key string) []string {
	v, ok := s.get(key)
	if !ok {
		return nil
	}
	list, isList := v.([]any)
	if !isList {
		if ss, ok := v.([]string); ok {
			return ss
		}
		s.fail(key, "want a list of strings, got %s", describe(v))
		return nil
	}
	out := make([]string, len(list))
	for i, e := range list {
		str, isStr := e.(string)
		if !isStr {
			s.fail(key, "item %d: want a string, got %s", i, describe(e))
			return nil
		}
		out[i] = str
	}
	return out
}

func (s *settings) object(key string) map[string]any {
	v, ok := s.get(key)
	if !ok {
		return nil
	}
	m, isMap := v.(map[string]any)
	if !isMap {
		if raw, ok := v.(map[any]any); ok {
			for k := range raw {
				if k == nil {
					s.fail(key, "a key is empty (null): nothing has that name")
					return nil
				}
				if _, str := k.(string); !str {
					s.fail(key, "the key %v (%T) is not a name: write it as a string (%q)", k, k, fmt.Sprint(k))
					return nil
				}
			}
		}
		s.fail(key, "want a mapping, got %s", describe(v))
	}
	return m
}

// sub reads a nested mapping with the same strictness, naming it
// key.inner in errors.
func (s *settings) sub(key string, m map[string]any, read func(*settings)) {
	inner := &settings{hook: s.hook, m: m, used: map[string]bool{}}
	read(inner)
	err := inner.err
	if err == nil {
		err = inner.unknown()
	}
	if err != nil && s.err == nil {
		s.err = fmt.Errorf("in %q: %w", key, err)
	}
}

func (s *settings) list(key string) []any {
	v, ok := s.get(key)
	if !ok {
		return nil
	}
	l, isList := v.([]any)
	if !isList {
		s.fail(key, "want a list, got %s", describe(v))
	}
	return l
}

func (s *settings) enum(key string, words ...string) int {
	str := s.str(key)
	if str == "" {
		return 0
	}
	i := slices.Index(words, str)
	if i < 0 {
		hint := didYouMean(str, words)
		if str == "continue" && slices.Contains(words, "refuse") {
			hint = ` (LangChain's "continue" is "refuse")`
		} else if str == "continue" && slices.Contains(words, "message") {
			hint = ` (LangChain's "continue" is "message")`
		}
		s.fail(key, "unknown value %q%s (want one of: %s)", str, hint, strings.Join(words, ", "))
		return 0
	}
	return i
}

func describe(v any) string {
	switch v.(type) {
	case string:
		return fmt.Sprintf("the string %q", v)
	case map[string]any:
		return "a mapping"
	case []any:
		return "a list"
	case bool:
		return fmt.Sprintf("%v", v)
	}
	return fmt.Sprintf("%v (%T)", v, v)
}
