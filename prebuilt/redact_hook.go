package prebuilt

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/rienda/hooks"
)

// Redact returns a hook that redacts secrets (API keys and tokens of the
// common providers, AWS secrets under their field names in any case
// style, credentials under names like password, client_secret and
// api_key, private keys, JWTs, bearer tokens, passwords in URLs) and
// personal data (emails, URLs, IPv4 and IPv6 addresses, MAC addresses,
// IBANs passing their mod-97 check, card numbers passing the Luhn check,
// US social security numbers, phone numbers in national and international
// formats), and the user's Patterns: in every tool result (its text and,
// through hooks.RewriteStrings, every string, map key and number of its
// structured value), in every model reply, whole and streamed (its
// StreamText, with the hold-back stream.go describes), in the reply's
// reasoning (whole, and streamed in its own channel), in the arguments
// of the reply's tool calls (streamed ones too: the core delivers them
// from the reply after its hooks), and with Requests (ApplyToInput) in
// what is sent to the model. JSON escapes of plain
// characters (\u0040, \/) are read as the characters. List it first:
// its after-points then run last, on what every other hook left, and a
// cached answer another hook gives is redacted too.
//
// Base64 runs are decoded and redacted whole when they hold something.
// Not covered: a secret in another encoding (URL-encoded, hex), split
// across fields or tool results, and PII the patterns cannot see (names,
// addresses).
func Redact(cfg RedactConfig) hooks.Hook {
	r, err := NewRedactor(cfg)
	mustValid("Redact", err)
	h := &redact{name: orName(cfg.Name, "redact"), r: r, requests: cfg.Requests || cfg.ApplyToInput,
		output: cfg.ApplyToOutput == nil || *cfg.ApplyToOutput, results: cfg.ApplyToToolResults == nil || *cfg.ApplyToToolResults}
	if !h.requests && !h.output && !h.results {
		mustValid("Redact", errAppliesNowhere)
	}
	return h
}

var errAppliesNowhere = errors.New("fields ApplyToInput, ApplyToOutput and ApplyToToolResults: the redaction applies nowhere, so it would redact nothing")

type redact struct {
	name     string
	r        *Redactor
	requests bool // ApplyToInput
	output   bool // ApplyToOutput
	results  bool // ApplyToToolResults
}

func (h *redact) Name() string { return h.name }

// Handles says which points the ApplyTo settings turn on.
func (h *redact) Handles(p hooks.Point) bool {
	switch p {
	case hooks.AfterToolExecute:
		return h.results
	case hooks.AfterModelResponse, hooks.StreamModelText:
		return h.output
	case hooks.BeforeModelRequest:
		return h.requests
	}
	return false
}

func (h *redact) AfterToolExecute(c *hooks.Context, call hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
	var blocked string
	p := hooks.RewriteFields(res, func(key, s string) string {
		out, b := h.r.redactField(key, s)
		if b != "" && blocked == "" {
			blocked = b
		}
		return out
	})
	if blocked == "" {
		return p, nil
	}
	text := fmt.Sprintf("Tool result withheld: it contained %s.", article(blocked))
	yes := true
	w := &hooks.ToolResultPatch{Text: &text, IsError: &yes}
	if res.Value != nil { // keep the value's shape, none of its text
		if v := hooks.RewriteStrings(hooks.ToolResult{Value: res.Value}, func(string) string { return "[WITHHELD]" }); v != nil {
			w.Value = v.Value
		}
	}
	return w, nil
}

// AfterModelResponse redacts the reply's text, its reasoning (model
// output too: a host may show or log it) and its tool calls' arguments
// (the model may echo what it read into a call: the tool then gets the
// redacted value). A kind under Block, in any of them, withholds the
// reply, drops its reasoning and drops its calls: none of them runs.
func (h *redact) AfterModelResponse(c *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
	out, blocked := h.r.redact(resp.Text)
	reasoning, reasoningBlocked := h.r.redact(resp.Reasoning)
	calls, callsBlocked := h.calls(resp.ToolCalls)
	blocked = cmp.Or(blocked, reasoningBlocked, callsBlocked)
	if blocked != "" {
		out = fmt.Sprintf("[reply withheld: it contained %s]", article(blocked))
		none := ""
		return &hooks.ModelResponsePatch{Text: &out, ToolCalls: []hooks.ToolCall{}, Reasoning: &none}, nil
	}
	if out == resp.Text && reasoning == resp.Reasoning && calls == nil {
		return nil, nil
	}
	p := &hooks.ModelResponsePatch{ToolCalls: calls}
	if out != resp.Text {
		p.Text = &out
	}
	if reasoning != resp.Reasoning {
		p.Reasoning = &reasoning
	}
	return p, nil
}

// calls returns the tool calls with their arguments redacted (nil when
// nothing changed), or the kind that blocks them.
func (h *redact) calls(calls []hooks.ToolCall) (out []hooks.ToolCall, blocked string) {
	for i, call := range calls {
		p := hooks.RewriteFields(hooks.ToolResult{Value: call.Arguments}, func(key, s string) string {
			o, b := h.r.redactField(key, s)
			if b != "" && blocked == "" {
				blocked = b
			}
			return o
		})
		if blocked != "" {
			return nil, blocked
		}
		if p == nil || p.Value == nil {
			continue
		}
		args, ok := p.Value.(map[string]any)
		if !ok { // arguments that were no JSON object: nothing of them is kept
			args = map[string]any{}
		}
		if out == nil {
			out = slices.Clone(calls)
		}
		out[i].Arguments = args
	}
	return out, ""
}

func (h *redact) BeforeModelRequest(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
	var p hooks.ModelRequestPatch
	sys, blocked := h.r.redact(req.System)
	if sys != req.System {
		p.System = &sys
	}
	for i, m := range req.Messages {
		if blocked != "" {
			break
		}
		var text string
		if text, blocked = h.r.redact(m.Text); text != m.Text && blocked == "" {
			if p.Messages == nil {
				p.Messages = slices.Clone(req.Messages)
			}
			p.Messages[i].Text = text
		}
		if blocked != "" {
			break
		}
		var calls []hooks.ToolCall // the calls of an earlier reply, sent back
		if calls, blocked = h.calls(m.ToolCalls); calls != nil {
			if p.Messages == nil {
				p.Messages = slices.Clone(req.Messages)
			}
			p.Messages[i].ToolCalls = calls
		}
	}
	if blocked != "" {
		return &hooks.ModelRequestPatch{End: &hooks.End{Output: fmt.Sprintf("Run ended: the model request contained %s, and was not sent.", article(blocked))}}, nil
	}
	if p.System == nil && p.Messages == nil {
		return nil, nil
	}
	return &p, nil
}
