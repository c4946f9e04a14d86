package prebuilt

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/rienda/hooks"
)

// Backoff is the wait between attempts: Initial, then each wait Multiplier
// times the last, at most Max, each drawn at random within ±Jitter of it
// (so that many clients that failed together do not retry together).
type Backoff struct {
	Initial    time.Duration // 0: 500ms
	Max        time.Duration // 0: 30s
	Multiplier float64       // 0: 2
	Jitter     float64       // a fraction, ±; 0: 0.2; negative: none
}

func (b Backoff) check() error {
	switch {
	case b.Initial < 0:
		return fmt.Errorf("field Backoff.Initial is %v: it cannot be negative", b.Initial)
	case b.Max < 0:
		return fmt.Errorf("field Backoff.Max is %v: it cannot be negative", b.Max)
	case b.Multiplier != 0 && b.Multiplier < 1 || math.IsNaN(b.Multiplier) || math.IsInf(b.Multiplier, 0):
		return fmt.Errorf("field Backoff.Multiplier is %v: it must be at least 1", b.Multiplier)
	case b.Jitter > 1 || math.IsNaN(b.Jitter):
		return fmt.Errorf("field Backoff.Jitter is %v: it must be at most 1", b.Jitter)
	}
	return nil
}

func (b Backoff) withDefaults() Backoff {
	if b.Initial == 0 {
		b.Initial = 500 * time.Millisecond
	}
	if b.Max == 0 {
		b.Max = 30 * time.Second
	}
	if b.Multiplier == 0 {
		b.Multiplier = 2
	}
	switch {
	case b.Jitter == 0:
		b.Jitter = 0.2
	case b.Jitter < 0:
		b.Jitter = 0
	}
	return b
}

// delay is the wait after the n-th failed attempt (n from 1).
func (b Backoff) delay(n int) time.Duration {
	d := float64(b.Initial) * math.Pow(b.Multiplier, float64(n-1))
	d = min(d, float64(b.Max))
	if b.Jitter > 0 {
		d *= 1 - b.Jitter + 2*b.Jitter*rand.Float64()
	}
	return time.Duration(min(d, float64(b.Max)))
}

// sleep waits d, or until c is done: then it returns c's error.
func sleep(c *hooks.Context, d time.Duration) error {
	if err := c.Err(); err != nil {
		return err
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-c.Done():
		return c.Err()
	}
}

// ToolRetryConfig configures ToolRetry.
type ToolRetryConfig struct {
	Name        string   // "": "toolRetry"
	MaxAttempts int      // attempts in all, the first included; 0: 3
	Backoff     Backoff  // the waits between attempts
	Tools       []string // the tools retried; empty: every tool
	// RetryIf says whether an attempt's outcome is worth another. nil:
	// an error, unless it is a hook's failure (a result with IsError is
	// the tool's answer, not retried). Once the call's context has ended
	// nothing is retried.
	RetryIf func(call hooks.ToolCall, res hooks.ToolResult, err error) bool
}

func (cfg ToolRetryConfig) check() error {
	if cfg.MaxAttempts < 0 {
		return fmt.Errorf("field MaxAttempts is %d: it cannot be negative (0 means 3)", cfg.MaxAttempts)
	}
	return cfg.Backoff.check()
}

// ToolRetry returns a wrap hook that runs a failed tool call again, up to
// MaxAttempts in all, waiting with exponential backoff and jitter between
// attempts. The guards are not asked again and the after-hooks see one
// call: the final result. When the call's context ends (before or during
// a wait) the retry stops with the context's error (errors.Is(err,
// context.Canceled)), the last attempt's error wrapped beside it. When
// every attempt failed, the error says how many there were and wraps the
// last one.
func ToolRetry(cfg ToolRetryConfig) hooks.Hook {
	mustValid("ToolRetry", cfg.check())
	return &toolRetry{name: orName(cfg.Name, "toolRetry"), attempts: attemptsOr3(cfg.MaxAttempts),
		backoff: cfg.Backoff.withDefaults(), tools: newToolSet(cfg.Tools), retryIf: cfg.RetryIf}
}

type toolRetry struct {
	name     string
	attempts int
	backoff  Backoff
	tools    toolSet
	retryIf  func(hooks.ToolCall, hooks.ToolResult, error) bool
}

func (h *toolRetry) Name() string { return h.name }

func (h *toolRetry) WrapTool(c *hooks.Context, call hooks.ToolCall, next hooks.ToolFunc) (hooks.ToolResult, error) {
	if !h.tools.has(call.Name) {
		return next(c, call)
	}
	for n := 1; ; n++ {
		res, err := next(c, call)
		again := err != nil && !errors.Is(err, hooks.ErrHookFailed)
		if h.retryIf != nil {
			again = h.retryIf(call, res, err)
		}
		if !again {
			return res, err
		}
		if n >= h.attempts {
			if err != nil {
				err = fmt.Errorf("tool %q: %d attempts failed, the last: %w", call.Name, n, err)
			}
			return res, err
		}
		if werr := sleep(c, h.backoff.delay(n)); werr != nil {
			return res, abandoned(fmt.Sprintf("tool %q", call.Name), n, werr, err)
		}
	}
}

// abandoned is the error of a retry whose context ended: the context's
// error, as every call cut short by its context returns, with the last
// attempt's error beside it.
func abandoned(what string, n int, ctxErr, last error) error {
	if last == nil {
		return fmt.Errorf("%s: retry abandoned after %d attempts: %w", what, n, ctxErr)
	}
	return fmt.Errorf("%s: retry abandoned after %d attempts: %w (the last: %w)", what, n, ctxErr, last)
}

func attemptsOr3(n int) int {
	if n == 0 {
		return 3
	}
	return n
}

// ModelRetryConfig configures ModelRetry.
type ModelRetryConfig struct {
	Name        string  // "": "modelRetry"
	MaxAttempts int     // attempts in all, the first included; 0: 3
	Backoff     Backoff // the waits between attempts
	// RetryIf says whether an error is worth another attempt. nil: any
	// error, unless it is a hook's failure. Once the call's context has
	// ended nothing is retried.
	RetryIf func(req hooks.ModelRequest, err error) bool
}

func (cfg ModelRetryConfig) check() error {
	if cfg.MaxAttempts < 0 {
		return fmt.Errorf("field MaxAttempts is %d: it cannot be negative (0 means 3)", cfg.MaxAttempts)
	}
	return cfg.Backoff.check()
}

// ModelRetry returns a wrap hook that calls the model again when a call
// fails, as ToolRetry does for tools. The after-hooks see one reply, and
// the run counts one model call.
func ModelRetry(cfg ModelRetryConfig) hooks.Hook {
	mustValid("ModelRetry", cfg.check())
	return &modelRetry{name: orName(cfg.Name, "modelRetry"), attempts: attemptsOr3(cfg.MaxAttempts),
		backoff: cfg.Backoff.withDefaults(), retryIf: cfg.RetryIf}
}

type modelRetry struct {
	name     string
	attempts int
	backoff  Backoff
	retryIf  func(hooks.ModelRequest, error) bool
}

func (h *modelRetry) Name() string { return h.name }

func (h *modelRetry) WrapModel(c *hooks.Context, req hooks.ModelRequest, next hooks.ModelFunc) (hooks.ModelResponse, error) {
	for n := 1; ; n++ {
		resp, err := next(c, req)
		again := err != nil && !errors.Is(err, hooks.ErrHookFailed)
		if h.retryIf != nil && err != nil {
			again = h.retryIf(req, err)
		}
		if !again {
			return resp, err
		}
		if n >= h.attempts {
			return resp, fmt.Errorf("model %s: %d attempts failed, the last: %w", modelName(req.Model), n, err)
		}
		if werr := sleep(c, h.backoff.delay(n)); werr != nil {
			return resp, abandoned("model "+modelName(req.Model), n, werr, err)
		}
	}
}

func modelName(m string) string {
	if m == "" {
		return "(the host's default)"
	}
	return fmt.Sprintf("%q", m)
}

// ModelFallbackConfig configures ModelFallback.
type ModelFallbackConfig struct {
	Name string // "": "modelFallback"
	// Models are tried in order after the request's own model fails; at
	// least one.
	Models []string
	// FallbackIf says whether an error moves on to the next model. nil:
	// any error, unless it is a hook's failure or the run's context ended.
	FallbackIf func(req hooks.ModelRequest, err error) bool
}

func (cfg ModelFallbackConfig) check() error {
	if len(cfg.Models) == 0 {
		return errors.New("field Models is empty: name at least one model to fall back to")
	}
	for i, m := range cfg.Models {
		if m == "" {
			return fmt.Errorf("field Models[%d] is empty", i)
		}
	}
	return nil
}

// ModelFallback returns a wrap hook that, when the model call fails, calls
// the next model of Models: the same request with Model changed, so the
// inner wraps and the host's ModelFunc see which model to call. When every
// model failed, the error names them and wraps the last one's error.
func ModelFallback(cfg ModelFallbackConfig) hooks.Hook {
	mustValid("ModelFallback", cfg.check())
	return &modelFallback{name: orName(cfg.Name, "modelFallback"), models: append([]string(nil), cfg.Models...), fallbackIf: cfg.FallbackIf}
}

type modelFallback struct {
	name       string
	models     []string
	fallbackIf func(hooks.ModelRequest, error) bool
}

func (h *modelFallback) Name() string { return h.name }

func (h *modelFallback) WrapModel(c *hooks.Context, req hooks.ModelRequest, next hooks.ModelFunc) (hooks.ModelResponse, error) {
	resp, err := next(c, req)
	tried := []string{modelName(req.Model)}
	for _, m := range h.models {
		if !h.moveOn(c, req, err) {
			return resp, err
		}
		req.Model = m
		tried = append(tried, modelName(m))
		resp, err = next(c, req)
	}
	if err != nil && h.moveOn(c, req, err) {
		err = fmt.Errorf("every model failed (%s), the last: %w", strings.Join(tried, ", "), err)
	}
	return resp, err
}

func (h *modelFallback) moveOn(c *hooks.Context, req hooks.ModelRequest, err error) bool {
	if err == nil || c.Err() != nil {
		return false
	}
	if h.fallbackIf != nil {
		return h.fallbackIf(req, err)
	}
	return !errors.Is(err, hooks.ErrHookFailed)
}
