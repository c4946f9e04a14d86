package prebuilt

import (
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/rienda/hooks"
)

// ToolErrorsConfig configures ToolErrors.
type ToolErrorsConfig struct {
	Name string // "": "toolErrors"
	// Tools are the tools whose errors are turned; empty: every tool.
	// Names match as ToolCallLimitConfig.PerTool's do.
	Tools []string
	// Convert says which errors become results. nil: every error except a
	// hook's failure (errors.Is(err, hooks.ErrHookFailed): a policy's
	// decision, not the tool's) and the end of the run's own context (a
	// cancelled run should stop, not tell the model).
	Convert func(call hooks.ToolCall, err error) bool
	// Message is the text the model reads for err. nil: `Tool "<name>"
	// failed: <the error>`, redacted by Redactor, on one line, at most
	// MaxLen bytes.
	Message  func(call hooks.ToolCall, err error) string
	Redactor *Redactor // nil: every built-in detector but url, masked
	MaxLen   int       // 0: 500
}

func (cfg ToolErrorsConfig) check() error {
	if cfg.MaxLen < 0 {
		return fmt.Errorf("field MaxLen is %d: it cannot be negative (0 means 500)", cfg.MaxLen)
	}
	return checkNames("Tools", cfg.Tools)
}

// ToolErrors returns a wrap hook that turns a tool's Go error into a
// result the model reads (IsError, with a sanitised message) instead of
// failing the run: the model can try another way. Which errors pass
// through unchanged is configurable (Convert). The after-hooks then run
// on that result, as on any. List it before ToolRetry, so that the model
// reads an error only once the retries are spent.
func ToolErrors(cfg ToolErrorsConfig) hooks.Hook {
	mustValid("ToolErrors", cfg.check())
	h := &toolErrors{name: orName(cfg.Name, "toolErrors"), tools: newToolNames("Tools", cfg.Tools), convert: cfg.Convert,
		message: cfg.Message, r: cfg.Redactor, max: cfg.MaxLen}
	if h.r == nil {
		h.r = defaultRedactor
	}
	if h.max == 0 {
		h.max = 500
	}
	return h
}

type toolErrors struct {
	name    string
	tools   *toolNames // nil: every tool
	convert func(hooks.ToolCall, error) bool
	message func(hooks.ToolCall, error) string
	r       *Redactor
	max     int
}

func (h *toolErrors) Name() string { return h.name }

// Handles says BeforeModelRequest only to check Tools against the tools
// a request offers.
func (h *toolErrors) Handles(p hooks.Point) bool {
	return p == hooks.WrapToolCall || (p == hooks.BeforeModelRequest && h.tools != nil)
}

func (h *toolErrors) BeforeModelRequest(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
	h.tools.checkRequest(c, req)
	return nil, nil
}

func (h *toolErrors) WrapTool(c *hooks.Context, call hooks.ToolCall, next hooks.ToolFunc) (hooks.ToolResult, error) {
	res, err := next(c, call)
	if err == nil || !h.tools.applies(c, call.Name) {
		return res, err
	}
	pass := c.Err() != nil || errors.Is(err, hooks.ErrHookFailed)
	if h.convert != nil {
		pass = c.Err() != nil || !h.convert(call, err)
	}
	if pass {
		return res, err
	}
	var text string
	if h.message != nil {
		text = h.message(call, err)
	} else {
		text = fmt.Sprintf("Tool %q failed: %s", call.Name, h.sanitize(err.Error()))
	}
	return hooks.ToolResult{Text: text, IsError: true}, nil
}

// sanitize makes an error's text fit for the model: secrets redacted,
// control characters and line breaks folded into spaces, cut at max bytes
// (on a rune boundary).
func (h *toolErrors) sanitize(s string) string { return sanitizeText(h.r, s, h.max) }

// sanitizeText is toolErrors.sanitize with its redactor and cap given.
func sanitizeText(r *Redactor, s string, limit int) string {
	s = r.Redact(s)
	s = strings.Join(strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }), " ")
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && !utf8RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }
