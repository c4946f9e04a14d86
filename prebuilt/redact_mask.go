package prebuilt

import (
	"strings"
	"unicode/utf8"
)

// The Partial strategy's replacements, as LangChain's PII middleware
// writes its "mask": enough of the value to tell two apart, not enough
// to use it.

// maskLast4 shows the last four characters of s behind four stars.
func maskLast4(s string) string {
	if utf8.RuneCountInString(s) <= 8 {
		return "****"
	}
	_, last := lastRunes(s, 4)
	return "****" + last
}

func lastRunes(s string, n int) (head, tail string) {
	cut := len(s)
	for ; n > 0 && cut > 0; n-- {
		_, size := utf8.DecodeLastRuneInString(s[:cut])
		cut -= size
	}
	return s[:cut], s[cut:]
}

// maskCard shows a card's last four digits, in its own grouping:
// ****-****-****-1111.
func maskCard(s string) string {
	var digits []byte
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) {
			digits = append(digits, s[i])
		}
	}
	last := string(digits[len(digits)-4:])
	switch {
	case strings.Contains(s, "-"):
		return "****-****-****-" + last
	case strings.Contains(s, " "):
		return "**** **** **** " + last
	}
	return "************" + last
}

// maskEmail shows an email's name and top-level domain: ann@****.com.
func maskEmail(s string) string {
	at := strings.LastIndexByte(s, '@')
	dot := strings.LastIndexByte(s, '.')
	if at < 0 || dot < at {
		return "****"
	}
	return s[:at] + "@****" + s[dot:]
}

// maskIP shows an IPv4 address's last octet (*.*.*.7); an IPv6 address
// is masked whole.
func maskIP(s string) string {
	if parts := strings.Split(s, "."); len(parts) == 4 && !strings.Contains(s, ":") {
		return "*.*.*." + parts[3]
	}
	return "****"
}

// maskMAC shows a MAC address's last pair: **:**:**:**:**:5e.
func maskMAC(s string) string {
	sep := ":"
	if strings.Contains(s, "-") {
		sep = "-"
	}
	return strings.Repeat("**"+sep, 5) + s[len(s)-2:]
}

// canonical is s as a reader takes it: JSON escapes of plain characters
// read (unescapeJSON), a URL-encoded @ as @, fullwidth letters, digits and signs as their ASCII
// forms (４１１１ is 4111 to a model), and invisible characters (a zero
// width space inside an email) dropped.
func canonical(s string) string {
	s = unescapeJSON(s)
	s = unescapeEntities(unescapePercent(s))
	s = asciiDigits(s)
	if !strings.ContainsAny(s, "\u200b\u200c\u200d\u2060\ufeff\u00ad\u3000") && !hasFullwidth(s) {
		return s
	}
	return strings.Map(func(c rune) rune {
		switch {
		case c >= 0xFF01 && c <= 0xFF5E:
			return c - 0xFF01 + '!'
		case c == 0x3000:
			return ' '
		case c == 0x200B || c == 0x200C || c == 0x200D || c == 0x2060 || c == 0xFEFF || c == 0xAD:
			return -1
		}
		return c
	}, s)
}

// hasFullwidth reports a character of the fullwidth ASCII block (UTF-8
// EF BC 81 to EF BD 9E).
func hasFullwidth(s string) bool {
	for i := strings.IndexByte(s, 0xEF); i >= 0 && i+1 < len(s); {
		if s[i+1] == 0xBC || s[i+1] == 0xBD {
			return true
		}
		j := strings.IndexByte(s[i+1:], 0xEF)
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

// unescapeJSON writes the JSON escapes of plain characters as the
// characters (\u0040 as @, \/ as /), so that a secret spelled with them
// in a JSON text is found; what a JSON string needs escaped (a quote, a
// backslash, a control character) stays escaped, so a JSON text stays
// JSON, meaning the same.
func unescapeJSON(s string) string {
	if !strings.Contains(s, `\u`) && !strings.Contains(s, `\/`) {
		return s
	}
	var b strings.Builder
	last := 0
	for i := 0; i+1 < len(s); i++ {
		if s[i] != '\\' {
			continue
		}
		// A run of backslashes before the escape: JSON escaped again (a
		// JSON text inside a JSON string), read through every level.
		k := i
		for k+1 < len(s) && s[k+1] == '\\' {
			k++
		}
		if k+1 >= len(s) {
			break
		}
		var c byte
		n := 0
		switch {
		case s[k+1] == '/':
			c, n = '/', k-i+2
		case s[k+1] == 'u' && k+6 <= len(s) && strings.EqualFold(s[k+2:k+4], "00"):
			if v, ok := hexByte(s[k+4], s[k+5]); ok && v > 0x20 && v < 0x7f && v != '"' && v != '\\' {
				c, n = v, k-i+6
			}
		}
		if n == 0 {
			i = k // an escaped backslash, or an escape kept: what follows is text
			continue
		}
		b.WriteString(s[last:i])
		b.WriteByte(c)
		last = i + n
		i += n - 1
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

func hexByte(a, b byte) (byte, bool) {
	x, ok1 := hexDigit(a)
	y, ok2 := hexDigit(b)
	return x<<4 | y, ok1 && ok2
}

func hexDigit(c byte) (byte, bool) {
	switch {
	case isDigit(c):
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
