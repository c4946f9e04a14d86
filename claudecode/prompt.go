package claudecode

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/dialect"
	"github.com/rienda/hooks/internal/exactjson"
)

// DefaultPromptTimeout is a "prompt" handler's timeout when it sets none,
// as Claude Code's documentation gives it.
const DefaultPromptTimeout = 30 * time.Second

// Model gives "prompt" handlers the model they ask: fn is called with a
// request whose only message is the handler's prompt, its $ARGUMENTS
// replaced by the hook's JSON input (or the input appended when the
// prompt has no $ARGUMENTS), and Model set to the handler's "model" when
// it names one. Without Model, "prompt" handlers are skipped with a
// load-time diagnostic. "agent" handlers, which Claude Code runs as a
// subagent with tools, are skipped either way (see docs/claudecode.md).
func Model(fn hooks.ModelFunc) Option {
	return dialect.Setting(modelKey{}, fn)
}

// promptHook is what a "prompt" handler asks.
type promptHook struct {
	text  string
	model string
	ask   hooks.ModelFunc
}

// promptSystem tells the model how to answer, as Claude Code's prompt
// hooks are told.
const promptSystem = "You are evaluating a hook in an AI agent's loop. Read the hook input and the instructions, " +
	`then answer with a JSON object only: {"ok": true} to let it proceed, or {"ok": false, "reason": "why"} to block it.`

// promptHandler decodes a "prompt" handler; nil (with the diagnostic of a
// skipped type) when the host gave no model.
func (l loader) promptHandler(event, where, path string, unknown []string, cfg *handlerConfig, model hooks.ModelFunc) (*handler, error) {
	if model == nil {
		l.skip(path, "handler type %q not run by this library, skipped; only \"command\" and \"http\" handlers run (\"prompt\" with claudecode.Model)", "prompt")
		return nil, nil
	}
	switch {
	case cfg.Prompt == nil || strings.TrimSpace(*cfg.Prompt) == "":
		return nil, settingsError(path+".prompt", "missing or empty")
	case cfg.Timeout != nil && (*cfg.Timeout <= 0 || *cfg.Timeout > maxTimeout):
		return nil, settingsError(path+".timeout", fmt.Sprintf("must be a positive number of seconds, not %v", *cfg.Timeout))
	}
	l.unknownKeys(path, unknown, handlerKeys)
	h := &handler{event: event, where: where, timeout: DefaultPromptTimeout, failClosed: cfg.FailClosed,
		prompt: &promptHook{text: *cfg.Prompt, ask: model}}
	if cfg.Model != nil {
		h.prompt.model = *cfg.Model
	}
	if err := l.fields(h, path, cfg); err != nil {
		return nil, err
	}
	h.async = false // a prompt asks within the call: Claude Code runs only commands in the background
	if cfg.Timeout != nil {
		h.timeout = time.Duration(*cfg.Timeout * float64(time.Second))
	}
	h.argv = []string{"prompt", clipText(*cfg.Prompt)}
	return h, nil
}

// clipText is s for a message, at most 60 bytes of it.
func clipText(s string) string {
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}

// askJob is the model call of a "prompt" handler with in as $ARGUMENTS.
func (h *handler) askJob(c *hooks.Context, in input) (func(context.Context) result, error) {
	body, err := h.stdin(c, in)
	if err != nil {
		return nil, err
	}
	text := h.prompt.text
	if strings.Contains(text, "$ARGUMENTS") {
		text = strings.ReplaceAll(text, "$ARGUMENTS", string(body))
	} else {
		text += "\n\n" + string(body)
	}
	req := hooks.ModelRequest{System: promptSystem, Messages: []hooks.Message{{Role: "user", Text: text}}, Model: h.prompt.model}
	return func(ctx context.Context) result {
		ctx, cancel := context.WithTimeout(ctx, h.timeout)
		defer cancel()
		mc := *c // the call's Context, under the handler's timeout
		mc.Context = ctx
		resp, err := h.prompt.ask(&mc, req)
		switch {
		case ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded):
			return result{err: h.fail(fmt.Errorf("timed out after %s", h.timeout))}
		case err != nil:
			return result{err: h.fail(fmt.Errorf("the model failed: %w", err))}
		}
		return h.verdict(resp.Text)
	}, nil
}

// verdict reads the model's answer: {"ok": false, "reason": …} blocks
// as an exit 2 does (a deny, a Stop's continuation, a prompt refused);
// {"ok": true} lets it proceed; anything else is a failure.
func (h *handler) verdict(text string) result {
	s := strings.TrimSpace(text)
	s = strings.TrimPrefix(strings.TrimPrefix(s, "```json"), "```")
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "```"))
	if i, j := strings.IndexByte(s, '{'), strings.LastIndexByte(s, '}'); i >= 0 && j > i {
		s = s[i : j+1]
	}
	var v struct {
		Ok     *bool  `json:"ok"`
		Reason string `json:"reason"`
	}
	if _, err := exactjson.Unmarshal([]byte(s), &v); err != nil || v.Ok == nil {
		return result{err: h.fail(fmt.Errorf(`the model's answer is not {"ok": true|false, "reason": "…"}: %q`, clipText(text)))}
	}
	if *v.Ok {
		return result{}
	}
	reason := v.Reason
	if reason == "" {
		reason = "blocked by Claude Code hook " + h.where
	}
	return result{blocked: true, reason: cut(reason)}
}
