package prebuilt

import (
	"fmt"

	"github.com/rienda/hooks"
)

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

// actionWords are Action's values as settings spell them, in its order.
var actionWords = []string{"refuse", "end", "error"}

func specToolCallLimit(s *settings) (hooks.Hook, error) {
	cfg := ToolCallLimitConfig{Name: s.str("name"), Run: s.int("run"), OnLimit: Action(s.enum("onLimit", actionWords...)),
		PerChild: s.boolean("perChild")}
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
	cfg := ModelCallLimitConfig{Name: s.str("name"), Run: s.int("run"), Message: s.str("message"), PerChild: s.boolean("perChild")}
	if s.enum("onLimit", "end", "error") == 1 {
		cfg.OnLimit = ErrorRun
	}
	return build(s, cfg, ModelCallLimitConfig.check, ModelCallLimit)
}

func backoffOf(s *settings) Backoff {
	return Backoff{Initial: s.duration("initialDelay"), Max: s.duration("maxDelay"), Multiplier: s.float("multiplier"), Jitter: s.float("jitter")}
}

// onFailureOf reads a retry's onFailure: error (the default) or message.
func onFailureOf(s *settings) OnFailure {
	return OnFailure(s.enum("onFailure", "error", "message"))
}

func specToolRetry(s *settings) (hooks.Hook, error) {
	cfg := ToolRetryConfig{Name: s.str("name"), MaxAttempts: s.int("maxAttempts"), Backoff: backoffOf(s), Tools: s.strings("tools"),
		OnFailure: onFailureOf(s)}
	return build(s, cfg, ToolRetryConfig.check, ToolRetry)
}

func specModelRetry(s *settings) (hooks.Hook, error) {
	cfg := ModelRetryConfig{Name: s.str("name"), MaxAttempts: s.int("maxAttempts"), Backoff: backoffOf(s), OnFailure: onFailureOf(s)}
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

var strategyWords = []string{"mask", "hash", "block", "partial"}

func specRedact(s *settings) (hooks.Hook, error) {
	cfg := RedactConfig{Name: s.str("name"), Detect: s.strings("detect"), Strategy: Strategy(s.enum("strategy", strategyWords...)),
		Requests: s.boolean("requests"), ApplyToInput: s.boolean("applyToInput"),
		ApplyToOutput: s.optBool("applyToOutput"), ApplyToToolResults: s.optBool("applyToToolResults")}
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
	if !cfg.Requests && !cfg.ApplyToInput && cfg.ApplyToOutput != nil && !*cfg.ApplyToOutput && cfg.ApplyToToolResults != nil && !*cfg.ApplyToToolResults {
		return nil, errAppliesNowhere
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
			rule := Rule{Tool: in.str("tool"), Responses: responsesIn(in, "responses")}
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
		NonInteractive: Unattended(s.enum("nonInteractive", "host", "deny", "approve")), Remember: s.boolean("remember"),
		Responses: responsesIn(s, "responses")}
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
	cfg := LoopGuardConfig{Name: s.str("name"), Repeats: s.int("repeats"), OnLoop: Action(s.enum("onLoop", actionWords...)),
		AcrossChildren: s.boolean("acrossChildren")}
	return build(s, cfg, LoopGuardConfig.check, LoopGuard)
}

func specBudget(s *settings) (hooks.Hook, error) {
	cfg := BudgetConfig{Name: s.str("name"), MaxCost: s.float("maxCost"), WarnAt: s.float("warnAt"), WarnModel: s.boolean("warnModel"),
		PerChild: s.boolean("perChild")}
	cfg.MaxTokens = s.int64("maxTokens")
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
		NoBuiltinDenies: s.boolean("noBuiltinDenies"), AllowHosts: s.strings("allowHosts"), URLArgs: s.strings("urlArgs"),
		ExtraPathArgs: s.strings("extraPathArgs"), ExtraShellTools: s.strings("extraShellTools"), ExtraCommandArgs: s.strings("extraCommandArgs"),
		ExtraURLArgs: s.strings("extraURLArgs"), Unresolved: UnresolvedAction(s.enum("unresolved", "refuse", "ask"))}
	if s.err != nil {
		return nil, s.err
	}
	h, err := newSandbox(cfg)
	if err != nil {
		return nil, err
	}
	return h, nil
}
