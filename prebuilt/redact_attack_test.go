package prebuilt_test

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rienda/hooks/prebuilt"
)

// The same secrets, written as a model or a tool may write them: each
// spelling reaches the reader as the secret, so each is redacted.
func TestRedactAttacksOfSpellingAndEncoding(t *testing.T) {
	r, err := prebuilt.NewRedactor(prebuilt.RedactConfig{})
	require.NoError(t, err)
	for _, tc := range []struct{ name, in, secret string }{
		{"fullwidth digits", "card ４１１１ １１１１ １１１１ １１１１ ok", "１１１１ １１１１"},
		{"fullwidth at", "mail ann＠example.com", "example.com"},
		{"URL-encoded at", "unsubscribe?email=ann%40example.com&x=1", "ann"},
		{"zero width space in an email", "mail ann\u200b@exam\u200dple.com", "ple.com"},
		{"soft hyphen in a key", "sk-\u00adant-api03-" + strings.Repeat("Zq9_", 12), "Zq9_Zq9_"},
		{"JSON-escaped letters", `{"k": "\u0073k-ant-api03-` + strings.Repeat("Zq9_", 12) + `"}`, "Zq9_Zq9_"},
		{"JSON-escaped slash in a DSN", `postgres:\/\/app:s3cr3tpw@db\/x`, "s3cr3tpw"},
		{"XML field", "<SecretAccessKey>" + awsSecret + "</SecretAccessKey>", "EXAMPLEKEY"},
		{"CLI flag", "aws configure set aws_secret_access_key " + awsSecret, "EXAMPLEKEY"},
		{"CLI long flag", "--aws-secret-access-key=" + awsSecret, "EXAMPLEKEY"},
		{"YAML value on the next line", "SecretAccessKey:\n  " + awsSecret, "EXAMPLEKEY"},
		{"escaped quotes", `{\"aws_secret_access_key\": \"` + awsSecret + `\"}`, "EXAMPLEKEY"},
		{"env file", "DB_PASSWORD=hunter2hunter2\nDEBUG=1", "hunter2hunter2"},
		{"JSON config", `{"clientSecret": "Zm9vYmFyYmF6cXV4"}`, "Zm9vYmFyYmF6cXV4"},
		{"JSON token in text", `{"id_token": "abc123def456ghi"}`, "abc123def456ghi"},
		{"JSON token in escaped JSON", `{"token":"abc123def456ghi"}`, "abc123def456ghi"},
		{"card glued to a phone", "4111111111111111 123-45-6789", "4111111111111111"},
		{"IPv6 with a port", "[2001:db8::1]:8443", "2001:db8::1"},
		{"URL with a trailing period", "see https://example.com/x.", "example.com"},
		{"phone with an extension", "555-123-4567x890", "123-4567"},
		{"@ inside a DSN password", "postgres://app:p@ss:w0rd@db:5432/x", "ss:w0rd"},
	} {
		out := r.Redact(tc.in)
		assert.NotContains(t, out, tc.secret, "%s: %q", tc.name, out)
		assert.Contains(t, out, "[REDACTED:", tc.name)
	}
	for _, clean := range []string{
		"日本語のテキスト（全角）！", "ｈｅｌｌｏ ｗｏｒｌｄ", "a\u200bb", `{"path": "a\/b"}`, "password: see below", `{"max_tokens": 4096}`,
		"api_key=${API_KEY}", "the secret access key documentation",
	} {
		assert.Equal(t, clean, r.Redact(clean), "nothing found: the text stays as written")
	}
}

// A secret or an email in base64 is as readable to a model as in text.
func TestRedactFindsSecretsInBase64(t *testing.T) {
	r, err := prebuilt.NewRedactor(prebuilt.RedactConfig{})
	require.NoError(t, err)
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	for _, tc := range []struct{ in, want string }{
		{"data:\n  password: " + b64("hunter2hunter2"), "data:\n  password: [REDACTED:credential]"},
		{"owner: " + b64("ann@example.com") + " ok", "owner: [REDACTED:email] ok"},
		{"Authorization: Basic " + b64("admin:s3cret@example.com"), "Authorization: Basic [REDACTED:email]"},
		{"k=" + base64.RawURLEncoding.EncodeToString([]byte(`{"key":"sk-ant-api03-`+strings.Repeat("Zq9_", 12)+`"}`)), "k=[REDACTED:anthropic_key]"},
		{"nested " + b64(b64("card 4111 1111 1111 1111")), "nested [REDACTED:card_number]"},
		{"hash " + b64("just some plain words here"), "hash " + b64("just some plain words here")},
		{"/usr/local/share/applications/x", "/usr/local/share/applications/x"},
	} {
		assert.Equal(t, tc.want, r.Redact(tc.in), tc.in)
	}
}
