package prebuilt

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"slices"
	"strings"
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
	// Partial shows a little of the value, as LangChain's "mask" does: a
	// card's last four digits (****-****-****-1111), an email's name and
	// top-level domain (ann@****.com), an IP address's last octet
	// (*.*.*.7), a MAC address's last pair, a URL as [MASKED_URL], and of
	// any other kind its last four characters (****6789). A secret cut
	// across a stream's chunks is masked whole ([REDACTED:kind]): it is
	// never seen whole at once.
	Partial
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
	case Partial:
		return "partial"
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
	// url, ip, mac_address, iban, card_number, us_ssn, phone) or group
	// ("secrets", "pii"). nil: all of them. "none", alone: none of them,
	// only Patterns. An empty non-nil list is an error: it would turn
	// every detector off without a word.
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
	// Where the redaction applies, as LangChain's PIIMiddleware says it
	// (apply_to_input, apply_to_output, apply_to_tool_results):
	// ApplyToInput is Requests; ApplyToOutput the model's replies, whole
	// and streamed (nil: on); ApplyToToolResults tool results (nil: on).
	// A config that applies nowhere is an error.
	ApplyToInput       bool
	ApplyToOutput      *bool
	ApplyToToolResults *bool
}

// Bool returns a pointer to b, for RedactConfig's ApplyTo fields.
func Bool(b bool) *bool { return &b }

// Redactor finds secrets and personal data in text and redacts them. It
// is safe for concurrent use.
type Redactor struct {
	detectors []*detector
	strategy  []Strategy // by detector
	hashKey   []byte
	// replace, set by tests only, writes a finding instead of the
	// strategy's replacement (to measure where the detectors found what).
	replace func(i int, secret string) string
}

// NewRedactor returns a Redactor for cfg (its Name and Requests do not
// matter here). An unknown kind, an empty or broken pattern is an error
// naming it.
func NewRedactor(cfg RedactConfig) (*Redactor, error) {
	r := &Redactor{hashKey: slices.Clone(cfg.HashKey)}
	known := detectorKinds()
	want, err := wanted(cfg, known)
	if err != nil {
		return nil, err
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
	strategies := map[string]Strategy{}
	for _, k := range sortedKeys(cfg.Strategies) {
		strategies[kindAlias(k)] = cfg.Strategies[k]
		if !slices.Contains(known, kindAlias(k)) {
			return nil, fmt.Errorf("field Strategies[%q]: unknown kind%s (known: %s)", k, didYouMean(k, known), strings.Join(known, ", "))
		}
		if s := cfg.Strategies[k]; s < Mask || s > Partial {
			return nil, fmt.Errorf("field Strategies[%q]: unknown strategy %d", k, int(s))
		}
	}
	if cfg.Strategy < Mask || cfg.Strategy > Partial {
		return nil, fmt.Errorf("field Strategy: unknown strategy %d", int(cfg.Strategy))
	}
	for _, d := range r.detectors {
		s, ok := strategies[d.kind]
		if !ok {
			if s, ok = strategies[d.group]; !ok {
				s = cfg.Strategy
			}
		}
		r.strategy = append(r.strategy, s)
	}
	return r, nil
}

// defaultRedactor is what Audit and ToolErrors use when given none: every
// detector but url, since a record or an error that names the address it
// failed on says what went wrong (its password is still redacted).
var defaultRedactor = func() *Redactor {
	var kinds []string
	for _, d := range builtins {
		if d.kind != "url" {
			kinds = append(kinds, d.kind)
		}
	}
	r, err := NewRedactor(RedactConfig{Detect: kinds})
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
// continues as an open marker (see stream.go), and a short match of a
// bounded kind (a phone number, a short email) is left as it is, to be
// decided on the next call with more text, while the caller holds it back.
func (r *Redactor) redactText(s string, open bool) (out, blocked string) {
	if c := canonical(s); c != s {
		// The same text as a reader takes it: redacted in that form if
		// anything is found in it, else left as it was written.
		if out, blocked = r.redactRaw(c, open); blocked != "" || out != c {
			return out, blocked
		}
	}
	return r.redactRaw(s, open)
}

func (r *Redactor) redactRaw(s string, open bool) (out, blocked string) {
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
	if s, blocked = r.base64(s, open, 0); blocked != "" {
		return "", blocked
	}
	if open {
		s = r.openPartial(s)
	}
	return s, ""
}

// span is the part of match loc that is the secret: the detector's
// group (sub -1: the first group that took part), else all of it,
// trimmed.
func (d *detector) span(s string, loc []int) (start, end int) {
	start, end = loc[0], loc[1]
	if d.trim != nil {
		end = d.trim(s, loc[0], loc[1])
	}
	switch {
	case d.sub > 0 && loc[2*d.sub] >= 0: // else an alternative without the group
		start, end = loc[2*d.sub], loc[2*d.sub+1]
	case d.sub < 0:
		for g := 2; g < len(loc); g += 2 {
			if loc[g] >= 0 {
				start, end = loc[g], loc[g+1]
				break
			}
		}
	}
	return start, end
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
		start, end := d.span(s, loc)
		if d.valid != nil && !d.valid(s, start, end) {
			continue
		}
		if open && (d.cont == nil || d.long) && atEdge(s, loc[0], loc[1]) {
			continue // decided on the next call, with more text
		}
		if open && d.cont != nil { // a secret that may go on to the end of the text
			n, ended := d.cont(s[start:])
			if ended && n < end-start { // the secret's own bytes the cont does not take (an email's @)
				n2, ended2 := d.cont(s[end:])
				n, ended = end-start+n2, ended2
			}
			if !ended { // a secret still coming: an open marker
				b.WriteString(s[last:start])
				b.WriteString(openMark + d.kind + openSign)
				b.WriteString(s[start+n:]) // a key block's raw tail, held back
				last, changed = len(s), true
				break
			}
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
	if r.replace != nil {
		return r.replace(i, secret)
	}
	d := r.detectors[i]
	switch r.strategy[i] {
	case Partial:
		if d.partialMask != nil {
			return d.partialMask(secret)
		}
		return maskLast4(secret)
	case Hash:
	default:
		return "[REDACTED:" + d.kind + "]"
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
	return "[REDACTED:" + d.kind + ":" + hex.EncodeToString(sum[:6]) + "]"
}

func article(kind string) string {
	kind = strings.ReplaceAll(kind, "_", " ")
	if strings.ContainsRune("aeiou", rune(kind[0])) {
		return "an " + kind
	}
	return "a " + kind
}
