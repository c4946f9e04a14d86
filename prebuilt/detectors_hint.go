package prebuilt

import "strings"

// The hints of the PII detectors whose regexps would otherwise run on
// almost every text (a period, a colon): a scan for the shape the kind
// needs, so that the regexp runs only where one may be.

var tldSet = func() map[string]bool {
	m := map[string]bool{}
	for _, t := range strings.Split(urlTLDs, "|") {
		m[t] = true
	}
	return m
}()

// hasTLD reports a period followed by a top-level domain of urlTLDs and
// then no letter or digit: ".com/", ".org ".
func hasTLD(s string) bool {
	for i := strings.IndexByte(s, '.'); i >= 0; {
		j := i + 1
		for j < len(s) && s[j] >= 'a' && s[j] <= 'z' {
			j++
		}
		if j > i+1 && (j == len(s) || !isAlnum(s[j])) && tldSet[s[i+1:j]] {
			return true
		}
		k := strings.IndexByte(s[j:], '.')
		if k < 0 {
			return false
		}
		i = j + k
	}
	return false
}

// ipHint reports a digit, a period and a digit (IPv4), or "::" or a run
// of hex digits and colons holding two colons (IPv6).
func ipHint(s string) bool {
	if strings.Contains(s, "::") {
		return true
	}
	colons := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '.':
			if i > 0 && i+1 < len(s) && isDigit(s[i-1]) && isDigit(s[i+1]) {
				return true
			}
			colons = 0
		case c == ':':
			if colons++; colons >= 2 {
				return true
			}
		case !isHex(c):
			colons = 0
		}
	}
	return false
}

// macHint reports two hex digits, a colon or hyphen, two hex digits and
// the same separator again; or four hex digits, a period, four hex digits.
func macHint(s string) bool {
	for i := 2; i+5 < len(s); i++ {
		c := s[i]
		if (c == ':' || c == '-') && isHex(s[i-1]) && isHex(s[i-2]) && isHex(s[i+1]) && isHex(s[i+2]) && s[i+3] == c {
			return true
		}
		if c == '.' && i >= 4 && i+4 < len(s) && isHex(s[i-1]) && isHex(s[i-4]) && isHex(s[i+1]) && isHex(s[i+4]) {
			return true
		}
	}
	return false
}

// ibanHint reports two capital letters followed by two digits.
func ibanHint(s string) bool {
	for i := 0; i+3 < len(s); i++ {
		if s[i] >= 'A' && s[i] <= 'Z' && s[i+1] >= 'A' && s[i+1] <= 'Z' && isDigit(s[i+2]) && isDigit(s[i+3]) {
			return true
		}
	}
	return false
}

func isHex(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
