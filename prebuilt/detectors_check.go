package prebuilt

import (
	"net/netip"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The checks of a match: a regexp finds what looks like one, these say
// whether it is one (a checksum, a range, what stands beside it), so that
// a version number, a date or an order id is not redacted.

// luhn reports whether the digits of s[i:j] (13 to 19 of them) pass the
// Luhn check every payment card number passes.
func luhn(s string, i, j int) bool {
	return luhnDigits(s[i:j])
}

// cardValid is luhn, for a number whose first digit a card network
// issues (1 UATP, 2 and 5 Mastercard, 3 Amex, Diners and JCB, 4 Visa, 6
// Discover, UnionPay and Maestro), 13 digits long only for Visa and
// Maestro (4, 5, 6): one in ten of any other run of digits passes Luhn, a
// millisecond timestamp (1686128105041) or a tracking number among them.
func cardValid(s string, i, j int) bool {
	if !luhn(s, i, j) {
		return false
	}
	first, n := s[i], 0
	for k := i; k < j; k++ {
		if isDigit(s[k]) {
			n++
		}
	}
	if n == 13 {
		return first == '4' || first == '5' || first == '6'
	}
	return first >= '1' && first <= '6'
}

func luhnDigits(s string) bool {
	sum, n := 0, 0
	for i := len(s) - 1; i >= 0; i-- {
		c := s[i]
		if c < '0' || c > '9' {
			continue
		}
		d := int(c - '0')
		if n%2 == 1 {
			if d *= 2; d > 9 {
				d -= 9
			}
		}
		sum += d
		n++
	}
	return n >= 13 && n <= 19 && sum%10 == 0
}

// phoneDigits holds a phone number to 7 to 15 digits (E.164's bounds,
// the extension aside), and not a piece of a longer run of digit groups
// (a card number that failed its check, an id).
func phoneDigits(full string, i, j int) bool {
	if i > 0 && (isDigit(full[i-1]) || isLetter(full[i-1])) || i > 1 && isSep(full[i-1]) && isDigit(full[i-2]) ||
		i > 1 && (full[i-1] == '-' || full[i-1] == '_' || full[i-1] == '#') && isAlnum(full[i-2]) || // an id: SN-8684-4313-1325
		j < len(full) && isDigit(full[j]) || j+1 < len(full) && isSep(full[j]) && isDigit(full[j+1]) {
		return false
	}
	s := full[i:j]
	if k := strings.IndexAny(s, "xe#"); k > 0 { // the extension is not counted
		s = s[:k]
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) {
			n++
		}
	}
	return n >= 7 && n <= 15
}

// ssnValid holds a US social security number to the ranges the SSA
// issues (no area 000, 666 or 9xx, no group 00, no serial 0000), written
// with one separator, and not a piece of a longer number.
func ssnValid(full string, i, j int) bool {
	if i > 0 && (isDigit(full[i-1]) || full[i-1] == '-' || full[i-1] == '.') ||
		j < len(full) && (isDigit(full[j]) || full[j] == '-' || j+1 < len(full) && full[j] == '.' && isDigit(full[j+1])) {
		return false
	}
	s := full[i:j]
	var d []byte
	var seps []byte
	for k := 0; k < len(s); k++ {
		switch {
		case isDigit(s[k]):
			d = append(d, s[k])
		case len(d) == 3 || len(d) == 5:
			if k > 0 && isDigit(s[k-1]) {
				seps = append(seps, s[k])
			}
		}
	}
	if len(d) < 9 {
		return false
	}
	d = d[len(d)-9:] // "SSN: 123456789": its digits are the last nine
	if len(seps) == 2 && seps[0] != seps[1] {
		return false
	}
	area, group, serial := string(d[:3]), string(d[3:5]), string(d[5:])
	return area != "000" && area != "666" && area[0] != '9' && group != "00" && serial != "0000"
}

// ipValid holds an IP address to what parses as one (netip: octets to
// 255, no leading zeros; IPv6 in any of its forms) and stands alone: not
// inside a longer dotted number (an OID), not a version or section number
// ("v1.2.3.4", "version 4.2.0.1", "table 3.1.4.1"); an IPv6 address holds a digit (C++'s a::b is none).
func ipValid(full string, i, j int) bool {
	s := full[i:j]
	if i > 0 && (isAlnum(full[i-1]) || full[i-1] == '.' || full[i-1] == ':' || full[i-1] == '_') ||
		j < len(full) && (isAlnum(full[j]) || full[j] == '_' || j+1 < len(full) && full[j] == '.' && isDigit(full[j+1])) {
		return false
	}
	a, err := netip.ParseAddr(s)
	if err != nil && !strings.Contains(s, ":") { // 192.168.001.001: leading zeros, read by inet_aton and by a reader
		a, err = netip.ParseAddr(strings.Join(trimZeros(strings.Split(s, ".")), "."))
	}
	if err != nil || a.IsUnspecified() { // 0.0.0.0 and :: are nobody's address
		return false
	}
	if a.Is4() && len(s) == 7 && !strings.Contains(s, ":") {
		return false // 1.2.3.4: four single digits are a version far more often than an address
	}
	if a.Is4() {
		before := strings.ToLower(full[max(0, i-10):i])
		for _, w := range numberedWords {
			if strings.HasSuffix(before, w) {
				return false
			}
		}
	}
	return strings.ContainsAny(s, "0123456789")
}

// numberedWords are what a dotted number that is not an address follows:
// "version 4.2.0.1", "table 3.1.4.1".
var numberedWords = []string{"v", "version ", "build ", "release ", "rev ", "table ", "section ", "figure ", "fig. ", "chapter ", "clause ", "step ", "item ", "§"}

// ipTrim drops the colon a match may take past an IPv6 address.
func ipTrim(full string, i, j int) int {
	if j-i > 2 && full[j-1] == ':' && full[j-2] != ':' {
		return j - 1
	}
	return j
}

// macValid holds a MAC address to one separator throughout, standing
// alone (not inside a longer run of hex pairs).
func macValid(full string, i, j int) bool {
	s := full[i:j]
	if i > 0 && (full[i-1] == ':' || full[i-1] == '-' || full[i-1] == '.') || j < len(full) && (full[j] == ':' || full[j] == '-' || j+1 < len(full) && full[j] == '.' && isAlnum(full[j+1])) {
		return false
	}
	if strings.Count(s, ".") == 2 {
		return strings.ContainsAny(s, "abcdefABCDEF") // 1234.5678.9012 is a number, not a MAC
	}
	return strings.Count(s, ":") == 5 || strings.Count(s, "-") == 5
}

// ibanTrim shortens a match to the longest IBAN in it that passes the
// mod-97 check (the regexp may take a word after it).
func ibanTrim(full string, i, j int) int {
	for end := j; end-i >= 15; end-- {
		if end < len(full) && isAlnum(full[end]) && isAlnum(full[end-1]) || full[end-1] == ' ' {
			continue
		}
		if ibanCheck(full[i:end]) {
			return end
		}
	}
	return j
}

func ibanValid(full string, i, j int) bool { return ibanCheck(full[i:j]) }

// ibanCheck is ISO 13616's check: 15 to 34 letters and digits whose
// rearranged number is 1 modulo 97.
func ibanCheck(s string) bool {
	s = strings.ReplaceAll(s, " ", "")
	if len(s) < 15 || len(s) > 34 {
		return false
	}
	s = s[4:] + s[:4]
	rem := 0
	for k := 0; k < len(s); k++ {
		c := s[k]
		switch {
		case isDigit(c):
			rem = (rem*10 + int(c-'0')) % 97
		case c >= 'A' && c <= 'Z':
			rem = (rem*100 + int(c-'A') + 10) % 97
		default:
			return false
		}
	}
	return rem == 1
}

// urlTrim drops what a URL match takes past the URL: punctuation that
// ends the sentence, a closing bracket it did not open.
func urlTrim(full string, i, j int) int {
	for j > i {
		c := full[j-1]
		switch {
		case strings.IndexByte(".,;:!?*", c) >= 0:
			j--
			continue
		case c == ')' || c == ']' || c == '}':
			open := map[byte]byte{')': '(', ']': '[', '}': '{'}[c]
			if strings.Count(full[i:j], string(open)) < strings.Count(full[i:j], string(c)) {
				j--
				continue
			}
		}
		return j
	}
	return j
}

// urlValid keeps a bare domain that is part of something else (a name
// after @, a file in a path) from being taken for a URL.
func urlValid(full string, i, j int) bool {
	if i > 0 && strings.IndexByte("@/._-", full[i-1]) >= 0 {
		return false
	}
	return j-i > 4
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isAlnum(c byte) bool  { return isDigit(c) || isLetter(c) }

// runUntil returns a cont that swallows every byte but those of stop.
func runUntil(stop string) func(string) (int, bool) {
	return func(after string) (int, bool) {
		n := strings.IndexAny(after, stop)
		if n < 0 {
			return len(after), false
		}
		return n, true
	}
}

// cardTrim shortens a match to the longest card number in it (the
// regexp may run on into the digits of what follows: "4111 1111 1111
// 1111 123"), ending where a group of digits ends.
func cardTrim(full string, i, j int) int {
	for end := j; end > i; end-- {
		if end < j && (!isDigit(full[end-1]) || isDigit(full[end])) {
			continue
		}
		if luhnDigits(full[i:end]) {
			return end
		}
	}
	return j
}

// trimZeros drops the leading zeros of each part ("001" → "1").
func trimZeros(parts []string) []string {
	for k, p := range parts {
		if t := strings.TrimLeft(p, "0"); t != p {
			if t == "" {
				t = "0"
			}
			parts[k] = t
		}
	}
	return parts
}

// emailEnds holds an email to a top-level domain that ends there (no
// letter or digit follows), and a name that does not start with a quote.
func emailEnds(full string, i, j int) bool {
	if full[i] == '\'' {
		return false
	}
	r, _ := utf8.DecodeRuneInString(full[j:])
	return j == len(full) || !unicode.IsLetter(r) && !unicode.IsDigit(r)
}

// emailCont swallows the rest of an email's domain in a stream: letters
// and digits of any script, periods and hyphens.
func emailCont(after string) (int, bool) {
	n := 0
	for n < len(after) {
		c := after[n]
		if isAlnum(c) || c == '.' || c == '-' || c >= utf8.RuneSelf {
			n++
			continue
		}
		break
	}
	for n < len(after) && !utf8.RuneStart(after[n]) {
		n++
	}
	return n, n < len(after)
}
