package prebuilt

import (
	"regexp"
	"strings"
)

// detector finds one kind of secret or personal data in text.
type detector struct {
	kind  string
	group string            // "secrets" or "pii"
	hint  func(string) bool // a cheap test: false means the text cannot hold one
	re    *regexp.Regexp
	valid func(s string, i, j int) bool // a check of the match s[i:j] (a card's Luhn digit); nil: every match
	sub   int                           // the submatch to replace; 0: the whole match
	// cont, for a kind whose match may go on past the end of a stream's
	// text so far (a token, a key block), is how many bytes of what
	// follows an open marker still belong to it, and whether it ended
	// there; nil for a kind of bounded length (an email, a phone number).
	cont func(after string) (n int, ended bool)
	// partial, for such a kind that may grow past the stream's hold-back
	// before it matches (a JWT's three parts), matches the start of one at
	// the end of the text (its group 1, if any, is the secret's part).
	partial *regexp.Regexp
}

// The built-in detectors, in the order they run: the more specific first,
// so that an Anthropic key is not called an OpenAI one and a card number
// is not called a phone number.
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
	{kind: "aws_key", group: "secrets", hint: anyOf("AKIA", "ASIA", "ABIA", "ACCA", "aws_secret", "AWS_SECRET"),
		re: regexp.MustCompile(`\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b|(?i:aws_secret_access_key)["']?\s*[:=]\s*["']?([A-Za-z0-9/+=]{40})`), sub: 1, cont: run(awsChars),
		partial: regexp.MustCompile(`(?i:aws_secret_access_key)["']?\s*[:=]\s*["']?([A-Za-z0-9/+=]+)\z`)},
	{kind: "slack_token", group: "secrets", hint: contains("xox"),
		re: regexp.MustCompile(`\bxox[abposre]-[A-Za-z0-9-]{10,}`), cont: run(tokenChars)},
	{kind: "google_api_key", group: "secrets", hint: contains("AIza"),
		re: regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}`), cont: run(tokenChars)},
	{kind: "stripe_key", group: "secrets", hint: anyOf("_live_", "_test_"),
		re: regexp.MustCompile(`\b(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}`), cont: run(tokenChars)},
	{kind: "jwt", group: "secrets", hint: contains("eyJ"),
		re: regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{10,}`), cont: run(jwtChars),
		partial: regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_.-]*\z`)},
	{kind: "bearer_token", group: "secrets", hint: anyOf("Bearer", "bearer", "BEARER"),
		re: regexp.MustCompile(`\b(?i:bearer)\s+([A-Za-z0-9._~+/-]{20,}=*)`), sub: 1, cont: run(bearerChars)},
	{kind: "url_password", group: "secrets", hint: contains("://"),
		re: regexp.MustCompile(`\b[a-zA-Z][a-zA-Z0-9+.-]*://[^:/?#\s@]+:([^@/?#\s]+)@`), sub: 1},
	{kind: "email", group: "pii", hint: contains("@"),
		re: regexp.MustCompile(`\b[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b`)},
	{kind: "card_number", group: "pii", hint: digitRun(13, " -"),
		re: regexp.MustCompile(`\b\d(?:[ -]?\d){12,18}\b`), valid: luhn},
	{kind: "phone", group: "pii", hint: digitRun(7, " -.()+"),
		re: regexp.MustCompile(`(?:\+\d{1,3}[ .-]?)?(?:\(\d{2,4}\)|\b\d{2,4})[ .-]\d{3,4}[ .-]\d{3,4}\b|\+\d{7,15}\b`), valid: phoneDigits},
}

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

// luhn reports whether the digits of s[i:j] (13 to 19 of them) pass the
// Luhn check every payment card number passes.
func luhn(s string, i, j int) bool {
	return luhnDigits(s[i:j])
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

// phoneDigits holds a phone number to 7 to 15 digits (E.164's bounds),
// and not a piece of a longer run of digit groups (a card number that
// failed its check, an id).
func phoneDigits(full string, i, j int) bool {
	if i > 0 && isDigit(full[i-1]) || i > 1 && isSep(full[i-1]) && isDigit(full[i-2]) ||
		j < len(full) && isDigit(full[j]) || j+1 < len(full) && isSep(full[j]) && isDigit(full[j+1]) {
		return false
	}
	s := full[i:j]
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			n++
		}
	}
	return n >= 7 && n <= 15
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isSep(c byte) bool   { return c == ' ' || c == '-' || c == '.' }

// notAnthropic keeps the OpenAI detector off an Anthropic key (sk-ant-),
// which may reach it whole or, in a stream, in part.
func notAnthropic(s string, i, j int) bool { return !strings.HasPrefix(s[i:j], "sk-ant-") }
