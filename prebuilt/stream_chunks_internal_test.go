package prebuilt

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// chunkCases hold one secret of each detector, in the context it is
// written in, the secret's body (what must not be delivered, not even
// 8 bytes of it), and what the reply becomes.
var chunkCases = []struct{ kind, reply, body string }{
	{"openai_key", "key " + "sk-" + "proj-" + strings.Repeat("aB3x", 40) + " ok", strings.Repeat("aB3x", 40)},
	{"anthropic_key", "k=" + "sk-" + "ant-api03-" + strings.Repeat("Zq9_", 12) + "\n", strings.Repeat("Zq9_", 12)},
	{"github_token", "t " + "gh" + "p_" + strings.Repeat("a1B2", 9) + ".", strings.Repeat("a1B2", 9)},
	{"aws_key", "id " + "AK" + "IA" + "IOSFODNN7EXAMPLE" + " x", "IOSFODNN7EXAMPLE"},
	{"aws_key", `{"SecretAccessKey": "` + "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY" + `"}`, "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"},
	{"aws_key", "AWS_SECRET_ACCESS_KEY=" + strings.Repeat(" ", 300) + "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY\nnext", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"},
	{"aws_key", "aws_secret_access_key" + strings.Repeat("\t", 200) + "=" + strings.Repeat(" ", 200) + "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"},
	{"slack_token", "xo" + "xb-" + "1234567890-abcdefghijKLMN ", "1234567890-abcdefghijKLMN"},
	{"google_api_key", "g:" + "AI" + "za" + strings.Repeat("Sy0_", 8) + "abc;", strings.Repeat("Sy0_", 8) + "abc"},
	{"stripe_key", "sk" + "_live_" + strings.Repeat("4eC39HqLyjWD", 2) + " ", strings.Repeat("4eC39HqLyjWD", 2)},
	{"jwt", "jwt " + "eyJ" + "hbGciOiJIUzI1NiJ9" + ".eyJ" + strings.Repeat("zdWIiOiIxMjM0In0", 8) + ".dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U done", strings.Repeat("zdWIiOiIxMjM0In0", 8) + ".dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"},
	{"bearer_token", "Authorization: Bearer " + "ya29.a0AfH6SMBx3-opaque_token~value" + strings.Repeat("x", 80) + "\n", "ya29.a0AfH6SMBx3-opaque_token~value" + strings.Repeat("x", 80)},
	{"bearer_token", "Authorization: Bearer" + strings.Repeat(" ", 250) + "ya29.a0AfH6SMBx3-opaque_token~value\n", "ya29.a0AfH6SMBx3-opaque_token~value"},
	{"url_password", "dsn postgres://app:" + strings.Repeat("S3cr", 24) + "@db:5432/x ok", strings.Repeat("S3cr", 24)},
	{"url_password", "dsn mysql://app:" + strings.Repeat("p@ss", 24) + "@db:3306/x ok", strings.Repeat("p@ss", 24)},
	{"credential", `password: "` + strings.Repeat("hunter2!", 20) + `"`, strings.Repeat("hunter2!", 20)},
	{"credential", "DB_PASSWORD=" + strings.Repeat(" ", 200) + "hunter2hunter2\n", "hunter2hunter2"},
	{"email", "mail " + strings.Repeat("ann.lee", 9) + "@" + strings.Repeat("mail.example", 8) + ".com now", strings.Repeat("ann.lee", 9) + "@" + strings.Repeat("mail.example", 8)},
	{"email", "to é ann.lee@example.com é", "ann.lee@example.com"},
	{"url", "see https://example.com/" + strings.Repeat("path/", 40) + "?q=1 then", "example.com/" + strings.Repeat("path/", 40)},
	{"ip", "from 203.0.113.195 and 2001:db8:85a3::8a2e:370:7334 end", "2001:db8:85a3::8a2e:370:7334"},
	{"mac_address", "nic 00:1a:2b:3c:4d:5e up", "00:1a:2b:3c:4d:5e"},
	{"iban", "IBAN GB82 WEST 1234 5698 7654 32 paid", "WEST 1234 5698 7654 32"},
	{"card_number", "card 4111 1111 1111 1111 ok", "4111 1111 1111 1111"},
	{"us_ssn", "SSN 123-45-6789 on file", "123-45-6789"},
	{"phone", "call +44 20 7946 0958 ext. 123 now", "+44 20 7946 0958"},
	{"phone", "call (555) 123-4567x890.", "(555) 123-4567"},
}

// pieces cuts s into chunks of size bytes, or runes (byRune).
func pieces(s string, size int, byRune bool) []string {
	var out []string
	for len(s) > 0 {
		n := min(size, len(s))
		if byRune {
			n = 0
			for k := 0; k < size && n < len(s); k++ {
				_, w := utf8.DecodeRuneInString(s[n:])
				n += w
			}
		}
		out = append(out, s[:n])
		s = s[n:]
	}
	return out
}

// Every detector's secret, in every chunking of its reply (every chunk
// size to 64 bytes, then every 7th; in runes, every size to 8), reaches
// no chunk, not even 8 bytes of it.
func TestStreamRedactionOfEveryDetectorInEveryChunking(t *testing.T) {
	r, err := NewRedactor(RedactConfig{})
	require.NoError(t, err)
	for _, c := range chunkCases {
		whole := r.Redact(c.reply)
		require.Empty(t, leaks(whole, c.body), "%s: the whole reply: %q", c.kind, whole)
		require.Contains(t, whole, "[REDACTED:"+c.kind, c.reply)
		for size := 1; size <= len(c.reply); size += max(1, min(size/64, 1)*7) {
			for _, byRune := range []bool{false, true} {
				if byRune && size > 8 {
					continue
				}
				got, blocked := stage(r, pieces(c.reply, size, byRune))
				require.Empty(t, blocked)
				require.Empty(t, leaks(got, c.body), "%s in chunks of %d (runes: %v): %q", c.kind, size, byRune, got)
				require.Contains(t, got, "[REDACTED:"+c.kind, "%s in chunks of %d", c.kind, size)
			}
		}
	}
}

// Under Hash, a secret decided whole gets its hash and one cut across
// chunks its marker: neither lets a byte of it through.
func TestStreamRedactionUnderHashInEveryChunking(t *testing.T) {
	r, err := NewRedactor(RedactConfig{Strategy: Hash, HashKey: []byte("k")})
	require.NoError(t, err)
	for _, c := range chunkCases {
		for size := 1; size <= 16; size++ {
			got, _ := stage(r, pieces(c.reply, size, false))
			require.Empty(t, leaks(got, c.body), "%s in chunks of %d: %q", c.kind, size, got)
			require.Contains(t, got, "[REDACTED:"+c.kind, "%s in chunks of %d", c.kind, size)
		}
	}
}
