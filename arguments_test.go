package hooks_test

import (
	"encoding/json"
	"maps"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseArguments(t *testing.T) {
	for name, tc := range map[string]struct {
		raw     string
		want    map[string]any
		invalid bool // an error, and the text under InvalidArgumentsKey
	}{
		"object":         {raw: `{"path":"a.txt","n":2,"opts":{"deep":[1,"x",null,true]}}`, want: map[string]any{"path": "a.txt", "n": 2.0, "opts": map[string]any{"deep": []any{1.0, "x", nil, true}}}},
		"blanks around":  {raw: " \n\t{\"a\":1}\r\n ", want: map[string]any{"a": 1.0}},
		"empty object":   {raw: `{}`, want: map[string]any{}},
		"no text":        {raw: ``, want: map[string]any{}},
		"blanks":         {raw: " \n\t ", want: map[string]any{}},
		"null":           {raw: `null`, want: map[string]any{}},
		"null in blanks": {raw: " null\n", want: map[string]any{}},
		"broken":         {raw: `{"path": "/etc/pa`, invalid: true},
		"trailing text":  {raw: `{"path":"a"} and more`, invalid: true},
		"two objects":    {raw: `{"a":1}{"b":2}`, invalid: true},
		"array":          {raw: `["/etc/passwd"]`, invalid: true},
		"string":         {raw: `"/etc/passwd"`, invalid: true},
		"number":         {raw: `42`, invalid: true},
		"true":           {raw: `true`, invalid: true},
		"nul":            {raw: `nul`, invalid: true},
		"python dict":    {raw: `{'path': 'a'}`, invalid: true},
	} {
		t.Run(name, func(t *testing.T) {
			args, err := hooks.ParseArguments([]byte(tc.raw))
			if !tc.invalid {
				require.NoError(t, err)
				require.NotNil(t, args, "a map a hook may read and a host may marshal")
				assert.Equal(t, tc.want, args)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), "tool arguments are not a JSON object")
			assert.Equal(t, map[string]any{hooks.InvalidArgumentsKey: tc.raw}, args,
				"never empty on an error: the model's text, as it wrote it")
		})
	}
}

// Numbers decode as float64, as encoding/json does: integers past 2^53
// lose precision. A host that holds the raw JSON sends it to the tool
// unless a hook rewrote the arguments (see ToolStep.Rewritten).
func TestParseArgumentsNumbersAreFloat64(t *testing.T) {
	args, err := hooks.ParseArguments([]byte(`{"id":9007199254740993,"small":12,"neg":-0.5,"exp":1e300}`))
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"id": 9007199254740992.0, "small": 12.0, "neg": -0.5, "exp": 1e300}, args)
	n, ok := hooks.ToolCall{Arguments: args}.Number("small")
	assert.True(t, ok)
	assert.Equal(t, 12.0, n)

	args, err = hooks.ParseArguments([]byte(`{"huge":1e400}`))
	require.Error(t, err, "a number past float64 is not silently infinite")
	assert.Equal(t, `{"huge":1e400}`, args[hooks.InvalidArgumentsKey])
}

// The error says what is wrong: the number that does not fit a float64 in
// an object, or what the JSON is when it is not an object.
func TestParseArgumentsErrorSaysWhatIsWrong(t *testing.T) {
	_, err := hooks.ParseArguments([]byte(`{"huge":1e400}`))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "1e400", "the error names the number")
	_, err = hooks.ParseArguments([]byte(`[1]`))
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "not a JSON object: not a JSON object")
	assert.Contains(t, err.Error(), "array")
}

// pathGuard is a guard as users write it: it refuses a call whose path is
// missing, and one whose arguments were not JSON, quoting them.
var pathGuard = hooks.Funcs{HookName: "paths",
	BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		if text, bad := call.Arguments[hooks.InvalidArgumentsKey].(string); bad {
			return hooks.Refuse("arguments are not a JSON object: " + text), nil
		}
		path, ok := call.Arguments["path"].(string)
		switch {
		case !ok:
			return hooks.Refuse("read needs a path"), nil
		case strings.HasPrefix(path, "/etc"):
			return hooks.Refuse("not under /etc"), nil
		}
		return nil, nil
	}}

func TestAGuardRefusesArgumentsThatAreNotJSON(t *testing.T) {
	for raw, reason := range map[string]string{
		`{"path":"/etc/passwd"`:  `arguments are not a JSON object: {"path":"/etc/passwd"`,
		`["/etc/passwd"]`:        `arguments are not a JSON object: ["/etc/passwd"]`,
		`"/etc/passwd"`:          `arguments are not a JSON object: "/etc/passwd"`,
		``:                       "read needs a path",
		`null`:                   "read needs a path",
		`{"path":"/etc/passwd"}`: "not under /etc",
		`{"path":"notes.txt"}`:   "",
	} {
		t.Run(raw, func(t *testing.T) {
			var rec recorder
			run := start(t, &rec, pathGuard)
			args, _ := hooks.ParseArguments([]byte(raw)) // the hooks decide about an error
			res, err := run.CallTool(bg, hooks.ToolCall{ID: "c1", Name: "read", Arguments: args}, echoTool(&rec))
			require.NoError(t, err)
			if reason == "" {
				assert.False(t, res.IsError)
				assert.Equal(t, []string{"tool:read"}, rec.got())
				return
			}
			assert.Equal(t, hooks.ToolResult{Text: reason, IsError: true}, res)
			assert.Empty(t, rec.got(), "the tool never ran")
		})
	}
}

func TestACommandGuardSeesArgumentsThatAreNotJSON(t *testing.T) {
	saved := filepath.Join(t.TempDir(), "envelope.json")
	var rec recorder
	run := start(t, &rec, commandHooks(t, entry("pre_tool_call", script(t, "save.sh"), saved))...)
	args, err := hooks.ParseArguments([]byte(`{"command": "rm -rf /`))
	require.Error(t, err)
	_, err = run.CallTool(bg, hooks.ToolCall{ID: "c1", Name: "shell", Arguments: args}, echoTool(&rec))
	require.NoError(t, err)
	assert.Equal(t, map[string]any{hooks.InvalidArgumentsKey: `{"command": "rm -rf /`},
		callArguments(t, savedEnvelope(t, saved)), "the command reads the model's text")
}

// Keys that repeat, or that differ only in case, would smuggle a call past
// a guard: the guard reads the last "path" of the map, but a typed Go tool
// decoding the raw JSON the host passes on (the host re-encodes only when
// a hook rewrote the arguments) matches keys case-insensitively and reads
// another one, and a first-key-wins parser reads the first of exact
// duplicates. Such objects are invalid arguments, like broken JSON.
func TestParseArgumentsRefusesKeysATypedToolReadsDifferently(t *testing.T) {
	for _, raw := range []string{
		`{"path":"/tmp/safe","PATH":"/etc/passwd"}`,
		`{"path":"/etc/passwd","path":"/tmp/safe"}`,
		`{"path":"/tmp/safe","opts":{"mode":"r","Mode":"w"}}`,
	} {
		t.Run(raw, func(t *testing.T) {
			args, err := hooks.ParseArguments([]byte(raw))
			assert.Error(t, err, "keys a typed decoder may read differently from the guard")
			assert.Equal(t, raw, args[hooks.InvalidArgumentsKey])
		})
	}
	// Why: the guard reads the map, a typed tool the raw text.
	raw := []byte(`{"path":"/tmp/safe","PATH":"/etc/passwd"}`)
	var typed struct {
		Path string `json:"path"`
	}
	require.NoError(t, json.Unmarshal(raw, &typed))
	require.Equal(t, "/etc/passwd", typed.Path, "what a typed tool reads")
}

// rewriteSeen is what the hooks and the tool of a rewrite test saw.
type rewriteSeen struct {
	sandbox, later, after, tool bool   // c.Rewritten() in each
	original                    string // OriginalCall's path in the tool
}

// sandboxChain has a hook that moves absolute paths under /sandbox, a
// later before-hook, an after-hook, and records what each saw.
func sandboxChain(t *testing.T, seen *rewriteSeen) *hooks.Run {
	t.Helper()
	var rec recorder
	return start(t, &rec,
		hooks.Funcs{HookName: "sandbox",
			BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
				seen.sandbox = c.Rewritten()
				if path, _ := call.Arguments["path"].(string); strings.HasPrefix(path, "/") {
					return &hooks.ToolCallPatch{Arguments: map[string]any{"path": "/sandbox" + path, "id": call.Arguments["id"]}}, nil
				}
				if call.Name == "cached" {
					return &hooks.ToolCallPatch{Result: &hooks.ToolResult{Text: "from cache"}}, nil
				}
				if call.Arguments["id"] == float64(7) { // a hook that returns what it got
					return &hooks.ToolCallPatch{Arguments: maps.Clone(call.Arguments)}, nil
				}
				return nil, nil
			}},
		hooks.Funcs{HookName: "later",
			BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
				seen.later = c.Rewritten()
				return nil, nil
			},
			AfterToolExecute: func(c *hooks.Context, call hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
				seen.after = c.Rewritten()
				return nil, nil
			}})
}

func TestRewrittenTellsTheHostWhetherToReencodeArguments(t *testing.T) {
	for name, tc := range map[string]struct {
		raw, tool string // the model's JSON; what the tool gets
		rewritten bool
		want      rewriteSeen
	}{
		"kept": {raw: `{"path":"notes.txt","id":9007199254740993}`, tool: `{"path":"notes.txt","id":9007199254740993}`,
			want: rewriteSeen{original: "notes.txt"}},
		"rewritten to the same": {raw: `{"path":"notes.txt","id":7}`, tool: `{"path":"notes.txt","id":7}`,
			want: rewriteSeen{original: "notes.txt"}},
		"rewritten": {raw: `{"path":"/etc/passwd","id":7}`, tool: `{"id":7,"path":"/sandbox/etc/passwd"}`, rewritten: true,
			want: rewriteSeen{later: true, after: true, tool: true, original: "/etc/passwd"}},
	} {
		t.Run(name, func(t *testing.T) {
			var seen rewriteSeen
			run := sandboxChain(t, &seen)
			args, err := hooks.ParseArguments([]byte(tc.raw))
			require.NoError(t, err)
			step, err := run.BeforeToolExecute(bg, hooks.ToolCall{ID: "c1", Name: "read", Arguments: args})
			require.NoError(t, err)
			assert.Equal(t, tc.rewritten, step.Rewritten())
			input := []byte(tc.raw) // what an adapter holding the raw JSON sends
			if step.Rewritten() {
				input, err = json.Marshal(step.Call.Arguments)
				require.NoError(t, err)
			}
			assert.Equal(t, tc.tool, string(input), "the model's numbers reach the tool as written unless a hook rewrote them")

			_, err = run.CallTool(bg, hooks.ToolCall{ID: "c2", Name: "read", Arguments: args},
				func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
					seen.tool = c.Rewritten()
					orig, ok := c.OriginalCall()
					require.True(t, ok)
					seen.original, _ = orig.Arguments["path"].(string)
					return hooks.ToolResult{Text: "ok"}, nil
				})
			require.NoError(t, err)
			assert.Equal(t, tc.want, seen, "sandbox sees no rewrite: only a hook before it could have made one")
		})
	}
}

func TestRewrittenIsFalseForAnAnswerAndAZeroStep(t *testing.T) {
	var seen rewriteSeen
	run := sandboxChain(t, &seen)
	step, err := run.BeforeToolExecute(bg, hooks.ToolCall{ID: "c1", Name: "cached", Arguments: map[string]any{}})
	require.NoError(t, err)
	require.NotNil(t, step.Result)
	assert.False(t, step.Rewritten())

	var zero hooks.ToolStep
	assert.False(t, zero.Rewritten())
	_, err = run.AfterToolExecute(bg, hooks.ToolStep{Call: hooks.ToolCall{Name: "read"}}, hooks.ToolResult{Text: "x"})
	require.NoError(t, err)
	assert.False(t, seen.after)
}

// Colons and quotes inside strings are not members, and keys that differ
// only outside ASCII letters (or in a nested array's objects) are distinct.
func TestParseArgumentsCountsOnlyRealKeys(t *testing.T) {
	for _, raw := range []string{
		`{"a":"x:y\"z:\\","b":[{"c":1},{"c":2}],"é":1,"É:":2}`,
		`{"K":1,"k2":2}`,
		`{"a":{"b":{"c":[{"d":"::"}]}}}`,
	} {
		args, err := hooks.ParseArguments([]byte(raw))
		require.NoError(t, err, raw)
		assert.NotContains(t, args, hooks.InvalidArgumentsKey, raw)
	}
	for _, raw := range []string{
		`{"b":[{"c":1,"c":2}]}`,
		`{"é":1,"É":2}`,
		"{\"k\":1,\"\u212a\":2}", // the Kelvin sign
	} {
		_, err := hooks.ParseArguments([]byte(raw))
		assert.ErrorContains(t, err, "appears twice", raw)
	}
}

func BenchmarkParseArguments(b *testing.B) {
	raw := []byte(`{"path":"/workspace/notes.txt","limit":100,"options":{"encoding":"utf-8","follow":true}}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := hooks.ParseArguments(raw); err != nil {
			b.Fatal(err)
		}
	}
}

func TestEncodeArgumentsSaysTheCallExactlyOrNotAtAll(t *testing.T) {
	text, err := hooks.EncodeArguments(map[string]any{"command": "a && b <c>", "n": 1.5})
	require.NoError(t, err)
	assert.Equal(t, `{"command":"a && b <c>","n":1.5}`, text, "no HTML escapes: a guard finds what the tool reads")
	text, err = hooks.EncodeArguments(nil)
	require.NoError(t, err)
	assert.Equal(t, "{}", text)
	_, err = hooks.EncodeArguments(map[string]any{"path": "a\xffb"})
	require.Error(t, err, "JSON would send U+FFFD: the guard would judge another string")
	assert.Contains(t, err.Error(), `arguments["path"]`)
	_, err = hooks.EncodeArguments(map[string]any{"n": math.NaN()})
	assert.Error(t, err)
}

// A key in another case, or with dashes and underscores another way, is
// the argument a case-insensitive decoder fills: every variant is found.
func TestArgumentKeysFindsEveryVariant(t *testing.T) {
	args := map[string]any{"File_Path": 1, "file_path": 2, "filePath": 3, "FILE-PATH": 4, "path": 5, "ſcript": 6}
	assert.Equal(t, []string{"FILE-PATH", "File_Path", "filePath", "file_path"}, hooks.ArgumentKeys(args, "file_path"))
	assert.Equal(t, []string{"path"}, hooks.ArgumentKeys(args, "PATH"))
	assert.Equal(t, []string{"ſcript"}, hooks.ArgumentKeys(args, "script"), "the long s folds to s, as encoding/json folds it")
	assert.Empty(t, hooks.ArgumentKeys(args, "url"))
	assert.Equal(t, "command", hooks.ArgumentName("Command"))
	assert.Equal(t, "command", hooks.ArgumentName("command"))
}
