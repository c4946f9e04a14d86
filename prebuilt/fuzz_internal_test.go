package prebuilt

import (
	"testing"
	"unicode/utf8"
)

// FuzzRedact: redaction never panics, is idempotent (a redacted text has
// nothing left to redact) and keeps valid UTF-8 valid, whole or streamed
// in two pieces.
func FuzzRedact(f *testing.F) {
	for _, s := range []string{"", "plain", "mail a@b.io", "sk-ant-" + "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "[REDACTED:jwt…abc", "-----BEGIN PRIVATE KEY-----\nabc",
		"4111 1111 1111 1111", "+1 415 555 0132", "é\xff", "https://u:p@h/x"} {
		f.Add(s, 3)
	}
	r, err := NewRedactor(RedactConfig{})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string, cut int) {
		once := r.Redact(s)
		if twice := r.Redact(once); twice != once {
			t.Fatalf("not idempotent: %q -> %q -> %q", s, once, twice)
		}
		if utf8.ValidString(s) && !utf8.ValidString(once) {
			t.Fatalf("invalid UTF-8 from %q: %q", s, once)
		}
		if cut < 0 || cut > len(s) {
			return
		}
		got, _ := stage(r, []string{s[:cut], s[cut:]})
		if utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Fatalf("invalid UTF-8 from the stream of %q: %q", s, got)
		}
	})
}
