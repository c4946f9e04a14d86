package prebuilt

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// A stream's text comes in pieces, and a secret may be cut across two of
// them. The caller (the streaming core) holds back the last streamHoldBack
// runes of what the redaction returns, and calls it again with them and
// the next piece, so:
//
//   - anything that may become a secret but does not match yet (a key's
//     first characters) is shorter than the hold-back, so it is held;
//   - a token that matches and reaches the end of the text may go on in
//     the next piece: it is replaced by an open marker, "[REDACTED:kind…",
//     which the next call continues (what follows it that still belongs to
//     the token is swallowed) and closes, "[REDACTED:kind]", once the
//     token ends. A private key block swallows up to its END line; the
//     last bytes of an unfinished block stay raw behind the marker (held
//     back, never delivered), so that an END line cut in two is still
//     seen;
//   - a short match (a phone or card number, an email) that ends near
//     the end of the text is left for the next call, which sees more of
//     it; a long one that may go on (a URL, an email with a long name, a
//     URL's password) becomes an open marker once its start is half a
//     hold-back back, before it could leave the held text;
//   - a keyword whose value is still to come (an AWS secret's field name,
//     "Bearer"), however long the run of blanks after it, leaves a
//     pending marker at the end of the text, "[REDACTED:kind⋯" (or "⋮"
//     while the separator is still to come): the blanks that follow are
//     let through before it, and the value, when it comes, is redacted.
//
// Every pattern's span is thus either bounded by half the hold-back or
// carried by a marker: no secret byte is let through before the redactor
// could decide on it. A secret that spans pieces is masked without a hash
// (the whole value is never seen at once).
const streamHoldBack = 128

// edgeSlack is how near the end of the text a short match must end to
// wait for more: what may still follow it and change it (an extension of
// a phone number, more digits of a card).
const edgeSlack = 16

const (
	openMark = "[REDACTED:"
	openSign = "…" // in the secret
	waitVal  = "⋯" // its value is still to come
	waitSep  = "⋮" // its separator and value are still to come
)

// keyTailKeep is how many raw bytes an unfinished key block keeps behind
// its open marker: enough for the longest END line, so that one cut in
// two is still found; marker and tail fit in the hold-back.
const keyTailKeep = 36

var openMarkRe = regexp.MustCompile(`\[REDACTED:([a-z_0-9]+)(…|⋯|⋮)`)

// run returns a cont that swallows the bytes of set.
func run(set string) func(string) (int, bool) {
	return func(after string) (int, bool) {
		n := 0
		for n < len(after) && strings.IndexByte(set, after[n]) >= 0 {
			n++
		}
		return n, n < len(after)
	}
}

const (
	tokenChars  = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
	jwtChars    = tokenChars + "."
	awsChars    = tokenChars + "/+="
	bearerChars = tokenChars + "._~+/="
)

var keyEnd = regexp.MustCompile(`-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----`)

// keyBlock swallows a private key block up to its END line; unfinished,
// all but its last keyTailKeep bytes.
func keyBlock(after string) (int, bool) {
	if loc := keyEnd.FindStringIndex(after); loc != nil {
		return loc[1], true
	}
	n := max(0, len(after)-keyTailKeep)
	for n > 0 && !utf8.RuneStart(after[n]) {
		n--
	}
	// A BEGIN line is never kept raw: the tail would be taken for a new block.
	if loc := keyBegin.FindAllStringIndex(after, -1); loc != nil {
		n = max(n, loc[len(loc)-1][1])
	}
	return n, false
}

var keyBegin = regexp.MustCompile(`-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----`)

// continueOpen continues the open markers of s: it swallows what still
// belongs to each one's secret, and closes it once the secret ended (or,
// with open false, the text did).
func (r *Redactor) continueOpen(s string, open bool) (out, blocked string) {
	locs := openMarkRe.FindAllStringSubmatchIndex(s, -1)
	if locs == nil {
		return s, ""
	}
	var b strings.Builder
	last := 0
	for _, loc := range locs {
		if loc[0] < last {
			continue // inside what an earlier marker swallowed
		}
		kind, sign := s[loc[2]:loc[3]], s[loc[4]:loc[5]]
		i := r.detector(kind)
		if i < 0 || r.detectors[i].cont == nil {
			continue // not a marker this redactor writes: text like any
		}
		b.WriteString(s[last:loc[0]])
		from := loc[1] // where the secret's bytes start
		if sign != openSign {
			k, value := r.awaitValue(i, s[from:], sign)
			b.WriteString(s[from : from+k]) // blanks and a separator, let through
			from += k
			switch {
			case from == len(s) && open:
				b.WriteString(openMark + kind + value)
				last = len(s)
				continue
			case value != openSign: // no value followed: nothing to redact
				last = from
				continue
			}
		}
		n, ended := r.detectors[i].cont(s[from:])
		switch {
		case (ended || !open) && r.strategy[i] == Block:
			return "", kind
		case ended || !open:
			b.WriteString(openMark + kind + "]")
			last = from + n
			if !ended && !open { // the text ended inside the secret: all of it goes
				last = len(s)
			}
		default: // still open: the marker, and (a key block) its raw tail, held back
			b.WriteString(openMark + kind + openSign)
			last = from + n
			b.WriteString(s[last:])
			last = len(s)
		}
	}
	b.WriteString(s[last:])
	return b.String(), ""
}

// awaitValue reads what follows a pending marker of detector i: the
// blanks, quotes and (waitSep) separator before the value, as k bytes;
// and the marker's sign after them: openSign if the value starts there,
// else still waiting (at the end of the text) or "" (something else came).
func (r *Redactor) awaitValue(i int, after, sign string) (k int, next string) {
	for k < len(after) {
		c := after[k]
		switch {
		case strings.IndexByte(blanks+`"'\\`, c) >= 0:
		case c == ':' || c == '=' || c == '>':
			sign = waitVal
		default:
			return k, r.valueStarts(i, after[k:], sign)
		}
		k++
	}
	return k, sign
}

// valueStarts is the sign of a pending marker of detector i that after
// follows: openSign if a value starts there, else "" (something else came).
func (r *Redactor) valueStarts(i int, after, sign string) string {
	if n, _ := r.detectors[i].cont(after); n > 0 && sign == waitVal {
		return openSign
	}
	return ""
}

// detector is the index of the detector of kind, or -1.
func (r *Redactor) detector(kind string) int {
	for i, d := range r.detectors {
		if d.kind == kind {
			return i
		}
	}
	return -1
}

// atEdge reports whether the match s[i:j] ends near the end of s (what
// follows may still change it) and is short enough to be held back
// whole, with room to spare for what the later detectors write.
func atEdge(s string, i, j int) bool {
	return len(s)-j <= edgeSlack && utf8.RuneCountInString(s[i:]) <= streamHoldBack/2
}

// openPartial replaces the start of a secret at the end of s, one that
// does not match yet and may grow past the hold-back before it does (a
// JWT, a long URL), with an open marker; and puts a pending marker after
// a keyword whose value is still to come, once the keyword is half a
// hold-back back.
func (r *Redactor) openPartial(s string) string {
	for _, d := range r.detectors {
		if d.hint != nil && !d.hint(s) {
			continue
		}
		if d.partial != nil {
			if loc := d.partial.FindStringSubmatchIndex(s); loc != nil && (!d.long || !near(s, loc[0])) {
				start := loc[0]
				if len(loc) > 2 && loc[2] >= 0 {
					start = loc[2]
				}
				return s[:start] + openMark + d.kind + openSign
			}
		}
		if d.keyword != nil {
			if loc := d.keyword.FindStringSubmatchIndex(s); loc != nil && !near(s, loc[0]) {
				sign := waitVal
				if d.sep && loc[2] == loc[3] {
					sign = waitSep
				}
				return s + openMark + d.kind + sign
			}
		}
	}
	return s
}

// near reports whether s[i:] is short enough to be held back whole.
func near(s string, i int) bool {
	return utf8.RuneCountInString(s[i:]) <= streamHoldBack/2
}
