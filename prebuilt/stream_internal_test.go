package prebuilt

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stage plays the streaming core's part for one stream hook: it holds
// back the last streamHoldBack runes of what the redaction returns and
// passes them again with the next piece; it returns what was delivered.
func stage(r *Redactor, pieces []string) (delivered string, blocked string) {
	var out strings.Builder
	held := ""
	for i, p := range pieces {
		final := i == len(pieces)-1
		text, b := r.redactText(held+p, !final)
		if b != "" {
			return out.String(), b
		}
		if final {
			out.WriteString(text)
			break
		}
		cut := len(text)
		for n := streamHoldBack; n > 0 && cut > 0; n-- {
			_, size := utf8.DecodeLastRuneInString(text[:cut])
			cut -= size
		}
		out.WriteString(text[:cut])
		held = text[cut:]
	}
	return out.String(), ""
}

var streamSecrets = []struct{ secret, kind, lead string }{
	{"sk-" + "proj-" + strings.Repeat("aB3x", 40), "openai_key", ""}, // longer than the hold-back
	{"sk-" + "ant-api03-" + strings.Repeat("Zq9_", 12), "anthropic_key", ""},
	{"gh" + "p_" + strings.Repeat("a1B2", 9), "github_token", ""},
	{"AK" + "IA" + "IOSFODNN7EXAMPLE", "aws_key", ""},
	{"eyJ" + "hbGciOiJIUzI1NiJ9" + ".eyJ" + strings.Repeat("zdWIiOiIxMjM0In0", 8) + ".dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "jwt", ""},
	{"-----BEGIN " + "RSA PRIVATE KEY-----\n" + strings.Repeat("MIIEpAIBAAKCAQEAx4\n", 8) + "-----END RSA " + "PRIVATE KEY-----", "private_key", ""},
	{"ya29.a0AfH6SMBx3-opaque_token~value" + strings.Repeat("x", 60), "bearer_token", "Bearer "}, // the lead stays
	{"ann.lee@example.com", "email", ""},
	{"4111 1111 1111 1111", "card_number", ""},
	{"+1 415 555 0132", "phone", ""},
}

// leaks reports a piece of secret, 8 bytes or more of its body, in text.
func leaks(text, secret string) string {
	body := secret
	if strings.HasPrefix(secret, "-----BEGIN") { // the key's base64, not its header
		body = secret[strings.Index(secret, "\n")+1 : strings.LastIndex(secret, "-----END")]
	}
	for i := 0; i+8 <= len(body); i++ {
		w := body[i : i+8]
		if strings.TrimSpace(w) == w && strings.Contains(text, w) {
			return w
		}
	}
	return ""
}

func TestStreamRedactionOfASecretCutAnywhere(t *testing.T) {
	r, err := NewRedactor(RedactConfig{})
	require.NoError(t, err)
	for _, s := range streamSecrets {
		reply := "Here it is: " + s.lead + s.secret + " and that is all."
		for cut := 1; cut < len(reply); cut++ {
			for _, pieces := range [][]string{
				{reply[:cut], reply[cut:]},
				{reply[:cut/2], reply[cut/2 : cut], reply[cut:]},
			} {
				got, blocked := stage(r, pieces)
				require.Empty(t, blocked)
				require.Empty(t, leaks(got, s.secret), "%s cut at %d: %q", s.kind, cut, got)
				require.Equal(t, "Here it is: "+s.lead+"[REDACTED:"+s.kind+"] and that is all.", got, "%s cut at %d", s.kind, cut)
			}
		}
	}
}

func TestStreamRedactionOneRuneAtATime(t *testing.T) {
	r, err := NewRedactor(RedactConfig{})
	require.NoError(t, err)
	for _, s := range streamSecrets {
		reply := "x " + s.lead + s.secret + "\nnext line é"
		var pieces []string
		for _, c := range reply {
			pieces = append(pieces, string(c))
		}
		got, _ := stage(r, pieces)
		assert.Equal(t, "x "+s.lead+"[REDACTED:"+s.kind+"]\nnext line é", got, s.kind)
	}
}

func TestStreamRedactionAtTheEndOfTheReply(t *testing.T) {
	r, err := NewRedactor(RedactConfig{})
	require.NoError(t, err)
	for _, s := range streamSecrets {
		got, _ := stage(r, []string{"key: " + s.lead, s.secret[:len(s.secret)/2], s.secret[len(s.secret)/2:]})
		assert.Equal(t, "key: "+s.lead+"[REDACTED:"+s.kind+"]", got, s.kind)
	}
	got, _ := stage(r, []string{"cut short: -----BEGIN " + "RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEAx4", "MIIEpAIBAAKCAQEAx4\n"})
	assert.Equal(t, "cut short: [REDACTED:private_key]", got)
}

func TestStreamRedactionBlocks(t *testing.T) {
	r, err := NewRedactor(RedactConfig{Strategies: map[string]Strategy{"jwt": Block}})
	require.NoError(t, err)
	jwt := streamSecrets[4].secret
	got, blocked := stage(r, []string{"a " + jwt[:30], jwt[30:] + " b"})
	assert.Equal(t, "jwt", blocked)
	assert.Empty(t, leaks(got, jwt))
}
