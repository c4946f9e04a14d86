package prebuilt

import (
	"encoding/base64"
	"encoding/hex"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A model reads base64 as easily as text: a secret or an email encoded
// in it (a Kubernetes Secret's data, a basic-auth header, a data: URL) is
// as visible as in plain text. So each run of base64 long enough to hold
// one is decoded, and if it decodes to text in which a detector finds
// something, the whole run is redacted as that kind.

// base64Run is a run of base64 (standard or URL-safe) of 16 characters or
// more: 12 bytes or more once decoded.
var base64Run = regexp.MustCompile(`[A-Za-z0-9+/_-]{16,}={0,2}`)

// maxBase64Depth bounds base64 inside base64.
const maxBase64Depth = 2

// base64 redacts the runs of base64 in s that decode to text holding
// something a detector finds. In a stream (open) a run that reaches the
// end of the text may go on, and is decided on a later call.
func (r *Redactor) base64(s string, open bool, depth int) (out, blocked string) {
	if depth >= maxBase64Depth || !hasBase64Run(s) {
		return s, ""
	}
	locs := base64Run.FindAllStringIndex(s, -1)
	if hexLocs := hexRun.FindAllStringIndex(s, -1); hexLocs != nil {
		locs = mergeRuns(locs, hexLocs)
	}
	var b strings.Builder
	last := 0
	for _, loc := range locs {
		if open && loc[1] == len(s) || loc[0] < last {
			continue // still going on; or inside a run already redacted
		}
		text, ok := decodeBase64(s[loc[0]:loc[1]])
		if !ok {
			continue
		}
		found, blocked := r.redactDecoded(text, depth)
		if blocked != "" {
			return "", blocked
		}
		if found < 0 {
			continue
		}
		b.WriteString(s[last:loc[0]])
		b.WriteString(r.replacement(found, s[loc[0]:loc[1]]))
		last = loc[1]
	}
	if last == 0 {
		return s, ""
	}
	b.WriteString(s[last:])
	return b.String(), ""
}

// redactDecoded is the detector that finds something in text, or -1; or
// the kind that blocks.
func (r *Redactor) redactDecoded(text string, depth int) (found int, blocked string) {
	out, blocked := r.redactPlain(text)
	if blocked != "" {
		return -1, blocked
	}
	if out == text {
		if out, blocked = r.base64(text, false, depth+1); blocked != "" || out == text {
			return -1, blocked
		}
	}
	for i, d := range r.detectors {
		if strings.Contains(out, "[REDACTED:"+d.kind) || r.replacedBy(i, out, text) {
			return i, ""
		}
	}
	return 0, ""
}

// replacedBy reports whether detector i's replacement of some value
// shows in out (a Partial or custom replacement carries no kind).
func (r *Redactor) replacedBy(i int, out, text string) bool {
	return r.strategy[i] == Partial && out != text && r.detectors[i].hint != nil && r.detectors[i].hint(text) &&
		r.detectors[i].re.MatchString(text)
}

// redactPlain runs the detectors over text, whole, without the base64
// pass.
func (r *Redactor) redactPlain(s string) (string, string) {
	for i, d := range r.detectors {
		if d.hint != nil && !d.hint(s) {
			continue
		}
		var blocked string
		if s, blocked = r.apply(i, s, false); blocked != "" {
			return "", blocked
		}
	}
	return s, ""
}

// decodeBase64 decodes run (standard or URL-safe, padded or not) to
// text: valid UTF-8, printable but for line breaks and tabs.
func decodeBase64(run string) (string, bool) {
	if h := strings.TrimPrefix(strings.TrimPrefix(run, "0x"), "0X"); len(h)%2 == 0 && !strings.ContainsAny(h, "ghijklmnopqrstuvwxyzGHIJKLMNOPQRSTUVWXYZ+/_-=") {
		if data, err := hex.DecodeString(h); err == nil {
			return printable(data)
		}
	}
	raw := strings.TrimRight(run, "=")
	enc := base64.RawStdEncoding
	if strings.ContainsAny(raw, "-_") {
		if strings.ContainsAny(raw, "+/") {
			return "", false
		}
		enc = base64.RawURLEncoding
	}
	data, err := enc.DecodeString(raw)
	if err != nil {
		return "", false
	}
	return printable(data)
}

// printable is data as text, if it is valid UTF-8, printable but for
// line breaks and tabs.
func printable(data []byte) (string, bool) {
	if !utf8.Valid(data) {
		return "", false
	}
	for _, c := range string(data) {
		if !unicode.IsPrint(c) && c != '\n' && c != '\r' && c != '\t' {
			return "", false
		}
	}
	return string(data), true
}

// hasBase64Run is base64Run's cheap test: a run of 16 bytes of its
// alphabet.
func hasBase64Run(s string) bool {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isAlnum(c) || c == '+' || c == '/' || c == '_' || c == '-' {
			if n++; n >= 16 {
				return true
			}
			continue
		}
		n = 0
	}
	return false
}

// hexRun is a run of hex digits, 16 or more, even in number: 8 bytes or
// more once decoded (an email is longer). A git SHA or a hash decodes to
// bytes that are no text, and stays.
var hexRun = regexp.MustCompile(`\b(?:0[xX])?(?:[0-9A-Fa-f]{2}){8,}\b`)

// mergeRuns adds to the base64 runs the hex runs that are not one of
// them (a hex run inside a longer base64 run: data+616e6e40…), in order
// of where they start; one that is a base64 run is tried as hex first,
// by decodeBase64.
func mergeRuns(b64, hexes [][]int) [][]int {
	out := slices.Clone(b64)
	for _, h := range hexes {
		if !slices.ContainsFunc(b64, func(b []int) bool { return b[0] == h[0] && b[1] == h[1] }) {
			out = append(out, h)
		}
	}
	slices.SortStableFunc(out, func(a, b []int) int { return a[0] - b[0] })
	return out
}
