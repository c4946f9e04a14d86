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
//   - a bounded match (an email, a phone or card number) that reaches the
//     end of the text is left for the next call, which sees more of it.
//
// A secret that spans pieces is masked without a hash (the whole value
// is never seen at once).
const streamHoldBack = 64

const (
	openMark = "[REDACTED:"
	openSign = "…"
)

// keyTailKeep is how many raw bytes an unfinished key block keeps behind
// its open marker: enough for the longest END line, so that one cut in
// two is still found; marker and tail fit in the hold-back.
const keyTailKeep = 36

var openMarkRe = regexp.MustCompile(`\[REDACTED:([a-z_]+)…`)

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
		kind := s[loc[2]:loc[3]]
		i := r.detector(kind)
		if i < 0 || r.detectors[i].cont == nil {
			continue // not a marker this redactor writes: text like any
		}
		n, ended := r.detectors[i].cont(s[loc[1]:])
		b.WriteString(s[last:loc[0]])
		switch {
		case (ended || !open) && r.strategy[i] == Block:
			return "", kind
		case ended || !open:
			b.WriteString(openMark + kind + "]")
			last = loc[1] + n
			if !ended && !open { // the text ended inside the secret: all of it goes
				last = len(s)
			}
		default: // still open: the marker, and (a key block) its raw tail, held back
			b.WriteString(s[loc[0]:loc[1]])
			last = loc[1] + n
			b.WriteString(s[last:])
			last = len(s)
		}
	}
	b.WriteString(s[last:])
	return b.String(), ""
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

// atEdge reports whether the match s[i:j] is at the end of s (at most two
// bytes after it, which a check of what follows a match may still need)
// and short enough to be held back whole.
func atEdge(s string, i, j int) bool {
	return len(s)-j <= 2 && utf8.RuneCountInString(s[i:]) <= streamHoldBack
}

// openPartial replaces the start of a secret at the end of s, one that
// does not match yet and may grow past the hold-back before it does (a
// JWT), with an open marker.
func (r *Redactor) openPartial(s string) string {
	for _, d := range r.detectors {
		if d.partial == nil || (d.hint != nil && !d.hint(s)) {
			continue
		}
		loc := d.partial.FindStringSubmatchIndex(s)
		if loc == nil {
			continue
		}
		start := loc[0]
		if len(loc) > 2 && loc[2] >= 0 {
			start = loc[2]
		}
		return s[:start] + openMark + d.kind + openSign
	}
	return s
}
