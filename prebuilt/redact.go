package prebuilt

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/rienda/hooks"
)

// Strategy is what redaction does with a secret it finds.
type Strategy int

const (
	// Mask replaces it with [REDACTED:<kind>].
	Mask Strategy = iota
	// Hash replaces it with [REDACTED:<kind>:<12 hex digits of its
	// SHA-256>], so that two mentions of one value can be matched up
	// without showing it (HMAC-SHA256 with HashKey, when set: a phone
	// number's hash is otherwise easy to reverse by trying them all).
	Hash
	// Block withholds the whole text: a tool result becomes an error
	// result saying what it held, a reply is replaced by a notice, and a
	// request (with Requests) ends the run instead of being sent.
	Block
)

// String returns the strategy's name as settings spell it.
func (s Strategy) String() string {
	switch s {
	case Mask:
		return "mask"
	case Hash:
		return "hash"
	case Block:
		return "block"
	}
	return fmt.Sprintf("Strategy(%d)", int(s))
}

// Pattern is a user's own kind of secret: text matching Regexp (Go's
// RE2 syntax) is redacted and reported as Name.
type Pattern struct {
	Name   string
	Regexp string
}

// RedactConfig configures Redact and NewRedactor.
type RedactConfig struct {
	Name string // "": "redact"
	// Detect names the built-in detectors to run, by kind (openai_key,
	// anthropic_key, github_token, aws_key, slack_token, google_api_key,
	// stripe_key, private_key, jwt, bearer_token, url_password, email,
	// card_number, phone) or group ("secrets", "pii"). nil: all of them; empty and
	// non-nil: none (only Patterns).
	Detect   []string
	Patterns []Pattern // the user's own, run after the built-ins
	Strategy Strategy  // for every kind without an entry in Strategies
	// Strategies sets the strategy of a kind or a group (a kind's entry
	// wins over its group's): block private keys, mask emails.
	Strategies map[string]Strategy
	HashKey    []byte // the HMAC key of Hash; nil: plain SHA-256
	// Requests redacts model requests too (the system prompt and the
	// messages sent), not only tool results and model replies.
	Requests bool
}

// Redactor finds secrets and personal data in text and redacts them. It
// is safe for concurrent use.
type Redactor struct {
	detectors []*detector
	strategy  []Strategy // by detector
	hashKey   []byte
}

// NewRedactor returns a Redactor for cfg (its Name and Requests do not
// matter here). An unknown kind, an empty or broken pattern is an error
// naming it.
func NewRedactor(cfg RedactConfig) (*Redactor, error) {
	r := &Redactor{hashKey: slices.Clone(cfg.HashKey)}
	known := detectorKinds()
	want := map[string]bool{}
	for i, k := range cfg.Detect {
		if !slices.Contains(known, k) {
			return nil, fmt.Errorf("field Detect[%d]: unknown detector %q%s (known: %s)", i, k, didYouMean(k, known), strings.Join(known, ", "))
		}
		want[k] = true
	}
	for _, d := range builtins {
		if cfg.Detect == nil || want[d.kind] || want[d.group] {
			r.detectors = append(r.detectors, d)
		}
	}
	for i, p := range cfg.Patterns {
		if p.Name == "" {
			return nil, fmt.Errorf("field Patterns[%d]: no Name (the kind a match is reported as)", i)
		}
		if p.Regexp == "" {
			return nil, fmt.Errorf("field Patterns[%d] %q: no Regexp", i, p.Name)
		}
		re, err := regexp.Compile(p.Regexp)
		if err != nil {
			return nil, fmt.Errorf("field Patterns[%d] %q: %w", i, p.Name, err)
		}
		if re.MatchString("") {
			return nil, fmt.Errorf("field Patterns[%d] %q: the regexp matches the empty string, so it would match everywhere", i, p.Name)
		}
		d := &detector{kind: p.Name, group: "patterns", re: re}
		if prefix, _ := re.LiteralPrefix(); prefix != "" {
			d.hint = contains(prefix)
		}
		r.detectors = append(r.detectors, d)
		known = append(known, p.Name)
	}
	for _, k := range sortedKeys(cfg.Strategies) {
		if !slices.Contains(known, k) {
			return nil, fmt.Errorf("field Strategies[%q]: unknown kind%s (known: %s)", k, didYouMean(k, known), strings.Join(known, ", "))
		}
		if s := cfg.Strategies[k]; s < Mask || s > Block {
			return nil, fmt.Errorf("field Strategies[%q]: unknown strategy %d", k, int(s))
		}
	}
	if cfg.Strategy < Mask || cfg.Strategy > Block {
		return nil, fmt.Errorf("field Strategy: unknown strategy %d", int(cfg.Strategy))
	}
	for _, d := range r.detectors {
		s, ok := cfg.Strategies[d.kind]
		if !ok {
			if s, ok = cfg.Strategies[d.group]; !ok {
				s = cfg.Strategy
			}
		}
		r.strategy = append(r.strategy, s)
	}
	return r, nil
}

// defaultRedactor is what Audit and ToolErrors use when given none.
var defaultRedactor = func() *Redactor {
	r, err := NewRedactor(RedactConfig{})
	if err != nil {
		panic(err)
	}
	return r
}()

// Redact returns s with what r finds redacted. A kind whose strategy is
// Block withholds the whole text: the result is [WITHHELD: contained
// <kind>].
func (r *Redactor) Redact(s string) string {
	out, blocked := r.redact(s)
	if blocked != "" {
		return "[WITHHELD: contained " + article(blocked) + "]"
	}
	return out
}

// redact returns s redacted, and the kind that blocks it, if one does.
func (r *Redactor) redact(s string) (out, blocked string) { return r.redactText(s, false) }

// redactText is redact, for the whole of a text (open false) or for the
// text of a stream so far (open true: more may follow). In a stream a
// match that reaches the end of the text may not be whole yet: a token's
// continues as an open marker (see stream.go), and a match of a bounded
// kind (an email, a phone number) is left as it is, to be decided on the
// next call with more text, while the caller holds it back.
func (r *Redactor) redactText(s string, open bool) (out, blocked string) {
	if open || strings.Contains(s, openMark) {
		if s, blocked = r.continueOpen(s, open); blocked != "" {
			return "", blocked
		}
	}
	for i, d := range r.detectors {
		if d.hint != nil && !d.hint(s) {
			continue
		}
		if s, blocked = r.apply(i, s, open); blocked != "" {
			return "", blocked
		}
	}
	if open {
		s = r.openPartial(s)
	}
	return s, ""
}

// apply runs detector i over s: it returns s with its matches replaced,
// or the detector's kind when its strategy blocks.
func (r *Redactor) apply(i int, s string, open bool) (out, blocked string) {
	d := r.detectors[i]
	locs := d.re.FindAllStringSubmatchIndex(s, -1)
	if locs == nil {
		return s, ""
	}
	var b strings.Builder
	last, changed := 0, false
	for _, loc := range locs {
		start, end := loc[0], loc[1]
		if d.sub > 0 && loc[2*d.sub] >= 0 { // else an alternative without the group
			start, end = loc[2*d.sub], loc[2*d.sub+1]
		}
		if d.valid != nil && !d.valid(s, loc[0], loc[1]) {
			continue
		}
		if open && d.cont != nil && loc[1] == len(s) {
			if n, ended := d.cont(s[start:]); !ended { // a secret still coming: an open marker
				b.WriteString(s[last:start])
				b.WriteString(openMark + d.kind + openSign)
				b.WriteString(s[start+n:]) // a key block's raw tail, held back
				last, changed = len(s), true
				break
			}
		}
		if open && d.cont == nil && atEdge(s, loc[0], loc[1]) {
			continue // decided on the next call, with more text
		}
		if r.strategy[i] == Block {
			return "", d.kind
		}
		b.WriteString(s[last:start])
		b.WriteString(r.replacement(i, s[start:end]))
		last, changed = end, true
	}
	if !changed {
		return s, "" // every match failed its check, or waits for more text
	}
	b.WriteString(s[last:])
	return b.String(), ""
}

func (r *Redactor) replacement(i int, secret string) string {
	kind := r.detectors[i].kind
	if r.strategy[i] != Hash {
		return "[REDACTED:" + kind + "]"
	}
	var sum []byte
	if r.hashKey != nil {
		m := hmac.New(sha256.New, r.hashKey)
		m.Write([]byte(secret))
		sum = m.Sum(nil)
	} else {
		s := sha256.Sum256([]byte(secret))
		sum = s[:]
	}
	return "[REDACTED:" + kind + ":" + hex.EncodeToString(sum[:6]) + "]"
}

func article(kind string) string {
	kind = strings.ReplaceAll(kind, "_", " ")
	if strings.ContainsRune("aeiou", rune(kind[0])) {
		return "an " + kind
	}
	return "a " + kind
}

// Redact returns a hook that redacts secrets (API keys and tokens of the
// common providers, private keys, JWTs, bearer tokens, passwords in URLs) and personal
// data (emails, card numbers that pass the Luhn check, phone numbers), and
// the user's Patterns: in every tool result (its text and every string of
// its structured value, through hooks.RewriteStrings), in every model
// reply, and with Requests in what is sent to the model. List it first:
// its after-points then run last, on what every other hook left, and a
// cached answer another hook gives is redacted too.
//
// Not covered: a secret in a reply's tool-call arguments (no patch can
// change them; Sandbox or Approval should judge the call), numbers in a
// structured value that are not strings, and streamed replies (the
// streaming work is not on main yet).
func Redact(cfg RedactConfig) hooks.Hook {
	r, err := NewRedactor(cfg)
	mustValid("Redact", err)
	return &redact{name: orName(cfg.Name, "redact"), r: r, requests: cfg.Requests}
}

type redact struct {
	name     string
	r        *Redactor
	requests bool
}

func (h *redact) Name() string { return h.name }

// Handles says BeforeModelRequest only with Requests.
func (h *redact) Handles(p hooks.Point) bool {
	switch p {
	case hooks.AfterToolExecute, hooks.AfterModelResponse, hooks.StreamModelText:
		return true
	case hooks.BeforeModelRequest:
		return h.requests
	}
	return false
}

func (h *redact) AfterToolExecute(c *hooks.Context, call hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
	var blocked string
	p := hooks.RewriteStrings(res, func(s string) string {
		out, b := h.r.redact(s)
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

func (h *redact) AfterModelResponse(c *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
	out, blocked := h.r.redact(resp.Text)
	if blocked != "" {
		out = fmt.Sprintf("[reply withheld: it contained %s]", article(blocked))
	}
	if out == resp.Text {
		return nil, nil
	}
	return &hooks.ModelResponsePatch{Text: &out}, nil
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
	}
	if blocked != "" {
		return &hooks.ModelRequestPatch{End: &hooks.End{Output: fmt.Sprintf("Run ended: the model request contained %s, and was not sent.", article(blocked))}}, nil
	}
	if p.System == nil && p.Messages == nil {
		return nil, nil
	}
	return &p, nil
}
