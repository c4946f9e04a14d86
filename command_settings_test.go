package hooks_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// maxArguments mirrors the package's bound on a call's arguments (8 MiB of
// JSON), which the tests probe from both sides.
const maxArguments = 8 << 20

// guardScript writes a guard into a fresh folder: it saves its envelope to
// the returned file and blocks when the envelope matches pattern (grep).
// The argv runs it with /bin/sh, so the script itself is never executed
// while a test may still hold it open for writing.
func guardScript(t *testing.T, pattern string) (argv []string, saved string) {
	t.Helper()
	dir := t.TempDir()
	path, saved := filepath.Join(dir, "guard.sh"), filepath.Join(dir, "envelope.json")
	body := `cat >"$1"
if grep -q -e "$2" "$1"; then echo '{"decision":"block","reason":"matched"}'; else echo '{}'; fi
`
	require.NoError(t, os.WriteFile(path, []byte(body), 0o600))
	return []string{"/bin/sh", path, saved, pattern}, saved
}

// savedEnvelope reads the envelope a guardScript saved.
func savedEnvelope(t *testing.T, saved string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(saved)
	require.NoError(t, err, "the guard ran")
	var env map[string]any
	require.NoError(t, json.Unmarshal(data, &env))
	return env
}

// callArguments decodes the arguments text of an envelope.
func callArguments(t *testing.T, env map[string]any) map[string]any {
	t.Helper()
	text, ok := env["arguments"].(string)
	require.True(t, ok, "arguments is JSON text")
	var args map[string]any
	require.NoError(t, json.Unmarshal([]byte(text), &args), "the arguments are valid JSON")
	return args
}

// textMarshaler and jsonMarshaler write their bytes as they are, so a test
// can make them write bytes that are not UTF-8.
type (
	textMarshaler string
	jsonMarshaler string
)

func (m textMarshaler) MarshalText() ([]byte, error) { return []byte(m), nil }
func (m jsonMarshaler) MarshalJSON() ([]byte, error) { return []byte(`"` + m + `"`), nil }

func TestCommandArgumentsJSONCannotCarryRefuseTheCall(t *testing.T) {
	cycle := map[string]any{"command": "rm -rf /"}
	cycle["self"] = cycle
	for name, tc := range map[string]struct {
		value any
		want  string
	}{
		"NaN":              {math.NaN(), "unsupported value: NaN"},
		"+Inf":             {math.Inf(1), "unsupported value: +Inf"},
		"-Inf":             {math.Inf(-1), "unsupported value: -Inf"},
		"a channel":        {make(chan int), "unsupported type: chan int"},
		"a func":           {func() {}, "unsupported type: func()"},
		"a cycle":          {cycle, "encountered a cycle"},
		"bad UTF-8":        {"/etc/\xffpasswd", `arguments["x"] is not UTF-8`},
		"bad UTF-8 inside": {[]any{"ok", map[string]any{"p": "\xfe"}}, `arguments["x"][1]["p"] is not UTF-8`},
		"bad UTF-8 key":    {map[string]any{"\xff": 1}, `(the key) is not UTF-8`},
		"bad MarshalText":  {textMarshaler("\xff"), `arguments["x"] is not UTF-8`},
		"bad MarshalJSON":  {jsonMarshaler("\xff"), "text that is not UTF-8"},
		"over the bound":   {strings.Repeat("a", maxArguments), "more than the 8388608 (8 MiB)"},
	} {
		t.Run(name, func(t *testing.T) {
			call := hooks.ToolCall{Name: "shell", Arguments: map[string]any{"command": "rm -rf /", "text": "ran", "x": tc.value}}
			for _, failClosed := range []bool{false, true} {
				var rec recorder
				argv, saved := guardScript(t, "rm -rf")
				run := start(t, &rec, commandHooks(t, with(entry("pre_tool_call", argv...), "failClosed", failClosed))...)
				res, err := run.CallTool(context.Background(), call, echoTool(&rec))
				require.NoError(t, err)
				require.Len(t, rec.diagnostics(), 1, "the hook failed")
				assert.Equal(t, "pre_tool_call#0", rec.diagnostics()[0].Hook)
				assert.ErrorContains(t, rec.diagnostics()[0].Err, tc.want)
				assert.NoFileExists(t, saved, "the guard never saw a changed call")
				// The call is what the model chose: a call no guard can see
				// never runs, whatever the entry's policy.
				assert.True(t, res.IsError, "failClosed %v", failClosed)
				assert.True(t, strings.HasPrefix(res.Text, "Tool call blocked: hook pre_tool_call#0 failed: "), res.Text)
				assert.Contains(t, res.Text, tc.want)
				assert.Empty(t, rec.got(), "refused: the tool did not run")
			}
		})
	}
}

func TestCommandLargeArgumentsReachTheGuardWhole(t *testing.T) {
	for name, size := range map[string]int{
		"past the old 64 KiB cut": 1 << 20,
		"just under the bound":    maxArguments - 100,
	} {
		t.Run(name, func(t *testing.T) {
			var rec recorder
			argv, saved := guardScript(t, "rm -rf")
			// The largest timeout: 8 MiB through sh and grep under -race on a
			// busy 2-core machine takes seconds, and this test is about what the
			// guard sees, not how fast.
			run := start(t, &rec, commandHooks(t, with(entry("pre_tool_call", argv...), "timeoutMs", 60000))...)
			// "blob" sorts first: the command comes after it in the JSON text.
			args := map[string]any{"blob": strings.Repeat("x", size), "command": "rm -rf /", "text": "ran"}
			res, err := run.CallTool(context.Background(), hooks.ToolCall{Name: "shell", Arguments: args}, echoTool(&rec))
			require.NoError(t, err)
			assert.Equal(t, hooks.ToolResult{Text: "matched", IsError: true}, res, "the guard saw the end of the call")
			assert.Empty(t, rec.got())
			assert.Empty(t, rec.diagnostics())
			env := savedEnvelope(t, saved)
			assert.NotContains(t, env, "truncated")
			assert.Equal(t, args, callArguments(t, env), "the exact call")
		})
	}
}

func TestPostToolCallSendsArgumentsWholeAndCutsOnlyTheResult(t *testing.T) {
	var rec recorder
	argv, saved := guardScript(t, "never matches")
	quiet := hooks.Host{Log: func(hook, line string) {}} // the guard's {} is advice to log
	run := startWith(t, &rec, quiet, commandHooks(t, entry("post_tool_call", argv...))...)
	args := map[string]any{"blob": strings.Repeat("y", 100<<10), "command": "cat big"}
	result := strings.Repeat("€", 30_000) // 3 bytes each: 64 KiB falls inside one
	res, err := run.CallTool(context.Background(), hooks.ToolCall{Name: "shell", Arguments: args},
		func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
			return hooks.ToolResult{Text: result}, nil
		})
	require.NoError(t, err)
	assert.Equal(t, result, res.Text, "advisory: the result is unchanged")
	assert.Empty(t, rec.diagnostics())

	env := savedEnvelope(t, saved)
	assert.Equal(t, args, callArguments(t, env), "arguments whole, valid JSON")
	assert.Equal(t, true, env["truncated"])
	text := env["result"].(map[string]any)["text"].(string)
	assert.True(t, strings.HasPrefix(result, text), "a prefix of the result")
	assert.True(t, utf8.ValidString(text))
	assert.NotContains(t, text, "\uFFFD", "cut at a character boundary")
	assert.Equal(t, 64<<10-1, len(text))
}

func TestPostToolCallWithArgumentsJSONCannotCarryDoesNotRun(t *testing.T) {
	var rec recorder
	argv, saved := guardScript(t, "rm -rf")
	run := start(t, &rec, commandHooks(t, entry("post_tool_call", argv...))...)
	call := hooks.ToolCall{Name: "shell", Arguments: map[string]any{"command": "rm -rf /", "text": "ran", "n": math.NaN()}}
	res, err := run.CallTool(context.Background(), call, echoTool(&rec))
	require.NoError(t, err)
	assert.Equal(t, "ran", res.Text, "advisory")
	require.Len(t, rec.diagnostics(), 1)
	assert.Equal(t, "post_tool_call#0", rec.diagnostics()[0].Hook)
	assert.ErrorContains(t, rec.diagnostics()[0].Err, "NaN")
	assert.NoFileExists(t, saved, `the command never read "{}" for the call`)
}

func TestCommandEnvelopeKeepsShellOperatorsAsWritten(t *testing.T) {
	var rec recorder
	argv, saved := guardScript(t, "&& rm -rf")
	run := start(t, &rec, commandHooks(t, entry("pre_tool_call", argv...))...)
	res, err := run.CallTool(context.Background(), shellCall("make <in >out && rm -rf /"), echoTool(&rec))
	require.NoError(t, err)
	assert.Equal(t, "matched", res.Text, `a guard reading the text finds "&&", not \u0026\u0026`)
	data, err := os.ReadFile(saved)
	require.NoError(t, err)
	assert.Contains(t, string(data), "make <in >out && rm -rf /")
}

func TestCommandNamesThatAreNotUTF8FailTheHook(t *testing.T) {
	allowAll := func(t *testing.T, event string) []hooks.Hook {
		argv, _ := guardScript(t, "never matches")
		return commandHooks(t, with(entry(event, argv...), "failClosed", true))
	}
	t.Run("tool name", func(t *testing.T) {
		var rec recorder
		run := start(t, &rec, allowAll(t, "pre_tool_call")...)
		res, err := run.CallTool(context.Background(), hooks.ToolCall{Name: "sh\xffell", Arguments: map[string]any{"text": "ran"}}, echoTool(&rec))
		require.NoError(t, err)
		assert.True(t, res.IsError)
		assert.Contains(t, res.Text, "is not UTF-8")
		assert.Empty(t, rec.got())
	})
	t.Run("trust path", func(t *testing.T) {
		chain, err := hooks.NewChain(allowAll(t, "pre_trust_decision"), hooks.WithDiagnostics(func(hooks.Diagnostic) {}))
		require.NoError(t, err)
		got, err := chain.DecideTrust(context.Background(), hooks.Host{},
			hooks.TrustRequest{Path: filepath.Join(t.TempDir(), "pro\xffject"), Decision: hooks.Ask, IsNew: true})
		require.NoError(t, err)
		assert.Equal(t, hooks.Untrusted, got, "failClosed: the guard could not see the path, so trust is denied")
	})
}

func TestCommandTimeoutOutOfRangeIsADecodingError(t *testing.T) {
	for _, tc := range []struct{ value, want string }{
		{"9223372036854775807", "9223372036854775807 is out of range: the largest timeoutMs is 9223372036854"},
		{"10000000000000", "10000000000000 is out of range"},
		{"9223372036855", "9223372036855 is out of range"}, // the first value whose conversion overflows
		{"18446744073709551616", "is out of range"},        // past int64
		{"-9223372036854775809", "negative (-9223372036854775809)"},
		{"1.5", "must be a whole number of milliseconds (no fraction or exponent), not 1.5"},
		{"1e3", "not 1e3"},
		{"1e400", "not 1e400"},
		{`"5000"`, `must be a whole number of milliseconds, not "5000"`},
		{"true", "not true"},
	} {
		settings := fmt.Sprintf("{\"hooks\": [\n {\"event\": \"turn_end\", \"command\": [\"x\"]},\n {\"event\": \"turn_end\", \"command\": [\"x\"]},\n"+
			" {\"event\": \"pre_tool_call\", \"command\": [\"x\"],\n  \"timeoutMs\": %s}]}", tc.value)
		_, err := hooks.CommandHooks([]byte(settings))
		require.Error(t, err, tc.value)
		assert.True(t, strings.HasPrefix(err.Error(), "hooks: settings: hooks[2].timeoutMs: "), err.Error())
		assert.Contains(t, err.Error(), tc.want)
		assert.True(t, strings.HasSuffix(err.Error(), "(line 5)"), err.Error())
	}
}

func TestCommandLargestTimeoutStillGuards(t *testing.T) {
	for _, ms := range []int64{60_001, 9_223_372_036, 9_223_372_036_854} {
		var rec recorder
		argv, _ := guardScript(t, "rm -rf")
		run := start(t, &rec, commandHooks(t, with(with(entry("pre_tool_call", argv...), "timeoutMs", ms), "failClosed", true))...)
		res, err := run.CallTool(context.Background(), shellCall("rm -rf /"), echoTool(&rec))
		require.NoError(t, err)
		assert.Equal(t, hooks.ToolResult{Text: "matched", IsError: true}, res, "timeoutMs %d: capped, not wrapped negative", ms)
		assert.Empty(t, rec.diagnostics())
	}
}

func TestCommandSettingsRejectWhatDecodingWouldChangeSilently(t *testing.T) {
	guard := `{"event": "pre_tool_call", "command": ["/opt/guard"], "failClosed": true}`
	for name, tc := range map[string]struct{ settings, want string }{
		"second hooks drops the guard": {"{\n \"hooks\": [" + guard + "],\n \"hooks\": []\n}",
			`hooks: settings: hooks: duplicate key "hooks" on line 3 (the first is on line 2)`},
		"second failClosed": {"{\"hooks\": [\n {\"event\": \"pre_tool_call\", \"command\": [\"/opt/guard\"],\n  \"failClosed\": true,\n  \"failClosed\": false}]}",
			`hooks: settings: hooks[0].failClosed: duplicate key "failClosed" on line 4 (the first is on line 3)`},
		"duplicate deeper": {`{"hooks": [{"event": "turn_end", "command": ["x"], "x": {"a": 1, "a": 2}}]}`,
			`hooks[0].x.a: duplicate key "a" on line 1`},
		"unknown top-level key": {`{"hook": [` + guard + `]}`,
			`hooks: settings: hook: unknown key "hook" at the top level; the known keys are: hooks (line 1)`},
		"top-level key case":  {`{"Hooks": []}`, `Hooks: unknown key "Hooks"`},
		"other settings":      {`{"theme": "dark", "hooks": []}`, `theme: unknown key "theme"`},
		"odd key named":       {`{"a b": 1}`, `hooks: settings: ["a b"]: unknown key "a b"`},
		"bad UTF-8 in a path": {"{\"hooks\": [\n {\"event\": \"pre_tool_call\",\n  \"command\": [\"/opt/gu\xffard\"]}]}", "hooks: settings: invalid UTF-8 (byte 0xff at offset 62) (line 3)"},
		"bad UTF-8 outside":   {"{\n\xc0}", "invalid UTF-8 (byte 0xc0 at offset 2) (line 2)"},
		"lone high surrogate": {"{\"hooks\": [\n {\"event\": \"turn_end\", \"command\": [\"/opt/guard\\ud800\"]}]}", `\ud800 is half a UTF-16 surrogate pair, not a character (line 2)`},
		"lone low surrogate":  {`{"hooks": [{"event": "turn_end", "command": ["\udc00"]}]}`, `\udc00 is half a UTF-16 surrogate pair`},
		"high then no low":    {`{"hooks": [{"event": "turn_end", "command": ["\uD83D\u0041"]}]}`, `\uD83D is half a UTF-16 surrogate pair`},
		"top level array":     {`[` + guard + `]`, `hooks: settings: the settings must be a JSON object, {"hooks": [...]}, not an array (line 1)`},
		"top level string":    {`"hooks"`, "not a string"},
		"top level number":    {`1`, "not a number"},
		"top level null":      {`null`, "not null"},
		"top level boolean":   {`true`, "not a boolean"},
		"empty file":          {"", "hooks: settings: unexpected end of JSON input"},
		"hooks an object":     {"{\n\"hooks\": {}}", "hooks: settings: hooks: must be a list (a JSON array) of entries, not an object; [] configures none (line 2)"},
		"hooks null":          {`{"hooks": null}`, "hooks: must be a list (a JSON array) of entries, not null"},
		"hooks a string":      {`{"hooks": "guard"}`, "not a string"},
		"null entry":          {`{"hooks": [null]}`, "hooks: settings: hooks[0]: null is not allowed in a list (line 1)"},
		"null field":          {"{\"hooks\": [\n{\"event\": \"pre_tool_call\", \"command\": [\"x\"], \"failClosed\": null}]}", "hooks: settings: hooks[0].failClosed: null is not allowed: leave the key out to get its default (line 2)"},
		"null in command":     {`{"hooks": [{"event": "turn_end", "command": ["x", null]}]}`, "hooks[0].command[1]: null is not allowed in a list"},
		"trailing data":       {"{\"hooks\": []}\n{\"hooks\": [" + guard + "]}", "hooks: settings: data after the end of the settings object (line 2)"},
		"syntax error":        {"{\"hooks\": [\n{\"event\": \"turn_end\",\n \"command\" [\"x\"]}]}", "hooks: settings: invalid character '[' after object key (line 3)"},
		"cut file":            {"{\"hooks\": [\n{\"event\":", "hooks: settings: unexpected end of JSON input (line 2)"},
		"deep nesting":        {`{"hooks": [{"x": ` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}]}`, "nested more than 32 levels deep"},
		"unknown field line":  {"{\"hooks\": [\n{\"event\": \"turn_end\", \"command\": [\"x\"],\n \"Command\": [\"y\"]}]}", "hooks: settings: hooks[0].Command: unknown field \"Command\"; the fields are event, matcher, command, timeoutMs, enabled, failClosed, name (line 3)"},
		"missing field line":  {"{\"hooks\": [\n{\"event\": \"turn_end\", \"command\": [\"x\"]},\n{\"command\": [\"y\"]}]}", "hooks: settings: hooks[1].event: missing; the events are post_tool_call, pre_tool_call, pre_trust_decision, session_end, session_start, turn_end, turn_start (line 3)"},
		"odd field named":     {`{"hooks": [{"event": "turn_end", "command": ["x"], "time out": 1}]}`, `hooks[0]["time out"]: unknown field`},
		"empty field named":   {`{"hooks": [{"event": "turn_end", "command": ["x"], "": 1}]}`, `hooks[0][""]: unknown field ""`},
	} {
		t.Run(name, func(t *testing.T) {
			cfgs, err := hooks.ParseCommandSettings([]byte(tc.settings))
			assert.Nil(t, cfgs)
			assert.ErrorContains(t, err, tc.want)
			_, err = hooks.CommandHooks([]byte(tc.settings))
			assert.ErrorContains(t, err, tc.want, "CommandHooks decodes the same way")
		})
	}
}

func TestCommandSettingsAccepted(t *testing.T) {
	seed := `{
  "hooks": [
    { "event": "pre_tool_call", "matcher": "read", "command": ["/opt/hooks/guard", "--strict"], "timeoutMs": 1200, "failClosed": true },
    { "event": "session_end", "command": ["/opt/hooks/bye"] }
  ]
}`
	for name, tc := range map[string]struct {
		settings string
		want     []hooks.CommandHookConfig
	}{
		"no hooks key":   {`{}`, []hooks.CommandHookConfig{}},
		"an empty list":  {` {"hooks": []} `, []hooks.CommandHookConfig{}},
		"seed 004":       {seed, []hooks.CommandHookConfig{{Event: "pre_tool_call", Matcher: "read", Command: []string{"/opt/hooks/guard", "--strict"}, TimeoutMs: 1200, FailClosed: true}, {Event: "session_end", Command: []string{"/opt/hooks/bye"}}}},
		"a whole pair":   {`{"hooks": [{"event": "turn_end", "command": ["\ud83d\ude00"]}]}`, []hooks.CommandHookConfig{{Event: "turn_end", Command: []string{"😀"}}}},
		"an escaped \\":  {`{"hooks": [{"event": "turn_end", "command": ["C:\\ud800"]}]}`, []hooks.CommandHookConfig{{Event: "turn_end", Command: []string{`C:\ud800`}}}},
		"largest ms":     {`{"hooks": [{"event": "turn_end", "command": ["x"], "timeoutMs": 9223372036854}]}`, []hooks.CommandHookConfig{{Event: "turn_end", Command: []string{"x"}, TimeoutMs: 9223372036854}}},
		"zero ms":        {`{"hooks": [{"event": "turn_end", "command": ["x"], "timeoutMs": 0}]}`, []hooks.CommandHookConfig{{Event: "turn_end", Command: []string{"x"}}}},
		"enabled false":  {`{"hooks": [{"event": "turn_end", "command": ["x"], "enabled": false}]}`, []hooks.CommandHookConfig{{Event: "turn_end", Command: []string{"x"}, Enabled: ptr(false)}}},
		"U+FFFD written": {`{"hooks": [{"event": "turn_end", "command": ["\ufffd", "�"]}]}`, []hooks.CommandHookConfig{{Event: "turn_end", Command: []string{"\uFFFD", "\uFFFD"}}}},
	} {
		t.Run(name, func(t *testing.T) {
			cfgs, err := hooks.ParseCommandSettings([]byte(tc.settings))
			require.NoError(t, err)
			assert.Equal(t, tc.want, cfgs)
		})
	}
}
