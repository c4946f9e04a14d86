package prebuilt_test

import (
	"strings"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/hooktest"
	"github.com/rienda/hooks/prebuilt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Fake secrets, built in pieces so that no scanner takes this file for a leak.
var (
	openaiKey    = "sk-" + "proj-" + strings.Repeat("aB3x", 10)
	anthropicKey = "sk-" + "ant-api03-" + strings.Repeat("Zq9_", 12)
	githubToken  = "gh" + "p_" + strings.Repeat("a1B2", 9)
	githubPAT    = "github" + "_pat_" + strings.Repeat("11AB", 8)
	awsKey       = "AK" + "IA" + "IOSFODNN7EXAMPLE"
	slackToken   = "xo" + "xb-" + "1234567890-abcdefghij"
	googleKey    = "AI" + "za" + strings.Repeat("Sy0_", 8) + "abc"
	stripeKey    = "sk" + "_live_" + strings.Repeat("4eC39HqLyjWD", 2)
	jwt          = "eyJ" + "hbGciOiJIUzI1NiJ9" + ".eyJ" + "zdWIiOiIxMjM0In0" + ".dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
	privateKey   = "-----BEGIN " + "RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\n-----END RSA " + "PRIVATE KEY-----"
)

func TestRedactorFindsEachBuiltInKind(t *testing.T) {
	r, err := prebuilt.NewRedactor(prebuilt.RedactConfig{})
	require.NoError(t, err)
	for _, tc := range []struct{ in, want string }{
		{"key " + openaiKey + " here", "key [REDACTED:openai_key] here"},
		{"key=" + anthropicKey, "key=[REDACTED:anthropic_key]"},
		{"token " + githubToken, "token [REDACTED:github_token]"},
		{githubPAT, "[REDACTED:github_token]"},
		{"AWS " + awsKey + ".", "AWS [REDACTED:aws_key]."},
		{"aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws_secret_access_key = [REDACTED:aws_key]"},
		{slackToken, "[REDACTED:slack_token]"},
		{"g:" + googleKey, "g:[REDACTED:google_api_key]"},
		{stripeKey, "[REDACTED:stripe_key]"},
		{"Bearer " + jwt, "Bearer [REDACTED:jwt]"},
		{"Authorization: Bearer ya29.a0AfH6SMBx3-opaque_token~value", "Authorization: Bearer [REDACTED:bearer_token]"},
		{"the bearer of bad news", "the bearer of bad news"},
		{"a\n" + privateKey + "\nb", "a\n[REDACTED:private_key]\nb"},
		{"postgres://app:s3cr3t@db:5432/x", "postgres://app:[REDACTED:url_password]@db:5432/x"},
		{"mail ann.lee+x@example.co.uk now", "mail [REDACTED:email] now"},
		{"card 4111 1111 1111 1111 ok", "card [REDACTED:card_number] ok"},
		{"card 4111-1111-1111-1112 ok", "card 4111-1111-1111-1112 ok"}, // fails the Luhn check
		{"call +1 415 555 0132 or (415) 555-0199", "call [REDACTED:phone] or [REDACTED:phone]"},
		{"on 2024-01-15 at 10:30, 3 items", "on 2024-01-15 at 10:30, 3 items"},
		{"sk-short and a plain sentence", "sk-short and a plain sentence"},
	} {
		assert.Equal(t, tc.want, r.Redact(tc.in), "in: %q", tc.in)
	}
}

func TestRedactorUnterminatedPrivateKeyIsRedactedToTheEnd(t *testing.T) {
	r, err := prebuilt.NewRedactor(prebuilt.RedactConfig{})
	require.NoError(t, err)
	cut := privateKey[:40] // a key cut short, the rest in another chunk
	assert.Equal(t, "x [REDACTED:private_key]", r.Redact("x "+cut))
}

func TestRedactorHashIsStableAndKeyed(t *testing.T) {
	plain, err := prebuilt.NewRedactor(prebuilt.RedactConfig{Detect: []string{"email"}, Strategy: prebuilt.Hash})
	require.NoError(t, err)
	keyed, err := prebuilt.NewRedactor(prebuilt.RedactConfig{Detect: []string{"email"}, Strategy: prebuilt.Hash, HashKey: []byte("k")})
	require.NoError(t, err)
	a, b := plain.Redact("a@example.com"), plain.Redact("to a@example.com")
	assert.Regexp(t, `^\[REDACTED:email:[0-9a-f]{12}\]$`, a)
	assert.Equal(t, "to "+a, b, "one value, one hash")
	assert.NotEqual(t, plain.Redact("b@example.com"), a)
	assert.NotEqual(t, keyed.Redact("a@example.com"), a, "HashKey changes the hash")
}

func TestRedactorDetectStrategiesAndPatterns(t *testing.T) {
	r, err := prebuilt.NewRedactor(prebuilt.RedactConfig{
		Detect:     []string{"pii"},
		Patterns:   []prebuilt.Pattern{{Name: "ticket", Regexp: `TCK-\d{6}`}},
		Strategies: map[string]prebuilt.Strategy{"ticket": prebuilt.Hash, "email": prebuilt.Block},
	})
	require.NoError(t, err)
	assert.Equal(t, "key "+openaiKey, r.Redact("key "+openaiKey), "secrets are not in the pii group")
	assert.Regexp(t, `^see \[REDACTED:ticket:[0-9a-f]{12}\]$`, r.Redact("see TCK-123456"))
	assert.Equal(t, "[WITHHELD: contained an email]", r.Redact("write to a@example.com"))
}

func TestNewRedactorNamesWhatIsWrong(t *testing.T) {
	_, err := prebuilt.NewRedactor(prebuilt.RedactConfig{Detect: []string{"emails"}})
	assert.ErrorContains(t, err, `field Detect[0]: unknown detector "emails" (did you mean "email"?)`)
	_, err = prebuilt.NewRedactor(prebuilt.RedactConfig{Patterns: []prebuilt.Pattern{{Name: "x", Regexp: "("}}})
	assert.ErrorContains(t, err, `field Patterns[0] "x": error parsing regexp`)
	_, err = prebuilt.NewRedactor(prebuilt.RedactConfig{Patterns: []prebuilt.Pattern{{Name: "x", Regexp: "a*"}}})
	assert.EqualError(t, err, `field Patterns[0] "x": the regexp matches the empty string, so it would match everywhere`)
	_, err = prebuilt.NewRedactor(prebuilt.RedactConfig{Strategies: map[string]prebuilt.Strategy{"jwts": prebuilt.Block}})
	assert.ErrorContains(t, err, `field Strategies["jwts"]: unknown kind (did you mean "jwt"?)`)
}

func TestRedactRewritesToolResultTextAndValue(t *testing.T) {
	h := hooktest.New(t, prebuilt.Redact(prebuilt.RedactConfig{}))
	o := h.ToolCall(hooks.ToolCall{Name: "env"}, hooks.ToolResult{
		Text:  "OPENAI_API_KEY=" + openaiKey,
		Value: map[string]any{"env": []any{"TOKEN=" + githubToken, "HOME=/root"}, "n": 3.0},
	})
	require.NoError(t, o.Err)
	assert.Equal(t, "OPENAI_API_KEY=[REDACTED:openai_key]", o.Result.Text)
	assert.Equal(t, map[string]any{"env": []any{"TOKEN=[REDACTED:github_token]", "HOME=/root"}, "n": 3.0}, o.Result.Value)
}

func TestRedactBlockWithholdsTheWholeResult(t *testing.T) {
	h := hooktest.New(t, prebuilt.Redact(prebuilt.RedactConfig{Strategies: map[string]prebuilt.Strategy{"private_key": prebuilt.Block}}))
	o := h.ToolCall(hooks.ToolCall{Name: "cat"}, hooks.ToolResult{Text: "ok", Value: map[string]any{"file": privateKey}})
	require.NoError(t, o.Err)
	assert.Equal(t, hooks.ToolResult{Text: "Tool result withheld: it contained a private key.", IsError: true,
		Value: map[string]any{"[WITHHELD]": "[WITHHELD]"}}, o.Result, "keys are text too")
}

func TestRedactRewritesModelReplies(t *testing.T) {
	h := hooktest.New(t, prebuilt.Redact(prebuilt.RedactConfig{Strategies: map[string]prebuilt.Strategy{"jwt": prebuilt.Block}}))
	h.Model(hooks.ModelRequest{}, hooks.ModelResponse{Text: "your key is " + anthropicKey}).RequireText(t, "your key is [REDACTED:anthropic_key]")
	h.Model(hooks.ModelRequest{}, hooks.ModelResponse{Text: "token: " + jwt}).RequireText(t, "[reply withheld: it contained a jwt]")
	h.Model(hooks.ModelRequest{}, hooks.ModelResponse{Text: "nothing here"}).RequireText(t, "nothing here")
}

func TestRedactRequestsOnlyWhenAsked(t *testing.T) {
	req := hooks.ModelRequest{System: "admin is a@example.com", Messages: []hooks.Message{{Role: "user", Text: "hi"}, {Role: "user", Text: "key " + stripeKey}}}
	h := hooktest.New(t, prebuilt.Redact(prebuilt.RedactConfig{}))
	o := h.Model(req, hooks.ModelResponse{Text: "ok"})
	require.NotNil(t, o.Sent)
	assert.Equal(t, req.System, o.Sent.System, "requests are not redacted by default")

	h = hooktest.New(t, prebuilt.Redact(prebuilt.RedactConfig{Requests: true}))
	o = h.Model(req, hooks.ModelResponse{Text: "ok"})
	require.NotNil(t, o.Sent)
	assert.Equal(t, "admin is [REDACTED:email]", o.Sent.System)
	assert.Equal(t, "hi", o.Sent.Messages[0].Text)
	assert.Equal(t, "key [REDACTED:stripe_key]", o.Sent.Messages[1].Text)
	assert.Equal(t, "key "+stripeKey, req.Messages[1].Text, "the host's messages are not modified")

	h = hooktest.New(t, prebuilt.Redact(prebuilt.RedactConfig{Requests: true, Strategy: prebuilt.Block}))
	h.Model(req, hooks.ModelResponse{Text: "ok"}).RequireEnded(t, "Run ended: the model request contained an email, and was not sent.")
}

func TestRedactListedFirstRedactsAnAnswerAnotherHookGives(t *testing.T) {
	cache := hooks.Funcs{HookName: "cache", BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		return &hooks.ToolCallPatch{Result: &hooks.ToolResult{Text: "cached " + awsKey}}, nil
	}}
	h := hooktest.New(t, prebuilt.Redact(prebuilt.RedactConfig{}), cache)
	h.Tool("get", nil).RequireResult(t, "cached [REDACTED:aws_key]")
}
