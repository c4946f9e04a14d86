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
	if err == nil {
		err = s.unknown()
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
	if ok && (f != math.Trunc(f) || math.Abs(f) > math.MaxInt32) {
		s.fail(key, "want a whole number, got %v", f)
		return 0
	}
	return int(f)
}

func (s *settings) boolean(key string) bool {
	v, ok := s.get(key)
	if !ok {
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
		s.fail(key, "unknown value %q%s (want one of: %s)", str, didYouMean(str, words), strings.Join(words, ", "))
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

// build runs a constructor's check and then the constructor, so that a
// config it would panic on is an error here.
func build[C any](s *settings, cfg C, check func(C) error, make func(C) hooks.Hook) (hooks.Hook, error) {
	if s.err != nil {
		return nil, s.err
	}
	if err := check(cfg); err != nil {
		return nil, err
	}
	return make(cfg), nil
}

func specToolCallLimit(s *settings) (hooks.Hook, error) {
	cfg := ToolCallLimitConfig{Name: s.str("name"), Run: s.int("run"), OnLimit: Action(s.enum("onLimit", "refuse", "end"))}
	if m := s.object("perTool"); m != nil {
		cfg.PerTool = map[string]int{}
		s.sub("perTool", m, func(in *settings) {
			for k := range m {
				cfg.PerTool[k] = in.int(k)
			}
		})
	}
	return build(s, cfg, ToolCallLimitConfig.check, ToolCallLimit)
}

func specModelCallLimit(s *settings) (hooks.Hook, error) {
	cfg := ModelCallLimitConfig{Name: s.str("name"), Run: s.int("run"), Message: s.str("message")}
	return build(s, cfg, ModelCallLimitConfig.check, ModelCallLimit)
}

func backoffOf(s *settings) Backoff {
	return Backoff{Initial: s.duration("initialDelay"), Max: s.duration("maxDelay"), Multiplier: s.float("multiplier"), Jitter: s.float("jitter")}
}

func specToolRetry(s *settings) (hooks.Hook, error) {
	cfg := ToolRetryConfig{Name: s.str("name"), MaxAttempts: s.int("maxAttempts"), Backoff: backoffOf(s), Tools: s.strings("tools")}
	return build(s, cfg, ToolRetryConfig.check, ToolRetry)
}

func specModelRetry(s *settings) (hooks.Hook, error) {
	cfg := ModelRetryConfig{Name: s.str("name"), MaxAttempts: s.int("maxAttempts"), Backoff: backoffOf(s)}
	return build(s, cfg, ModelRetryConfig.check, ModelRetry)
}

func specModelFallback(s *settings) (hooks.Hook, error) {
	cfg := ModelFallbackConfig{Name: s.str("name"), Models: s.strings("models")}
	return build(s, cfg, ModelFallbackConfig.check, ModelFallback)
}

func specToolErrors(s *settings) (hooks.Hook, error) {
	cfg := ToolErrorsConfig{Name: s.str("name"), Tools: s.strings("tools"), MaxLen: s.int("maxLen")}
	return build(s, cfg, ToolErrorsConfig.check, ToolErrors)
}

var strategyWords = []string{"mask", "hash", "block"}

func specRedact(s *settings) (hooks.Hook, error) {
	cfg := RedactConfig{Name: s.str("name"), Detect: s.strings("detect"), Strategy: Strategy(s.enum("strategy", strategyWords...)),
		Requests: s.boolean("requests")}
	if m := s.object("strategies"); m != nil {
		cfg.Strategies = map[string]Strategy{}
		s.sub("strategies", m, func(in *settings) {
			for k := range m {
				cfg.Strategies[k] = Strategy(in.enum(k, strategyWords...))
			}
		})
	}
	for i, p := range s.list("patterns") {
		m, ok := p.(map[string]any)
		if !ok {
			s.fail("patterns", "item %d: want a mapping {name, regexp}, got %s", i, describe(p))
			break
		}
		s.sub(fmt.Sprintf("patterns[%d]", i), m, func(in *settings) {
			cfg.Patterns = append(cfg.Patterns, Pattern{Name: in.str("name"), Regexp: in.str("regexp")})
		})
	}
	if s.err != nil {
		return nil, s.err
	}
	if _, err := NewRedactor(cfg); err != nil {
		return nil, err
	}
	return Redact(cfg), nil
}

func rulesOf(s *settings, key string) []Rule {
	var out []Rule
	for i, r := range s.list(key) {
		m, ok := r.(map[string]any)
		if !ok {
			s.fail(key, "item %d: want a mapping {tool, args}, got %s", i, describe(r))
			return nil
		}
		s.sub(fmt.Sprintf("%s[%d]", key, i), m, func(in *settings) {
			rule := Rule{Tool: in.str("tool")}
			if args := in.object("args"); args != nil {
				rule.Args = map[string]string{}
				in.sub("args", args, func(a *settings) {
					for k := range args {
						rule.Args[k] = a.str(k)
					}
				})
			}
			out = append(out, rule)
		})
	}
	return out
}

func specApproval(s *settings) (hooks.Hook, error) {
	cfg := ApprovalConfig{Name: s.str("name"), Require: rulesOf(s, "require"), Allow: rulesOf(s, "allow"),
		NonInteractive: Unattended(s.enum("nonInteractive", "host", "deny", "approve")), Remember: s.boolean("remember")}
	if s.err != nil {
		return nil, s.err
	}
	if _, err := compileRules("require", cfg.Require); err != nil {
		return nil, err
	}
	if _, err := compileRules("allow", cfg.Allow); err != nil {
		return nil, err
	}
	return build(s, cfg, ApprovalConfig.check, Approval)
}

func specLoopGuard(s *settings) (hooks.Hook, error) {
	cfg := LoopGuardConfig{Name: s.str("name"), Repeats: s.int("repeats"), OnLoop: Action(s.enum("onLoop", "refuse", "end"))}
	return build(s, cfg, LoopGuardConfig.check, LoopGuard)
}

func specBudget(s *settings) (hooks.Hook, error) {
	cfg := BudgetConfig{Name: s.str("name"), MaxCost: s.float("maxCost"), WarnAt: s.float("warnAt")}
	if f, ok := s.number("maxTokens"); ok {
		if f != math.Trunc(f) {
			s.fail("maxTokens", "want a whole number, got %v", f)
		}
		cfg.MaxTokens = int64(f)
	}
	if m := s.object("prices"); m != nil {
		cfg.Prices = map[string]Price{}
		s.sub("prices", m, func(in *settings) {
			for model := range m {
				pm := in.object(model)
				in.sub(model, pm, func(p *settings) {
					cfg.Prices[model] = Price{Input: p.float("input"), Output: p.float("output"), CachedInput: p.float("cachedInput")}
				})
			}
		})
	}
	return build(s, cfg, BudgetConfig.check, Budget)
}

func specAudit(s *settings) (hooks.Hook, error) {
	name := s.str("name")
	if s.err != nil {
		return nil, s.err
	}
	return Audit(AuditConfig{Name: name}), nil
}

func specSandbox(s *settings) (hooks.Hook, error) {
	cfg := SandboxConfig{Name: s.str("name"), Roots: s.strings("roots"), PathArgs: s.strings("pathArgs"),
		ShellTools: s.strings("shellTools"), CommandArgs: s.strings("commandArgs"), DenyCommands: s.strings("denyCommands"),
		NoBuiltinDenies: s.boolean("noBuiltinDenies"), AllowHosts: s.strings("allowHosts"), URLArgs: s.strings("urlArgs")}
	if s.err != nil {
		return nil, s.err
	}
	h, err := newSandbox(cfg)
	if err != nil {
		return nil, err
	}
	return h, nil
}
