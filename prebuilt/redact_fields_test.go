package prebuilt_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/hooktest"
	"github.com/rienda/hooks/prebuilt"
)

// A fake AWS secret access key, in pieces so that no scanner takes it for one.
var awsSecret = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY"

// The output of aws sts get-session-token, as text and as a value.
const stsJSON = `{"Credentials": {"AccessKeyId": "ASIAIOSFODNN7EXAMPLE", "SecretAccessKey": "%s", "SessionToken": "FwoGZXIvYXdzEBYaDH%s", "Expiration": "2026-12-05T00:00:00Z"}}`

func sts() string {
	return strings.Replace(strings.Replace(stsJSON, "%s", awsSecret, 1), "%s", strings.Repeat("Qk9vT0", 8), 1)
}

func TestRedactFindsAWSSecretsUnderEveryFieldSpelling(t *testing.T) {
	r, err := prebuilt.NewRedactor(prebuilt.RedactConfig{})
	require.NoError(t, err)
	for _, text := range []string{
		`"SecretAccessKey": "` + awsSecret + `"`,
		`secret_access_key = ` + awsSecret,
		`AWS_SECRET_ACCESS_KEY=` + awsSecret,
		`export AWS_SECRET_ACCESS_KEY="` + awsSecret + `"`,
		`"aws-secret-access-key": "` + awsSecret + `"`,
		`aws.secretAccessKey: '` + awsSecret + `'`,
		`{\"SecretAccessKey\":\"` + awsSecret + `\"}`, // JSON inside a JSON string
		`SecretAccessKey:` + strings.Repeat(" ", 300) + awsSecret,
		`aws_secret_access_key => "` + awsSecret + `"`,
		`"SecretAccessKey": "` + awsSecret + `x"`, // 41 characters: all of them go
	} {
		out := r.Redact(text)
		assert.NotContains(t, out, "EXAMPLEKEY", text)
		assert.NotContains(t, out, "bPxRfiCY", text)
		assert.Contains(t, out, "[REDACTED:aws_key]", text)
	}
	out := r.Redact(sts())
	assert.NotContains(t, out, "EXAMPLEKEY")
	assert.NotContains(t, out, "Qk9vT0")
	assert.NotContains(t, out, "ASIAIOSFODNN7EXAMPLE")
	assert.Contains(t, out, `"Expiration": "2026-12-05T00:00:00Z"`, "what is no secret stays")
}

func TestRedactReachesKeysNumbersAndSecretFieldsOfAValue(t *testing.T) {
	var value any
	require.NoError(t, json.Unmarshal([]byte(sts()), &value))
	value.(map[string]any)["a@example.com"] = "owner"   // a secret as a map key
	value.(map[string]any)["card"] = 4111111111111111.0 // a card number as a JSON number
	value.(map[string]any)["db"] = map[string]any{"password": "hunter2!", "port": 5432.0, "user": "app", "secret_key": "abc123xyz", "max_tokens": "4096"}
	h := hooktest.New(t, prebuilt.Redact(prebuilt.RedactConfig{}))
	o := h.ToolCall(hooks.ToolCall{Name: "aws"}, hooks.ToolResult{Value: value})
	require.NoError(t, o.Err)
	data, err := json.Marshal(o.Result.Value)
	require.NoError(t, err)
	got := string(data)
	for _, secret := range []string{"EXAMPLEKEY", "Qk9vT0", "a@example.com", "4111111111111111", "hunter2"} {
		assert.NotContains(t, got, secret)
	}
	m := o.Result.Value.(map[string]any)
	assert.Equal(t, "[REDACTED:aws_key]", m["Credentials"].(map[string]any)["SecretAccessKey"])
	assert.Equal(t, "owner", m["[REDACTED:email]"], "the key is redacted, its value kept")
	assert.Equal(t, "[REDACTED:card_number]", m["card"])
	assert.Equal(t, map[string]any{"password": "[REDACTED:credential]", "port": 5432.0, "user": "app", "secret_key": "[REDACTED:credential]",
		"max_tokens": "4096"}, m["db"])
}

func TestAuditRedactsArgumentsBeforeEncodingThem(t *testing.T) {
	var buf bytes.Buffer
	audit := prebuilt.Audit(prebuilt.AuditConfig{Writer: &buf})
	chain, err := hooks.NewChain([]hooks.Hook{audit})
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{RunID: "r"})
	require.NoError(t, err)
	args := map[string]any{
		"command": `export AWS_SECRET_ACCESS_KEY="` + awsSecret + `" && aws s3 ls`,
		"env":     map[string]any{"SecretAccessKey": awsSecret, "a@example.com": 1.0},
		"card":    4111111111111111.0,
	}
	_, err = run.CallTool(context.Background(), hooks.ToolCall{ID: "c", Name: "shell", Arguments: args}, ok)
	require.NoError(t, err)
	out := buf.String()
	for _, secret := range []string{"EXAMPLEKEY", "a@example.com", "4111111111111111"} {
		assert.NotContains(t, out, secret)
	}
	assert.Contains(t, out, `aws s3 ls`)
}

func TestRedactDetectEmptyIsAnErrorAndNoneAsksForPatternsOnly(t *testing.T) {
	_, err := prebuilt.NewRedactor(prebuilt.RedactConfig{Detect: []string{}})
	assert.ErrorContains(t, err, `field Detect: an empty list turns every built-in detector off`)
	assert.PanicsWithValue(t, `prebuilt.Redact: field Detect: an empty list turns every built-in detector off, so nothing would be found; leave it nil for all of them, or say "none" to run only Patterns`,
		func() { prebuilt.Redact(prebuilt.RedactConfig{Detect: []string{}}) })
	_, err = prebuilt.NewRedactor(prebuilt.RedactConfig{Detect: []string{"none"}})
	assert.EqualError(t, err, `field Detect: "none" with no Patterns would find nothing`)
	_, err = prebuilt.NewRedactor(prebuilt.RedactConfig{Detect: []string{"none", "email"}})
	assert.ErrorContains(t, err, `field Detect[0]: "none" turns the built-in detectors off, so it comes alone`)
	_, err = prebuilt.NewRedactor(prebuilt.RedactConfig{Detect: []string{"ipv4"}})
	assert.ErrorContains(t, err, `unknown detector "ipv4" (did you mean "ip"?)`)
	_, err = prebuilt.NewRedactor(prebuilt.RedactConfig{Detect: []string{"mac_adress"}})
	assert.ErrorContains(t, err, `unknown detector "mac_adress" (did you mean "mac_address"?)`)
	lc, err := prebuilt.NewRedactor(prebuilt.RedactConfig{Detect: []string{"credit_card", "ssn"}, // LangChain's names
		Strategies: map[string]prebuilt.Strategy{"credit_card": prebuilt.Partial}})
	require.NoError(t, err)
	assert.Equal(t, "************1111 [REDACTED:us_ssn] a@example.com", lc.Redact("4111111111111111 123-45-6789 a@example.com"))
	r, err := prebuilt.NewRedactor(prebuilt.RedactConfig{Detect: []string{"none"}, Patterns: []prebuilt.Pattern{{Name: "ticket", Regexp: `TCK-\d+`}}})
	require.NoError(t, err)
	assert.Equal(t, "[REDACTED:ticket] a@example.com", r.Redact("TCK-12 a@example.com"))
	assert.Panics(t, func() {
		prebuilt.Redact(prebuilt.RedactConfig{ApplyToOutput: prebuilt.Bool(false), ApplyToToolResults: prebuilt.Bool(false)})
	}, "a redaction that applies nowhere")
}

func TestRedactLangChainDetectorsAndPartialStrategy(t *testing.T) {
	r, err := prebuilt.NewRedactor(prebuilt.RedactConfig{Strategy: prebuilt.Partial})
	require.NoError(t, err)
	for _, tc := range []struct{ in, want string }{
		{"card 4111-1111-1111-1111 ok", "card ****-****-****-1111 ok"},
		{"card 4111111111111111", "card ************1111"},
		{"mail ann@example.com", "mail ann@****.com"},
		{"from 192.168.10.7 now", "from *.*.*.7 now"},
		{"host 2001:db8::8a2e:370:7334 up", "host **** up"},
		{"nic 00:1a:2b:3c:4d:5e", "nic **:**:**:**:**:5e"},
		{"see https://example.com/a?b=1.", "see [MASKED_URL]."},
		{"ssn 123-45-6789", "ssn ****6789"},
	} {
		assert.Equal(t, tc.want, r.Redact(tc.in), tc.in)
	}
	m, err := prebuilt.NewRedactor(prebuilt.RedactConfig{})
	require.NoError(t, err)
	for _, tc := range []struct{ in, want string }{
		{"ip 10.0.0.1 and ::1 and fe80::1ff:fe23:4567:890a", "ip [REDACTED:ip] and [REDACTED:ip] and [REDACTED:ip]"},
		{"::1", "[REDACTED:ip]"},
		{"mac 00:1a:2b:3c:4d:5e", "mac [REDACTED:mac_address]"},
		{"mac 00-1A-2B-3C-4D-5E or 001a.2b3c.4d5e", "mac [REDACTED:mac_address] or [REDACTED:mac_address]"},
		{"go to www.example.org or http://x.io/p (now)", "go to [REDACTED:url] or [REDACTED:url] (now)"},
		{"IBAN GB82 WEST 1234 5698 7654 32 and DE89370400440532013000", "IBAN [REDACTED:iban] and [REDACTED:iban]"},
		{"IBAN GB82 WEST 1234 5698 7654 33", "IBAN GB82 WEST 1234 5698 7654 33"}, // fails mod-97
		{"table 3.1.4.1, section 2.1.1.3, v1.2.3.4, version 4.2.0.1, at 10:30:15, 2024-01-15, $1,299.99", "table 3.1.4.1, section 2.1.1.3, v1.2.3.4, version 4.2.0.1, at 10:30:15, 2024-01-15, $1,299.99"},
		{"std::vector and a::b", "std::vector and a::b"},
		{"SSN 000-12-3456 or 666-12-3456", "SSN 000-12-3456 or 666-12-3456"},
		{"ssn: 123456789", "ssn: [REDACTED:us_ssn]"},
		{`{"ip": "\u0031\u0030.0.0.1", "mail": "ann\u0040example.com"}`, `{"ip": "[REDACTED:ip]", "mail": "[REDACTED:email]"}`},
	} {
		assert.Equal(t, tc.want, m.Redact(tc.in), tc.in)
	}
}

func TestRedactApplyToSettings(t *testing.T) {
	h := hooktest.New(t, prebuilt.Redact(prebuilt.RedactConfig{ApplyToInput: true, ApplyToOutput: prebuilt.Bool(false), ApplyToToolResults: prebuilt.Bool(false)}))
	o := h.Model(hooks.ModelRequest{Messages: []hooks.Message{{Role: "user", Text: "I am a@example.com"}}}, hooks.ModelResponse{Text: "hi b@example.com"})
	require.NotNil(t, o.Sent)
	assert.Equal(t, "I am [REDACTED:email]", o.Sent.Messages[0].Text)
	o.RequireText(t, "hi b@example.com")
	h.ToolCall(hooks.ToolCall{Name: "x"}, hooks.ToolResult{Text: "c@example.com"}).RequireResult(t, "c@example.com")
}

// The model echoes what it read into a tool call: the call's arguments
// are redacted (the tool gets the redacted value), and under Block the
// reply is withheld and none of its calls runs.
func TestRedactReachesTheReplysToolCalls(t *testing.T) {
	h := hooktest.New(t, prebuilt.Redact(prebuilt.RedactConfig{}))
	resp := hooks.ModelResponse{Text: "sending", ToolCalls: []hooks.ToolCall{
		{ID: "c1", Name: "mail", Arguments: map[string]any{"to": "ann@example.com", "body": map[string]any{"card": 4111111111111111.0}}},
		{ID: "c2", Name: "ls", Arguments: map[string]any{"path": "/tmp"}},
	}}
	o := h.Model(hooks.ModelRequest{}, resp)
	require.NoError(t, o.Err)
	require.Len(t, o.Reply.Response.ToolCalls, 2)
	assert.Equal(t, map[string]any{"to": "[REDACTED:email]", "body": map[string]any{"card": "[REDACTED:card_number]"}}, o.Reply.Response.ToolCalls[0].Arguments)
	assert.Equal(t, map[string]any{"path": "/tmp"}, o.Reply.Response.ToolCalls[1].Arguments)
	assert.Equal(t, "ann@example.com", resp.ToolCalls[0].Arguments["to"], "the host's reply is not modified")

	h = hooktest.New(t, prebuilt.Redact(prebuilt.RedactConfig{Strategies: map[string]prebuilt.Strategy{"email": prebuilt.Block}}))
	o = h.Model(hooks.ModelRequest{}, resp)
	require.NoError(t, o.Err)
	assert.Empty(t, o.Reply.Response.ToolCalls, "no call of a withheld reply runs")
	assert.Equal(t, "[reply withheld: it contained an email]", o.Reply.Response.Text)

	h = hooktest.New(t, prebuilt.Redact(prebuilt.RedactConfig{Requests: true}))
	o = h.Model(hooks.ModelRequest{Messages: []hooks.Message{{Role: "assistant", ToolCalls: resp.ToolCalls}}}, hooks.ModelResponse{Text: "ok"})
	require.NotNil(t, o.Sent)
	assert.Equal(t, "[REDACTED:email]", o.Sent.Messages[0].ToolCalls[0].Arguments["to"], "calls sent back in a request too")
}
