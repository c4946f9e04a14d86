package prebuilt

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// More of canonical: the spellings a reader (a model, a browser, a shell)
// reads as plain characters, so that a secret written in them is found.

// unescapePercent decodes %XX to the characters a secret or an address
// is made of (letters, digits, @ . _ + -): ann%40example.com,
// sk-proj-%41bc…. A %20 or %2F stays: decoding them would cut a URL in
// two or change its path.
func unescapePercent(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	last := 0
	for i := 0; i+2 < len(s); i++ {
		if s[i] != '%' {
			continue
		}
		v, ok := hexByte(s[i+1], s[i+2])
		if !ok || !(isAlnum(v) || strings.IndexByte("@._+-", v) >= 0) {
			continue
		}
		b.WriteString(s[last:i])
		b.WriteByte(v)
		last = i + 3
		i += 2
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// namedEntities are the HTML entities of the characters an address or a
// key is written with.
var namedEntities = map[string]byte{"commat": '@', "period": '.', "plus": '+', "hyphen": '-', "lowbar": '_', "colon": ':', "sol": '/', "num": '#', "lpar": '(', "rpar": ')'}

// unescapeEntities decodes HTML character references of printable ASCII
// (&#64;, &#x40;, &commat;), as a browser shows them.
func unescapeEntities(s string) string {
	if !strings.Contains(s, "&") {
		return s
	}
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '&' {
			continue
		}
		end := strings.IndexByte(s[i:min(len(s), i+12)], ';')
		if end < 0 {
			continue
		}
		name := s[i+1 : i+end]
		var c byte
		switch {
		case strings.HasPrefix(name, "#x") || strings.HasPrefix(name, "#X"):
			if v, err := strconv.ParseUint(name[2:], 16, 8); err == nil {
				c = byte(v)
			}
		case strings.HasPrefix(name, "#"):
			if v, err := strconv.ParseUint(name[1:], 10, 8); err == nil {
				c = byte(v)
			}
		default:
			c = namedEntities[name]
		}
		if c <= 0x20 || c >= 0x7f || c == '&' || c == '<' || c == '>' || c == '"' {
			continue
		}
		b.WriteString(s[last:i])
		b.WriteByte(c)
		last = i + end + 1
		i += end
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// asciiDigits writes the decimal digits of other scripts (Arabic-Indic
// ١٢٣, Devanagari १२३) as ASCII ones: a model reads ١٢٣-٤٥-٦٧٨٩ as an SSN.
func asciiDigits(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			goto slow
		}
	}
	return s
slow:
	return strings.Map(func(c rune) rune {
		if c >= utf8.RuneSelf && unicode.IsDigit(c) {
			if d := digitValue(c); d >= 0 {
				return '0' + d
			}
		}
		return c
	}, s)
}

// digitValue is the value of a decimal digit c (Unicode Nd: each script's
// digits are ten consecutive code points), or -1.
func digitValue(c rune) rune {
	for z := c; z >= c-10; z-- {
		if !unicode.IsDigit(z) {
			return c - z - 1
		}
	}
	return -1
}
