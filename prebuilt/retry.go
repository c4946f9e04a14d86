package prebuilt

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
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
	Name        string  // "": "toolRetry"
	MaxAttempts int     // attempts in all, the first included; 0: 3
	Backoff     Backoff // the waits between attempts
	// Tools are the tools retried; empty: every tool. Names match as
	// ToolCallLimitConfig.PerTool's do: exactly, else in another case with
	// a Diagnostic, and a name no tool of the run has is a Diagnostic.
	Tools []string
	// RetryIf says whether an attempt's outcome is worth another. nil:
	// an error, unless it is a hook's failure (a result with IsError is
	// the tool's answer, not retried). Once the call's context has ended
	// nothing is retried.
	RetryIf func(call hooks.ToolCall, res hooks.ToolResult, err error) bool
	// OnFailure is what the call gives once every attempt failed with an
	// error: FailWithError (the default: the error, with the count) or
	// FailWithMessage (an error result the model reads, LangChain's
	// on_failure "continue", and a Diagnostic with the error).
	OnFailure OnFailure
	// FailureMessage is that result's text with FailWithMessage; nil:
	// "Tool "<name>" failed after <n> attempts: <the error>", secrets
	// redacted, on one line, at most 500 bytes.
	FailureMessage func(call hooks.ToolCall, err error, attempts int) string
}

func (cfg ToolRetryConfig) check() error {
	if cfg.MaxAttempts < 0 {
		return fmt.Errorf("field MaxAttempts is %d: it cannot be negative (0 means 3)", cfg.MaxAttempts)
	}
	if err := cfg.OnFailure.check(cfg.FailureMessage != nil); err != nil {
		return err
	}
	if err := checkNames("Tools", cfg.Tools); err != nil {
		return err
	}
	return cfg.Backoff.check()
}

// OnFailure is what a retry gives once every attempt failed.
type OnFailure int

const (
	// FailWithError returns the last attempt's error, wrapped with the
	// count of attempts (LangChain's on_failure "error").
	FailWithError OnFailure = iota
	// FailWithMessage answers with a message instead, and reports the
	// error as a Diagnostic (LangChain's on_failure "continue", or a
	// callable): ModelRetry returns a reply whose text says the call
	// failed, ToolRetry an error result the model reads. A run whose
	// context ended still gets the context's error.
	FailWithMessage
)

func (f OnFailure) check(message bool) error {
	switch {
	case f != FailWithError && f != FailWithMessage:
		return fmt.Errorf("field OnFailure: unknown value %d (want FailWithError or FailWithMessage)", int(f))
	case message && f != FailWithMessage:
		return errors.New("field FailureMessage is set but OnFailure is FailWithError: the message would never be used (set OnFailure: FailWithMessage)")
	}
	return nil
}

// failureText is a failed call's default message: secrets redacted, on
// one line, at most 500 bytes.
func failureText(what string, n int, err error) string {
	return fmt.Sprintf("%s failed after %d attempts: %s", what, n, sanitizeText(defaultRedactor, err.Error(), 500))
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
		backoff: cfg.Backoff.withDefaults(), tools: newToolNames("Tools", cfg.Tools), retryIf: cfg.RetryIf,
		onFailure: cfg.OnFailure, message: cfg.FailureMessage}
}

type toolRetry struct {
	name      string
	attempts  int
	backoff   Backoff
	tools     *toolNames // nil: every tool
	retryIf   func(hooks.ToolCall, hooks.ToolResult, error) bool
	onFailure OnFailure
	message   func(hooks.ToolCall, error, int) string
}

func (h *toolRetry) Name() string { return h.name }

// Handles says BeforeModelRequest only to check Tools against the tools
// a request offers.
func (h *toolRetry) Handles(p hooks.Point) bool {
	return p == hooks.WrapToolCall || (p == hooks.BeforeModelRequest && h.tools != nil)
}

func (h *toolRetry) BeforeModelRequest(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
	h.tools.checkRequest(c, req)
	return nil, nil
}

func (h *toolRetry) WrapTool(c *hooks.Context, call hooks.ToolCall, next hooks.ToolFunc) (hooks.ToolResult, error) {
	if !h.tools.applies(c, call.Name) {
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
				return h.failed(c, call, n, err)
			}
			return res, err
		}
		if werr := sleep(c, h.backoff.delay(n)); werr != nil {
			return res, abandoned(fmt.Sprintf("tool %q", call.Name), n, werr, err)
		}
	}
}

// failed is the outcome of a call whose every attempt failed with err.
func (h *toolRetry) failed(c *hooks.Context, call hooks.ToolCall, n int, err error) (hooks.ToolResult, error) {
	err = fmt.Errorf("tool %q: %d attempts failed, the last: %w", call.Name, n, err)
	if h.onFailure != FailWithMessage || c.Err() != nil {
		return hooks.ToolResult{}, err
	}
	c.Diagnose(err)
	text := ""
	if h.message != nil {
		text = h.message(call, errors.Unwrap(err), n)
	} else {
		text = failureText(fmt.Sprintf("Tool %q", call.Name), n, errors.Unwrap(err))
	}
	return hooks.ToolResult{Text: text, IsError: true}, nil
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
	// OnFailure is what the call gives once every attempt failed:
	// FailWithError (the default: the error, with the count) or
	// FailWithMessage (a reply whose text says the call failed,
	// LangChain's on_failure "continue", and a Diagnostic with the error).
	OnFailure OnFailure
	// FailureMessage is that reply's text with FailWithMessage (LangChain's
	// callable on_failure); nil: "Model call failed after <n> attempts:
	// <the error>", secrets redacted, on one line, at most 500 bytes.
	FailureMessage func(req hooks.ModelRequest, err error, attempts int) string
}

func (cfg ModelRetryConfig) check() error {
	if cfg.MaxAttempts < 0 {
		return fmt.Errorf("field MaxAttempts is %d: it cannot be negative (0 means 3)", cfg.MaxAttempts)
	}
	if err := cfg.OnFailure.check(cfg.FailureMessage != nil); err != nil {
		return err
	}
	return cfg.Backoff.check()
}

// ModelRetry returns a wrap hook that calls the model again when a call
// fails, as ToolRetry does for tools. The after-hooks see one reply, and
// the run counts one model call.
func ModelRetry(cfg ModelRetryConfig) hooks.Hook {
	mustValid("ModelRetry", cfg.check())
	return &modelRetry{name: orName(cfg.Name, "modelRetry"), attempts: attemptsOr3(cfg.MaxAttempts),
		backoff: cfg.Backoff.withDefaults(), retryIf: cfg.RetryIf, onFailure: cfg.OnFailure, message: cfg.FailureMessage}
}

type modelRetry struct {
	name      string
	attempts  int
	backoff   Backoff
	retryIf   func(hooks.ModelRequest, error) bool
	onFailure OnFailure
	message   func(hooks.ModelRequest, error, int) string
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
			return h.failed(c, req, n, err)
		}
		if werr := sleep(c, h.backoff.delay(n)); werr != nil {
			return resp, abandoned("model "+modelName(req.Model), n, werr, err)
		}
	}
}

// failed is the outcome of a call whose every attempt failed with err.
func (h *modelRetry) failed(c *hooks.Context, req hooks.ModelRequest, n int, last error) (hooks.ModelResponse, error) {
	err := fmt.Errorf("model %s: %d attempts failed, the last: %w", modelName(req.Model), n, last)
	if h.onFailure != FailWithMessage || c.Err() != nil {
		return hooks.ModelResponse{}, err
	}
	c.Diagnose(err)
	text := ""
	if h.message != nil {
		text = h.message(req, last, n)
	} else {
		text = failureText("Model call", n, last)
	}
	return hooks.ModelResponse{Text: text}, nil
}

func modelName(m string) string {
	if m == "" {
		return "(the host's default)"
	}
	return fmt.Sprintf("%q", m)
}
