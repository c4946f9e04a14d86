package prebuilt

import (
	"regexp"
	"strings"
)

// detector finds one kind of secret or personal data in text.
type detector struct {
	kind  string
	group string            // "secrets", "pii" or "patterns"
	hint  func(string) bool // a cheap test: false means the text cannot hold one
	re    *regexp.Regexp
	valid func(s string, i, j int) bool // a check of the match s[i:j] (a card's Luhn digit); nil: every match
	trim  func(s string, i, j int) int  // where the match really ends (a URL's closing period is not its own); nil: j
	sub   int                           // the submatch to replace; 0: the whole match
	// cont, for a kind whose match may go on past the end of a stream's
	// text so far (a token, a key block, a URL), is how many bytes of what
	// follows an open marker still belong to it, and whether it ended
	// there; nil for a kind of bounded length (a phone number).
	cont func(after string) (n int, ended bool)
	// partial, for such a kind, matches the start of one at the end of the
	// text that may grow past the stream's hold-back before it matches or
	// ends (a JWT's parts, a URL's password, an email's domain); its group
	// 1, if any, is the secret's part. long: open a marker only once the
	// start is half a hold-back back, so that a short one is decided
	// whole, with the text that follows.
	partial *regexp.Regexp
	long    bool
	// keyword, for a kind found by what precedes the value (an AWS
	// secret's field name, "Bearer"), matches that keyword and what may
	// follow it up to the end of the text: its group 1 is the separator,
	// if any (sep: the kind needs one). However long the run of blanks
	// after it, the value that comes is redacted (see stream.go).
	keyword *regexp.Regexp
	sep     bool
	// partialMask is the Partial strategy's replacement (LangChain's
	// "mask"): what of the value may be shown; nil: its last four
	// characters behind stars.
	partialMask func(secret string) string
}

// kw is an AWS field name in any case style: SecretAccessKey,
// secret_access_key, AWS_SECRET_ACCESS_KEY, aws-secret-access-key,
// "aws.secretAccessKey"; sepRe what joins it to its value, in code, JSON
// (escaped too: \"), YAML and env files.
const (
	awsSecretKw      = `(?i:(?:aws[_.\- ]?)?secret[_.\- ]?access[_.\- ]?key)`
	awsSessionKw     = `(?i:(?:aws[_.\- ]?)?session[_.\- ]?token)`
	credentialKw     = `(?i:[A-Za-z0-9_.-]*?(?:password|passwd|passphrase|client[_.-]?secret|api[_.-]?key|access[_.-]?token|refresh[_.-]?token|auth[_.-]?token|secret[_.-]?key))`
	credentialJSONKw = `(?i:[A-Za-z0-9_.-]*(?:token|secret|pwd|passwd|password|api[_.-]?key|apikey|secret[_.-]?key|private[_.-]?key))`
	sepRe            = `(?:\\*["'])?\s*(?::=|=>|[:=>])\s*(?:\\*["'])?`
)

// The built-in detectors, in the order they run: the more specific first,
// so that an Anthropic key is not called an OpenAI one, a card number is
// not called a phone number, and an email's domain is not called a URL.
var builtins = []*detector{
	{kind: "private_key", group: "secrets", hint: contains("PRIVATE KEY"),
		// An unterminated block (a key cut short, or split across results) is
		// withheld to the end of the text.
		re: regexp.MustCompile(`-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?s:.*?)(?:-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\z)`), cont: keyBlock},
	{kind: "anthropic_key", group: "secrets", hint: contains("sk-ant-"),
		re: regexp.MustCompile(`\bsk-ant-[A-Za-z0-9_-]{20,}`), cont: run(tokenChars)},
	{kind: "openai_key", group: "secrets", hint: contains("sk-"),
		re: regexp.MustCompile(`\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}`), valid: notAnthropic, cont: run(tokenChars)},
	{kind: "github_token", group: "secrets", hint: anyOf("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
		re: regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b`), cont: run(tokenChars)},
	{kind: "aws_key", group: "secrets", hint: awsHint,
		re: regexp.MustCompile(`\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b|` + awsSecretKw + `(?:` + sepRe + `|\s+)([A-Za-z0-9/+][A-Za-z0-9/+=]{19,})|` +
			awsSessionKw + `(?:` + sepRe + `|\s+)([A-Za-z0-9/+][A-Za-z0-9/+=]{15,})`), sub: -1, cont: run(awsChars),
		partial: regexp.MustCompile(`(?:` + awsSecretKw + `|` + awsSessionKw + `)(?:` + sepRe + `|\s+)([A-Za-z0-9/+][A-Za-z0-9/+=]*)\z`),
		keyword: regexp.MustCompile(`(?:` + awsSecretKw + `|` + awsSessionKw + `)(?:\\*["'])?(\s*(?::=|=>|[:=>]))?[\s"'\\]*\z`)},
	{kind: "slack_token", group: "secrets", hint: contains("xox"),
		re: regexp.MustCompile(`\bxox[abposre]-[A-Za-z0-9-]{10,}`), cont: run(tokenChars)},
	{kind: "google_api_key", group: "secrets", hint: contains("AIza"),
		re: regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}`), cont: run(tokenChars)},
	{kind: "stripe_key", group: "secrets", hint: anyOf("_live_", "_test_"),
		re: regexp.MustCompile(`\b(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}`), cont: run(tokenChars)},
	{kind: "jwt", group: "secrets", hint: contains("eyJ"),
		re: regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{10,}`), cont: run(jwtChars),
		partial: regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_.-]*\z`)},
	{kind: "bearer_token", group: "secrets", hint: bearerHint,
		re: regexp.MustCompile(`\b(?i:bearer)\s+([A-Za-z0-9._~+/-]{20,}=*)`), sub: 1, cont: run(bearerChars),
		partial: regexp.MustCompile(`\b(?i:bearer)\s+([A-Za-z0-9._~+/-]+=*)\z`),
		keyword: regexp.MustCompile(`\b(?i:bearer)()\s+\z`)},
	{kind: "url_password", group: "secrets", hint: contains("://"),
		// The password runs to the last @ before the path, as url.Parse
		// reads it (p@ss is one password); a streamed one, not yet ended,
		// takes the host with it.
		re: regexp.MustCompile(`\b[a-zA-Z][a-zA-Z0-9+.-]*://[^:/?#\s@]+:([^/?#\s]+)@`), sub: 1, cont: runUntil("/?#" + blanks),
		partial: regexp.MustCompile(`\b[a-zA-Z][a-zA-Z0-9+.-]*://[^:/?#\s@]+:([^/?#\s]*)\z`), long: true},
	{kind: "credential", group: "secrets", hint: credentialHint,
		// A JSON key names more secrets than prose may: "token", "secret".
		re: regexp.MustCompile(`(?:^|[^A-Za-z0-9])` + credentialKw + sepRe + `([^\s"'\\,;]{4,})|` +
			`\\?"` + credentialJSONKw + `\\?"\s*:\s*\\?"([^"\\\s]{4,})`), sub: -1, valid: notPlaceholder,
		cont:    runUntil(blanks + "\"'\\,;"),
		partial: regexp.MustCompile(`(?:^|[^A-Za-z0-9])` + credentialKw + sepRe + `([^\s"'\\,;\[=:>][^\s"'\\,;]*)\z`),
		keyword: regexp.MustCompile(`(?:^|[^A-Za-z0-9])` + credentialKw + `(?:\\*["'])?(\s*(?::=|=>|[:=>]))?[\s"'\\]*\z`), sep: true},
	{kind: "email", group: "pii", hint: contains("@"),
		// Names and domains in any script (josé@exämple.de), an apostrophe
		// in the name (o'brien@…).
		re:      regexp.MustCompile(`\b[\pL\pN._%+'-]+@[\pL\pN-]+(?:\.[\pL\pN-]+)*\.\pL{2,}`),
		valid:   emailEnds,
		cont:    emailCont,
		partial: regexp.MustCompile(`\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]*\z`), long: true, partialMask: maskEmail},
	{kind: "url", group: "pii", hint: urlHint,
		re: regexp.MustCompile(`\b(?i:https?|ftps?|wss?)://[^\s<>"'\x60\\]+|\bwww\.[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+(?:[/?#][^\s<>"'\x60\\]*)?|` +
			`\b(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+(?:` + urlTLDs + `)\b(?:[/?#][^\s<>"'\x60\\]*)?`),
		trim: urlTrim, valid: urlValid, cont: runUntil(blanks + "<>\"'`\\"),
		partial: regexp.MustCompile(`(?:\b(?i:https?|ftps?|wss?)://|\bwww\.)[^\s<>"'\x60\\]*\z`), long: true,
		partialMask: func(string) string { return "[MASKED_URL]" }},
	{kind: "ip", group: "pii", hint: ipHint,
		re:   regexp.MustCompile(`\b(?:\d{1,3}\.){3}\d{1,3}\b|(?i:(?:[0-9a-f]{0,4}:){2,7}(?:(?:\d{1,3}\.){3}\d{1,3}|[0-9a-f]{1,4})?)`),
		trim: ipTrim, valid: ipValid, partialMask: maskIP},
	{kind: "mac_address", group: "pii", hint: macHint,
		re:    regexp.MustCompile(`\b[0-9A-Fa-f]{2}(?:[:-][0-9A-Fa-f]{2}){5}\b|\b[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}\b`),
		valid: macValid, partialMask: maskMAC},
	{kind: "iban", group: "pii", hint: ibanHint,
		re:   regexp.MustCompile(`\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\b`),
		trim: ibanTrim, valid: ibanValid},
	{kind: "card_number", group: "pii", hint: digitRun(13, " -."),
		re: regexp.MustCompile(`\b\d{4}(?:\.\d{4}){3}\b|\b\d(?:[ -]?\d){12,18}\b`), trim: cardTrim, valid: cardValid, partialMask: maskCard},
	{kind: "us_ssn", group: "pii", hint: digitRun(9, " -."),
		re:  regexp.MustCompile(`\b\d{3}[- .]\d{2}[- .]\d{4}\b|(?i:\bssn|social security(?: number| no\.?)?)\s*(?:#|:|is)?\s*(\d{9})\b`),
		sub: -1, valid: ssnValid},
	{kind: "phone", group: "pii", hint: digitRun(7, " -.()+/"),
		re: regexp.MustCompile(`(?:(?:\+\d{1,3}|\b00[1-9]\d{0,2})(?:[ .-]?\(0\))?[ .-]?(?:\(\d{1,5}\)|\d{1,5})(?:[ .-]?\d{1,5}){1,5}` +
			`|\b1[ .-]\d{3}[ .-]\d{3}[ .-]\d{4}|\b1[ .-]?\(\d{3}\) ?\d{3}[ .-]\d{4}|(?:\(\d{2,5}\) ?|\b\d{2,5}[ .-])\d{3,4}[ .-]\d{4}|\b0\d{2,4}[ -]\d{5,8}|\b0[1-9](?:[ .]\d{2}){4})` + phoneExt + `\b|` +
			// ten or eleven bare digits, where a word says they are a phone number
			`(?i:\b(?:phone|tel|telephone|mobile|cell|fax|call|text|sms|whatsapp)\b)[^\d\n]{0,12}?(\d{10,11})\b`),
		sub:   -1,
		valid: phoneDigits},
}

// phoneExt is an extension, part of the number: x123, ext. 45, #12.
const phoneExt = `(?:\s?(?:x|ext\.?|extension|#)\s?\d{1,6})?`

// urlTLDs are the top-level domains a bare domain (no scheme, no www.) is
// taken for a URL with: common ones that are not also file extensions
// (.sh, .md, .py, .go are left out), lower case (ASP.NET is no domain).
const urlTLDs = `com|org|net|edu|gov|mil|int|io|info|biz|co|me|us|uk|ca|de|fr|es|it|nl|eu|au|jp|cn|in|br|ru|ch|se|no|dk|fi|pl|be|at|nz|ie|mx|za|kr|tv|app|dev|cloud|online|site|xyz|tech|store|blog`

const (
	alnum  = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	blanks = " \t\n\r\f\v"
)

// detectorKinds names the built-in kinds and groups, for messages.
func detectorKinds() []string {
	out := []string{"secrets", "pii"}
	for _, d := range builtins {
		out = append(out, d.kind)
	}
	return out
}

func contains(sub string) func(string) bool {
	return func(s string) bool { return strings.Contains(s, sub) }
}

func anyOf(subs ...string) func(string) bool {
	return func(s string) bool {
		for _, sub := range subs {
			if strings.Contains(s, sub) {
				return true
			}
		}
		return false
	}
}

var (
	awsHint = func(s string) bool {
		return anyOf("AKIA", "ASIA", "ABIA", "ACCA")(s) || hasFold(s, "access") || hasFold(s, "session")
	}
	credentialHint = func(s string) bool {
		return hasFold(s, "pass") || hasFold(s, "secret") || hasFold(s, "key") || hasFold(s, "token")
	}
	bearerHint = func(s string) bool { return hasFold(s, "bearer") }
	urlHint    = func(s string) bool { return strings.Contains(s, "://") || strings.Contains(s, "www.") || hasTLD(s) }
)

// hasFold reports whether s holds sub (lower case ASCII) in any case.
func hasFold(s, sub string) bool {
	up := sub[0] - 'a' + 'A'
	for i := 0; i+len(sub) <= len(s); i++ {
		if (s[i] == sub[0] || s[i] == up) && strings.EqualFold(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}

// notPlaceholder keeps a credential's value that stands for one
// (${API_KEY}, <password>, ****, [REDACTED:…]) as it is.
func notPlaceholder(s string, i, j int) bool {
	v := s[i:j]
	return v != "" && strings.IndexByte("$<*[{%", v[0]) < 0 && !strings.EqualFold(v, "null") && !strings.EqualFold(v, "none")
}

// fieldKinds name the fields of a structured value whose value is a
// secret whatever it looks like: {"SecretAccessKey": "…"} in the JSON
// of aws sts, {"password": "…"} in a config.
//
// A field named for personal data ({"ssn": 123456789}, {"phone":
// "4155552671"}) is redacted whole when its value has digits enough
// (need): bare digits no pattern could call an SSN or a phone number.
var fieldKinds = []struct {
	kind string
	re   *regexp.Regexp
	need int // digits the value must hold; 0: any value
}{
	{"aws_key", regexp.MustCompile(`^(?:` + awsSecretKw + `|` + awsSessionKw + `)$`), 0},
	{"credential", regexp.MustCompile(`^(?i:[A-Za-z0-9_.-]*?(?:password|passwd|pwd|passphrase|secret|api[_.-]?key|apikey|token|private[_.-]?key|secret[_.-]?key|access[_.-]?key|signing[_.-]?key|credentials?)|(?:[A-Za-z0-9_.-]*[_.-])?(?:pass|passcode|pin))$`), 0},
	{"us_ssn", regexp.MustCompile(`^(?i:[A-Za-z0-9_.-]*?(?:ssn|social[_.\- ]?security(?:[_.\- ]?(?:number|no|num))?))$`), 9},
	{"phone", regexp.MustCompile(`^(?i:(?:[A-Za-z0-9_.-]*?(?:phone|mobile)|(?:[A-Za-z0-9_.-]*[_.-])?(?:cell|tel|fax))(?:[_.\- ]?(?:number|no|num))?)$`), 7},
}

// digitCount is how many ASCII digits s holds.
func digitCount(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) {
			n++
		}
	}
	return n
}

// digitRun tests for a run of n digits or more, with only seps between
// them: a bound below what a card or phone number needs, so that the
// regexp runs only on text that may hold one.
func digitRun(n int, seps string) func(string) bool {
	return func(s string) bool {
		k := 0
		for i := 0; i < len(s); i++ {
			switch c := s[i]; {
			case isDigit(c):
				if k++; k >= n {
					return true
				}
			case strings.IndexByte(seps, c) < 0:
				k = 0
			}
		}
		return false
	}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isSep(c byte) bool   { return c == ' ' || c == '-' || c == '.' }

// notAnthropic keeps the OpenAI detector off an Anthropic key (sk-ant-),
// which may reach it whole or, in a stream, in part.
func notAnthropic(s string, i, j int) bool { return !strings.HasPrefix(s[i:j], "sk-ant-") }
