package prebuilt_test

import (
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/hooktest"
	"github.com/rienda/hooks/prebuilt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

// settingsOf decodes settings as an agent file's YAML gives them.
func settingsOf(t *testing.T, src string) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, yaml.Unmarshal([]byte(src), &m))
	return m
}

func TestFromSpecBuildsEveryHookWithItsSettings(t *testing.T) {
	for name, src := range map[string]string{
		"toolCallLimit":  `{run: 20, perTool: {search: 5}, onLimit: end}`,
		"modelCallLimit": `{run: 10, message: "enough"}`,
		"toolRetry":      `{maxAttempts: 4, initialDelay: 100ms, maxDelay: 2s, multiplier: 1.5, jitter: 0.1, tools: [fetch]}`,
		"modelRetry":     `{maxAttempts: 2}`,
		"modelFallback":  `{models: [gpt-4o-mini, claude-haiku]}`,
		"toolErrors":     `{tools: [fetch], maxLen: 200}`,
		"redact":         `{detect: [secrets, email], strategy: hash, strategies: {private_key: block}, requests: true, patterns: [{name: ticket, regexp: 'TCK-\d+'}]}`,
		"approval":       `{require: [{tool: shell}], allow: [{tool: shell, args: {command: '^ls'}}], nonInteractive: deny}`,
		"loopGuard":      `{repeats: 4, onLoop: refuse}`,
		"budget":         `{maxTokens: 100000, maxCost: 2.5, warnAt: 0.9, prices: {gpt-4o: {input: 2.5, output: 10, cachedInput: 1.25}}}`,
		"audit":          `{name: audit-log}`,
		"sandbox":        `{roots: [/srv/work], denyCommands: ['\bshutdown\b'], allowHosts: [api.github.com, '*.example.com']}`,
	} {
		h, err := prebuilt.FromSpec(name, settingsOf(t, src))
		require.NoError(t, err, name)
		require.NotNil(t, h, name)
		_, err = hooks.NewChain([]hooks.Hook{h})
		assert.NoError(t, err, name)
	}
	assert.Len(t, prebuilt.Names(), 12)
}

func TestFromSpecSettingsTakeEffect(t *testing.T) {
	limit, err := prebuilt.FromSpec("toolCallLimit", settingsOf(t, `{name: limits, perTool: {search: 1}}`))
	require.NoError(t, err)
	assert.Equal(t, "limits", limit.Name())
	h := hooktest.New(t, limit)
	h.Tool("search", nil).RequireAllowed(t)
	assert.False(t, h.Tool("search", nil).Ran)

	none, err := prebuilt.FromSpec("loopGuard", nil)
	require.NoError(t, err, "settings may be left out")
	assert.Equal(t, "loopGuard", none.Name())
}

func TestFromSpecIsStrict(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"toolCallLimt", `{}`, `prebuilt: unknown hook "toolCallLimt" (did you mean "toolCallLimit"?) (known: toolCallLimit, modelCallLimit, toolRetry, modelRetry, modelFallback, toolErrors, redact, approval, loopGuard, budget, audit, sandbox)`},
		{"toolCallLimit", `{runs: 3}`, `prebuilt toolCallLimit: unknown setting "runs" (did you mean "run"?) (settings: name, onLimit, perChild, perTool, run)`},
		{"toolCallLimit", `{Run: 3}`, `prebuilt toolCallLimit: unknown setting "Run" (did you mean "run"?) (settings: name, onLimit, perChild, perTool, run)`},
		{"toolCallLimit", `{run: "ten"}`, `prebuilt toolCallLimit: setting "run": want a number, got the string "ten"`},
		{"toolCallLimit", `{run: 2.5}`, `prebuilt toolCallLimit: setting "run": want a whole number, got 2.5`},
		{"toolCallLimit", `{run: -1}`, `prebuilt toolCallLimit: field Run is -1: a limit cannot be negative (0 means none)`},
		{"toolCallLimit", `{onLimit: stop}`, `prebuilt toolCallLimit: setting "onLimit": unknown value "stop" (want one of: refuse, end, error)`},
		{"toolCallLimit", `{perTool: {search: x}}`, `prebuilt toolCallLimit: in "perTool": setting "search": want a number, got the string "x"`},
		{"toolRetry", `{initialDelay: 100}`, `prebuilt toolRetry: setting "initialDelay": want a string, got 100 (int)`},
		{"toolRetry", `{initialDelay: soon}`, `prebuilt toolRetry: setting "initialDelay": want a duration such as "500ms" or "2s", got "soon"`},
		{"modelFallback", `{}`, `prebuilt modelFallback: field Models is empty: name at least one model to fall back to`},
		{"redact", `{detect: [emails]}`, `prebuilt redact: field Detect[0]: unknown detector "emails" (did you mean "email"?) (known: secrets, pii, private_key, anthropic_key, openai_key, github_token, aws_key, slack_token, google_api_key, stripe_key, jwt, bearer_token, url_password, credential, email, url, ip, mac_address, iban, card_number, us_ssn, phone)`},
		{"redact", `{patterns: [{name: x, regex: y}]}`, `prebuilt redact: in "patterns[0]": unknown setting "regex" (did you mean "regexp"?) (settings: name, regexp)`},
		{"redact", `{strategy: mask2}`, `prebuilt redact: setting "strategy": unknown value "mask2" (did you mean "mask"?) (want one of: mask, hash, block, partial)`},
		{"approval", `{require: [{tool: shell, args: {command: '('}}]}`, "prebuilt approval: field require[0].Args[\"command\"]: error parsing regexp: missing closing ): `(`"},
		{"budget", `{prices: {a: {input: 1, ouput: 2}}, maxCost: 1}`, `prebuilt budget: in "prices": in "a": unknown setting "ouput" (did you mean "output"?) (settings: cachedInput, input, output)`},
		{"sandbox", `{roots: /srv}`, `prebuilt sandbox: setting "roots": want a list of strings, got the string "/srv"`},
		{"sandbox", `{denyCommands: ['(']}`, "prebuilt sandbox: field DenyCommands[0]: error parsing regexp: missing closing ): `(`"},
	} {
		_, err := prebuilt.FromSpec(tc.name, settingsOf(t, tc.src))
		assert.EqualError(t, err, tc.want, "%s %s", tc.name, tc.src)
	}
}
