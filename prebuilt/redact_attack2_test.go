package prebuilt_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/prebuilt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A second round of attacks on Redact: spellings a reader takes as the
// plain value, real-world formats the first detectors missed, and
// near-misses that must stay.
func TestRedactSecondRoundEncodings(t *testing.T) {
	r, err := prebuilt.NewRedactor(prebuilt.RedactConfig{})
	require.NoError(t, err)
	for _, c := range []struct{ in, leak string }{
		{`{"a":"{\"k\":\"ann\\u0040example.com\"}"}`, "ann"},         // JSON escaped twice
		{`ann\\\\u0040example.com`, "ann"},                           // escaped three times
		{`ann&#64;example.com`, "ann"},                               // HTML entities
		{`ann&#x40;example.com`, "ann"},                              //
		{`ann&commat;example&period;com`, "ann"},                     //
		{"sk-proj-%41bcdefghijklmnopqrstuvwxyz0123", "bcdefghijklm"}, // URL-encoded
		{"616e6e406578616d706c652e636f6d", "616e6e"},                 // hex of ann@example.com
		{"0x616e6e406578616d706c652e636f6d", "616e6e"},               //
		{"blob=YWJj+616e6e406578616d706c652e636f6d", "616e6e"},       // hex inside a longer base64 run
		{"١٢٣-٤٥-٦٧٨٩", "٦٧٨٩"},                                      // Arabic-Indic digits: an SSN
		{"४१११ ११११ ११११ ११११", "११११ ११११"},                         // Devanagari digits: a card
		{"josé@exämple.de", "josé"},                                  // IDN email
		{"ann.o'brien@example.com", "ann.o"},                         // apostrophe in the name
		{"4111.1111.1111.1111", "4111.1111"},                         // card grouped with periods
		{"phone: 4155552671", "4155552671"},                          // bare digits a word names a phone
		{"whatsapp 1 (798) 643-2877 pls", "643-2877"},                //
		{"client=::ffff:168.98.54.160", "168.98"},                    // IPv4-mapped IPv6
		{"from 192.168.001.001", "192.168.001"},                      // leading zeros
	} {
		out := r.Redact(c.in)
		assert.NotContains(t, out, c.leak, "%q → %q", c.in, out)
		assert.Contains(t, out, "[REDACTED:", "%q → %q", c.in, out)
	}
}

// What looks like PII but is not stays as written.
func TestRedactSecondRoundNearMissesStay(t *testing.T) {
	r, err := prebuilt.NewRedactor(prebuilt.RedactConfig{})
	require.NoError(t, err)
	for _, s := range []string{
		"timestamp 1686128105041",                         // 13 digits passing Luhn, no card network's
		"tracking 7000000000000002",                       // a 7… run passing Luhn
		"Serial: SN-8684-4313-1325",                       // an id's digit groups, not a phone
		"upgrade to 1.2.3.4 next week",                    // four single digits: a version
		"commit 9fceb02d0ae598e95dc970b74767f19372d61af8", // a SHA: hex that decodes to no text
		"sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		"UUID 123e4567-e89b-12d3-a456-426614174000",
		"ISBN 978-3-16-148410-0",
		"main.go:120:14: undefined",
		"3.14159265358979 is pi",
		"+1-800-FLOWERS", // a vanity number is a business's, not a person's
	} {
		assert.Equal(t, s, r.Redact(s))
	}
	assert.False(t, strings.Contains(r.Redact("ip 10.0.0.1"), "10.0.0.1"))
}

// A field named for an SSN or a phone number is redacted whole when its
// value holds the digits of one, bare digits no pattern could call one;
// a "pass" or "pin" field too.
func TestRedactSecondRoundPersonalFields(t *testing.T) {
	r, err := prebuilt.NewRedactor(prebuilt.RedactConfig{})
	require.NoError(t, err)
	redactValue := func(v map[string]any) string {
		p := hooks.RewriteFields(hooks.ToolResult{Value: v}, r.RedactField)
		if p == nil {
			p = &hooks.ToolResultPatch{Value: v}
		}
		b, err := json.Marshal(p.Value)
		require.NoError(t, err)
		return string(b)
	}
	for _, c := range []struct {
		v    map[string]any
		leak string
	}{
		{map[string]any{"ssn": 123456789}, "123456789"},
		{map[string]any{"employee_social_security_number": "123456789"}, "123456789"},
		{map[string]any{"phone": "4155552671"}, "4155552671"},
		{map[string]any{"mobilePhone": 4155552671}, "4155552671"},
		{map[string]any{"fax_no": "4155552671"}, "4155552671"},
		{map[string]any{"pass": "hunter2hunter2"}, "hunter2"},
		{map[string]any{"user": map[string]any{"pin": "4921"}}, "4921"},
	} {
		got := redactValue(c.v)
		assert.NotContains(t, got, c.leak, "%v → %s", c.v, got)
	}
	for _, v := range []map[string]any{{"hotel": "Hilton 12"}, {"phone": "none"}, {"ssn_verified": true}, {"bypass_cache": "yes"}} {
		assert.NotContains(t, redactValue(v), "REDACTED", "%v", v)
	}
}
